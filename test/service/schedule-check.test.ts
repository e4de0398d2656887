/**
 * The schedule checker (src/service/schedule-check.ts) finds what a fan would find wrong: a team in
 * two series at once, less than an hour between two, a tier-1 team with more than 3 series in
 * 24 hours, a caster on two series at once. Constructed schedules, so each rule is seen to fire.
 */
import { describe, expect, it } from 'vitest';
import {
  type CheckedSeries,
  checkSchedule,
  TEAM_REST_MS,
  TIER1_PER_DAY,
} from '../../src/service/schedule-check.ts';

const HOUR = 3600_000;
/** Rosters 1-9 belong to team 1, 10-19 to team 2, and so on. */
const team = (roster: number) => Math.floor(roster / 10) + 1;
const options = { restMs: TEAM_REST_MS, tier1PerDay: TIER1_PER_DAY };

function series(
  id: number,
  rosters: number[],
  startHour: number,
  hours: number,
  more: Partial<CheckedSeries> = {},
) {
  return {
    id,
    tier: 2,
    start: startHour * HOUR,
    end: (startHour + hours) * HOUR,
    deletedAt: null,
    rosters,
    casters: [],
    ...more,
  } satisfies CheckedSeries;
}

describe('the schedule checker', () => {
  it('passes a schedule with rest between every series of a team', () => {
    const plans = [series(1, [1, 11], 0, 2), series(2, [1, 21], 3, 2), series(3, [11, 21], 6, 1)];
    const p = checkSchedule(plans, team, options);
    expect(p).toEqual({ teamOverlaps: [], shortRests: [], tier1Busy: [], casterOverlaps: [], series: 3 });
  });

  it('flags a team in two overlapping series, by team even with two rosters of it', () => {
    // Rosters 1 and 2 are both team 1: series 2 starts an hour before series 1 ends.
    const plans = [series(1, [1, 11], 0, 2), series(2, [2, 21], 1, 2)];
    const p = checkSchedule(plans, team, options);
    expect(p.teamOverlaps).toEqual(['team 1: series 1 and 2 overlap']);
    expect(p.shortRests).toEqual([]);
  });

  it('flags every pair when a long series overlaps two later ones', () => {
    const plans = [series(1, [1, 11], 0, 5), series(2, [1, 21], 1, 1), series(3, [1, 31], 3, 1)];
    const p = checkSchedule(plans, team, options);
    expect(p.teamOverlaps).toEqual(['team 1: series 1 and 2 overlap', 'team 1: series 1 and 3 overlap']);
  });

  it('flags less than an hour of rest, and not exactly an hour', () => {
    const plans = [series(1, [1, 11], 0, 2), series(2, [1, 21], 2.5, 1), series(3, [11, 31], 3, 1)];
    const p = checkSchedule(plans, team, options);
    expect(p.shortRests).toEqual(['team 1: 30 min between series 1 and 2']);
    expect(p.teamOverlaps).toEqual([]);
  });

  it('flags a fourth tier-1 series within 24 hours, and not one a day later', () => {
    const tier1 = (id: number, at: number) => series(id, [1, 10 + id * 10], at, 1, { tier: 1 });
    const busy = checkSchedule([tier1(1, 0), tier1(2, 4), tier1(3, 8), tier1(4, 23)], team, options);
    expect(busy.tier1Busy).toEqual(['team 1: 4 tier-1 series from 1 to 4 within 24 h']);
    const calm = checkSchedule([tier1(1, 0), tier1(2, 4), tier1(3, 8), tier1(4, 24)], team, options);
    expect(calm.tier1Busy).toEqual([]);
  });

  it('flags a caster on two overlapping series, and leaves deleted series out', () => {
    const caster = (id: number) => [{ caster: { id } }];
    const plans = [
      series(1, [1, 11], 0, 2, { casters: caster(301) }),
      series(2, [21, 31], 1, 2, { casters: caster(301) }),
      // Deleted before it was played: neither its teams nor its caster are busy.
      series(3, [1, 41], 1, 2, { casters: caster(302), deletedAt: 0 }),
      series(4, [51, 61], 1, 2, { casters: caster(302) }),
    ];
    const p = checkSchedule(plans, team, options);
    expect(p.casterOverlaps).toEqual(['caster 301: series 1 and 2 overlap']);
    expect(p.teamOverlaps).toEqual([]);
    expect(p.series).toBe(3);
  });
});
