/**
 * Checks a planned schedule against what a fan expects of real teams and casters: a team plays one
 * series at a time with at least an hour between two, a tier-1 team plays at most 3 series in any
 * 24 hours, and a caster casts one series at a time (checkSchedule); and how the world compares
 * with a real circuit (circuitMeasures, deadHours): team-days, equal groups, broadcasts, broadcast
 * days, playoffs, prize pools, formats by tier, host places, casters' days and live hours. Used by
 * the tests and bench/world-plan.ts. Deleted series are never played and are left out; postponed
 * ones count at their new time.
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
/** ... and at most 2 tier-1 series on one day of its host (1 on most days). */
export const TIER1_PER_HOST_DAY = 2;
/** What a caster's day holds at most: hours on air and series, starting within 24 hours. */
export const CASTER_DAY_HOURS = 10;
export const CASTER_DAY_SERIES = 6;

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

/** What the circuit measures need of a tournament (a TournamentPlan has all of it). */
export interface CheckedTournament {
  id: number;
  tier: number;
  prize: number;
  city: string;
  utcOffsetH: number;
  stages: {
    order: number;
    substages: { type: number; bestOf: number; rosters: number[]; series: CircuitSeries[] }[];
  }[];
}

/** A series as the circuit measures read it. */
export interface CircuitSeries extends CheckedSeries {
  bestOf: number;
  streamed: boolean;
  tournament: { id: number; utcOffsetH: number };
}

/**
 * How the world looks next to a real circuit (bench/world-plan.ts prints these; the tests hold
 * them): per-day loads in the host's days, equal groups, broadcasts, broadcast days, playoffs,
 * prize pools, formats by tier and the places events are held in.
 */
export interface CircuitMeasures {
  /** Team-days (the host's calendar day) with more than TIER1_PER_HOST_DAY tier-1 series, and with exactly 2. */
  tier1TeamDays3: number;
  tier1TeamDays2: number;
  /** Finished round-robin groups whose teams did not all play the same number of series. */
  unequalGroups: string[];
  /** Per cent of the tier-1 series (not deleted) with a caster, and streamed. */
  tier1CastPct: number;
  tier1StreamedPct: number;
  /** Median over tier-1 tournaments of their series' distinct UTC start hours. */
  tier1StartHoursMedian: number;
  /** Shortest span (first start to last end, hours) of a tier-1 tournament's playoffs. */
  tier1PlayoffHoursMin: number;
  /** Distinct tier-1 prize pools. */
  tier1Prizes: number;
  /** Per tier (1-4), the median best-of of round-robin group series (0: none). */
  groupBestOf: number[];
  /** Tournaments whose host city does not lie in the host country. */
  misplaced: string[];
  /** The most hours, and series, one caster casts starting within 24 hours. */
  casterDayHours: number;
  casterDaySeries: number;
}

const HOUR_MS = 3600_000;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The host's calendar day of a series' start. */
export function hostDay(s: CircuitSeries): number {
  return Math.floor((s.start + s.tournament.utcOffsetH * HOUR_MS) / DAY_MS);
}

/**
 * The circuit measures of tournaments and their series. `team` maps a roster to its team,
 * `placeOf` a tournament to the country its city lies in and its host country.
 */
