import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';

export const FAKE_TENANT = 'test-tenant';
export const FAKE_CLIENT_ID = 'lotwise-test-client';
export const FAKE_CLIENT_SECRET = 'test-client-secret';

export interface FakeEntra {
  authorityHost: string;
  privateJwk: JWK;
  close(): Promise<void>;
}

export async function signIdToken(
  privateJwk: JWK,
  authorityHost: string,
  claims: Record<string, unknown>,
  options: { audience?: string; issuer?: string; expiresIn?: string } = {},
): Promise<string> {
  const key = await importJWK(privateJwk, 'RS256');
  return new SignJWT({ tid: FAKE_TENANT, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: privateJwk.kid ?? 'test-key' })
    .setIssuer(options.issuer ?? `${authorityHost}/${FAKE_TENANT}/v2.0`)
    .setAudience(options.audience ?? FAKE_CLIENT_ID)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '10m')
    .sign(key);
}

/**
 * A stand-in for Entra ID with its own key set: the discovery keys endpoint, and a token endpoint
 * that answers a code (the base64url JSON of the claims to sign) with an ID token.
 */
export async function startFakeEntra(): Promise<FakeEntra> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256' };
  let authorityHost = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === `/${FAKE_TENANT}/discovery/v2.0/keys`) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    if (request.method === 'POST' && url.pathname === `/${FAKE_TENANT}/oauth2/v2.0/token`) {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('client_secret') !== FAKE_CLIENT_SECRET || !form.get('code_verifier')) {
          response.writeHead(400, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: 'invalid_client' }));
          return;
        }
        const claims = JSON.parse(
          Buffer.from(form.get('code') ?? '', 'base64url').toString(),
        ) as Record<string, unknown>;
        void signIdToken(privateJwk, authorityHost, claims).then((idToken) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ id_token: idToken, token_type: 'Bearer' }));
        });
      });
      return;
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  authorityHost = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    authorityHost,
    privateJwk,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
