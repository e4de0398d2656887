/**
 * `npm run bench:world-plan [-- --scales 1,1.5 --seeds 1,42,7]`: how long planning the local
 * service's 5-week window takes (planWeek per week, a fresh catalog each time), and what a fan
 * would find wrong in it (schedule-check.ts): a team in two series at once, less than an hour of
 * rest, a tier-1 team with more than 3 series in 24 hours, a caster on two series at once; and the
 * most series of each tier one team starts in 24 hours, and how far a week's series run past its end.
 * Prints one line per (seed, scale), then one JSON line (the last line).
 */
import { Catalog } from '../src/service/catalog.ts';
import { planWeek, type SeriesPlan, WEEK_MS, weekOf, weekStart } from '../src/service/schedule.ts';
import { busiestDays, checkSchedule, TEAM_REST_MS, TIER1_PER_DAY } from '../src/service/schedule-check.ts';

const args = process.argv.slice(2);
const list = (flag: string, fallback: string) => {
  const i = args.indexOf(flag);
  return (i >= 0 ? args[i + 1]! : fallback).split(',').map(Number);
};
const scales = list('--scales', '1,1.5');
const seeds = list('--seeds', '1,42,7');
/** The window of the tests' frozen instant (Wednesday 18 Nov 2026 15:00 UTC): 5 weeks. */
const INSTANT = Date.parse('2026-11-18T15:00:00.000Z');
const DAY = 24 * 3600_000;
const firstWeek = weekOf(INSTANT - 14 * DAY);
const lastWeek = weekOf(INSTANT + 14 * DAY);

const runs = [];
for (const scale of scales) {
  for (const seed of seeds) {
    const catalog = new Catalog(seed);
    const started = performance.now();
    const series: SeriesPlan[] = [];
    let overrun = 0;
    for (let w = firstWeek; w <= lastWeek; w++) {
      const week = planWeek(catalog, w, scale).series;
      series.push(...week);
      const ends = week.filter((s) => s.postponedFrom === null && s.deletedAt === null).map((s) => s.end);
      overrun = Math.max(overrun, Math.max(...ends) - weekStart(w) - WEEK_MS);
    }
    const planMs = Math.round(performance.now() - started);
    const team = (roster: number) => catalog.rosterById.get(roster)!.team.id;
    const p = checkSchedule(series, team, { restMs: TEAM_REST_MS, tier1PerDay: TIER1_PER_DAY });
    const run = {
      seed,
      scale,
      series: p.series,
      plan_ms: planMs,
      team_overlaps: p.teamOverlaps.length,
      short_rests: p.shortRests.length,
      tier1_over_3_per_day: p.tier1Busy.length,
      caster_overlaps: p.casterOverlaps.length,
      /** Per tier (1-4), the most series of it one team starts within 24 hours. */
      max_per_team_day: [1, 2, 3, 4].map((tier) => busiestDays(series, team).get(tier) ?? 0),
      /** Minutes the last series of a week (postponed ones aside) ends after the week. */
      overrun_min: Math.round(overrun / 60_000),
      teams: catalog.teams.length,
    };
    runs.push(run);
    console.log(
      `seed ${seed} scale ${scale}: ${run.series} series planned in ${planMs} ms; team overlaps ${run.team_overlaps}, rests under 1 h ${run.short_rests}, tier-1 over 3/24 h ${run.tier1_over_3_per_day}, caster overlaps ${run.caster_overlaps}; most series a team starts in 24 h by tier ${run.max_per_team_day.join('/')}; ends ${run.overrun_min} min after its week; ${run.teams} teams`,
    );
  }
}
console.log(JSON.stringify({ weeks: lastWeek - firstWeek + 1, runs }));
