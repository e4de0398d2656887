import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/bot/settings.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { messageText } from '../../src/core/errors.ts';
import { createNotifier, type NotifierOptions, type NotifyClient } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import type { Series } from '../../src/protocol/types.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import {
  MemoryTenants,
  memoryLogger,
  permanent,
  RecordingDelivery,
  transient,
  uncachedClient,
} from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-notify-cases-'));
let service: RunningService;
let clock: Clock;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  for (const close of closers) await close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = (): EsportsClient => uncachedClient(service);

/** A channel with the tenant's games and tiers that receives one kind. */
const only = (kind: 'reminders' | 'live' | 'digest', id: string, leads: number[] = []) => ({
  id,
  games: [],
  tiers: [],
  teams: [],
  kinds: [kind],
  leads,
});
const onlyReminders = (id: string, leads: number[] = []) => only('reminders', id, leads);

function setup(
  name: string,
  tenantSettings: [string, Partial<Settings>][],
  c: NotifyClient = client(),
  options: Partial<NotifierOptions> = {},
) {
  const tenants = new MemoryTenants();
  for (const [id, s] of tenantSettings) tenants.set(id, s);
  const now = () => clock.nowMs();
  const discord = new RecordingDelivery('discord', now);
  const ledger = new SqliteLedger(join(dir, `${name}.sqlite`));
  const logger = memoryLogger();
  const notifier = createNotifier({
    client: c,
    tenants,
    clock,
    ledger,
    deliveries: { discord },
    logger: logger as never,
    editIntervalMs: 0,
    retryBaseMs: 60_000,
    ...options,
  });
  closers.push(async () => {
    await notifier.stop();
    await ledger.close();
  });
  return { tenants, discord, ledger, notifier, logger };
}

async function play(notifier: { tick(): Promise<void> }, from: number, to: number, step: number) {
  for (let t = from; t < to; t += step) {
    clock.set(new Date(t));
    await notifier.tick();
  }
}

/** A plan of the world in [from, to) that satisfies `pick` (tier 1, game 1 unless said otherwise). */
function findPlan(
  pick: (p: SeriesPlan) => boolean,
  from = FROM + 2 * 3600_000,
  to = FROM + 6 * 24 * 3600_000,
): SeriesPlan {
  const plans = service.world.window(from).series.filter((p) => p.start >= from && p.start < to && pick(p));
  plans.sort((a, b) => a.start - b.start);
  const plan = plans[0];
  if (!plan) throw new Error('the seeded world has no such series; pick another seed');
  return plan;
}

/**
 * Whether no other series of its game and tier starts in the same minute: a channel's reminders due
 * in one minute are one message keyed by the first series (src/notify/grouping.ts, tested in
 * grouping.test.ts), and the new world starts several series on one quarter hour. Tests that follow
 * one series' reminders by key pick one that starts alone.
 */
function startsAlone(p: SeriesPlan): boolean {
  const minute = Math.floor(p.start / 60_000);
  return !service.world
    .window(p.start)
    .series.some(
      (o) =>
        o.id !== p.id && o.game === p.game && o.tier === p.tier && Math.floor(o.start / 60_000) === minute,
    );
}

/**
 * The resource groups the notifier reads, as a plain object to override one of: a client is a
 * class instance whose resources are getters, so spreading it would copy none of them.
 */
function notifyGroups(real: NotifyClient): NotifyClient {
  const { series, matches, rosters, teams, tournaments, casters, games, substages, maps, organisations } =
    real;
  return { series, matches, rosters, teams, tournaments, casters, games, substages, maps, organisations };
}

