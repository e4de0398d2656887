/**
 * The contract of the store layer's lease (src/stores/lease.ts), run against both backends: SQLite
 * (a temporary file, several connections and processes on it) and Redis (REDIS_URL; skipped without
 * it). Acquire, renew, refusal, expiry and takeover with a greater token, release only by the holder,
 * and racers (connections of one process, and child processes) of whom exactly one wins.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { afterAll, describe, expect, it } from 'vitest';
import type { Lease } from '../../src/stores/lease.ts';
import { RedisLease } from '../../src/stores/lease-redis.ts';
import { SqliteLease } from '../../src/stores/lease-sqlite.ts';

const REDIS_URL = process.env.REDIS_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Backend {
  name: string;
  /** A new connection to the one store of this backend. */
  connect(): Lease;
  /** What a child process passes to `openLease` for this store. */
  where: string;
  /** A lease name no other test uses. */
  fresh(): string;
  cleanup(): Promise<void>;
}

function sqliteBackend(): Backend {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-lease-'));
  const path = join(dir, 'store.sqlite');
  let n = 0;
  return {
    name: 'SQLite',
    connect: () => new SqliteLease(path),
    where: path,
    fresh: () => `lease-${++n}`,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function redisBackend(url: string): Backend {
  const prefix = `test:lease:${process.pid}:${randomBytes(3).toString('hex')}:`;
  let n = 0;
  return {
    name: 'Redis',
    connect: () => new RedisLease(url),
    where: url,
    fresh: () => `${prefix}${++n}`,
    cleanup: async () => {
      const redis = createClient({ url });
      await redis.connect();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(keys);
      await redis.quit();
    },
  };
}

/** Child processes that each try to take `name` once, at the same moment; their tokens. */
async function raceProcesses(where: string, name: string, count: number): Promise<number[]> {
  const child = join(import.meta.dirname, 'lease-child.ts');
  const runs = Array.from({ length: count }, (_, i) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, where, name, `process-${i}`], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    const ready = new Promise<void>((resolve, reject) => {
      proc.stdout!.on('data', (chunk) => {
        out += chunk;
        if (out.includes('ready\n')) resolve();
      });
      proc.once('exit', () => reject(new Error(`a racer ended before it was ready: ${out}`)));
    });
    const token = new Promise<number>((resolve, reject) =>
      proc.once('exit', (code) => {
        const match = /token (\d+)/.exec(out);
        if (code === 0 && match) resolve(Number(match[1]));
        else reject(new Error(`a racer failed (exit ${code}): ${out}`));
      }),
    );
    return { proc, ready, token };
  });
  await Promise.all(runs.map((r) => r.ready));
  for (const run of runs) run.proc.stdin!.end('go\n');
  return Promise.all(runs.map((r) => r.token));
}

const backends: [string, (() => Backend) | undefined][] = [
  ['SQLite', sqliteBackend],
  [
    `Redis${REDIS_URL ? '' : ' (skipped: REDIS_URL is not set)'}`,
    REDIS_URL ? () => redisBackend(REDIS_URL) : undefined,
  ],
];

