/**
 * The window walk reads the standings of the substages it lists series of as it goes:
 * a walk cut short after its first pages (the budget went to users) already holds the tables of
 * the tournaments playing in the next hours, instead of only after the whole window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { createFeed } from '../../src/feed/feed.ts';
import type { FeedClient } from '../../src/feed/reads.ts';
import { type RunningService, startService } from '../../src/service/index.ts';

const AT = Date.parse('2026-03-18T15:20:00.000Z');
let service: RunningService;
let client: EsportsClient;

beforeAll(async () => {
  const clock = new Clock({ start: new Date(AT), frozen: true });
  service = await startService({ port: 0, seed: 42, clock, rate: 0 });
  client = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 10_000, burst: 10_000 },
  });
});
afterAll(async () => {
  await client.close();
  await service.close();
});

describe('the window walk', () => {
  it('holds the standings of the substages of the series it listed as it goes, before the walk is complete', async () => {
    // The live listing and two pages of the walk are answered; every later listing fails.
    let listings = 0;
    const cut: FeedClient = {
      series: {
        ...client.series,
        list: (query, options) =>
          ++listings <= 3 ? client.series.list(query, options) : Promise.reject(new Error('busy')),
      },
      matches: client.matches,
      casters: client.casters,
      substages: client.substages,
    };
    const clock = new Clock({ start: new Date(AT), frozen: true });
    const feed = createFeed({ client: cut, clock });
    await feed.tick();
    expect(feed.filling).toBe(true);
    const held = [...feed.entries()].map((e) => e.series);
    const upcoming = held.filter((s) => s.lifecycle === 'upcoming');
    expect(upcoming.length).toBeGreaterThan(10);
    // The live series' tables are read with the live listing; the upcoming ones' only by the walk,
    // 20 a page once 20 are missing.
    const live = new Set(held.filter((s) => s.lifecycle === 'live').map((s) => s.substage.id));
    const upcomingOnly = [...new Set(upcoming.map((s) => s.substage.id))].filter((id) => !live.has(id));
    expect(upcomingOnly.length).toBeGreaterThan(20);
    const read = upcomingOnly.filter((id) => feed.substage(id) !== undefined);
    expect(read.length).toBeGreaterThanOrEqual(20);
  });
});
