// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies from the service under test
/** The generated schedule: coverage at every moment per tier group, causality, tournament names. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import type { RunningService } from '../../src/service/index.ts';
import {
  REST_MS,
  type SeriesPlan,
  WEEK_CARRY_MS,
  WEEK_MS,
  weekDates,
  weekOf,
  weekStart,
} from '../../src/service/schedule.ts';
import { lastDayEnd } from '../../src/service/timetable.ts';
import { World } from '../../src/service/world.ts';
import { allPages, INSTANT, ok, start } from './helpers.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface Coverage {
  samples: number;
  /** Instants with nothing of the tiers live. */
  noLive: number[];
  /** Instants with nothing of the tiers starting soon (15 minutes unless told). */
  noStart: number[];
  minLive: number;
  maxLive: number;
}

/** Samples instants over [from, to) and counts live and soon-starting (within `soon`) series of the tiers. */
function coverage(
  world: World,
  tiers: number[],
  from: number,
  to: number,
  every: number,
  soonMs = 15 * MINUTE,
): Coverage {
  const result: Coverage = { samples: 0, noLive: [], noStart: [], minLive: Infinity, maxLive: 0 };
  const plans = world.window(from).series.filter((p) => tiers.includes(p.tier));
  for (let t = from; t < to; t += every) {
    result.samples++;
    let live = 0;
    let soon = 0;
    for (const plan of plans) {
      const lifecycle = world.lifecycle(plan, t);
      if (lifecycle === 'live') live++;
      const shown = world.displayedStart(plan, t);
      if (lifecycle === 'upcoming' && shown > t && shown <= t + soonMs) soon++;
    }
    if (live === 0) result.noLive.push(t);
    if (soon === 0) result.noStart.push(t);
    result.minLive = Math.min(result.minLive, live);
    result.maxLive = Math.max(result.maxLive, live);
  }
  return result;
}

describe('the schedule at every moment', () => {
  const world = new World(1, 1, new Clock({ start: INSTANT, frozen: true }));
  // Four days around a week boundary (Sunday 22 Nov 2026 is the one a gap was seen on),
  // sampled every 97 seconds so samples fall on every second of the minute over time.
  const from = Date.parse('2026-11-20T00:00:00Z');
  const to = from + 4 * DAY;

  it('always has a tier 1-2 series live and one starting within 3 hours (the default tenant)', () => {
    // Events play broadcast days in their host's prime time; the regions' days follow each other.
    const c = coverage(world, [1, 2], from, to, 97_000);
    expect(c.samples).toBeGreaterThan(3500);
    expect(c.noLive.map((t) => new Date(t).toISOString())).toEqual([]);
    expect(c.minLive).toBeGreaterThanOrEqual(1);
    const starts = coverage(world, [1, 2], from, to, 97_000, 3 * 60 * MINUTE);
    expect(starts.noStart.map((t) => new Date(t).toISOString())).toEqual([]);
  });

  it('has tiers 3-4 live most of the time, and all tiers together always, never crowded', () => {
    const low = coverage(world, [3, 4], from, to, 97_000);
    expect(low.noLive.length / low.samples).toBeLessThan(0.1);
    const all = coverage(world, [1, 2, 3, 4], from, to, 97_000);
    expect(all.noLive).toEqual([]);
    expect(all.maxLive).toBeLessThanOrEqual(50);
  });

  it('staggers the regions: each tier starts series round the clock, each tier-1 event in its own broadcast day', () => {
    const plans = world
      .window(from)
      .series.filter((p) => p.start >= from && p.start < to && p.deletedAt === null);
    for (const tier of [1, 2, 3, 4]) {
      const hours = new Set(plans.filter((p) => p.tier === tier).map((p) => new Date(p.start).getUTCHours()));
      expect(hours.size, `tier ${tier}`).toBeGreaterThanOrEqual(tier === 1 ? 12 : 18);
    }
    for (const t of new Set(plans.filter((p) => p.tier === 1).map((p) => p.tournament))) {
      const hours = new Set(
        plans
          .filter((p) => p.tournament === t && p.postponedFrom === null)
          .map((p) => new Date(p.start).getUTCHours()),
      );
      expect(hours.size, t.title).toBeLessThanOrEqual(t.dayHours);
    }
  });

  it('the issue instant: at 04:40 UTC on Sunday 22 Nov a tier 1-2 series is live and one starts within 15 minutes', () => {
    const t = Date.parse('2026-11-22T04:40:00Z');
    const plans = world.window(t).series.filter((p) => p.tier <= 2);
    expect(plans.filter((p) => world.lifecycle(p, t) === 'live').length).toBeGreaterThan(0);
    const next = plans.filter((p) => world.lifecycle(p, t) === 'upcoming' && world.displayedStart(p, t) > t);
    expect(Math.min(...next.map((p) => world.displayedStart(p, t))) - t).toBeLessThanOrEqual(15 * MINUTE);
  });

  it('also at a larger scale (the benchmark one)', () => {
    const big = new World(1, 1.5, new Clock({ start: INSTANT, frozen: true }));
    const c = coverage(big, [1, 2], from, from + DAY, 131_000, 3 * 60 * MINUTE);
    expect(c.noLive).toEqual([]);
    expect(c.noStart).toEqual([]);
  });
});