describe.each(backends)('the store lease on %s', (_label, make) => {
  const backend = make?.();
  const opened: Lease[] = [];
  const connect = () => {
    const lease = backend!.connect();
    opened.push(lease);
    return lease;
  };
  afterAll(async () => {
    for (const lease of opened) await lease.close().catch(() => undefined);
    await backend?.cleanup();
  });

  it.skipIf(!backend)('acquire takes a free lease; its holder renews it with the same token', async () => {
    const lease = connect();
    await lease.open();
    const name = backend!.fresh();
    expect(await lease.holder(name)).toBeUndefined();
    const before = Date.now();
    const token = await lease.acquire(name, 'a', 5_000);
    expect(token).toBeGreaterThan(0);
    const held = await lease.holder(name);
    expect(held?.owner).toBe('a');
    expect(held?.token).toBe(token);
    expect(held!.expiresAt).toBeGreaterThanOrEqual(before + 4_000);
    expect(held!.expiresAt).toBeLessThanOrEqual(Date.now() + 5_100);

    // Renewed for longer: the same term (same token), a later expiry.
    expect(await lease.acquire(name, 'a', 60_000)).toBe(token);
    const renewed = await lease.holder(name);
    expect(renewed?.token).toBe(token);
    expect(renewed!.expiresAt).toBeGreaterThan(held!.expiresAt + 50_000);
  });

  it.skipIf(!backend)('another owner is refused while the lease is held, on any connection', async () => {
    const [one, two] = [connect(), connect()];
    const name = backend!.fresh();
    const token = await one.acquire(name, 'a', 5_000);
    expect(await one.acquire(name, 'b', 5_000)).toBe(0);
    expect(await two.acquire(name, 'b', 5_000)).toBe(0);
    // A refusal changes nothing: same holder, same token.
    expect(await two.holder(name)).toMatchObject({ owner: 'a', token });
    expect(await two.acquire(name, 'a', 5_000)).toBe(token);
  });

  it.skipIf(!backend)(
    'an expired lease is taken over with a greater token; its former holder can neither renew nor release it',
    async () => {
      const [one, two] = [connect(), connect()];
      const name = backend!.fresh();
      const first = await one.acquire(name, 'a', 150);
      expect(first).toBeGreaterThan(0);
      await sleep(300);
      expect(await two.holder(name)).toBeUndefined();
      const second = await two.acquire(name, 'b', 5_000);
      expect(second).toBeGreaterThan(first);
      expect(await one.acquire(name, 'a', 5_000)).toBe(0);
      expect(await one.release(name, 'a')).toBe(false);
      expect(await one.holder(name)).toMatchObject({ owner: 'b', token: second });

      // Even its own lease, once lapsed, comes back as a new term.
      const other = backend!.fresh();
      const lapsed = await one.acquire(other, 'a', 100);
      await sleep(250);
      expect(await one.acquire(other, 'a', 5_000)).toBeGreaterThan(lapsed);
    },
  );

  it.skipIf(!backend)('release only by the holder; the token keeps growing after a release', async () => {
    const [one, two] = [connect(), connect()];
    const name = backend!.fresh();
    expect(await one.release(name, 'a')).toBe(false); // nobody holds it
    const first = await one.acquire(name, 'a', 5_000);
    expect(await two.release(name, 'b')).toBe(false);
    expect(await two.holder(name)).toMatchObject({ owner: 'a', token: first });
    expect(await one.release(name, 'a')).toBe(true);
    expect(await two.holder(name)).toBeUndefined();
    expect(await one.release(name, 'a')).toBe(false); // already given back
    // Free at once (no waiting out the ttl), and the next term's token is greater.
    const second = await two.acquire(name, 'b', 5_000);
    expect(second).toBeGreaterThan(first);
    const third = (await two.release(name, 'b')) && (await one.acquire(name, 'a', 5_000));
    expect(third).toBeGreaterThan(second);
  });

  it.skipIf(!backend)('leases of different names are independent', async () => {
    const lease = connect();
    const [x, y] = [backend!.fresh(), backend!.fresh()];
    expect(await lease.acquire(x, 'a', 5_000)).toBeGreaterThan(0);
    expect(await lease.acquire(y, 'b', 5_000)).toBeGreaterThan(0);
    expect(await lease.release(y, 'a')).toBe(false);
    expect(await lease.holder(x)).toMatchObject({ owner: 'a' });
    expect(await lease.holder(y)).toMatchObject({ owner: 'b' });
  });

  it.skipIf(!backend)('racing connections: exactly one wins, the rest are refused', async () => {
    const racers = Array.from({ length: 8 }, () => connect());
    await Promise.all(racers.map((r) => r.open()));
    const name = backend!.fresh();
    const tokens = await Promise.all(racers.map((r, i) => r.acquire(name, `racer-${i}`, 60_000)));
    const winners = tokens.map((t, i) => [t, i] as const).filter(([t]) => t > 0);
    expect(winners).toHaveLength(1);
    expect(await racers[0]!.holder(name)).toMatchObject({
      owner: `racer-${winners[0]![1]}`,
      token: winners[0]![0],
    });
  });

  it.skipIf(!backend)(
    'racing processes: exactly one wins, the rest are refused',
    async () => {
      const name = backend!.fresh();
      const tokens = await raceProcesses(backend!.where, name, 3);
      expect(tokens.filter((t) => t > 0)).toHaveLength(1);
      const held = await connect().holder(name);
      expect(held?.owner).toBe(`process-${tokens.findIndex((t) => t > 0)}`);
    },
    30_000,
  );
});

describe('the SQLite lease on a file it cannot use', () => {
  it('open() rejects with the failure (a file that is not a database)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchday-lease-bad-'));
    try {
      const path = join(dir, 'store.sqlite');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path, 'this is not a SQLite database, it is a text file of some length'.repeat(20));
      const lease = new SqliteLease(path);
      await expect(lease.open()).rejects.toThrow(/SQLITE_NOTADB|not a database/);
      await expect(lease.acquire('x', 'a', 1000)).rejects.toThrow();
      await lease.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