export function circuitMeasures(
  tournaments: CheckedTournament[],
  team: (roster: number) => number,
  placeOf: (t: CheckedTournament) => { cityCountry: string | undefined; hostCountry: string },
): CircuitMeasures {
  const all = tournaments.flatMap((t) =>
    t.stages.flatMap((st) => st.substages.flatMap((sub) => sub.series.filter((s) => s.deletedAt === null))),
  );
  const tier1 = all.filter((s) => s.tier === 1);
  const teamDays = new Map<string, number>();
  for (const s of tier1)
    for (const id of new Set(s.rosters.map(team))) {
      const key = `${id}|${hostDay(s)}`;
      teamDays.set(key, (teamDays.get(key) ?? 0) + 1);
    }
  const days = [...teamDays.values()];
  const unequalGroups: string[] = [];
  const groupBestOf: number[][] = [[], [], [], []];
  for (const t of tournaments)
    for (const st of t.stages)
      for (const sub of st.substages) {
        if (sub.type !== 1) continue;
        const played = new Map(sub.rosters.map((r) => [r, 0]));
        for (const s of sub.series) {
          if (s.deletedAt !== null) continue;
          groupBestOf[t.tier - 1]?.push(s.bestOf);
          for (const r of s.rosters) played.set(r, (played.get(r) ?? 0) + 1);
        }
        const counts = new Set(played.values());
        if (counts.size > 1)
          unequalGroups.push(`tournament ${t.id}: group played ${[...counts].join('/')} series`);
      }
  const pct = (n: number) => (tier1.length === 0 ? 100 : Math.round((1000 * n) / tier1.length) / 10);
  const t1 = tournaments.filter((t) => t.tier === 1);
  const hours = t1.map((t) => {
    const set = new Set<number>();
    for (const st of t.stages)
      for (const sub of st.substages)
        for (const s of sub.series) if (s.deletedAt === null) set.add(new Date(s.start).getUTCHours());
    return set.size;
  });
  const playoffSpans = t1.map((t) => {
    const list = t.stages
      .filter((st) => st.order > 1)
      .flatMap((st) => st.substages.flatMap((sub) => sub.series.filter((s) => s.deletedAt === null)));
    if (list.length === 0) return 0;
    return (Math.max(...list.map((s) => s.end)) - Math.min(...list.map((s) => s.start))) / HOUR_MS;
  });
  const misplaced = tournaments
    .filter((t) => {
      const place = placeOf(t);
      return place.cityCountry !== place.hostCountry;
    })
    .map((t) => `tournament ${t.id}: ${t.city} is not in ${placeOf(t).hostCountry}`);
  let casterDayHours = 0;
  let casterDaySeries = 0;
  for (const list of groupBy(all, (s) => s.casters.map((c) => c.caster.id)).values()) {
    let first = 0;
    let ms = 0;
    for (let i = 0; i < list.length; i++) {
      ms += list[i]!.end - list[i]!.start;
      while (list[i]!.start - list[first]!.start >= DAY_MS) {
        ms -= list[first]!.end - list[first]!.start;
        first++;
      }
      casterDayHours = Math.max(casterDayHours, ms / HOUR_MS);
      casterDaySeries = Math.max(casterDaySeries, i - first + 1);
    }
  }
  return {
    tier1TeamDays3: days.filter((n) => n > TIER1_PER_HOST_DAY).length,
    tier1TeamDays2: days.filter((n) => n === 2).length,
    unequalGroups,
    tier1CastPct: pct(tier1.filter((s) => s.casters.length > 0).length),
    tier1StreamedPct: pct(tier1.filter((s) => s.streamed).length),
    tier1StartHoursMedian: median(hours),
    tier1PlayoffHoursMin: Math.round(Math.min(...playoffSpans, Number.POSITIVE_INFINITY) * 10) / 10,
    tier1Prizes: new Set(t1.map((t) => t.prize)).size,
    groupBestOf: groupBestOf.map(median),
    misplaced,
    casterDayHours: Math.round(casterDayHours * 10) / 10,
    casterDaySeries,
  };
}

/** Whether group best-of never rises as the tier number rises (tiers without groups skipped). */
export function bestOfKeepsTiers(groupBestOf: number[]): boolean {
  const present = groupBestOf.filter((b) => b > 0);
  return present.every((b, i) => i === 0 || b <= present[i - 1]!);
}

/**
 * The hour marks (each hour's half past) in [from, to) at which no series of `tiers` is live
 * (started, not yet over, not deleted): a fan opening the service then would see nothing on.
 */
export function deadHours(all: CheckedSeries[], from: number, to: number, tiers: number[]): number[] {
  const dead: number[] = [];
  const list = all.filter((s) => s.deletedAt === null && tiers.includes(s.tier));
  for (let t = from + HOUR_MS / 2; t < to; t += HOUR_MS)
    if (!list.some((s) => s.start <= t && t < s.end)) dead.push(t);
  return dead;
}
