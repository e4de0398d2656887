/**
 * The world a fan looks at, over the service's whole window (five weeks, so
 * four week boundaries) for a few seeds: a team plays one series at a time with at least an hour
 * between two, a tier-1 team at most 3 tier-1 series in 24 hours, a team enters one tournament a
 * week, and every team has its own name.
 */
import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import { busiestDays, checkSchedule, TEAM_REST_MS, TIER1_PER_DAY } from '../../src/service/schedule-check.ts';
import { World } from '../../src/service/world.ts';
import { INSTANT } from './helpers.ts';

describe.each([1, 42])('the world of seed %i', (seed) => {
  const world = new World(seed, 1, new Clock({ start: INSTANT, frozen: true }));
  const { catalog } = world;
  const team = (roster: number) => catalog.rosterById.get(roster)!.team.id;

  it('never has a team in two series at once, and rests it an hour between two', () => {
    const series = world.window(INSTANT.getTime()).series;
    const problems = checkSchedule(series, team, { restMs: TEAM_REST_MS, tier1PerDay: TIER1_PER_DAY });
    expect(problems.teamOverlaps).toEqual([]);
    expect(problems.shortRests).toEqual([]);
    expect(problems.tier1Busy).toEqual([]);
    expect(problems.casterOverlaps).toEqual([]);
    // Not vacuous: five weeks of series, and a tier-1 team plays up to its 3 a day.
    expect(problems.series).toBeGreaterThan(9000);
    expect(busiestDays(series, team).get(1)).toBe(TIER1_PER_DAY);
  });

  it('enters each team in one tournament a week, the strongest in tier 1', () => {
    const week = world.week(world.window(INSTANT.getTime()).series[0]!.week);
    const entered = new Map<number, number>();
    for (const t of week.tournaments)
      for (const r of t.rosters) entered.set(team(r), (entered.get(team(r)) ?? 0) + 1);
    expect(Math.max(...entered.values())).toBe(1);
    const mean = (tier: number) => {
      const rosters = week.tournaments.filter((t) => t.tier === tier).flatMap((t) => t.rosters);
      return rosters.reduce((sum, r) => sum + catalog.strength.get(r)!, 0) / rosters.length;
    };
    expect(mean(1)).toBeGreaterThan(mean(2));
    expect(mean(2)).toBeGreaterThan(mean(3));
    expect(mean(3)).toBeGreaterThan(mean(4));
  });

  it('gives every team its own name', () => {
    const names = catalog.teams.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(800);
  });
});
