// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies from the service under test
/**
 * The world as a real circuit (src/service/schedule.ts, timetable.ts): the service started at any
 * hour of the day shows live tier 1-2 play (the default tenant's), and the world of the service's
 * window holds every circuit measure the benchmark prints (schedule-check.ts circuitMeasures).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import type { RunningService } from '../../src/service/index.ts';
import { CITY_COUNTRY } from '../../src/service/places.ts';
import type { TournamentPlan } from '../../src/service/schedule.ts';
import {
  bestOfKeepsTiers,
  type CheckedTournament,
  circuitMeasures,
} from '../../src/service/schedule-check.ts';
import { World } from '../../src/service/world.ts';
import { INSTANT, ok, start } from './helpers.ts';

let service: RunningService | null = null;
afterEach(async () => {
  await service?.close();
  service = null;
});

describe('the service started at any hour', () => {
  // Two days: a Wednesday (the tests' instant's) and a Sunday, when the week's finals run.
  for (const day of ['2026-11-18', '2026-11-22']) {
    for (const hour of [0, 6, 12, 18]) {
      const at = `${day}T${String(hour).padStart(2, '0')}:00:00.000Z`;
      it(`shows live tier 1-2 series at ${at}`, async () => {
        service = await start({ clock: new Clock({ start: new Date(at), frozen: true }) });
        const live = await ok<any[]>(service, '/series?filter=lifecycle=live');
        expect(live.length).toBeGreaterThan(0);
        expect(live.filter((s) => s.tier <= 2).length, at).toBeGreaterThan(0);
        for (const s of live) expect(Date.parse(s.start)).toBeLessThanOrEqual(Date.parse(at));
      });
    }
  }
});

describe.each([1, 42])('the window of seed %i', (seed) => {
  const world = new World(seed, 1, new Clock({ start: INSTANT, frozen: true }));
  const { catalog } = world;
  const window = world.window(INSTANT.getTime());
  const team = (roster: number) => catalog.rosterById.get(roster)!.team.id;
  const placeOf = (t: CheckedTournament) => ({
    cityCountry: CITY_COUNTRY[t.city],
    hostCountry: catalog.regions[(t as TournamentPlan).hostRegion]!.country.abbreviation,
  });

  it('holds every circuit measure', () => {
    const m = circuitMeasures(window.tournaments, team, placeOf);
    expect(m.tier1TeamDays3).toBe(0);
    expect(m.unequalGroups).toEqual([]);
    expect(m.tier1CastPct).toBeGreaterThanOrEqual(95);
    expect(m.tier1StreamedPct).toBeGreaterThanOrEqual(98);
    expect(m.tier1StartHoursMedian).toBeLessThanOrEqual(14);
    expect(m.tier1PlayoffHoursMin).toBeGreaterThanOrEqual(60);
    expect(m.tier1Prizes).toBeGreaterThanOrEqual(3);
    expect(bestOfKeepsTiers(m.groupBestOf), m.groupBestOf.join('/')).toBe(true);
    expect(m.misplaced).toEqual([]);
    expect(m.casterDayHours).toBeLessThanOrEqual(10);
    // Not vacuous: five weeks of events, tier-1 teams play two series on some days.
    expect(window.tournaments.length).toBeGreaterThan(200);
    expect(m.tier1TeamDays2).toBeGreaterThan(0);
  });

  it('names events after their host city, in the host country', () => {
    for (const t of window.tournaments) {
      expect(t.title.split(' ')[1]).toBe(t.city);
      expect(CITY_COUNTRY[t.city]).toBe(catalog.regions[t.hostRegion]!.country.abbreviation);
    }
  });

  it('rests some of the top teams each week, and plays tier-1 playoffs over four days', () => {
    const week = window.weeks[2]!;
    const entered = new Set(week.tournaments.flatMap((t) => t.rosters));
    const active = [...catalog.activeRosters.values()].flat();
    const strongest = [...active].sort((a, b) => catalog.strength.get(b.id)! - catalog.strength.get(a.id)!);
    expect(strongest.slice(0, 100).some((r) => !entered.has(r.id))).toBe(true);
    for (const t of week.tournaments.filter((x) => x.tier === 1)) {
      const playoffs = t.stages[1]!.substages.flatMap((sub) => sub.series);
      const days = new Set(playoffs.map((s) => Math.floor((s.start + t.utcOffsetH * 3600_000) / 86_400_000)));
      expect(days.size, t.title).toBeGreaterThanOrEqual(3);
    }
  });
});
