/**
 * A redis-server of the test's own, on a free loopback port, without persistence: stopping and
 * starting it again is a Redis restart that lost every key (the outage tests and the outage bench).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when a redis-server binary is installed. */
export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export class OwnRedis {
  #process: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    /** Where `stop({ keepData: true })` saves the data that the next start loads. */
    readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(dir = tmpdir()): Promise<OwnRedis> {
    const port = await freePort();
    const redis = new OwnRedis(port, dir);
    await redis.restart();
    return redis;
  }

  /** Starts the server (again, empty) and waits until it answers PING. */
  async restart(): Promise<void> {
    this.#process = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
        '--dbfilename',
        `matchday-test-${this.port}.rdb`,
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      if (await answersPing(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  /**
   * Kills the server (as a crash would: every key is lost) and waits for it to exit; with `keepData`
   * it shuts down saving its data first, so the next start is an outage that lost nothing.
   */
  async stop(options: { keepData?: boolean } = {}): Promise<void> {
    const proc = this.#process;
    if (!proc || proc.exitCode !== null) return;
    const file = join(this.dir, `matchday-test-${this.port}.rdb`);
    await new Promise((resolve) => {
      proc.once('exit', resolve);
      if (options.keepData) {
        const socket = new Socket();
        socket.once('error', () => proc.kill('SIGKILL'));
        socket.connect(this.port, '127.0.0.1', () => socket.end('SHUTDOWN SAVE\r\n'));
      } else {
        rmSync(file, { force: true });
        proc.kill('SIGKILL');
      }
    });
    if (!options.keepData) rmSync(file, { force: true });
  }
}
