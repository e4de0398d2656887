/**
 * Calendar feeds over real HTTP, from the local service at frozen instants, with profiles in a real
 * SQLite file, read back by an independent parser (ical.js). The expectations come from the world
 * itself (its series at each instant), not from the code under test.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUserStore, type UserStore } from '../../src/bot/users.ts';
import { calendarIcs } from '../../src/calendar/ics.ts';
import { AHEAD_DAYS, calendarRoute, startCalendarServer } from '../../src/calendar/server.ts';
import { createClient } from '../../src/client/client.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { OpsMetrics } from '../../src/ops/metrics.ts';
import { OpsServer } from '../../src/ops/server.ts';
import type { Series } from '../../src/protocol/types.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { FROZEN_AT, type Stack, startStack } from '../commands/helpers.ts';

const logger = pino({ level: 'silent' });
const T1 = FROZEN_AT.getTime();
let stack: Stack;
let users: UserStore;
let dir: string;
let dbPath: string;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'matchday-calendar-'));
  dbPath = join(dir, 'matchday.sqlite');
  users = await openUserStore({ kind: 'sqlite', url: `sqlite://${dbPath}`, path: dbPath }, { logger });
  const route = calendarRoute({
    users,
    tenants: stack.tenants,
    client: stack.client,
    names: stack.names,
    clock: stack.clock,
    logger,
  });
  server = await startCalendarServer(route, { host: '127.0.0.1', port: 0, logger });
});
afterAll(async () => {
  await server?.close();
  await users?.close();
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A calendar server as a newly started process has it: its own client (empty cache) and store connection. */
async function freshProcess(): Promise<{ url: string; close(): Promise<void> }> {
  const store = await openUserStore({ kind: 'sqlite', url: `sqlite://${dbPath}`, path: dbPath }, { logger });
  const client = createClient({
    baseUrl: stack.service.url,
    secret: stack.service.secret,
    rate: { perSecond: 10_000, burst: 10_000 },
  });
  const started = await startCalendarServer(
    calendarRoute({ users: store, client, names: stack.names, clock: stack.clock, logger }),
    { host: '127.0.0.1', port: 0, logger },
  );
  return {
    url: started.url,
    async close() {
      await started.close();
      await client.close();
      await store.close();
    },
  };
}

interface Event {
  uid: string;
  sequence: number;
  start: number;
  summary: string;
  description: string;
  status: string;
  alarms: string[];
}

async function fetchCalendar(
  token: string,
  base = server.url,
): Promise<{ status: number; body: string; events: Event[] }> {
  const response = await fetch(`${base}/calendar/${token}.ics`);
  const body = await response.text();
  if (response.status !== 200) return { status: response.status, body, events: [] };
  expect(response.headers.get('content-type')).toContain('text/calendar');
  const calendar = new ICAL.Component(ICAL.parse(body));
  const events = calendar.getAllSubcomponents('vevent').map((v) => {
    const event = new ICAL.Event(v);
    return {
      uid: event.uid,
      sequence: event.sequence,
      start: event.startDate.toJSDate().getTime(),
      summary: event.summary,
      description: event.description ?? '',
      status: String(v.getFirstPropertyValue('status') ?? ''),
      alarms: v.getAllSubcomponents('valarm').map((a) => String(a.getFirstPropertyValue('trigger'))),
    };
  });
  return { status: response.status, body, events };
}

const world = () => stack.service.world;
const teamOfRoster = (roster: number) => world().catalog.rosters.find((r) => r.id === roster)!.team.id;
const rostersOf = (team: number) =>
  world()
    .catalog.rosters.filter((r) => r.team.id === team)
    .map((r) => r.id);
const teamName = (team: number) => world().catalog.teams.find((t) => t.id === team)!.name;
const uid = (id: number) => `series-${id}@matchday`;

/** What the calendar should hold at t for these teams: live series and those starting in AHEAD_DAYS, from the world. */
function expectedComing(teams: number[], t: number): Series[] {
  const rosters = new Set(teams.flatMap(rostersOf));
  return world()
    .seriesInWindow(t)
    .filter((s) => (s.lifecycle === 'upcoming' || s.lifecycle === 'live') && s.start !== null)
    .filter((s) => Date.parse(s.start!) < t + AHEAD_DAYS * 24 * 3600_000)
    .filter((s) => s.participants.some((p) => rosters.has(p.roster.id)));
}

