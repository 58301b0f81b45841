import { parseArgs } from 'node:util';
import { startCosmosEmulator } from './emulator.js';

/** Runs the Cosmos emulator as its own process: `--port 8081 --data .data/cosmos`. */
const { values } = parseArgs({
  options: { port: { type: 'string', default: '8081' }, data: { type: 'string' } },
});
if (!values.data) throw new Error('--data is required');

const emulator = await startCosmosEmulator({ port: Number(values.port), dataDir: values.data });
process.stdout.write(
  `${JSON.stringify({ level: 'info', message: 'cosmos emulator ready', url: emulator.url, restored: emulator.restored })}\n`,
);

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  void emulator.close().then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// Started by the dev tooling: when it goes, so does this.
process.on('disconnect', shutdown);
