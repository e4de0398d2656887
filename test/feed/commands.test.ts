/**
 * Commands answered from the feed equal those answered from the service at the same instant: one
 * runtime reads through the client as before, another (with its own, separately counted client)
 * has a feed that has read the whole window. Same frozen instant, same seed, same tenant settings:
 * the replies must be the same text, the feed's runtime must send no request for them, and the
 * lists must match the truth read straight from the world.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { replyText } from '../../src/bot/reply.ts';
import { Runtime } from '../../src/bot/runtime.ts';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { createFeed, type Feed } from '../../src/feed/feed.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { ADMIN, call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';
import { byStartThenId, FINISHED, teamNameOf, worldSeries } from '../commands/truth.ts';

let stack: Stack;
let feed: Feed;
let feedClient: EsportsClient;
let commandClient: EsportsClient;
let fed: Runtime;

const rate = { perSecond: 10_000, burst: 10_000 };

beforeAll(async () => {
  stack = await startStack();
  feedClient = createClient({ baseUrl: stack.service.url, secret: stack.service.secret, rate });
  commandClient = createClient({ baseUrl: stack.service.url, secret: stack.service.secret, rate });
  feed = createFeed({ client: feedClient, clock: stack.clock });
  await feed.tick();
  fed = new Runtime({
    commands,
    client: commandClient,
    names: stack.names,
    picture: feed,
    tenants: stack.tenants,
    clock: stack.clock,
    logger: pino({ level: 'silent' }),
    perUserLimit: { count: 1_000_000, windowMs: 1000 },
  });
}, 120_000);

afterAll(async () => {
  await feedClient.close();
  await commandClient.close();
  await stack.close();
});

/** The same call through the feed's runtime: its text and the requests its own client sent. */
async function viaFeed(tenantKey: string, command: string, args: Record<string, unknown> = {}) {
  const before = commandClient.stats().upstreamTotal;
  const result = await fed.run({
    platform: 'terminal',
    tenantKey,
    user: ADMIN,
    channel: { id: 'c-main', name: 'main' },
    command,
    args,
  });
  return {
    outcome: result.outcome,
    text: replyText(result.reply, true),
    upstream: commandClient.stats().upstreamTotal - before,
  };
}

function livePlan(): SeriesPlan {
  const t = stack.service.world.now();
  return stack.service.world.window(t).series.find((p) => stack.service.world.lifecycle(p, t) === 'live')!;
}