/** A plan that changes (moved or cancelled) a little after T1, between two known teams. */
function changing(kind: 'postponed' | 'deleted', not: number[] = []): SeriesPlan {
  const plans = world().window(T1).series;
  const found = plans.find((p) => {
    const at = kind === 'postponed' ? p.postponedAt : p.deletedAt;
    if (at === null || at <= T1 || at > T1 + 3 * 24 * 3600_000) return false;
    if (kind === 'deleted' && p.postponedAt !== null) return false;
    const known = world().knownRosters(p, T1);
    return known.length > 0 && known.every((r) => !not.includes(teamOfRoster(r)));
  });
  if (!found) throw new Error(`the world has no ${kind} series after ${FROZEN_AT.toISOString()}`);
  return found;
}

describe('calendar feeds', () => {
  it("match the world at a frozen instant, keep a moved series' UID with a higher SEQUENCE, and cancel a deleted one", async () => {
    stack.clock.set(FROZEN_AT);
    const moved = changing('postponed');
    const movedTeam = teamOfRoster(world().knownRosters(moved, T1)[0]!);
    const dropped = changing('deleted', [movedTeam]);
    const droppedTeam = teamOfRoster(world().knownRosters(dropped, T1)[0]!);
    const user = 'discord:cal-ana';
    await users.update(user, (p) => ({
      ...p,
      leads: [15, 60],
      timezone: 'Europe/Berlin',
      follows: [
        { team: movedTeam, noQualifiers: false },
        { team: droppedTeam, noQualifiers: false },
      ],
    }));
    const token = await users.calendarToken(user);

    const before = await fetchCalendar(token);
    expect(before.status).toBe(200);
    const coming = expectedComing([movedTeam, droppedTeam], T1);
    expect(coming.length).toBeGreaterThan(1);
    const upcomingUids = before.events.filter(
      (e) => e.status !== 'CANCELLED' && e.start >= T1 - 6 * 3600_000,
    );
    for (const s of coming) {
      const event = before.events.find((e) => e.uid === uid(s.id));
      expect(event, `series ${s.id} is in the calendar`).toBeDefined();
      expect(event!.start).toBe(Date.parse(s.start!));
      expect(event!.sequence).toBe(s.resource_version - 1);
      // Spoiler-safe: the teams, never a score.
      expect(event!.summary).not.toMatch(/\d+\s*[-:]\s*\d+/);
      if (s.lifecycle === 'upcoming') expect(event!.alarms.sort()).toEqual(['-PT15M', '-PT1H']);
    }
    // Nothing upcoming that the world does not have for these teams.
    const comingIds = new Set(coming.map((s) => uid(s.id)));
    for (const e of upcomingUids.filter((e) => e.start > T1)) expect(comingIds.has(e.uid)).toBe(true);

    const movedBefore = before.events.find((e) => e.uid === uid(moved.id))!;
    expect(movedBefore.start).toBe(moved.postponedFrom);
    expect(movedBefore.summary).toContain(teamName(movedTeam));
    expect(movedBefore.description).toContain('Best of');
    const droppedBefore = before.events.find((e) => e.uid === uid(dropped.id))!;
    expect(droppedBefore.status).toBe('CONFIRMED');

    // Later: the move and the cancellation have been announced. Read by a process started then (its
    // own client, whose cache has not seen the earlier answers; the store opened again), twice.
    const t2 = Math.max(moved.postponedAt!, dropped.deletedAt!) + 60_000;
    stack.clock.set(new Date(t2));
    const first = await freshProcess();
    const second = await freshProcess();
    try {
      const after = await fetchCalendar(token, first.url);
      const movedAfter = after.events.find((e) => e.uid === uid(moved.id));
      expect(movedAfter, 'the moved series keeps its UID').toBeDefined();
      expect(movedAfter!.start).toBe(moved.start);
      expect(movedAfter!.start).not.toBe(movedBefore.start);
      expect(movedAfter!.sequence).toBeGreaterThan(movedBefore.sequence);
      // Its first planned time as a person reads it, in their zone (not an ISO string).
      const firstPlanned = DateTime.fromMillis(moved.postponedFrom!, { zone: 'Europe/Berlin' });
      expect(movedAfter!.description).toContain(
        `Moved; first planned for ${firstPlanned.toFormat('ccc d LLL yyyy, HH:mm')} (Europe/Berlin).`,
      );
      expect(movedAfter!.description).not.toMatch(/\d{4}-\d\d-\d\dT/);
      const droppedAfter = after.events.find((e) => e.uid === uid(dropped.id));
      expect(droppedAfter, 'the cancelled series stays, cancelled').toBeDefined();
      expect(droppedAfter!.status).toBe('CANCELLED');
      expect(droppedAfter!.summary).toMatch(/^Cancelled: /);
      expect(droppedAfter!.sequence).toBeGreaterThan(droppedBefore.sequence);
      expect(droppedAfter!.alarms).toEqual([]);
      // Another process at the same instant says exactly the same: UIDs and SEQUENCEs are stable.
      const other = await fetchCalendar(token, second.url);
      const key = (e: Event) => `${e.uid}#${e.sequence}#${e.start}#${e.status}`;
      expect(other.events.map(key).sort()).toEqual(after.events.map(key).sort());
    } finally {
      await first.close();
      await second.close();
      stack.clock.set(FROZEN_AT);
    }
  });

  it('puts the tournament and the primary stream in the description', async () => {
    stack.clock.set(FROZEN_AT);
    const streamed = world()
      .seriesInWindow(T1)
      .find(
        (s) =>
          s.lifecycle === 'upcoming' &&
          s.casters.length > 0 &&
          s.participants.length > 0 &&
          Date.parse(s.start!) < T1 + 24 * 3600_000,
      );
    expect(streamed, 'the world has a streamed series today').toBeDefined();
    const team = teamOfRoster(streamed!.participants[0]!.roster.id);
    await users.update('discord:cal-stream', (p) => ({ ...p, follows: [{ team, noQualifiers: false }] }));
    const { events, body } = await fetchCalendar(await users.calendarToken('discord:cal-stream'));
    const event = events.find((e) => e.uid === uid(streamed!.id))!;
    const tournament = await stack.truth.tournaments.get(streamed!.tournament.id);
    expect(event.description).toContain(tournament.short_title || tournament.title);
    const primary = streamed!.casters.find((c) => c.primary) ?? streamed!.casters[0]!;
    const caster = await stack.truth.casters.get(primary.caster.id);
    expect(event.description).toContain(`Watch: ${caster.display_name} on ${caster.stream.platform.name}`);
    // The embedded world's platforms are made up: no link to invent (a real one: the next test).
    expect(body).not.toContain('URL;VALUE=URI:');
  });

  it('links a stream on a known platform, with the link as the event URL', async () => {
    const series = world()
      .seriesInWindow(T1)
      .find((s) => s.lifecycle === 'upcoming' && s.casters.length > 0 && s.participants.length === 2)!;
    const caster = await stack.truth.casters.get(series.casters[0]!.caster.id);
    const twitch = {
      ...caster,
      stream: { ...caster.stream, platform: { ...caster.stream.platform, name: 'Twitch' } },
    };
    const text = calendarIcs({
      name: 'test',
      series: [series],
      labels: stack.names,
      streamOf: () => twitch,
      leads: [30],
      timezone: 'Europe/Berlin',
      t: translator('en'),
      now: FROZEN_AT,
    });
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!);
    const url = `https://www.twitch.tv/${encodeURIComponent(caster.stream.username)}`;
    expect(event.description).toContain(`Watch: ${caster.display_name} on Twitch, ${url}`);
    expect(event.component.getFirstPropertyValue('url')).toBe(url);
    expect(String(event.component.getFirstSubcomponent('valarm')!.getFirstPropertyValue('trigger'))).toBe(
      '-PT30M',
    );
  });

  it("writes the calendar's words in its language (German), names and data untouched", async () => {
    const series = world()
      .seriesInWindow(T1)
      .find((s) => s.lifecycle === 'upcoming' && s.casters.length > 0 && s.participants.length === 2)!;
    const caster = await stack.truth.casters.get(series.casters[0]!.caster.id);
    const text = calendarIcs({
      name: 'test',
      series: [series],
      labels: stack.names,
      streamOf: () => caster,
      leads: [30],
      timezone: 'UTC',
      t: translator('de'),
      now: FROZEN_AT,
    });
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!);
    expect(event.description).toContain(`Ansehen: ${caster.display_name} auf ${caster.stream.platform.name}`);
    expect(event.description).toContain(`Best of ${series.best_of} · Tier ${series.tier}`);
    expect(event.description).not.toContain('Watch:');
    const alarm = event.component.getFirstSubcomponent('valarm')!;
    expect(String(alarm.getFirstPropertyValue('description'))).toContain('beginnt in 30 min');
  });

  it("links a caster's own http(s) page when the platform is not one Matchday knows", async () => {
    const series = world()
      .seriesInWindow(T1)
      .find((s) => s.lifecycle === 'upcoming' && s.casters.length > 0 && s.participants.length === 2)!;
    const caster = await stack.truth.casters.get(series.casters[0]!.caster.id);
    const make = (url: string) =>
      new ICAL.Event(
        new ICAL.Component(
          ICAL.parse(
            calendarIcs({
              name: 'test',
              series: [series],
              labels: stack.names,
              streamOf: () => ({ ...caster, url }),
              leads: [30],
              timezone: 'UTC',
              t: translator('en'),
              now: FROZEN_AT,
            }),
          ),
        ).getFirstSubcomponent('vevent')!,
      );
    const linked = make('https://streams.example.org/arru');
    expect(linked.description).toContain(
      `Watch: ${caster.display_name} on ${caster.stream.platform.name}, https://streams.example.org/arru`,
    );
    expect(linked.component.getFirstPropertyValue('url')).toBe('https://streams.example.org/arru');
    // Not a web link: named, not linked.
    const unlinked = make('javascript:alert(1)');
    expect(unlinked.description).not.toContain('javascript:');
    expect(unlinked.component.getFirstPropertyValue('url')).toBeNull();
  });

  it("names the followed team first in a lobby's title, whatever its seed", async () => {
    stack.clock.set(FROZEN_AT);
    // A lobby of the next days whose fourth-seeded team (or later) is one nobody else follows here.
    const lobby = world()
      .seriesInWindow(T1)
      .find(
        (s) =>
          s.lifecycle === 'upcoming' &&
          s.participants.length > 3 &&
          Date.parse(s.start!) < T1 + 2 * 24 * 3600_000,
      );
    expect(lobby, 'the world has an upcoming lobby').toBeDefined();
    const bySeed = [...lobby!.participants].sort((a, b) => a.seed - b.seed);
    const team = teamOfRoster(bySeed.at(-1)!.roster.id);
    await users.update('discord:cal-lobby', (p) => ({ ...p, follows: [{ team, noQualifiers: false }] }));
    const { events } = await fetchCalendar(await users.calendarToken('discord:cal-lobby'));
    const event = events.find((e) => e.uid === uid(lobby!.id));
    expect(event, 'the lobby is in the calendar').toBeDefined();
    expect(event!.summary.startsWith(`${teamName(team)}, `)).toBe(true);
    expect(event!.summary).toMatch(/ and \d+ more \(/);
    // Every lobby of that team in the calendar names it, and two-team series stay "A vs B".
    for (const e of events.filter((e) => / more \(/.test(e.summary)))
      expect(e.summary.replace(/^Cancelled: /, '').startsWith(teamName(team))).toBe(true);
    for (const e of events.filter((e) => e.summary.includes(' vs ')))
      expect(e.summary).toContain(teamName(team));
  });

  it('answers an unknown, malformed or revoked token with 404 and no data', async () => {
    stack.clock.set(FROZEN_AT);
    const team = teamOfRoster(world().knownRosters(changing('postponed'), T1)[0]!);
    const user = 'discord:cal-bo';
    await users.update(user, (p) => ({ ...p, follows: [{ team, noQualifiers: false }] }));
    const old = await users.calendarToken(user);
    expect((await fetchCalendar(old)).status).toBe(200);
    const renewed = await users.calendarToken(user, true);
    for (const token of [old, 'A'.repeat(43), 'short', '..%2F..%2Fetc']) {
      const answer = await fetchCalendar(token);
      expect(answer.status).toBe(404);
      expect(answer.body).toBe('not found\n');
      expect(answer.body).not.toContain('VCALENDAR');
    }
    const fresh = await fetchCalendar(renewed);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toContain(teamName(team));
  });

  it("never shows one person's follows through another's token", async () => {
    stack.clock.set(FROZEN_AT);
    const mine = teamOfRoster(world().knownRosters(changing('postponed'), T1)[0]!);
    const theirs = teamOfRoster(world().knownRosters(changing('deleted', [mine]), T1)[0]!);
    await users.update('slack:T1.cal-me', (p) => ({ ...p, follows: [{ team: mine, noQualifiers: false }] }));
    await users.update('slack:T1.cal-them', (p) => ({
      ...p,
      follows: [{ team: theirs, noQualifiers: false }],
    }));
    const theirToken = await users.calendarToken('slack:T1.cal-them');
    const seen = await fetchCalendar(theirToken);
    expect(seen.status).toBe(200);
    const myOnly = expectedComing([mine], T1).filter(
      (s) => !s.participants.some((p) => rostersOf(theirs).includes(p.roster.id)),
    );
    expect(myOnly.length).toBeGreaterThan(0);
    for (const s of myOnly) expect(seen.events.some((e) => e.uid === uid(s.id))).toBe(false);
    expect(seen.body).not.toContain(teamName(mine));
  });
});

