/**
 * The feed's freshness rules on a jumped clock, against the local service over HTTP: a series that
 * goes live, finishes, moves (a postponement announced) or is deleted is seen within its band
 * (`pollBand`: live 10 s, imminent 1 min, near 5 min), without waiting for the 30-minute scan. And
 * a service down at start-up: the feed keeps polling and fills once it answers.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { createFeed, type Feed } from '../../src/feed/feed.ts';
import { POLL_INTERVAL_MS } from '../../src/feed/poll-band.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';

const AT = Date.parse('2026-03-18T15:20:00.000Z');
let service: RunningService;
let clock: Clock;
const clients: EsportsClient[] = [];

beforeAll(async () => {
  clock = new Clock({ start: new Date(AT), frozen: true });
  service = await startService({ port: 0, seed: 42, clock, rate: 0 });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await service.close();
});

/** A feed reading a few hours around `t0` (a short window keeps the scan small), read once at t0. */
async function feedAt(t0: number): Promise<{ feed: Feed; client: EsportsClient }> {
  clock.set(new Date(t0));
  const client = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 10_000, burst: 10_000 },
    // The client's cache ages in real time; this clock jumps: every read goes upstream.
    ttl: { series: 0, matches: 0, live: 0, streams: 0, substages: 0, casters: 0 },
  });
  clients.push(client);
  const feed = createFeed({ client, clock, horizonMs: 6 * 3600_000, pastMs: 3600_000 });
  await feed.tick();
  return { feed, client };
}

/** The first plan in the window around AT meeting `test`. */
function plan(test: (p: SeriesPlan) => boolean): SeriesPlan {
  const found = service.world.window(AT).series.find(test);
  if (!found) throw new Error('the world has no such series near the test instant');
  return found;
}

describe('feed freshness on a jumped clock', () => {
  it('sees a series go live within the live band', async () => {
    const p = plan((x) => x.start > AT && x.deletedAt === null && x.postponedFrom === null && x.forfeit < 0);
    const { feed } = await feedAt(p.start - 2 * 60_000);
    expect(feed.seriesById(p.id)?.lifecycle).toBe('upcoming');
    clock.set(new Date(p.start + POLL_INTERVAL_MS.live));
    await feed.tick();
    expect(feed.seriesById(p.id)?.lifecycle).toBe('live');
    const live = feed.series({ lifecycles: ['live'], order: 'start-asc', take: 50 });
    expect(live?.complete).toBe(true);
    expect(live?.series.map((s) => s.id)).toContain(p.id);
  });

  it('sees a live series finish within the live band, with its final score', async () => {
    const p = plan((x) => x.start < AT && x.end > AT && x.deletedAt === null && x.forfeit < 0);
    const { feed } = await feedAt(p.end - 60_000);
    expect(feed.seriesById(p.id)?.lifecycle).toBe('live');
    clock.set(new Date(p.end + POLL_INTERVAL_MS.live));
    await feed.tick();
    const seen = feed.seriesById(p.id);
    expect(seen?.lifecycle).toBe('over');
    const truth = service.world.seriesAt(p, clock.nowMs());
    expect(seen?.participants.map((x) => x.score)).toEqual(truth.participants.map((x) => x.score));
    expect(
      feed.series({ lifecycles: ['live'], order: 'start-asc', take: 50 })?.series.map((s) => s.id),
    ).not.toContain(p.id);
  });

  it('sees a postponement within the near band (5 minutes)', async () => {
    const p = plan(
      (x) =>
        x.postponedAt !== null &&
        x.postponedAt > AT &&
        x.postponedFrom! - x.postponedAt <= 2 * 3600_000 &&
        x.postponedFrom! - x.postponedAt > 20 * 60_000,
    );
    const { feed } = await feedAt(p.postponedAt! - 60_000);
    expect(Date.parse(feed.seriesById(p.id)!.start!)).toBe(p.postponedFrom);
    clock.set(new Date(p.postponedAt! + POLL_INTERVAL_MS.near));
    await feed.tick();
    const seen = feed.seriesById(p.id)!;
    expect(Date.parse(seen.start!)).toBe(p.start);
    expect(seen.postponed_from).not.toBeNull();
  });

  it('sees a deletion within the near band and stops listing the series', async () => {
    const p = plan(
      (x) => x.deletedAt !== null && x.deletedAt > AT && x.start - x.deletedAt <= 2.5 * 3600_000,
    );
    const { feed } = await feedAt(p.deletedAt! - 60_000);
    expect(feed.seriesById(p.id)?.lifecycle).toBe('upcoming');
    clock.set(new Date(p.deletedAt! + POLL_INTERVAL_MS.near));
    await feed.tick();
    expect(feed.seriesById(p.id)).toBeUndefined();
    const upcoming = feed.series({ lifecycles: ['upcoming'], order: 'start-asc', take: 500 });
    expect(upcoming?.series.map((s) => s.id)).not.toContain(p.id);
  });

  it('does not re-read a far series between scans (its band is the 30-minute scan)', async () => {
    const { feed, client } = await feedAt(AT);
    const first = client.stats().upstreamTotal;
    expect(feed.stats.scans).toBe(1);
    // A minute later: only what is live or imminent is read again (the live listing, its matches,
    // at most 20 summaries, casters, standings, imminent re-reads), not the window.
    clock.set(new Date(AT + 60_000));
    await feed.tick();
    const spent = client.stats().upstreamTotal - first;
    expect(feed.stats.scans).toBe(1);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(26);
    // At the same instant again: nothing is due, nothing is read.
    const again = client.stats().upstreamTotal;
    await feed.tick();
    expect(client.stats().upstreamTotal).toBe(again);
  });
});

describe('feed when the service is down at start-up', () => {
  it('starts with nothing read (still filling), keeps polling, and fills once the service answers', async () => {
    clock.set(new Date(AT));
    const client = createClient({
      baseUrl: service.url,
      secret: service.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
    });
    clients.push(client);
    // Short deadlines and ticks: the outage is seen in half a second, the recovery within a few ticks.
    const background = client.forCaller({ priority: 'background', deadlineMs: 500 });
    const feed = createFeed({
      client: background,
      clock,
      horizonMs: 3 * 3600_000,
      pastMs: 3600_000,
      tickMs: 200,
    });
    try {
      service.faults.errorRate = 1;
      await feed.start();
      // Nothing read, nothing invented; still filling, so the notifier over it waits.
      expect(feed.ready).toBe(false);
      expect(feed.filling).toBe(true);
      expect(feed.sizes().series).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(feed.ready).toBe(false);

      service.faults.errorRate = 0;
      await vi.waitFor(() => expect(feed.ready && !feed.filling).toBe(true), {
        timeout: 30_000,
        interval: 50,
      });
      expect(feed.sizes().series).toBeGreaterThan(0);
    } finally {
      service.faults.errorRate = 0;
      await feed.stop();
    }
  }, 60_000);
});
