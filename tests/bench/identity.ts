import { summarise } from './stats.js';
import { startTestStack } from '../support/test-stack.js';

/**
 * Sign-in and token figures: the password hash at its configured cost, a whole sign-in over HTTP,
 * and what verifying an access token costs per request (signature alone, and with the session
 * check that makes revocation immediate).
 */
export async function identityFigures() {
  const testStack = await startTestStack('http://localhost:4280', { LOG_LEVEL: 'error' });
  try {
    Object.assign(process.env, testStack.settings);
    const { hashPassword, verifyPassword, ARGON2_OPTIONS } =
      await import('../../functions/src/identity/auth/passwords.js');
    const { verifyAccessToken, authenticate, addPrincipalGuard } =
      await import('../../functions/src/platform/principal.js');
    const { sessionGuard } =
      await import('../../functions/src/identity/sessions/sessions.service.js');

    const hashTimes: number[] = [];
    let hash = '';
    for (let run = 0; run < 10; run += 1) {
      const started = performance.now();
      hash = await hashPassword('Quartz-Lantern-Orbit-42');
      hashTimes.push(performance.now() - started);
    }
    const verifyTimes: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      const started = performance.now();
      await verifyPassword(hash, 'Quartz-Lantern-Orbit-42');
      verifyTimes.push(performance.now() - started);
    }

    const login = async () => {
      const started = performance.now();
      const response = await fetch(`${testStack.stack.authUrl}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@harborview.demo', password: 'Harborview!Demo2026' }),
      });
      const body = (await response.json()) as { accessToken?: string };
      if (response.status !== 200 || !body.accessToken)
        throw new Error(`login answered ${response.status}`);
      return { ms: performance.now() - started, token: body.accessToken };
    };
    await login();
    const sequential: number[] = [];
    let token = '';
    for (let run = 0; run < 30; run += 1) {
      const result = await login();
      sequential.push(result.ms);
      token = result.token;
    }
    const concurrent: number[] = [];
    const startedAll = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let run = 0; run < 5; run += 1) concurrent.push((await login()).ms);
      }),
    );
    const concurrentSeconds = (performance.now() - startedAll) / 1000;

    const perCall = async (runs: number, action: () => Promise<unknown>) => {
      for (let run = 0; run < 100; run += 1) await action();
      const started = performance.now();
      for (let run = 0; run < runs; run += 1) await action();
      return ((performance.now() - started) / runs) * 1000;
    };
    const signatureMicros = await perCall(5000, () => verifyAccessToken(token));
    addPrincipalGuard(sessionGuard);
    const withSessionMicros = await perCall(2000, () => authenticate(`Bearer ${token}`));

    return {
      argon2: {
        options: ARGON2_OPTIONS,
        hashMs: summarise(hashTimes),
        verifyMs: summarise(verifyTimes),
      },
      signIn: {
        sequentialMs: summarise(sequential),
        concurrent8Ms: summarise(concurrent),
        concurrentPerSecond: concurrent.length / concurrentSeconds,
      },
      tokenVerification: {
        signatureOnlyMicros: signatureMicros,
        withSessionCheckMicros: withSessionMicros,
      },
    };
  } finally {
    await testStack.stop();
  }
}
