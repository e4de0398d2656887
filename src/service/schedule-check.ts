/**
 * Checks a planned schedule against what a fan expects of real teams and casters: a team plays one
 * series at a time with at least an hour between two, a tier-1 team plays at most 3 series in any
 * 24 hours, and a caster casts one series at a time. Used by the tests and bench/world-plan.ts.
 * Deleted series are never played and are left out; postponed ones count at their new time.
 */

/** What the check needs of a series (a SeriesPlan has all of it). */
export interface CheckedSeries {
  id: number;
  tier: number;
  start: number;
  end: number;
  deletedAt: number | null;
  rosters: number[];
  casters: { caster: { id: number } }[];
}

export interface ScheduleProblems {
  /** A team in two series whose [start, end] overlap. */
  teamOverlaps: string[];
  /** Two series of a team less than `restMs` apart (overlaps not counted again). */
  shortRests: string[];
  /** A tier-1 team with more than `tier1PerDay` series starting within 24 hours. */
  tier1Busy: string[];
  /** A caster on two series whose [start, end] overlap. */
  casterOverlaps: string[];
  /** Series checked (not deleted). */
  series: number;
}

export interface CheckOptions {
  restMs: number;
  tier1PerDay: number;
}

const DAY_MS = 24 * 3600_000;
/** What a fan expects: at least an hour between two series of a team. */
export const TEAM_REST_MS = 60 * 60_000;
/** What a fan expects: a tier-1 team plays at most 3 series in 24 hours. */
export const TIER1_PER_DAY = 3;

/** Series grouped by a key, each group sorted by start then id. */
function groupBy(
  series: CheckedSeries[],
  keys: (s: CheckedSeries) => number[],
): Map<number, CheckedSeries[]> {
  const groups = new Map<number, CheckedSeries[]>();
  for (const s of series) {
    for (const key of new Set(keys(s))) {
      const list = groups.get(key) ?? [];
      list.push(s);
      groups.set(key, list);
    }
  }
  for (const list of groups.values()) list.sort((a, b) => a.start - b.start || a.id - b.id);
  return groups;
}

/** Pairs of one owner's series that overlap: each series against every later one that starts before it ends. */
function overlaps(owner: string, list: CheckedSeries[], out: string[]): void {
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length && list[j]!.start < list[i]!.end; j++)
      out.push(`${owner}: series ${list[i]!.id} and ${list[j]!.id} overlap`);
  }
}

/** Every problem of the schedule; `team` maps a roster id to its team id. */
export function checkSchedule(
  all: CheckedSeries[],
  team: (roster: number) => number,
  options: CheckOptions,
): ScheduleProblems {
  const played = all.filter((s) => s.deletedAt === null);
  const problems: ScheduleProblems = {
    teamOverlaps: [],
    shortRests: [],
    tier1Busy: [],
    casterOverlaps: [],
    series: played.length,
  };
  for (const [id, list] of groupBy(played, (s) => s.rosters.map(team))) {
    overlaps(`team ${id}`, list, problems.teamOverlaps);
    for (let i = 1; i < list.length; i++) {
      const gap = list[i]!.start - list[i - 1]!.end;
      if (gap >= 0 && gap < options.restMs)
        problems.shortRests.push(
          `team ${id}: ${Math.round(gap / 60_000)} min between series ${list[i - 1]!.id} and ${list[i]!.id}`,
        );
    }
    const tier1 = list.filter((s) => s.tier === 1);
    for (let i = options.tier1PerDay; i < tier1.length; i++) {
      const first = tier1[i - options.tier1PerDay]!;
      if (tier1[i]!.start - first.start < DAY_MS)
        problems.tier1Busy.push(
          `team ${id}: ${options.tier1PerDay + 1} tier-1 series from ${first.id} to ${tier1[i]!.id} within 24 h`,
        );
    }
  }
  for (const [id, list] of groupBy(played, (s) => s.casters.map((c) => c.caster.id)))
    overlaps(`caster ${id}`, list, problems.casterOverlaps);
  return problems;
}

/**
 * Per tier, the most series of that tier one team starts within any 24 hours (deleted series left
 * out): what a fan of the busiest team sees in a day.
 */
export function busiestDays(all: CheckedSeries[], team: (roster: number) => number): Map<number, number> {
  const most = new Map<number, number>();
  const played = all.filter((s) => s.deletedAt === null);
  for (const tier of new Set(played.map((s) => s.tier))) {
    const ofTier = played.filter((s) => s.tier === tier);
    let max = 0;
    for (const list of groupBy(ofTier, (s) => s.rosters.map(team)).values()) {
      let first = 0;
      for (let i = 0; i < list.length; i++) {
        while (list[i]!.start - list[first]!.start >= DAY_MS) first++;
        max = Math.max(max, i - first + 1);
      }
    }
    most.set(tier, max);
  }
  return most;
}
