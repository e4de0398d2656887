/**
 * Discord scheduled events: the real notifier and ledger (SQLite file) over the
 * local service at frozen instants, DiscordDelivery's events through discord.js' REST client,
 * against the fake Discord's Guild Scheduled Events (which checks bodies, permissions, status
 * transitions and the 100-event limit as Discord documents them). A followed series' event is
 * created once, moved when the series is postponed, started when it goes live, completed when it
 * is over, cancelled when it is deleted; a restart makes nothing twice; a server without Manage
 * Events gets its events turned off and its admins told once; a full server gets no 101st event.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import { messageText } from '../../src/core/errors.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { eventAction, type GuildEvent, seriesOfEvent } from '../../src/notify/scheduled-events.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { DiscordDelivery } from '../../src/platforms/discord/delivery.ts';
import type { Series } from '../../src/protocol/types.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import type { FakeScheduledEvent } from '../fakes/discord/scheduled-events.ts';
import { FakeDiscord } from '../fakes/discord.ts';
import { MemoryTenants, memoryLogger, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const MIN = 60_000;
const GUILD = '100000000000000021';
const NO_PERMISSION = '100000000000000022';
const FULL = '100000000000000023';
const dir = mkdtempSync(join(tmpdir(), 'matchday-events-'));
let service: RunningService;
let clock: Clock;
let fake: FakeDiscord;
const tenants = new MemoryTenants();

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
  fake = await FakeDiscord.start({
    now: () => clock.nowMs(),
    guilds: [
      {
        id: GUILD,
        name: 'Hub',
        channels: [{ id: '200000000000000021', name: 'matches' }],
        botPermissions: ['MANAGE_EVENTS'],
      },
      { id: NO_PERMISSION, name: 'Plain', channels: [{ id: '200000000000000022', name: 'matches' }] },
      {
        id: FULL,
        name: 'Busy',
        channels: [{ id: '200000000000000023', name: 'matches' }],
        botPermissions: ['MANAGE_EVENTS'],
      },
    ],
  });
});
afterAll(async () => {
  await fake?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

function notifier() {
  const ledger = new SqliteLedger(join(dir, 'ledger.sqlite'));
  const client = uncachedClient(service);
  const rest = new REST({ api: fake.apiUrl, retries: 0, timeout: 2000 }).setToken(fake.token);
  const n = createNotifier({
    client,
    tenants,
    clock,
    ledger,
    deliveries: { discord: new DiscordDelivery({ rest }) },
    logger: memoryLogger() as never,
  });
  return {
    n,
    async at(ms: number) {
      clock.set(new Date(ms));
      await n.tick();
      await n.drain();
    },
    async close() {
      await n.stop();
      await ledger.close();
      await client.close();
    },
  };
}

/** Series starting 1 to 20 hours after FROM whose teams are known from the start. */
function candidates(): SeriesPlan[] {
  const w = service.world;
  return w
    .window(FROM)
    .series.filter(
      (p) =>
        p.start > FROM + 60 * MIN &&
        p.start < FROM + 20 * 60 * MIN &&
        w.knownRosters(p, FROM).length === p.rosters.length &&
        p.rosters.length === 2,
    )
    .sort((a, b) => a.start - b.start);
}

function teamsOf(plan: SeriesPlan): number[] {
  return plan.rosters.map((r) => service.world.catalog.rosters.find((x) => x.id === r)!.team.id);
}

const eventOf = (guild: string, seriesId: number): FakeScheduledEvent[] =>
  fake.scheduledEvents
    .all(guild)
    .filter((e) => seriesOfEvent({ description: e.description ?? '' }) === seriesId);