describe('the order of play', () => {
  const world = new World(1, 1, new Clock({ start: INSTANT, frozen: true }));
  const week = world.week(weekOf(INSTANT.getTime()));
  const played = (p: SeriesPlan) => p.deletedAt === null;

  it('starts a bracket series only after the series feeding it and the whole group stage are over', () => {
    const byId = new Map(week.series.map((p) => [p.id, p]));
    let checked = 0;
    for (const plan of week.series) {
      if (plan.substage.stage.order < 2 || !played(plan)) continue;
      for (const feeder of plan.chain)
        expect(byId.get(feeder)!.end, `${plan.id}`).toBeLessThanOrEqual(plan.start);
      const groups = plan.tournament.stages[0]!.substages.flatMap((s) => s.series).filter(played);
      expect(Math.max(...groups.map((g) => g.end)), `${plan.id}`).toBeLessThanOrEqual(plan.start);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('never has a roster in two series of one tournament at once (postponed series aside)', () => {
    let checked = 0;
    for (const t of week.tournaments) {
      const plans = t.stages
        .flatMap((s) => s.substages.flatMap((sub) => sub.series))
        .filter((p) => played(p) && p.postponedFrom === null);
      for (const roster of t.rosters) {
        const mine = plans.filter((p) => p.rosters.includes(roster)).sort((a, b) => a.start - b.start);
        for (let i = 1; i < mine.length; i++) expect(mine[i]!.start).toBeGreaterThanOrEqual(mine[i - 1]!.end);
        checked += mine.length;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('gives a caster one series at a time, with 15 minutes between two, over the whole window', () => {
    // Every series of the window (five weeks, so three week boundaries), postponed ones included.
    const world = new World(1, 1, new Clock({ start: INSTANT, frozen: true }));
    const plans = world.window(INSTANT.getTime()).series.filter((p) => p.deletedAt === null);
    const byCaster = new Map<number, SeriesPlan[]>();
    let primaries = 0;
    for (const plan of plans) {
      expect(plan.casters.filter((c) => c.primary).length).toBeLessThanOrEqual(1);
      for (const entry of plan.casters) {
        if (entry.primary) primaries++;
        byCaster.set(entry.caster.id, [...(byCaster.get(entry.caster.id) ?? []), plan]);
      }
    }
    const clashes: string[] = [];
    for (const [caster, mine] of byCaster) {
      mine.sort((a, b) => a.start - b.start);
      for (let i = 1; i < mine.length; i++) {
        if (mine[i]!.start < mine[i - 1]!.end + REST_MS)
          clashes.push(`caster ${caster}: series ${mine[i - 1]!.id} and ${mine[i]!.id}`);
      }
    }
    expect(clashes).toEqual([]);
    // Not vacuous: every caster works, every tier-1 series has casters, most with a primary one;
    // casters keep human days, so the lower tiers are thinner.
    expect(byCaster.size).toBeGreaterThanOrEqual(40);
    const tier1 = plans.filter((p) => p.tier === 1);
    expect(tier1.filter((p) => p.casters.length === 0).length / tier1.length).toBeLessThan(0.02);
    const streamed = plans.filter((p) => p.streamed).length;
    expect(primaries / streamed).toBeGreaterThan(0.4);
  });

  it('plays every week within its broadcast days (the Americas Sunday runs into Monday UTC)', () => {
    const base = weekStart(week.week);
    // A series may run past its event's last day only while the week lasts: the next week keeps
    // the teams of events whose last day runs into it free until that day is over.
    const spilled = week.series.filter(
      (p) => p.postponedFrom === null && p.end > Math.max(lastDayEnd(p.tournament, base), base + WEEK_MS),
    );
    expect(spilled.map((p) => p.id)).toEqual([]);
    expect(Math.max(...week.series.map((p) => p.end))).toBeLessThanOrEqual(base + WEEK_MS + WEEK_CARRY_MS);
    expect(Math.max(...week.series.map((p) => p.end))).toBeGreaterThan(base + WEEK_MS);
    expect(week.series[0]!.start).toBeGreaterThanOrEqual(weekStart(week.week));
  });
});

describe('tournament names', () => {
  let service: RunningService;
  let tournaments: any[];
  beforeAll(async () => {
    service = await start();
    tournaments = await allPages(service, '/tournaments?order=id-asc');
  });
  afterAll(() => service.close());

  it('name the dates of their week in title and short title, never a week number', () => {
    expect(tournaments.length).toBeGreaterThan(300);
    for (const t of tournaments) {
      const week = weekOf(Date.parse(t.start));
      expect(t.title).not.toMatch(/\bW\d+\b/);
      expect(t.title.endsWith(` ${weekDates(week)}`), t.title).toBe(true);
      const monday = new Date(weekStart(week));
      const day = `${monday.getUTCDate()} ${monday.toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`;
      expect(t.short_title.endsWith(` ${day}`), t.short_title).toBe(true);
      // The short title is the title's name, shortened, with the Monday's date.
      const name = t.short_title.slice(0, -day.length - 1).split(' ');
      expect(t.title.startsWith(`${name[0]} ${name[1]} ${name[2]}`), `${t.title} / ${t.short_title}`).toBe(
        true,
      );
    }
  });

  it('are unique, and the same after a restart', async () => {
    expect(new Set(tournaments.map((t) => t.title)).size).toBe(tournaments.length);
    expect(new Set(tournaments.map((t) => t.short_title)).size).toBe(tournaments.length);
    const again = await start();
    try {
      const second = await allPages(again, '/tournaments?order=id-asc');
      expect(second.map((t) => [t.id, t.title, t.short_title])).toEqual(
        tournaments.map((t) => [t.id, t.title, t.short_title]),
      );
    } finally {
      await again.close();
    }
  });

  it('formats week dates across months and years', () => {
    expect(weekDates(weekOf(Date.parse('2026-11-22T04:40:00Z')))).toBe('16-22 Nov 2026');
    expect(weekDates(weekOf(Date.parse('2026-12-01T00:00:00Z')))).toBe('30 Nov-6 Dec 2026');
    expect(weekDates(weekOf(Date.parse('2027-01-02T00:00:00Z')))).toBe('28 Dec 2026-3 Jan 2027');
  });

  it('answers a title filter with the tournament of that week', async () => {
    const one = tournaments[Math.floor(tournaments.length / 2)];
    const found = await ok<any[]>(service, `/tournaments?filter=title=${encodeURIComponent(one.title)}`);
    expect(found.map((t) => t.id)).toEqual([one.id]);
  });
});
