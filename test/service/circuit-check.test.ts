/**
 * The circuit measures of the schedule checker (src/service/schedule-check.ts circuitMeasures,
 * deadHours): what a fan of a real circuit would find wrong, each rule seen to fire on a
 * constructed schedule and to stay quiet on a sound one.
 */
import { describe, expect, it } from 'vitest';
import {
  bestOfKeepsTiers,
  type CheckedTournament,
  type CircuitSeries,
  circuitMeasures,
  deadHours,
} from '../../src/service/schedule-check.ts';

const HOUR = 3600_000;
/** Rosters 1-9 belong to team 1, 10-19 to team 2, and so on. */
const team = (roster: number) => Math.floor(roster / 10) + 1;

function series(
  id: number,
  rosters: number[],
  startHour: number,
  more: Partial<CircuitSeries> = {},
): CircuitSeries {
  return {
    id,
    tier: 1,
    start: startHour * HOUR,
    end: (startHour + 2) * HOUR,
    deletedAt: null,
    rosters,
    casters: [{ caster: { id: 301 } }],
    bestOf: 3,
    streamed: true,
    tournament: { id: 1, utcOffsetH: 0 },
    ...more,
  };
}

/** A tournament of a group (type 1) of rosters 1, 11, 21 and a playoff stage. */
function tournament(
  groupSeries: CircuitSeries[],
  playoffSeries: CircuitSeries[],
  more: Partial<CheckedTournament> = {},
): CheckedTournament {
  return {
    id: 1,
    tier: 1,
    prize: 250_000,
    city: 'Cologne',
    utcOffsetH: 0,
    stages: [
      { order: 1, substages: [{ type: 1, bestOf: 3, rosters: [1, 11, 21], series: groupSeries }] },
      { order: 2, substages: [{ type: 2, bestOf: 3, rosters: [1, 11], series: playoffSeries }] },
    ],
    ...more,
  };
}

const inGermany = (t: CheckedTournament) => ({
  cityCountry: t.city === 'Cologne' ? 'DE' : 'ES',
  hostCountry: 'DE',
});

/** A sound group: each team plays each other on its own day, in one broadcast day's hours. */
const group = () => [series(1, [1, 11], 12), series(2, [11, 21], 36), series(3, [21, 1], 60)];
/** Playoffs over three days (72 h from first start to last end). */
const playoffs = () => [series(4, [1, 11], 84), series(5, [1, 11], 154)];

