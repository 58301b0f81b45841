import { spawn } from 'node:child_process';

/**
 * Runs a command that cannot watch its parent itself (Azurite, Vite) and ends it when the
 * process that started this one goes away, however it went: `tsx supervised.ts <command> <args…>`.
 */
const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error('usage: supervised.ts <command> [args…]');

const child = spawn(command, args, { stdio: 'inherit' });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
};
child.on('exit', (code) => process.exit(code ?? 0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
