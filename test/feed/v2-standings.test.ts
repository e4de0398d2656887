/**
 * Standings in the feed on v2 are the standings on v3, against the local service over
 * HTTP on a jumped clock. The bot reads tournaments with their stages before the feed refreshes
 * standings (the name index and the notifier's labels ask for them), and a v2 tournament embeds its
 * substages without standings (the v2 specification: standings only via `/substages/{id}` with
 * `with[]=standings`). Those embedded substages must never answer a read that needs standings: a
 * series' result changes its substage's standings, and the feed on v2 shows the same change as on v3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { createFeed, type Feed } from '../../src/feed/feed.ts';
import { POLL_INTERVAL_MS } from '../../src/feed/poll-band.ts';
import type { Substage } from '../../src/protocol/types.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';

const AT = Date.parse('2026-03-18T15:20:00.000Z');
const PAIR = { id: 'feed-tests', secret: 'v2-feed-secret' };
// The client's cache ages in real time; this clock jumps: every read goes upstream.
const NO_CACHE = { series: 0, matches: 0, live: 0, streams: 0, substages: 0, casters: 0, tournaments: 0 };
const RATE = { perSecond: 10_000, burst: 10_000 };

let service: RunningService;
let clock: Clock;
const clients: EsportsClient[] = [];

beforeAll(async () => {
  clock = new Clock({ start: new Date(AT), frozen: true });
  service = await startService({ port: 0, seed: 42, clock, rate: 0, v2Clients: [PAIR] });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await service.close();
});

function client(api: 'v2' | 'v3'): EsportsClient {
  const c =
    api === 'v2'
      ? createClient({
          baseUrl: service.v2.url,
          v2: {
            clientId: PAIR.id,
            clientSecret: PAIR.secret,
            now: () => clock.nowMs(),
            perMinute: 1_000_000,
          },
          rate: RATE,
          ttl: NO_CACHE,
        })
      : createClient({ baseUrl: service.url, secret: service.secret, rate: RATE, ttl: NO_CACHE });
  clients.push(c);
  return c;
}

/** What both interfaces give of a standings row (v2 has no match or score differences). */
const rows = (s: Substage | undefined) =>
  s?.standings.map((x) => ({
    roster: x.roster.id,
    points: x.points,
    wins: x.wins,
    draws: x.draws,
    losses: x.losses,
  }));

/** A group-stage series live at AT that ends within the next hours, with others of its substage already played. */
function changingSeries(): SeriesPlan {
  const window = service.world.window(AT).series;
  const found = window.find(
    (p) =>
      p.start < AT &&
      p.end > AT &&
      p.end < AT + 3 * 3600_000 &&
      p.deletedAt === null &&
      p.forfeit < 0 &&
      p.bracket === null &&
      window.some((q) => q.substage.id === p.substage.id && q.end < AT && q.deletedAt === null),
  );
  if (!found) throw new Error('the world has no group-stage series live at the test instant');
  return found;
}

describe('feed standings on v2 and v3', () => {
  it('are the same at the same instant, before and after a result changes them', async () => {
    const p = changingSeries();
    const sub = p.substage.id;
    const feeds: Record<'v2' | 'v3', Feed> = { v2: undefined!, v3: undefined! };
    clock.set(new Date(p.end - 60_000));
    for (const api of ['v2', 'v3'] as const) {
      const c = client(api);
      // What the name index and the labels do first: the tournament with its stages and substages.
      await c.tournaments.getMany([p.tournament.id]);
      await c.tournaments.stages(p.tournament.id);
      feeds[api] = createFeed({ client: c, clock, horizonMs: 6 * 3600_000, pastMs: 3600_000 });
      await feeds[api].tick();
    }
    const truthBefore = rows(service.world.substageAt(p.substage, clock.nowMs()));
    expect(truthBefore?.length).toBeGreaterThan(0);
    expect(rows(feeds.v3.substage(sub))).toEqual(truthBefore);
    expect(rows(feeds.v2.substage(sub))).toEqual(truthBefore);

    clock.set(new Date(p.end + POLL_INTERVAL_MS.live));
    await feeds.v3.tick();
    await feeds.v2.tick();
    expect(feeds.v2.seriesById(p.id)?.lifecycle).toBe('over');
    const truthAfter = rows(service.world.substageAt(p.substage, clock.nowMs()));
    // The result moved the table (else this test would prove nothing).
    expect(truthAfter).not.toEqual(truthBefore);
    expect(rows(feeds.v3.substage(sub))).toEqual(truthAfter);
    expect(rows(feeds.v2.substage(sub))).toEqual(rows(feeds.v3.substage(sub)));
  });

  it('answers a substage by id with its standings after the tournament embedded it without them', async () => {
    const p = changingSeries();
    clock.set(new Date(p.end + POLL_INTERVAL_MS.live));
    const v2 = client('v2');
    await v2.tournaments.get(p.tournament.id);
    const [many] = await v2.substages.getMany([p.substage.id]);
    const one = await v2.substages.get(p.substage.id);
    const truth = rows(service.world.substageAt(p.substage, clock.nowMs()));
    expect(truth?.length).toBeGreaterThan(0);
    expect(rows(many)).toEqual(truth);
    expect(rows(one)).toEqual(truth);
  });
});