describe('calendar feeds on the operations port (no CALENDAR_PORT)', () => {
  it('serves calendars beside /healthz and /metrics, and still 404s other paths', async () => {
    stack.clock.set(FROZEN_AT);
    const metrics = new OpsMetrics();
    const route = calendarRoute({
      users,
      client: stack.client,
      names: stack.names,
      clock: stack.clock,
      logger,
    });
    const ops = await OpsServer.start({ host: '127.0.0.1', port: 0, metrics, logger, extra: route });
    try {
      const team = teamOfRoster(world().knownRosters(changing('postponed'), T1)[0]!);
      await users.update('terminal:cal-ops', (p) => ({ ...p, follows: [{ team, noQualifiers: false }] }));
      const token = await users.calendarToken('terminal:cal-ops');
      const answer = await fetchCalendar(token, ops.url);
      expect(answer.status).toBe(200);
      expect(answer.events.length).toBeGreaterThan(0);
      expect((await fetch(`${ops.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${ops.url}/metrics`)).status).toBe(200);
      expect((await fetch(`${ops.url}/calendar/${'B'.repeat(43)}.ics`)).status).toBe(404);
      expect((await fetch(`${ops.url}/elsewhere`)).status).toBe(404);
    } finally {
      await ops.close();
      metrics.close();
    }
  });
});

