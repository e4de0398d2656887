/**
 * Runs the real `matchday` CLI as a child process with only the given configuration (the parent's
 * Matchday variables are dropped), and collects what it writes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '../../src/config.ts';

export const BIN = join(import.meta.dirname, '../../bin/matchday.mjs');

export interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string | null>;
  /** Waits until `test` holds on what was written so far; rejects if the process ends first or after `ms`. */
  waitFor(
    test: (out: { stdout: string; stderr: string }) => boolean,
    ms: number,
    what: string,
  ): Promise<void>;
  stop(): Promise<void>;
}

export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !(CONFIG_VARIABLES as string[]).includes(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/** `stdin`: 'ignore' gives the child /dev/null (a container without -i), 'pipe' a pipe. */
export function matchday(
  args: string[],
  env: Record<string, string>,
  stdin: 'ignore' | 'pipe' = 'ignore',
  bin = BIN,
): Running {
  const child = spawn(process.execPath, [bin, ...args], {
    env: cleanEnv(env),
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
    changed();
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
    changed();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('close', (code, signal) => {
      changed();
      resolve(code ?? signal);
    }),
  );
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor(test, ms, what) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (test({ stdout, stderr })) {
            done();
            resolve();
          } else if (ended || child.exitCode !== null) {
            done();
            reject(new Error(`matchday ended before ${what}:\n${stdout}\n${stderr.slice(-3000)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${what} within ${ms} ms:\n${stdout}\n${stderr.slice(-3000)}`));
        }, ms);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
