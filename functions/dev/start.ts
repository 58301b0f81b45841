import { createRequire } from 'node:module';
import { join } from 'node:path';
import { consoleOutput } from './console-output.js';
import {
  azuritePorts,
  isLocalUrl,
  loadLocalSettings,
  localStripePort,
  platformSandboxPort,
  repoRoot,
} from './local-settings.js';
import { demoKey } from './platforms/store.js';
import { startProcess, waitForHttp, type ManagedProcess } from './processes.js';
import {
  DEMO_ACCOUNT_NAME,
  DEMO_PASSWORD,
  SECOND_ACCOUNT_NAME,
  demoUsers,
} from './seed/demo-credentials.js';
import { startStack, supervised, type RunningStack } from './stack.js';

/**
 * `npm start`: the whole product on this machine. Emulators for whatever the settings point at
 * locally, the dev host on 7071 (auth) and 7072 (domain), and the web app on 4280.
 */
const settings = loadLocalSettings();
const cosmosEndpoint = settings.COSMOS_ENDPOINT ?? 'http://localhost:8081';
const cosmosPort =
  settings.COSMOS_EMULATOR === 'true' && isLocalUrl(cosmosEndpoint)
    ? Number(new URL(cosmosEndpoint).port || 8081)
    : undefined;
const platformsPort = platformSandboxPort(settings);
const stripePort = localStripePort(settings);
const webOrigin = (settings.WEB_ORIGINS ?? 'http://localhost:4280').split(',')[0]?.trim() as string;

let stack: RunningStack | undefined;
let web: ManagedProcess | undefined;
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await web?.stop();
    await stack?.stop();
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  stack = await startStack({
    dataDir: join(repoRoot, '.data'),
    ports: {
      auth: Number(process.env.LOTWISE_AUTH_PORT ?? 7071),
      domain: Number(process.env.LOTWISE_DOMAIN_PORT ?? 7072),
      ...(cosmosPort === undefined ? {} : { cosmos: cosmosPort }),
      ...(azuritePorts(settings.AzureWebJobsStorage) === undefined
        ? {}
        : { azurite: azuritePorts(settings.AzureWebJobsStorage) }),
      ...(platformsPort === undefined ? {} : { platforms: platformsPort }),
      ...(stripePort === undefined ? {} : { stripe: stripePort }),
    },
    settings,
    output: consoleOutput,
  });

  const viteRequire = createRequire(join(repoRoot, 'web/package.json'));
  const vitePackage = viteRequire.resolve('vite/package.json');
  web = startProcess({
    name: 'web',
    ...supervised([
      process.execPath,
      join(vitePackage, '..', 'bin/vite.js'),
      '--port',
      new URL(webOrigin).port || '4280',
      '--strictPort',
    ]),
    cwd: join(repoRoot, 'web'),
    env: {
      ...process.env,
      VITE_AUTH_API_URL: stack.authUrl,
      VITE_DOMAIN_API_URL: stack.domainUrl,
    },
    output: consoleOutput,
  });
  await waitForHttp(webOrigin, web);
} catch (error) {
  process.stderr.write(
    `\nLotwise could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  await shutdown(1);
}

for (const child of [...Object.values(stack?.processes ?? {}), web]) {
  void child?.exited.then((code) => {
    if (stopping) return;
    process.stderr.write(`\n${child.name} stopped unexpectedly (exit ${code}); shutting down.\n`);
    void shutdown(1);
  });
}

const sandboxLine = stack?.platformsUrl
  ? `    Platform sandbox ${stack.platformsUrl}  (demo keys like ${demoKey('ProxyBid')})\n`
  : '';
const stripeLine = stack?.stripeUrl
  ? `    Local Stripe     ${stack.stripeUrl}  (test cards like 4242 4242 4242 4242; renew: POST /__stripe/subscriptions/{id}/renew)\n`
  : '';
process.stdout.write(`
  Lotwise is running.

    Web app          ${webOrigin}
    Auth service     ${stack?.authUrl}
    Domain service   ${stack?.domainUrl}
${sandboxLine}${stripeLine}    Data             ${join(repoRoot, '.data')}  (npm run reset wipes it)

  Demo tenant: ${DEMO_ACCOUNT_NAME} (password for every demo user: ${DEMO_PASSWORD})
${demoUsers.map((user) => `    ${user.role.padEnd(8)} ${user.email}`).join('\n')}
    The admin also belongs to ${SECOND_ACCOUNT_NAME}, so signing in as them asks which account.

  Press Ctrl+C to stop.
`);
