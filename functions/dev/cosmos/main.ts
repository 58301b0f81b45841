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

// TEMP-DBG
import { existsSync as dbgExists, writeFileSync as dbgWrite } from 'node:fs';
import { Session as DbgSession } from 'node:inspector/promises';
const dbgSession = dbgExists('/tmp/dbg/CPUPROF') ? new DbgSession() : undefined;
if (dbgSession) {
  dbgSession.connect();
  await dbgSession.post('Profiler.enable');
  await dbgSession.post('Profiler.start');
}
let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  void (async () => {
    if (dbgSession) {
      const { profile } = await dbgSession.post('Profiler.stop');
      dbgWrite(`/tmp/dbg/cosmos-${process.pid}.cpuprofile`, JSON.stringify(profile));
    }
    await emulator.close();
    process.exit(0);
  })();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// Started by the dev tooling: when it goes, so does this.
process.on('disconnect', shutdown);
