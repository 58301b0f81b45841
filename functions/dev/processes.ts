import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<number | null>;
  /** Resolves when the process prints a line matching the pattern. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export type OutputSink = (name: string, line: string, stream: 'stdout' | 'stderr') => void;

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  output: OutputSink;
}

/** Starts a child whose output is forwarded line by line, and which stops with its parent. */
export function startProcess(options: SpawnOptions): ManagedProcess {
  // The IPC channel closes when this process dies, however it dies; children watch it and exit.
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const watchers = new Set<(line: string) => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    const source = child[stream];
    if (!source) continue;
    createInterface({ input: source, crlfDelay: Infinity }).on('line', (line) => {
      options.output(options.name, line, stream);
      for (const watcher of watchers) watcher(line);
    });
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
  });
  const waitForLine = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        watchers.delete(watcher);
        reject(new Error(`${options.name} was not ready within ${timeoutMs} ms`));
      }, timeoutMs);
      const watcher = (line: string) => {
        if (!pattern.test(line)) return;
        clearTimeout(timer);
        watchers.delete(watcher);
        resolve();
      };
      watchers.add(watcher);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${options.name} exited before it was ready`));
      });
    });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const finished = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
    if (!finished) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  return { name: options.name, child, exited, waitForLine, stop };
}

/** Waits until something accepts TCP connections on the port, or the process dies. */
export async function waitForPort(
  port: number,
  process: ManagedProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead = false;
  void process.exited.then(() => {
    dead = true;
  });
  while (Date.now() < deadline) {
    if (dead) throw new Error(`${process.name} exited before it was ready`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: 'localhost' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`${process.name} did not open port ${port} within ${timeoutMs} ms`);
}

/** Waits until a URL answers (any status), or the process dies. */
export async function waitForHttp(
  url: string,
  process: ManagedProcess,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead = false;
  void process.exited.then(() => {
    dead = true;
  });
  while (Date.now() < deadline) {
    if (dead) throw new Error(`${process.name} exited before it was ready`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await sleep(200);
  }
  throw new Error(`${process.name} did not answer ${url} within ${timeoutMs} ms`);
}