describe('moved and postponed series', () => {
  /** A series, and the real client with that one series moved 2 h later from 30 min before its start. */
  function moved() {
    const plan = findPlan((p) => p.postponedFrom === null && p.deletedAt === null && p.forfeit < 0);
    const moveBy = 2 * 3600_000;
    const movedAt = plan.start - 30 * 60_000;
    const shift = (s: Series): Series => {
      if (s.id !== plan.id || clock.nowMs() < movedAt) return s;
      const start = plan.start + moveBy;
      return {
        ...s,
        start: new Date(start).toISOString(),
        lifecycle: clock.nowMs() < start ? 'upcoming' : s.lifecycle,
      };
    };
    const real = client();
    const moving: NotifyClient = {
      ...notifyGroups(real),
      series: {
        ...real.series,
        list: async (q, o) => (await real.series.list(q, o)).map(shift),
        getMany: async (ids, o) => (await real.series.getMany(ids, o)).map(shift),
        paginate: (q, o) =>
          (async function* () {
            for await (const s of real.series.paginate(q, o)) yield shift(s);
          })(),
      },
    };
    const tenant: [string, Partial<Settings>] = [
      'discord:1',
      { games: [plan.game], tiers: [plan.tier], channels: [onlyReminders('c1', [15])] },
    ];
    return { plan, moveBy, movedAt, moving, tenant };
  }

  it('moves a reminder with its series and says the card moved', async () => {
    const { plan, moveBy, moving, tenant } = moved();
    const { discord, notifier } = setup('moved', [tenant], moving);
    await play(notifier, plan.start - 3 * 3600_000, plan.start + moveBy + 60_000, 60_000);
    const mine = discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.key).toContain(`15m@${(plan.start + moveBy) / 60_000}`);
    expect(mine[0]!.at).toBeGreaterThanOrEqual(plan.start + moveBy - 15 * 60_000);
    expect(mine[0]!.at).toBeLessThanOrEqual(plan.start + moveBy - 14 * 60_000);
    expect(mine[0]!.text).toContain('moved from');
  });

  it('still says the series moved when the process restarted after the move', async () => {
    const { plan, moveBy, movedAt, moving, tenant } = moved();
    const before = setup('moved-restart', [tenant], moving);
    await play(before.notifier, plan.start - 3 * 3600_000, movedAt - 60_000, 5 * 60_000);
    await before.notifier.stop();
    // A new process (nothing in memory) on the same ledger, started after the move.
    const after = createNotifier({
      client: moving,
      tenants: before.tenants,
      clock,
      ledger: before.ledger,
      deliveries: { discord: before.discord },
      logger: memoryLogger() as never,
    });
    closers.push(() => after.stop());
    await play(after, movedAt + 10 * 60_000, plan.start + moveBy, 60_000);
    const mine = before.discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.key).toContain(`15m@${(plan.start + moveBy) / 60_000}`);
    expect(mine[0]!.text).toContain('moved from');
    // Without the ledger's first start, a fresh process could not know: the same run on a new ledger says nothing.
    const fresh = setup('moved-fresh', [tenant], moving);
    await play(fresh.notifier, movedAt + 10 * 60_000, plan.start + moveBy, 60_000);
    const unaware = fresh.discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`));
    expect(unaware).toHaveLength(1);
    expect(unaware[0]!.text).not.toContain('moved from');
  });

  it('gives a postponed series no reminder, while others in the channel get theirs', async () => {
    // One with another series of its game and tier due a reminder in the same two hours.
    const others = (p: SeriesPlan) =>
      service.world
        .window(p.start)
        .series.some(
          (o) =>
            o.id !== p.id &&
            o.game === p.game &&
            o.tier === p.tier &&
            o.postponedFrom === null &&
            o.deletedAt === null &&
            o.start > p.start - 60 * 60_000 &&
            o.start < p.start + 15 * 60_000,
        );
    const plan = findPlan((p) => p.postponedFrom !== null && p.deletedAt === null && others(p));
    const { discord, notifier } = setup('postponed', [
      ['discord:1', { games: [plan.game], tiers: [plan.tier], channels: [onlyReminders('c1', [15, 60])] }],
    ]);
    await play(notifier, plan.start - 2 * 3600_000, plan.start + 60_000, 60_000);
    expect(discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`))).toEqual([]);
    expect(discord.posts().length).toBeGreaterThan(0);
  });

  it('drops a reminder whose series started while the notifier was down, and sends one still pending', async () => {
    const plan = findPlan(
      (p) => p.postponedFrom === null && p.deletedAt === null && p.forfeit < 0 && startsAlone(p),
    );
    const tenant: [string, Partial<Settings>][] = [
      ['discord:1', { games: [plan.game], tiers: [plan.tier], channels: [onlyReminders('c1', [60, 10])] }],
    ];
    const key = (lead: number) => (p: { key: string }) => p.key.startsWith(`reminder:${plan.id}:${lead}m@`);
    const droppedKeys = (lines: { msg?: string; obj: unknown }[], text: string) =>
      lines
        .filter((l) => l.msg?.includes(text))
        .flatMap((l) => (l.obj as { keys: string[] }).keys)
        .filter((k) => k.startsWith(`reminder:${plan.id}:`))
        .map((k) => k.split(':')[2]!.split('@')[0]);
    // A run 90 minutes before the start, then down until 5 minutes before it: only the 10-minute
    // reminder goes out; the 60-minute one, replaced by it, is logged.
    const { notifier } = setup('downtime', tenant);
    clock.set(new Date(plan.start - 90 * 60_000));
    await notifier.tick();
    await notifier.stop();
    const restarted = setup('downtime', tenant);
    clock.set(new Date(plan.start - 5 * 60_000));
    await restarted.notifier.tick();
    const sent = restarted.discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`));
    expect(sent.map((p) => p.key.split(':')[2]!.split('@')[0])).toEqual(['10m']);
    expect(droppedKeys(restarted.logger.lines, 'a shorter lead was due')).toEqual(['60m']);
    expect(sent.some(key(60))).toBe(false);
    // The same first run, then down until after the start: both are dropped, each logged with its key.
    const early = setup('downtime-2', tenant);
    clock.set(new Date(plan.start - 90 * 60_000));
    await early.notifier.tick();
    await early.notifier.stop();
    const later = setup('downtime-2', tenant);
    clock.set(new Date(plan.start + 2 * 60_000));
    await later.notifier.tick();
    expect(later.discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`))).toEqual([]);
    expect(droppedKeys(later.logger.lines, 'reminder dropped: series started').sort()).toEqual([
      '10m',
      '60m',
    ]);
    // A first start after the series began (no run recorded) logs no past.
    const fresh = setup('downtime-3', tenant);
    await fresh.notifier.tick();
    expect(fresh.logger.lines.some((l) => l.msg?.includes('dropped'))).toBe(false);
    expect(fresh.discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`))).toEqual([]);
    for (const run of [restarted, later, fresh])
      expect(run.logger.lines.some((l) => l.level === 'error')).toBe(false);
  });
});

describe('failures', () => {
  it('disables a subscription on a permanent failure and tells the admins once', async () => {
    const plan = findPlan(
      (p) => p.postponedFrom === null && p.deletedAt === null && p.forfeit < 0 && startsAlone(p),
    );
    const { discord, notifier, tenants } = setup('permanent', [
      [
        'discord:1',
        {
          games: [plan.game],
          tiers: [plan.tier],
          channels: [onlyReminders('broken', [60, 30, 15]), onlyReminders('fine', [60, 30, 15])],
        },
      ],
    ]);
    discord.failures.set('discord:1/broken', permanent('MISSING_PERMISSIONS'));
    await play(notifier, plan.start - 90 * 60_000, plan.start, 60_000);
    const stored = await tenants.get('discord:1');
    const broken = stored.channels.find((c) => c.id === 'broken')!;
    expect(broken.disabled?.reason).toContain('MISSING_PERMISSIONS');
    expect(stored.adminNotices).toHaveLength(1);
    expect(messageText(stored.adminNotices[0]!)).toContain('broken');
    expect(stored.channels.find((c) => c.id === 'fine')!.disabled).toBeUndefined();
    expect(discord.posts().filter((p) => p.channelId === 'broken')).toEqual([]);
    expect(
      discord.posts().filter((p) => p.channelId === 'fine' && p.key.startsWith(`reminder:${plan.id}:`)),
    ).toHaveLength(3);
    expect(notifier.stats.permanentFailures).toBe(1);
  });

  it('retries a transient failure with backoff and delivers once', async () => {
    const plan = findPlan(
      (p) => p.postponedFrom === null && p.deletedAt === null && p.forfeit < 0 && startsAlone(p),
    );
    const { discord, notifier, ledger } = setup('transient', [
      ['discord:1', { games: [plan.game], tiers: [plan.tier], channels: [onlyReminders('c1', [30])] }],
    ]);
    discord.failures.set('discord:1/c1', transient());
    clock.set(new Date(plan.start - 30 * 60_000));
    await notifier.tick();
    expect(notifier.stats.transientFailures).toBeGreaterThan(0);
    discord.failures.clear();
    // Within the backoff nothing is retried; after it, the reminder goes out once.
    clock.set(new Date(plan.start - 29 * 60_000 - 30_000));
    await notifier.tick();
    expect(discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`))).toHaveLength(0);
    await play(notifier, plan.start - 28 * 60_000, plan.start - 20 * 60_000, 60_000);
    const sent = discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`));
    expect(sent).toHaveLength(1);
    expect((await ledger.get(sent[0]!.key))?.state).toBe('sent');
  });
});

describe('live summaries', () => {
  /** The real client, recording which matches' live summaries are read. */
  function recording(): { c: NotifyClient; read: number[][] } {
    const real = client();
    const read: number[][] = [];
    const note = (id: number) => read.at(-1)!.push(id);
    const c: NotifyClient = {
      ...notifyGroups(real),
      matches: {
        ...real.matches,
        liveApi: (id, o) => {
          note(id);
          return real.matches.liveApi(id, o);
        },
        liveCv: (id, o) => {
          note(id);
          return real.matches.liveCv(id, o);
        },
      },
    };
    return { c, read };
  }

  it('reads the same number for any subscriptions, capped per read, every live match in turn', async () => {
    // An instant with more live series than the cap, one of them on a game of its own, and a game
    // with nothing live (its tenant gets no live card at all).
    const real = client();
    const games = await real.games.list({ take: 50 });
    let quietGame: number | undefined;
    let at = FROM + 6 * 3600_000;
    let liveMatches: { id: number; series: number; game: number }[] = [];
    let wanted: { id: number; series: number; game: number } | undefined;
    for (; at < FROM + 4 * 24 * 3600_000; at += 3600_000) {
      clock.set(new Date(at));
      const live = await real.series.list({ filter: [['lifecycle', '=', 'live']], take: 50 });
      const matches = await real.matches.list({ filter: [['lifecycle', '=', 'live']], take: 50 });
      liveMatches = matches.flatMap((m) => {
        const s = live.find((x) => x.id === m.series.id);
        return s ? [{ id: m.id, series: s.id, game: s.game.id }] : [];
      });
      wanted = liveMatches.find((m) => liveMatches.filter((x) => x.game === m.game).length === 1);
      quietGame = games.find((g) => !live.some((s) => s.game.id === g.id))?.id;
      if (liveMatches.length >= 6 && wanted && quietGame !== undefined) break;
    }
    expect(wanted, 'the seeded world has such an instant').toBeDefined();
    expect(quietGame).toBeDefined();
    const runs = [];
    for (const [name, game] of [
      ['summaries-one', wanted!.game],
      ['summaries-other', quietGame!],
    ] as const) {
      const { c, read } = recording();
      const { notifier } = setup(
        name,
        [['discord:1', { games: [game], tiers: [1, 2, 3, 4], channels: [only('live', 'c1')] }]],
        c,
        { summariesPerRead: 2 },
      );
      for (const t of [at, at + 10_000, at + 20_000]) {
        clock.set(new Date(t));
        read.push([]);
        await notifier.tick();
      }
      runs.push(read);
    }
    const [one, other] = runs as [number[][], number[][]];
    // Every live read reads exactly the cap, whatever the tenant follows.
    expect(one.map((r) => r.length)).toEqual([2, 2, 2]);
    expect(other.map((r) => r.length)).toEqual([2, 2, 2]);
    // One source (the feed, as in production): the live matches take turns, least recently read
    // first, and what is read does not depend on what the tenant follows.
    expect(new Set(one.flat()).size).toBe(6);
    expect(one.map((r) => [...r].sort())).toEqual(other.map((r) => [...r].sort()));
    expect(new Set(other.flat()).size).toBe(6);
    for (const id of other.flat()) expect(liveMatches.map((m) => m.id)).toContain(id);
  });
});

describe('a tick that runs out of its posting budget', () => {
  it('leaves the rest to the next ticks, sends the next reminder first, and loses or repeats nothing', async () => {
    const plan = findPlan(
      (p) => p.postponedFrom === null && p.deletedAt === null && p.forfeit < 0 && startsAlone(p),
    );
    // Thirty servers get a live card for every live series (the backlog); one wants a 15-minute reminder.
    const fans: [string, Partial<Settings>][] = Array.from({ length: 30 }, (_, i) => [
      `discord:fan${i}`,
      { games: [], tiers: [1, 2, 3, 4], channels: [only('live', 'cards')] },
    ]);
    const { discord, notifier } = setup(
      'budget',
      [
        ...fans,
        ['discord:r', { games: [plan.game], tiers: [plan.tier], channels: [onlyReminders('c1', [15])] }],
      ],
      client(),
      // Each post takes 5 ms, the budget is 1 ms: every dispatch gets only its first batch.
      { tickBudgetMs: 1 },
    );
    discord.postDelayMs = 5;
    const livePosts = () => discord.posts().filter((p) => p.key.startsWith('live:'));

    clock.set(new Date(plan.start - 16 * 60_000));
    await notifier.tick();
    const firstTick = livePosts().length;
    expect(firstTick).toBeGreaterThan(0);
    expect(notifier.stats.deferred).toBeGreaterThan(0);
    const backlog = firstTick + notifier.stats.deferred;

    // The next tick: the reminder now due goes out before any more of the backlog.
    clock.set(new Date(plan.start - 15 * 60_000));
    const before = discord.records.length;
    await notifier.tick();
    const tick2 = discord.records.slice(before).filter((r) => r.op === 'post');
    const reminderAt = tick2.findIndex((r) => r.key.startsWith(`reminder:${plan.id}:15m`));
    expect(reminderAt).toBeGreaterThanOrEqual(0);
    expect(tick2.findIndex((r) => r.key.startsWith('live:'))).toBeGreaterThan(reminderAt);
    expect(notifier.stats.deferred).toBeGreaterThan(0);

    // Later ticks drain the backlog: every card once, none lost.
    for (let i = 0; i < 50 && notifier.stats.deferred > 0; i++) await notifier.tick();
    expect(notifier.stats.deferred).toBe(0);
    const keys = livePosts().map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThanOrEqual(backlog);
    for (let i = 0; i < 30; i++)
      expect(keys.filter((k) => k.endsWith(`:discord:fan${i}:cards`)).length).toBe(keys.length / 30);
    expect(discord.deduped).toBe(0);
    expect(discord.posts().filter((p) => p.key.startsWith(`reminder:${plan.id}:`))).toHaveLength(1);
  });
});

describe('a day with nothing scheduled', () => {
  it('skips the digest or says so, per setting, once, and a restart does not reconsider it', async () => {
    // Game 999 has no series: both channels' day is empty.
    const tenants: [string, Partial<Settings>][] = [
      [
        'discord:skip',
        {
          games: [999],
          timezone: 'UTC',
          digestTime: '08:00',
          digestWhenEmpty: 'skip',
          channels: [only('digest', 'd')],
        },
      ],
      [
        'discord:say',
        {
          games: [999],
          timezone: 'UTC',
          digestTime: '08:00',
          digestWhenEmpty: 'say',
          channels: [only('digest', 'd')],
        },
      ],
    ];
    const slot = FROM + 8 * 3600_000;
    const first = setup('empty-digest', tenants);
    await play(first.notifier, slot - 60_000, slot + 3 * 60_000, 60_000);
    const posts = first.discord.posts();
    expect(posts.map((p) => p.tenantId)).toEqual(['discord:say']);
    expect(posts[0]!.text).toContain('Nothing scheduled today');
    const skipKey = 'digest:2025-06-04:08:00:discord:skip:d';
    expect(await first.ledger.get(skipKey)).toMatchObject({
      state: 'failed',
      reason: 'skipped: nothing scheduled',
    });
    await first.notifier.stop();

    // A restart on the same ledger within the 3-hour window sends nothing again.
    const again = createNotifier({
      client: client(),
      tenants: first.tenants,
      clock,
      ledger: first.ledger,
      deliveries: { discord: first.discord },
      logger: memoryLogger() as never,
    });
    clock.set(new Date(slot + 10 * 60_000));
    await again.tick();
    expect(first.discord.posts()).toHaveLength(1);
  });
});
