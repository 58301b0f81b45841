// Runs a command with each line of its output prefixed by a label, so processes run side by side
// stay readable in one log. Resolves with the exit code (1 for a signal).
import { spawn } from 'node:child_process';

export function runPrefixed(label, command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) out.write(`${label} ${line}\n`);
      });
      stream.on('end', () => {
        if (pending) out.write(`${label} ${pending}\n`);
      });
    }
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
