import type { OutputSink } from './processes.js';

const colours = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m', '\x1b[91m'];
const reset = '\x1b[0m';
const assigned = new Map<string, string>();

function colourFor(name: string): string {
  let colour = assigned.get(name);
  if (!colour) {
    colour = colours[assigned.size % colours.length] as string;
    assigned.set(name, colour);
  }
  return colour;
}

/** Readable form of a structured log line; other lines pass through. */
function humanise(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const { time: _time, level, message, ...rest } = JSON.parse(line) as Record<string, unknown>;
    const fields = Object.entries(rest)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    return `${String(level ?? 'info')
      .toUpperCase()
      .padEnd(5)} ${String(message ?? '')} ${fields}`.trimEnd();
  } catch {
    return line;
  }
}

/** Prefixes each child's lines with its name, as `npm start` shows them. */
export const consoleOutput: OutputSink = (name, line, stream) => {
  const tty = process.stdout.isTTY;
  const prefix = tty ? `${colourFor(name)}[${name}]${reset}` : `[${name}]`;
  (stream === 'stderr' ? process.stderr : process.stdout).write(`${prefix} ${humanise(line)}\n`);
};
