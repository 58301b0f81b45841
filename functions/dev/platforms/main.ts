import { parseArgs } from 'node:util';
import { platformUrls, startPlatformSandbox } from './server.js';

/** Runs the platform sandbox on its own: `tsx functions/dev/platforms/main.ts --port 7073`. */
const { values } = parseArgs({ options: { port: { type: 'string', default: '7073' } } });

const sandbox = await startPlatformSandbox({ port: Number(values.port) });
process.stdout.write(
  `${JSON.stringify({ level: 'info', message: 'platform sandbox ready', url: sandbox.url, platforms: platformUrls(sandbox.url) })}\n`,
);

const shutdown = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
