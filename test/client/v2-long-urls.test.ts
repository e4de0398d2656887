/**
 * No v2 URL longer than 2,000 characters (`src/client/v2/url-limit.ts`), against the local service
 * over HTTP at four times the series of a week (over a hundred tournaments with series within six hours):
 * a listing of many rosters (`competitors[]`, a calendar of many teams) and many series found
 * again by their tournaments (`tournaments[]`, the notifier's re-reads) are cut into listings that
 * fit, and answer what v3 answers. A recording proxy in front of `/v2` sees every URL the client
 * sends, access token included.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type EsportsClient } from '../../src/client/client.ts';
import { MAX_URL_CHARS } from '../../src/client/v2/url-limit.ts';
import { Clock } from '../../src/core/clock.ts';
import type { Series } from '../../src/protocol/types.ts';
import { type RunningService, startService } from '../../src/service/index.ts';

const AT = Date.parse('2026-03-18T15:20:00.000Z');
const HOUR = 3600_000;
const PAIR = { id: 'long-urls', secret: 'v2-long-secret' };
const RATE = { perSecond: 100_000, burst: 100_000 };

let service: RunningService;
let proxy: Server;
let v2: EsportsClient;
let v3: EsportsClient;
/** Every URL (path and query) the v2 client sent. */
const urls: string[] = [];

beforeAll(async () => {
  const clock = new Clock({ start: new Date(AT), frozen: true });
  service = await startService({ port: 0, seed: 42, clock, rate: 0, scale: 4, v2Clients: [PAIR] });
  const target = new URL(service.v2.url);
  proxy = createServer((req, res) => {
    urls.push(req.url ?? '');
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  v2 = createClient({
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    v2: { clientId: PAIR.id, clientSecret: PAIR.secret, now: () => clock.nowMs(), perMinute: 1_000_000 },
    rate: RATE,
  });
  v3 = createClient({ baseUrl: service.url, secret: service.secret, rate: RATE });
});
afterAll(async () => {
  await v2.close();
  await v3.close();
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await service.close();
});

const view = (s: Series) => ({ id: s.id, lifecycle: s.lifecycle, start: s.start, end: s.end });
const longest = (from: number) => Math.max(...urls.slice(from).map((u) => u.length));

describe('v2 URLs stay under 2,000 characters', () => {
  it('lists the series of 300 rosters in parts, merged in order, as v3 lists them', async () => {
    // 300 of the window's rosters (it has about 1,100): enough to need many parts.
    const rosters = [...new Set(service.world.window(AT).series.flatMap((p) => p.rosters))].slice(0, 300);
    // One listing would need about 25 characters a roster: far past the cap.
    expect(rosters.length * 25).toBeGreaterThan(2 * MAX_URL_CHARS);
    const from = urls.length;
    for (const [lifecycles, order] of [
      [['upcoming', 'live'], 'start-asc'],
      [['over', 'over-forfeited'], 'end-desc'],
    ] as const)
      for (const skip of [0, 50, 120, 400]) {
        const query = {
          filter: [
            ['participants.roster.id', '^', rosters],
            ['lifecycle', '<=', [...lifecycles]],
          ],
          order,
          skip,
          take: 50,
        } as const;
        const [got, want] = await Promise.all([v2.series.list(query), v3.series.list(query)]);
        expect(want).toHaveLength(50);
        expect(got.map(view)).toEqual(want.map(view));
      }
    const listings = urls.slice(from).filter((u) => u.includes('competitors'));
    // Each read was cut into several listings, and none is over the cap.
    expect(listings.length).toBeGreaterThan(6);
    expect(longest(from)).toBeLessThanOrEqual(MAX_URL_CHARS);
  });

  it('finds many series of many tournaments again in listings under the cap, as v3 reads them by id', async () => {
    // Seen by the v2 client: the upcoming series of the next six hours (as the notifier's scan).
    const seen: number[] = [];
    for await (const s of v2.series.paginate(
      { filter: [['lifecycle', '=', 'upcoming']], order: 'start-asc' },
      { limit: 5000 },
    )) {
      if (Date.parse(s.start!) > AT + 6 * HOUR) break;
      seen.push(s.id);
    }
    const tournaments = new Set(seen.map((id) => service.world.seriesPlan(id)!.tournament.id));
    // Over a hundred (the world's tier-1 events play 16 teams, so fewer tournaments hold more series
    // than before): about 25 characters each, more than one listing's URL holds.
    expect(tournaments.size).toBeGreaterThan(100);
    expect(tournaments.size * 25).toBeGreaterThan(MAX_URL_CHARS);
    const from = urls.length;
    const many = await v2.series.getMany(seen);
    const reference = await v3.series.getMany(seen);
    expect(many.map(view)).toEqual(reference.filter((s) => s.lifecycle !== 'deleted').map(view));
    const listings = urls.slice(from).filter((u) => u.startsWith('/v2/series?'));
    expect(listings.length).toBeGreaterThan(1);
    expect(longest(from)).toBeLessThanOrEqual(MAX_URL_CHARS);
    // Found again in listings, not one by one: far fewer requests than series.
    expect(urls.length - from).toBeLessThan(seen.length / 4);
  });
});