describe('the circuit measures', () => {
  it('find nothing wrong with a sound event', () => {
    const m = circuitMeasures([tournament(group(), playoffs())], team, inGermany);
    expect(m).toMatchObject({
      tier1TeamDays3: 0,
      tier1TeamDays2: 0,
      unequalGroups: [],
      tier1CastPct: 100,
      tier1StreamedPct: 100,
      tier1PlayoffHoursMin: 72,
      tier1Prizes: 1,
      misplaced: [],
    });
    // Group days at 12:00 UTC, the final at 10:00.
    expect(m.tier1StartHoursMedian).toBe(2);
    expect(m.groupBestOf).toEqual([3, 0, 0, 0]);
  });

  it('count tier-1 team-days by the host calendar, with 2 and with 3 series', () => {
    const busy = [series(1, [1, 11], 10), series(2, [1, 21], 13), series(3, [1, 31], 16)];
    expect(circuitMeasures([tournament(busy, [])], team, inGermany).tier1TeamDays3).toBe(1);
    // 22:00 and 23:30 UTC are the next day in a host 3 hours ahead: 1 series, then 2.
    const split = [series(1, [1, 11], 10), series(2, [1, 21], 22), series(3, [1, 31], 23.5)].map((s) => ({
      ...s,
      tournament: { id: 1, utcOffsetH: 3 },
    }));
    const m = circuitMeasures([tournament(split, [])], team, inGermany);
    expect(m.tier1TeamDays3).toBe(0);
    expect(m.tier1TeamDays2).toBe(1);
  });

  it('flag a group whose teams played unequal series, a cancelled series left out, a replay counted', () => {
    const cancelled = [
      series(1, [1, 11], 12),
      series(2, [11, 21], 36),
      series(3, [21, 1], 60, { deletedAt: 0 }),
    ];
    const m = circuitMeasures([tournament(cancelled, [])], team, inGermany);
    expect(m.unequalGroups).toEqual(['tournament 1: group played 1/2 series']);
    const replayed = [...cancelled, series(6, [21, 1], 62)];
    expect(circuitMeasures([tournament(replayed, [])], team, inGermany).unequalGroups).toEqual([]);
  });

  it('count tier-1 series without a caster or a stream, and short playoffs', () => {
    const thin = [series(1, [1, 11], 12, { casters: [] }), series(2, [11, 21], 36, { streamed: false })];
    const m = circuitMeasures(
      [tournament(thin, [series(4, [1, 11], 84), series(5, [1, 11], 90)])],
      team,
      inGermany,
    );
    expect(m.tier1CastPct).toBe(75);
    expect(m.tier1StreamedPct).toBe(75);
    expect(m.tier1PlayoffHoursMin).toBe(8);
  });

  it('count distinct UTC start hours per tier-1 event and distinct prize pools', () => {
    const roundTheClock = [0, 5, 10, 15, 20].map((h, i) => series(i + 1, [1 + i, 41 + i], h + 24 * i));
    const a = tournament(roundTheClock, [], { id: 1 });
    const b = tournament(group(), [], { id: 2, prize: 1_000_000 });
    const c = tournament(group(), [], { id: 3, prize: 150_000 });
    const m = circuitMeasures([a, b, c], team, inGermany);
    expect(m.tier1StartHoursMedian).toBe(1);
    expect(circuitMeasures([a], team, inGermany).tier1StartHoursMedian).toBe(5);
    expect(m.tier1Prizes).toBe(3);
  });

  it('flag a host city outside the host country', () => {
    const m = circuitMeasures([tournament(group(), [], { city: 'Valencia' })], team, inGermany);
    expect(m.misplaced).toEqual(['tournament 1: Valencia is not in DE']);
  });

  it('tell whether group best-of keeps the tiers (never rises with the tier number)', () => {
    expect(bestOfKeepsTiers([3, 3, 1, 1])).toBe(true);
    expect(bestOfKeepsTiers([3, 0, 1, 1])).toBe(true);
    expect(bestOfKeepsTiers([3, 1, 3, 1])).toBe(false);
  });

  it('measure the busiest caster day in hours and series', () => {
    const caster = [{ caster: { id: 301 } }];
    const day = [0, 3, 6, 9, 12, 15].map((h, i) =>
      series(i + 1, [1 + i * 10, 2 + i * 10], h, { casters: caster }),
    );
    const m = circuitMeasures([tournament(day, [])], team, inGermany);
    expect(m.casterDayHours).toBe(12);
    expect(m.casterDaySeries).toBe(6);
    // A day later the count starts again.
    const apart = [series(1, [1, 11], 0, { casters: caster }), series(2, [21, 31], 24, { casters: caster })];
    expect(circuitMeasures([tournament(apart, [])], team, inGermany).casterDaySeries).toBe(1);
  });
});

describe('the hours with nothing live', () => {
  it('are the hour marks no series of the tiers covers, deleted series left out', () => {
    const list = [
      series(1, [1, 11], 0, { tier: 2 }),
      series(2, [1, 11], 3, { tier: 3 }),
      series(3, [1, 11], 3, { tier: 1, deletedAt: 0 }),
    ];
    expect(deadHours(list, 0, 5 * HOUR, [1, 2]).map((t) => t / HOUR)).toEqual([2.5, 3.5, 4.5]);
    expect(deadHours(list, 0, 5 * HOUR, [1, 2, 3]).map((t) => t / HOUR)).toEqual([2.5]);
  });
});