describe('commands from the feed', () => {
  it('has read the whole window and is no longer filling', () => {
    expect(feed.filling).toBe(false);
    expect(feed.coverage()).toEqual({
      live: true,
      upcomingUntil: Number.POSITIVE_INFINITY,
      finishedFrom: Number.NEGATIVE_INFINITY,
    });
  });

  const teamName = () => stack.service.world.catalog.teams[0]!.name;
  const running = () => {
    const t = stack.service.world.now();
    return stack.service.world.window(t).tournaments.find((x) => x.tier === 1 && x.start <= t && x.end >= t)!;
  };
  const cases: [string, string, () => Record<string, unknown>][] = [
    ['upcoming series', 'series', () => ({})],
    ['live series', 'series', () => ({ when: 'live' })],
    ['recent series of every game and tier', 'series', () => ({ when: 'recent', tier: 3, limit: 20 })],
    ['a team\u2019s recent series', 'series', () => ({ when: 'recent', team: teamName() })],
    ['a tournament\u2019s upcoming series', 'series', () => ({ tournament: running().title })],
    ['every live series', 'live', () => ({})],
    ['today\u2019s schedule at tier 1', 'schedule', () => ({ tier: 1 })],
    ['casters of a live series', 'casters', () => ({ series: String(livePlan().id) })],
    ['casters of the next series', 'casters', () => ({})],
    ['a group table', 'standings', () => ({ tournament: running().title })],
    [
      'a bracket',
      'standings',
      () => ({
        tournament: running().title,
        stage: running()
          .stages.flatMap((s) => s.substages)
          .find((s) => s.type === 2)!.title,
      }),
    ],
  ];

  for (const [label, command, args] of cases) {
    it(`answers ${label} as the service does, with no request`, async () => {
      const tenant = await tenantWith(stack, { spoilers: 'show' });
      const direct = await call(stack, command, args(), { tenant });
      const fromFeed = await viaFeed(tenant, command, args());
      expect(direct.outcome).toBe('ok');
      expect(fromFeed.outcome).toBe('ok');
      // One read model: the same answer whether the feed holds it or the service is asked.
      expect(fromFeed.text).toBe(direct.revealed);
      expect(fromFeed.upstream).toBe(0);
    });
  }

  it('answers one live series in detail with no request, and holds the maps and casters the budget left out', async () => {
    const tenant = await tenantWith(stack, { spoilers: 'show' });
    const args = { series: String(livePlan().id) };
    const direct = await call(stack, 'live', args, { tenant });
    const fromFeed = await viaFeed(tenant, 'live', args);
    expect(fromFeed.upstream).toBe(0);
    // Through the client the 3-request budget leaves the matches out; the feed holds them.
    const norm = (text: string) =>
      text
        .replace(/(Now: game \d+) · [^:]+:/, '$1:')
        .split('\n')
        .filter((l) => !/^Game \d+ · /.test(l))
        .join('\n');
    // The feed also holds what the budget left out (maps, casters): the rest is the same.
    const feedLines = norm(fromFeed.text).split('\n');
    const scoreLines = norm(direct.revealed)
      .split('\n')
      .filter((l) => /^(Series|Now|Gold lead|Towers destroyed|Sides|Possession|Supply):/.test(l));
    expect(scoreLines.length).toBeGreaterThanOrEqual(2);
    for (const line of scoreLines) expect(feedLines).toContain(line);
    expect(fromFeed.text).toMatch(/Game 1 · \w+/);
  });

  it('answers a team page with one request (its players), series the same as the service', async () => {
    const tenant = await tenantWith(stack, { spoilers: 'show' });
    const direct = await call(stack, 'team', { team: teamName() }, { tenant });
    const fromFeed = await viaFeed(tenant, 'team', { team: teamName() });
    expect(fromFeed.text).toBe(direct.revealed);
    expect(fromFeed.upstream).toBeLessThanOrEqual(1);
  });

  it('lists the live series the world has live, in start order (the truth)', async () => {
    const tenant = await tenantWith(stack, { spoilers: 'show', games: [], tiers: [1, 2, 3, 4] });
    const truth = worldSeries(stack.service.world)
      .filter((s) => s.lifecycle === 'live')
      .sort(byStartThenId)
      .slice(0, 10);
    const result = await fed.run({
      platform: 'terminal',
      tenantKey: tenant,
      user: ADMIN,
      channel: { id: 'c-main' },
      command: 'series',
      args: { when: 'live', limit: 10 },
    });
    expect(truth.length).toBeGreaterThan(0);
    const lines = result.reply.cards[0]!.description!.map((l) =>
      l.map((x) => (typeof x === 'string' ? x : 'text' in x ? x.text : '')).join(''),
    );
    expect(lines).toHaveLength(truth.length);
    truth.forEach((s, i) => {
      for (const p of s.participants)
        expect(lines[i]).toContain(teamNameOf(stack.service.world, p.roster.id));
    });
  });

  it('lists a whole past day a page at a time, as the client’s walk does (yesterday at tier 2)', async () => {
    const tenant = await tenantWith(stack, { spoilers: 'show' });
    const world = stack.service.world;
    const day = Date.UTC(2026, 2, 17);
    const truth = worldSeries(world).filter(
      (s) => s.tier === 2 && Date.parse(s.start!) >= day && Date.parse(s.start!) < day + 86_400_000,
    );
    expect(truth.every((s) => FINISHED.includes(s.lifecycle))).toBe(true);
    const direct = await call(stack, 'schedule', { tier: 2, day: 'yesterday' }, { tenant });
    const fromFeed = await viaFeed(tenant, 'schedule', { tier: 2, day: 'yesterday' });
    // A past day opens on its first page; both ways count the whole day.
    expect(fromFeed.text).toContain(
      `Page 1 of ${Math.ceil(truth.length / 50)} (series 1–50 of ${truth.length})`,
    );
    expect(fromFeed.text).toBe(direct.revealed);
    expect(fromFeed.upstream).toBe(0);
  });

  it('leaves what it does not hold to the client (a tournament page asks the service)', async () => {
    const tenant = await tenantWith(stack);
    const fromFeed = await viaFeed(tenant, 'tournament', { tournament: running().title });
    expect(fromFeed.outcome).toBe('ok');
    expect(fromFeed.upstream).toBeGreaterThan(0);
  });
});