describe('Discord scheduled events', () => {
  it('follow a series through postponement, live, over and deletion, once each, across a restart', async () => {
    const all = candidates();
    // Postponed (announced after FROM), deleted later on, and one that plays as planned.
    // The postponed one is played after the deletion is seen (the run goes forward in time).
    const postponed = all.find(
      (p) => p.postponedAt !== null && p.postponedAt > FROM && p.start > FROM + 12 * 60 * MIN,
    )!;
    const deleted = all.find(
      (p) =>
        p.deletedAt !== null &&
        p.deletedAt > postponed.postponedAt! + 31 * MIN &&
        p.deletedAt + 32 * MIN < postponed.start,
    )!;
    // It starts after the postponement is seen (the run below goes forward in time).
    const plays = all.find(
      (p) =>
        p.postponedFrom === null &&
        p.deletedAt === null &&
        p.forfeit < 0 &&
        p.start > postponed.postponedAt! + 31 * MIN &&
        p.end < deleted.deletedAt!,
    )!;
    expect(postponed && deleted && plays).toBeTruthy();
    const follows = [...new Set([...teamsOf(postponed), ...teamsOf(deleted), ...teamsOf(plays)])];
    tenants.set(`discord:${GUILD}`, {
      follows,
      channels: [
        {
          id: '200000000000000021',
          games: [],
          tiers: [],
          teams: [],
          kinds: ['reminders'],
          leads: [],
          events: true,
        },
      ],
    });

    let run = notifier();
    await run.at(FROM);
    for (const plan of [postponed, deleted, plays]) {
      const [event, ...more] = eventOf(GUILD, plan.id);
      expect(more).toHaveLength(0);
      expect(event!.status).toBe(1);
      expect(event!.entity_type).toBe(3);
      expect(event!.creator_id).toBe(fake.botId);
      // The name says who plays (never a score); the location is where to watch or the tournament.
      const names = teamsOf(plan).map((t) => service.world.catalog.teams.find((x) => x.id === t)!.name);
      for (const name of names) expect(event!.name).toContain(name);
      expect(event!.entity_metadata?.location.length).toBeGreaterThan(0);
    }
    const originalStart = eventOf(GUILD, postponed.id)[0]!.scheduled_start_time;
    expect(Date.parse(originalStart)).toBe(postponed.postponedFrom);
    const createdAtFirst = fake.requestsTo('POST', /scheduled-events$/).length;
    // Every event of the server is one of the followed teams' series.
    for (const e of fake.scheduledEvents.all(GUILD)) {
      const id = seriesOfEvent({ description: e.description ?? '' })!;
      const plan = service.world.seriesPlan(id)!;
      expect(teamsOf(plan).some((t) => follows.includes(t))).toBe(true);
    }

    // The same instant again, then a restart: nothing is made twice.
    await run.at(FROM);
    await run.close();
    run = notifier();
    await run.at(FROM + MIN);
    expect(fake.requestsTo('POST', /scheduled-events$/).length).toBe(createdAtFirst);

    // Postponed: the event moves to the new start (same event).
    await run.at(postponed.postponedAt! + 31 * MIN);
    const [moved] = eventOf(GUILD, postponed.id);
    expect(Date.parse(moved!.scheduled_start_time)).toBe(postponed.start);
    expect(moved!.statuses).toEqual([1]);

    // Live: active; over: completed.
    await run.at(plays.start + MIN);
    expect(eventOf(GUILD, plays.id)[0]!.statuses).toEqual([1, 2]);
    await run.at(plays.end + 2 * MIN);
    await run.at(plays.end + 3 * MIN);
    expect(eventOf(GUILD, plays.id)[0]!.statuses).toEqual([1, 2, 3]);

    // Deleted: cancelled, once.
    await run.at(deleted.deletedAt! + 31 * MIN);
    await run.at(deleted.deletedAt! + 32 * MIN);
    expect(eventOf(GUILD, deleted.id).map((e) => e.statuses)).toEqual([[1, 4]]);
    // The moved one is still one scheduled event.
    expect(eventOf(GUILD, postponed.id).map((e) => e.statuses)).toEqual([[1]]);
    await run.close();
  });

  it('a server without Manage Events: turned off, admins told once, not retried', async () => {
    const [plan] = candidates();
    tenants.set(`discord:${NO_PERMISSION}`, {
      follows: teamsOf(plan!),
      channels: [
        {
          id: '200000000000000022',
          games: [],
          tiers: [],
          teams: [],
          kinds: ['reminders'],
          leads: [],
          events: true,
        },
      ],
    });
    const run = notifier();
    await run.at(FROM);
    const refused = fake.requestsTo('POST', `/guilds/${NO_PERMISSION}/scheduled-events`);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.status).toBe(403);
    const settings = await tenants.get(`discord:${NO_PERMISSION}`);
    expect(settings.channels[0]!.events).toBe(false);
    expect(settings.adminNotices).toHaveLength(1);
    expect(messageText(settings.adminNotices[0]!)).toContain('Manage Events');
    await run.at(FROM + MIN);
    await run.at(FROM + 2 * MIN);
    expect(fake.requestsTo('POST', `/guilds/${NO_PERMISSION}/scheduled-events`)).toHaveLength(1);
    expect(fake.scheduledEvents.all(NO_PERMISSION)).toHaveLength(0);
    expect((await tenants.get(`discord:${NO_PERMISSION}`)).adminNotices).toHaveLength(1);
    tenants.set(`discord:${NO_PERMISSION}`, { follows: [] });
    await run.close();
  });

  it('never more uncompleted events in a server than Discord allows (100, the server’s own counted)', async () => {
    const all = candidates();
    for (let i = 0; i < 98; i++)
      fake.scheduledEvents.addByHand(FULL, `Community night ${i}`, FROM + 48 * 60 * MIN);
    const follows = [...new Set(all.slice(0, 20).flatMap(teamsOf))];
    tenants.set(`discord:${FULL}`, {
      follows,
      channels: [
        {
          id: '200000000000000023',
          games: [],
          tiers: [],
          teams: [],
          kinds: ['reminders'],
          leads: [],
          events: true,
        },
      ],
    });
    const run = notifier();
    await run.at(FROM);
    const open = fake.scheduledEvents.all(FULL).filter((e) => e.status === 1 || e.status === 2);
    expect(open).toHaveLength(100);
    const ours = open.filter((e) => e.creator_id === fake.botId);
    expect(ours).toHaveLength(2);
    // The nearest two series of the followed teams.
    const starts = ours.map((e) => Date.parse(e.scheduled_start_time));
    expect(Math.max(...starts)).toBeLessThanOrEqual(
      all.filter((p) => teamsOf(p).some((t) => follows.includes(t)))[1]!.start,
    );
    // No refused 30038 either: the mirror counts before it asks.
    expect(fake.requestsTo('POST', `/guilds/${FULL}/scheduled-events`).every((r) => r.status === 200)).toBe(
      true,
    );
    tenants.set(`discord:${FULL}`, { follows: [] });
    await run.close();
  });
});

