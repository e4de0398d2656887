/**
 * The feed's snapshot in the store: a new process starts warm and sends no request for what is
 * fresh; two processes on one store have one refresher (the lease), the other follows from the
 * store. Real SQLite files; Redis too when REDIS_URL points at a redis-server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { createFeed, type Feed } from '../../src/feed/feed.ts';
import { RedisSnapshotStore, type SnapshotStore, SqliteSnapshotStore } from '../../src/feed/store.ts';
import type { SeriesWanted } from '../../src/reads/query.ts';
import { type RunningService, startService } from '../../src/service/index.ts';

const AT = new Date('2026-03-18T15:20:00.000Z');
let service: RunningService;
let clock: Clock;
let dir: string;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  clock = new Clock({ start: AT, frozen: true });
  service = await startService({ port: 0, seed: 42, clock, rate: 0 });
  dir = mkdtempSync(join(tmpdir(), 'matchday-feed-'));
});
afterAll(async () => {
  for (const o of open.reverse()) await o.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

function client(): EsportsClient {
  const c = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 10_000, burst: 10_000 },
    ttl: { series: 0, matches: 0, live: 0, streams: 0, substages: 0, casters: 0 },
  });
  open.push(c);
  return c;
}

/** A feed over a few hours (a short window keeps the scan small), as one process would run it. */
function feedOn(store: SnapshotStore, c: EsportsClient, owner: string): Feed {
  return createFeed({
    client: c,
    clock,
    store,
    owner,
    horizonMs: 6 * 3600_000,
    pastMs: 3600_000,
    saveEveryMs: 0,
  });
}

const LIVE: SeriesWanted = { lifecycles: ['live'], order: 'start-asc', take: 50 };
const NEXT: SeriesWanted = { lifecycles: ['upcoming'], order: 'start-asc', take: 20 };
const ids = (feed: Feed, q: SeriesWanted) => feed.series(q)?.series.map((s) => s.id);

/** A connection to the store named `place` (a second call: a second connection to the same store). */
const backends: [string, (place: string) => SnapshotStore][] = [
  ['SQLite', (place) => new SqliteSnapshotStore(join(dir, `${place}.sqlite`))],
];
const run = Math.random().toString(36).slice(2);
if (process.env.REDIS_URL) {
  const url = process.env.REDIS_URL;
  backends.push(['Redis', (place) => new RedisSnapshotStore(url, `matchday-test:${run}:${place}:`)]);
}

for (const [name, make] of backends) {
  describe(`feed snapshot on ${name}`, () => {
    it('starts warm from the snapshot and sends no request for fresh parts', async () => {
      clock.set(AT);
      const place = `warm-${name}`;
      const store = make(place);
      open.push(store);
      const first = feedOn(store, client(), 'first');
      await first.tick();
      await first.stop();
      expect(first.stats.saves).toBeGreaterThanOrEqual(3);

      // A new process (its own client and store connection) at the same instant.
      const again = make(place);
      open.push(again);
      const c = client();
      const second = feedOn(again, c, 'second');
      await second.start();
      expect(c.stats().upstreamTotal).toBe(0);
      expect(second.filling).toBe(false);
      expect(ids(second, LIVE)).toEqual(ids(first, LIVE));
      expect(ids(second, NEXT)).toEqual(ids(first, NEXT));
      expect(ids(second, LIVE)!.length).toBeGreaterThan(0);
      await second.stop();

      // Twenty seconds later only the live part is stale: a few requests, no scan.
      clock.set(new Date(AT.getTime() + 20_000));
      const c3 = client();
      const third = feedOn(make(place), c3, 'third');
      await third.start();
      expect(third.stats.scans).toBe(0);
      expect(c3.stats().upstreamTotal).toBeGreaterThan(0);
      expect(c3.stats().upstreamTotal).toBeLessThanOrEqual(26);
      await third.stop();
    });

    it('two processes on one store: one refreshes, the other follows from the store', async () => {
      clock.set(AT);
      const place = `two-${name}`;
      const storeA = make(place);
      // B opens the same store separately (a second connection, as a second process would).
      const storeB = make(place);
      open.push(storeA, storeB);
      const cA = client();
      const cB = client();
      const a = feedOn(storeA, cA, 'process-a');
      const b = feedOn(storeB, cB, 'process-b');
      await a.tick();
      for (let step = 1; step <= 4; step++) {
        clock.set(new Date(AT.getTime() + step * 10_000));
        await b.tick();
        await a.tick();
      }
      await b.tick();
      expect(cA.stats().upstreamTotal).toBeGreaterThan(0);
      expect(cB.stats().upstreamTotal).toBe(0);
      expect(b.stats.followed).toBeGreaterThan(0);
      expect(ids(b, LIVE)).toEqual(ids(a, LIVE));
      expect(ids(b, NEXT)).toEqual(ids(a, NEXT));
      // When A stops (and gives the lease up), B takes over the refreshing.
      await a.stop();
      clock.set(new Date(AT.getTime() + 60_000));
      await b.tick();
      expect(cB.stats().upstreamTotal).toBeGreaterThan(0);
      await b.stop();
    });
  });
}
