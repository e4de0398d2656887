/**
 * `npm run bench:world-plan [-- --scales 1,1.5 --seeds 1,42,7]`: how long planning the local
 * service's 5-week window takes (planWeek per week, a fresh catalog each time), and what a fan
 * would find wrong in it (schedule-check.ts): a team in two series at once, less than an hour of
 * rest, a tier-1 team with more than 3 series in 24 hours, a caster on two series at once; and the
 * most series of each tier one team starts in 24 hours, and how far a week's series run past its end;
 * then how it compares with a real circuit (circuitMeasures): tier-1 team-days with 3 series, unequal
 * finished groups, tier-1 series cast and streamed, distinct UTC start hours of a tier-1 event, how
 * long tier-1 playoffs run, tier-1 prize pools, group best-of by tier, host cities outside their
 * country, the busiest caster's day, and hours with nothing live.
 * Prints two lines per (seed, scale), then one JSON line (the last line).
 */
import { Catalog } from '../src/service/catalog.ts';
import { CITY_COUNTRY } from '../src/service/places.ts';
import {
  planWeek,
  type SeriesPlan,
  type TournamentPlan,
  WEEK_MS,
  weekOf,
  weekStart,
} from '../src/service/schedule.ts';
import {
  bestOfKeepsTiers,
  busiestDays,
  type CheckedTournament,
  checkSchedule,
  circuitMeasures,
  deadHours,
  TEAM_REST_MS,
  TIER1_PER_DAY,
} from '../src/service/schedule-check.ts';

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
    const tournaments: TournamentPlan[] = [];
    let overrun = 0;
    for (let w = firstWeek; w <= lastWeek; w++) {
      const plan = planWeek(catalog, w, scale);
      const week = plan.series;
      series.push(...week);
      tournaments.push(...plan.tournaments);
      const ends = week.filter((s) => s.postponedFrom === null && s.deletedAt === null).map((s) => s.end);
      overrun = Math.max(overrun, Math.max(...ends) - weekStart(w) - WEEK_MS);
    }
    const planMs = Math.round(performance.now() - started);
    const team = (roster: number) => catalog.rosterById.get(roster)!.team.id;
    const p = checkSchedule(series, team, { restMs: TEAM_REST_MS, tier1PerDay: TIER1_PER_DAY });
    const placeOf = (t: CheckedTournament) => ({
      cityCountry: CITY_COUNTRY[t.city],
      hostCountry: catalog.regions[(t as TournamentPlan).hostRegion]!.country.abbreviation,
    });
    const c = circuitMeasures(tournaments, team, placeOf);
    // The middle week of the window, hour by hour: is a tier-1/2 series (what the default tenant
    // follows) live, and is any series live?
    const middle = weekStart(weekOf(INSTANT));
    const dead12 = deadHours(series, middle, middle + WEEK_MS, [1, 2]).length;
    const deadAll = deadHours(series, middle, middle + WEEK_MS, [1, 2, 3, 4]).length;
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
      tier1_team_days_3: c.tier1TeamDays3,
      tier1_team_days_2: c.tier1TeamDays2,
      unequal_groups: c.unequalGroups.length,
      tier1_cast_pct: c.tier1CastPct,
      tier1_streamed_pct: c.tier1StreamedPct,
      tier1_start_hours_median: c.tier1StartHoursMedian,
      tier1_playoff_hours_min: c.tier1PlayoffHoursMin,
      tier1_prizes: c.tier1Prizes,
      group_best_of_by_tier: c.groupBestOf,
      best_of_keeps_tiers: bestOfKeepsTiers(c.groupBestOf),
      misplaced_hosts: c.misplaced.length,
      caster_day_hours: c.casterDayHours,
      caster_day_series: c.casterDaySeries,
      dead_hours_tier12: dead12,
      dead_hours_all: deadAll,
    };
    // What a real circuit holds to (the targets of these measures).
    const fails = Object.entries({
      'no team or caster in two series at once, rests of an hour':
        run.team_overlaps + run.short_rests + run.caster_overlaps + run.tier1_over_3_per_day === 0,
      'tier-1 team-days with 3 series': run.tier1_team_days_3 === 0,
      'unequal finished groups': run.unequal_groups === 0,
      'tier-1 cast >= 95 %': run.tier1_cast_pct >= 95,
      'tier-1 streamed >= 98 %': run.tier1_streamed_pct >= 98,
      'tier-1 start hours <= 14': run.tier1_start_hours_median <= 14,
      'tier-1 playoffs >= 60 h': run.tier1_playoff_hours_min >= 60,
      'tier-1 prize pools >= 3': run.tier1_prizes >= 3,
      'group best-of by tier': run.best_of_keeps_tiers,
      'host cities in their country': run.misplaced_hosts === 0,
      'something live every hour': run.dead_hours_tier12 === 0,
    })
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    const verdict = { ...run, fails };
    runs.push(verdict);
    console.log(
      `seed ${seed} scale ${scale}: ${run.series} series planned in ${planMs} ms; team overlaps ${run.team_overlaps}, rests under 1 h ${run.short_rests}, tier-1 over 3/24 h ${run.tier1_over_3_per_day}, caster overlaps ${run.caster_overlaps}; most series a team starts in 24 h by tier ${run.max_per_team_day.join('/')}; ends ${run.overrun_min} min after its week; ${run.teams} teams`,
    );
    console.log(
      `  tier-1 team-days with 3 series ${run.tier1_team_days_3} (with 2: ${run.tier1_team_days_2}); unequal finished groups ${run.unequal_groups}; tier-1 cast ${run.tier1_cast_pct} %, streamed ${run.tier1_streamed_pct} %; median distinct UTC start hours per tier-1 event ${run.tier1_start_hours_median}; shortest tier-1 playoffs ${run.tier1_playoff_hours_min} h; tier-1 prize pools ${run.tier1_prizes}; group best-of by tier ${run.group_best_of_by_tier.join('/')} (${run.best_of_keeps_tiers ? 'never rises' : 'RISES'}); host cities outside their country ${run.misplaced_hosts}; busiest caster ${run.caster_day_hours} h / ${run.caster_day_series} series in 24 h; hours of the middle week with nothing live: tiers 1-2 ${run.dead_hours_tier12}, any tier ${run.dead_hours_all}`,
    );
    console.log(`  ${fails.length === 0 ? 'every measure holds' : `fails: ${fails.join(', ')}`}`);
  }
}
console.log(JSON.stringify({ weeks: lastWeek - firstWeek + 1, runs }));
