/**
 * The cache layer: keyv stores (memory, SQLite file, Redis when REDIS_URL is set), TTLs,
 * stale-while-revalidate, stale-if-error and a failing store that must never fail a call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import KeyvRedis from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { type ClientOptions, createClient } from '../../src/client/client.ts';
import { UnavailableError } from '../../src/client/errors.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { captureLogger, json, sleep, startServer, type TestServer } from './helpers.ts';

const SECRET = 'cache-test-secret-0d9a';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(handler);
  cleanups.push(() => s.close());
  return s;
}

function client(url: string, extra: Partial<ClientOptions> = {}): EsportsClient {
  const c = createClient({
    baseUrl: url,
    secret: SECRET,
    rate: { perSecond: 1000, burst: 100 },
    retry: { baseMs: 1, capMs: 5 },
    ...extra,
  });
  cleanups.push(() => c.close());
  return c;
}

/** A server whose answers carry a counter, so a test can tell which fetch it got. */
async function countingServer(fail: () => boolean = () => false) {
  let n = 0;
  return server((_req, res) => {
    if (fail()) return json(res, 500, { msg: 'down' });
    n++;
    json(res, 200, [{ id: 1, name: `answer ${n}` }]);
  });
}

describe('client cache', () => {
  it('answers a repeated read from the cache', async () => {
    const s = await countingServer();
    const c = client(s.url);
    const first = await c.teams.list();
    const second = await c.teams.list();
    expect(second).toEqual(first);
    expect(s.requests).toHaveLength(1);
    expect(c.stats()).toMatchObject({ cacheHits: 1, cacheMisses: 1, upstreamTotal: 1 });
  });

  it('keys on the canonical query: a different query is a different entry', async () => {
    const s = await countingServer();
    const c = client(s.url);
    await c.teams.list({ take: 5 });
    await c.teams.list({ take: 6 });
    await c.teams.list({ take: 5 });
    expect(s.requests).toHaveLength(2);
  });

  it('holds at most cacheEntries answers in memory, dropping the least recently used', async () => {
    const s = await countingServer();
    // Three entries: two listings, and the one record they both hold (stored under its own key).
    const c = client(s.url, { cacheEntries: 3 });
    await c.teams.list({ take: 1 });
    await c.teams.list({ take: 2 });
    await c.teams.list({ take: 1 }); // a hit: take=1 is now the most recently used
    await c.teams.list({ take: 3 }); // a third answer: take=2 goes
    expect(s.requests).toHaveLength(3);
    await c.teams.list({ take: 1 });
    await c.teams.list({ take: 3 });
    expect(s.requests).toHaveLength(3);
    await c.teams.list({ take: 2 });
    expect(s.requests).toHaveLength(4);
    expect(() => createClient({ baseUrl: s.url, secret: SECRET, cacheEntries: 0 })).toThrow(/cacheEntries/);
  });

  it('serves an expired entry at once while one refresh runs (stale-while-revalidate)', async () => {
    const s = await countingServer();
    const c = client(s.url, { ttl: { teams: 300 }, revalidateFactor: 1000 });
    await c.teams.list();
    await sleep(320);
    const during = await Promise.all([c.teams.list(), c.teams.list(), c.teams.list()]);
    // every caller got the old answer immediately ...
    expect(during.map((a) => a[0]?.name)).toEqual(['answer 1', 'answer 1', 'answer 1']);
    // ... and exactly one refresh went upstream
    await expect.poll(() => s.requests.length).toBe(2);
    expect(c.stats().revalidations).toBe(1);
    await expect.poll(async () => (await c.teams.list())[0]?.name).toBe('answer 2');
  });

  it('refetches an entry that is past the revalidation window', async () => {
    const s = await countingServer();
    const c = client(s.url, { ttl: { teams: 5 }, revalidateFactor: 0 });
    await c.teams.list();
    await sleep(20);
    expect((await c.teams.list())[0]?.name).toBe('answer 2');
  });

  it('serves a cached entry marked stale when the service fails for good (stale-if-error)', async () => {
    let down = false;
    const s = await countingServer(() => down);
    const c = client(s.url, { ttl: { teams: 5 }, revalidateFactor: 0 });
    await c.teams.list();
    await sleep(20);
    down = true;
    const view = c.forCaller({ priority: 'interactive' });
    expect(view.servedStale).toBe(false);
    expect((await view.teams.list())[0]?.name).toBe('answer 1');
    expect(view.servedStale).toBe(true);
    expect(view.answers.stale).toBe(1);
    expect(c.stats().staleServed).toBe(1);
    // a read with nothing cached still fails with the service's error
    await expect(view.teams.list({ take: 3 })).rejects.toBeInstanceOf(UnavailableError);
  });

  it('does not serve stale past the stale-if-error window', async () => {
    let down = false;
    const s = await countingServer(() => down);
    const c = client(s.url, { ttl: { teams: 5 }, revalidateFactor: 0, staleIfErrorMs: 10 });
    await c.teams.list();
    await sleep(40);
    down = true;
    await expect(c.teams.list()).rejects.toBeInstanceOf(UnavailableError);
  });

  it('keeps working without cache when the store throws', async () => {
    const logger = captureLogger();
    const broken = new Keyv({
      store: {
        get: async () => {
          throw new Error('store offline');
        },
        set: async () => {
          throw new Error('store offline');
        },
        delete: async () => false,
        clear: async () => {},
      },
    });
    const s = await countingServer();
    const c = client(s.url, { cache: broken, logger });
    expect((await c.teams.list())[0]?.name).toBe('answer 1');
    expect((await c.teams.list())[0]?.name).toBe('answer 2');
    expect(c.stats().cacheStoreFailures).toBeGreaterThan(0);
    expect(logger.lines.some((l) => l.msg.includes('continuing without cache'))).toBe(true);
  });

  it('keeps working without cache when the store hangs', async () => {
    const hanging = new Keyv({
      store: {
        get: () => new Promise(() => {}),
        set: () => new Promise(() => {}),
        delete: async () => false,
        clear: async () => {},
      },
    });
    const s = await countingServer();
    const c = client(s.url, { cache: hanging, cacheTimeoutMs: 20 });
    expect((await c.teams.list())[0]?.name).toBe('answer 1');
    expect((await c.teams.list())[0]?.name).toBe('answer 2');
    expect(c.stats().cacheStoreFailures).toBeGreaterThan(0);
  });

  it('works with a SQLite store: a second client on the same file needs no upstream request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchday-client-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const uri = `sqlite://${join(dir, 'cache.sqlite')}`;
    const s = await countingServer();
    const storeA = new Keyv({ store: new KeyvSqlite(uri) });
    cleanups.push(() => storeA.disconnect());
    // The first open of a SQLite file can be slow on a busy machine: this test is about persistence.
    const a = client(s.url, { cache: storeA, cacheTimeoutMs: 10_000 });
    const first = await a.teams.list();
    // Closing waits for the write under way, so the answer is on disk.
    await a.close();
    const storeB = new Keyv({ store: new KeyvSqlite(uri) });
    cleanups.push(() => storeB.disconnect());
    const b = client(s.url, { cache: storeB, cacheTimeoutMs: 10_000 });
    expect(await b.teams.list()).toEqual(first);
    expect(s.requests).toHaveLength(1);
    expect(b.stats().cacheHits).toBe(1);
  });

  it.skipIf(!process.env.REDIS_URL)(
    'works with a Redis store (needs REDIS_URL, e.g. redis://127.0.0.1:6390)',
    async () => {
      const namespace = `matchday-client-test-${process.pid}-${Date.now()}`;
      const s = await countingServer();
      const storeA = new Keyv({ store: new KeyvRedis(process.env.REDIS_URL), namespace });
      cleanups.push(() => storeA.disconnect());
      const a = client(s.url, { cache: storeA, cacheTimeoutMs: 10_000 });
      const first = await a.teams.list();
      await a.close();
      const storeB = new Keyv({ store: new KeyvRedis(process.env.REDIS_URL), namespace });
      cleanups.push(async () => {
        await storeB.clear();
        await storeB.disconnect();
      });
      const b = client(s.url, { cache: storeB, cacheTimeoutMs: 10_000 });
      expect(await b.teams.list()).toEqual(first);
      expect(s.requests).toHaveLength(1);
    },
  );
});