describe('channel calendars (/settings calendar)', () => {
  it("hold the channel's games and tiers plus its teams, and stop when the channel is removed", async () => {
    stack.clock.set(FROZEN_AT);
    const game = world().catalog.games[0]!.game.id;
    const team = teamOfRoster(world().knownRosters(changing('postponed'), T1)[0]!);
    await stack.tenants.save('discord:g-cal', {
      ...(await stack.tenants.get('discord:g-cal')),
      timezone: 'Europe/Berlin',
      channels: [
        {
          id: 'c-cal',
          name: 'matches',
          games: [game],
          tiers: [1],
          teams: [team],
          kinds: ['reminders'],
          leads: [30],
        },
      ],
    });
    const token = await users.channelCalendarToken('discord:g-cal', 'c-cal');
    expect(await users.ownerOfToken(token)).toBeUndefined();
    const answer = await fetchCalendar(token);
    expect(answer.status).toBe(200);
    const rosters = new Set(rostersOf(team));
    const expected = world()
      .seriesInWindow(T1)
      .filter((s) => s.lifecycle === 'upcoming' && Date.parse(s.start!) < T1 + AHEAD_DAYS * 24 * 3600_000)
      .filter(
        (s) => (s.game.id === game && s.tier === 1) || s.participants.some((p) => rosters.has(p.roster.id)),
      );
    expect(expected.length).toBeGreaterThan(0);
    const shown = new Set(answer.events.filter((e) => e.start > T1).map((e) => e.uid));
    expect([...shown].sort()).toEqual(expected.map((s) => uid(s.id)).sort());
    for (const e of answer.events.filter((e) => e.start > T1)) expect(e.alarms).toEqual(['-PT30M']);

    // Renewed: the old token is gone; the channel removed: the new one is gone too.
    const renewed = await users.channelCalendarToken('discord:g-cal', 'c-cal', true);
    expect((await fetchCalendar(token)).status).toBe(404);
    expect((await fetchCalendar(renewed)).status).toBe(200);
    await stack.tenants.update('discord:g-cal', (s) => ({ ...s, channels: [] }));
    const gone = await fetchCalendar(renewed);
    expect(gone.status).toBe(404);
    expect(gone.body).toBe('not found\n');
  });
});