describe('eventAction (pure)', () => {
  const base = (over: Partial<Series>): Series =>
    ({
      id: 7,
      start: new Date(FROM + 60 * MIN).toISOString(),
      end: null,
      lifecycle: 'upcoming',
      deleted_at: null,
      postponed_from: null,
      ...over,
    }) as Series;
  const spec = {
    name: 'A vs B (SP)',
    start: new Date(FROM + 60 * MIN).toISOString(),
    end: new Date(FROM + 120 * MIN).toISOString(),
    location: 'x',
    description: 'Matchday · series 7',
  };
  const event = (status: 1 | 2 | 3 | 4): GuildEvent => ({ id: 'e', status, ...spec });

  it('creates only for a followed, upcoming series that starts later', () => {
    expect(eventAction(base({}), undefined, true, spec, FROM)).toEqual([{ op: 'create', spec }]);
    expect(eventAction(base({}), undefined, false, spec, FROM)).toEqual([]);
    expect(eventAction(base({ lifecycle: 'live' }), undefined, true, spec, FROM)).toEqual([]);
    expect(eventAction(base({}), undefined, true, spec, FROM + 61 * MIN)).toEqual([]);
    expect(eventAction(base({ deleted_at: 'x' }), undefined, true, spec, FROM)).toEqual([]);
  });

  it('moves, starts, completes, cancels; never touches a finished event', () => {
    const later = {
      ...spec,
      start: new Date(FROM + 90 * MIN).toISOString(),
      end: new Date(FROM + 150 * MIN).toISOString(),
    };
    expect(eventAction(base({}), event(1), true, later, FROM)).toEqual([
      { op: 'edit', patch: { start: later.start, end: later.end }, why: 'moved' },
    ]);
    expect(eventAction(base({}), event(1), true, spec, FROM)).toEqual([]);
    expect(eventAction(base({ lifecycle: 'live' }), event(1), true, spec, FROM)[0]).toMatchObject({
      patch: { status: 2 },
    });
    expect(eventAction(base({ lifecycle: 'over' }), event(2), true, spec, FROM)[0]).toMatchObject({
      patch: { status: 3 },
    });
    expect(
      eventAction(base({ lifecycle: 'over' }), event(1), true, spec, FROM).map(
        (a) => a.op === 'edit' && a.patch.status,
      ),
    ).toEqual([2, 3]);
    expect(
      eventAction(base({ deleted_at: 'x', lifecycle: 'deleted' }), event(1), true, spec, FROM)[0],
    ).toMatchObject({ patch: { status: 4 } });
    expect(eventAction(base({}), event(1), false, spec, FROM)).toEqual([{ op: 'remove' }]);
    expect(eventAction(base({ lifecycle: 'over' }), event(3), true, spec, FROM)).toEqual([]);
    expect(eventAction(base({ deleted_at: 'x' }), event(4), true, spec, FROM)).toEqual([]);
  });

  it('reads its series back from the description only when Matchday wrote it', () => {
    expect(seriesOfEvent({ description: 'x\nMatchday · series 42' })).toBe(42);
    expect(seriesOfEvent({ description: 'Matchday · series 42 and more' })).toBeUndefined();
    expect(seriesOfEvent({ description: '' })).toBeUndefined();
  });
});
