/**
 * The plan of one week of competition, generated from (seed, week, scale) alone: tournaments,
 * stages, substages, series and matches with their timing and outcomes decided up front. The state
 * at an instant (world.ts) only reads these plans, so it is a pure function of (seed, instant).
 * Outcomes come from series-plans.ts, start times from timetable.ts (a team plays one series at a
 * time, with rest), the rest of the timing and the casters from series-timing.ts.
 *
 * Weeks start on Monday 00:00 UTC, counted from Monday 2000-01-03. Ids encode where they come
 * from, so they are stable across restarts and a detail request can regenerate its week:
 *   tournament = week*1000 + game*100 + n      stage = tournament*10 + n     substage = stage*10 + n
 *   series     = week*1_000_000 + game*100_000 + n (replays: n from 50_001)       match = series*8 + order
 */
import type { Catalog } from './catalog.ts';
import { Entrants } from './entrants.ts';
import { CITIES, REGION_UTC_OFFSET, ZONES, zoneOf } from './places.ts';
import type { StagePlan, TournamentPlan, WeekPlan } from './plan-types.ts';
import { Rng } from './random.ts';
import { replayCancelled } from './replays.ts';
import {
  addSeries,
  type Ctx,
  doubleElimination,
  finalStandings,
  roundRobin,
  substage,
} from './series-plans.ts';
import { assignCasters, finishPlan, revealParticipants } from './series-timing.ts';
import {
  battleRoyaleGroups,
  entrantCount,
  finalLobbyDays,
  LOBBY_DAYS,
  TEMPLATES,
  type Template,
  tournamentCount,
} from './tiers.ts';
import { lastDayEnd, SPILL_MS, scheduleWeek } from './timetable.ts';
import { dayMonth, WEEK_MS, weekDates, weekStart } from './weeks.ts';

export type {
  MatchPlan,
  SeriesPlan,
  StagePlan,
  SubstagePlan,
  TournamentPlan,
  WeekPlan,
} from './plan-types.ts';
export { coverageFor, finalStandings, KILL_MULTIPLIER, PLACEMENT_POINTS } from './series-plans.ts';
export { REST_MS } from './series-timing.ts';
export { runsLate, WEEK_CARRY_MS } from './timetable.ts';
export { EPOCH_MS, WEEK_MS, weekDates, weekOf, weekStart } from './weeks.ts';

const SERIES_PER_GAME = 100_000;
/** Replays of cancelled group series (replays.ts) are numbered from here within a game's week. */
const REPLAY_IDS = 50_000;
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

/**
 * The tournaments of a week with their series and outcomes, timed relative to each series' own
 * start; `timed` false: only the tournaments and their teams (what the next week needs to know).
 */
function buildWeek(catalog: Catalog, week: number, scale: number, timed = true): TournamentPlan[] {
  const tournaments: TournamentPlan[] = [];
  for (const info of catalog.games) {
    const game = info.game.id;
    const rng = new Rng(catalog.seed, 'week', week, 'game', game);
    let seq = 0;
    const nextSeriesId = () => week * 1_000_000 + game * SERIES_PER_GAME + ++seq;
    let tIndex = 0;
    const entrants = new Entrants(catalog, week, game);
    const battleRoyale = info.kind === 'battle-royale';
    const names = new Map<string, number>();
    for (const template of TEMPLATES) {
      const count = tournamentCount(template.tier, scale, battleRoyale);
      for (let k = 0; k < count; k++) {
        tIndex++;
        const where = { week, game, index: tIndex, k, names, outline: !timed };
        const pool = entrants.take(template.tier, entrantCount(template, battleRoyale));
        tournaments.push(buildTournament(catalog, rng, where, template, pool, nextSeriesId));
      }
    }
    if (!timed) continue;
    // Timing relative to the series' own start (0) first, so the timetable knows durations and
    // which group series are cancelled, and replays them.
    const ofGame = tournaments.filter((t) => t.game === game);
    for (const t of ofGame)
      for (const st of t.stages)
        for (const sub of st.substages) for (const s of sub.series) finishPlan(catalog, s);
    let replay = week * 1_000_000 + game * SERIES_PER_GAME + REPLAY_IDS;
    for (const t of ofGame) replayCancelled(catalog, t, () => ++replay);
  }
  return tournaments;
}

/** Generates the whole week. Deterministic in (catalog.seed, week, scale). */
export function planWeek(catalog: Catalog, week: number, scale: number): WeekPlan {
  const tournaments = buildWeek(catalog, week, scale);
  const series = tournaments.flatMap((t) =>
    t.stages.flatMap((st) => st.substages.flatMap((sub) => sub.series)),
  );
  // Each event plays its broadcast days (timetable.ts); the teams of last week's events that run
  // past its end are kept free until they are over.
  scheduleWeek(
    tournaments,
    weekStart(week),
    lateRosters(buildWeek(catalog, week - 1, scale, false), weekStart(week)),
  );
  for (const t of tournaments) {
    let start = Number.POSITIVE_INFINITY;
    let end = 0;
    for (const stage of t.stages) {
      for (const sub of stage.substages) {
        sub.start = Math.min(...sub.series.map((s) => s.start));
        start = Math.min(start, sub.start);
        for (const s of sub.series) end = Math.max(end, s.end);
      }
    }
    t.start = start;
    t.end = end;
  }
  series.sort((a, b) => a.start - b.start || a.id - b.id);
  assignCasters(catalog, series, week);
  revealParticipants(tournaments);
  return { week, tournaments, series };
}

/** How long after a spill (SPILL_MS, timetable.ts) a team of two events is still kept free. */
const SPILL_MARGIN_MS = 3 * 3600_000;

/**
 * The rosters of last week's tournaments whose broadcast days run past the start of this week
 * (`base`), each with the instant it may have played until (timetable.ts: lastDayEnd, SPILL_MS).
 */
function lateRosters(tournaments: TournamentPlan[], base: number): Map<number, number> {
  const rosters = new Map<number, number>();
  const entries = new Map<number, number>();
  for (const t of tournaments) for (const r of t.rosters) entries.set(r, (entries.get(r) ?? 0) + 1);
  for (const t of tournaments) {
    for (const r of t.rosters) {
      // A team of two events may have spilled past the week (SPILL_MS, timetable.ts), and in
      // rare weeks a little past the spill.
      const until = Math.max(
        lastDayEnd(t, base - WEEK_MS),
        entries.get(r)! > 1 ? base + SPILL_MS + SPILL_MARGIN_MS : 0,
      );
      if (until > base) rosters.set(r, Math.max(until, rosters.get(r) ?? 0));
    }
  }
  return rosters;
}

/** The host region of a tournament: tier 1 anywhere; the others spread over the zones round the clock. */
function hostRegionOf(catalog: Catalog, rng: Rng, tier: number, game: number, k: number): number {
  if (tier === 1) return rng.int(0, catalog.regions.length - 1);
  const zone = ZONES[(game + k + tier) % ZONES.length]!;
  const abbreviation = rng.pick(zone.regions);
  return Math.max(
    0,
    catalog.regions.findIndex((r) => r.abbreviation === abbreviation),
  );
}

/** One tournament of the template for `pool`, the teams it takes (entrants.ts). */
function buildTournament(
  catalog: Catalog,
  rng: Rng,
  where: {
    week: number;
    game: number;
    index: number;
    k: number;
    names: Map<string, number>;
    outline: boolean;
  },
  template: Template,
  pool: number[],
  nextSeriesId: () => number,
): TournamentPlan {
  const { week, game, index, k } = where;
  const info = catalog.game(game)!;
  const id = week * 1000 + game * 100 + index;
  const gameCasters = catalog.casters
    .filter((c) => c.game.id === game && c.deleted_at === null)
    .map((c) => c.id);
  const casters = rng.sample(gameCasters, Math.min(3, gameCasters.length));
  const hostRegion = hostRegionOf(catalog, rng, template.tier, game, k);
  const region = catalog.regions[hostRegion]!;
  const city = rng.pick(CITIES[region.country.abbreviation] ?? [region.name.split(' ')[0]!]);
  const [prize, eventName] = rng.pick(template.sizes);
  // Named after its city and the dates of the week it is played in (Monday to Sunday), so a name
  // says where and when it happens and never repeats; a numeral tells apart two events of one
  // game, city and name in a week.
  const key = `${city} ${eventName}`;
  const lap = where.names.get(key) ?? 0;
  where.names.set(key, lap + 1);
  const numeral = lap > 0 ? ` ${ROMAN[Math.min(lap, ROMAN.length - 1)]}` : '';
  const name = `${info.game.abbreviation} ${city} ${eventName}${numeral}`;
  const shortName = `${info.game.abbreviation} ${city} ${eventName.split(' ')[0]}${numeral}`;
  const title = `${name} ${weekDates(week)}`;
  const utcOffsetH = REGION_UTC_OFFSET[region.abbreviation] ?? 0;
  const battleRoyale = info.kind === 'battle-royale';
  const groupRounds = battleRoyale ? LOBBY_DAYS : template.groupSize - (template.groupSize % 2 === 0 ? 1 : 0);
  const roundsPerDay = battleRoyale ? 1 : template.roundsPerDay;
  const tournament: TournamentPlan = {
    id,
    week,
    game,
    tier: template.tier,
    title,
    shortTitle: `${shortName} ${dayMonth(weekStart(week))}`,
    start: 0,
    end: 0,
    stages: [],
    casters,
    rosters: [],
    prize,
    hostRegion,
    city,
    utcOffsetH,
    firstDay: rng.int(0, template.latestStartDay),
    groupDays: Math.ceil(groupRounds / roundsPerDay),
    roundsPerDay,
    dayStartH: rng.int(...zoneOf(region.abbreviation).localStartH) - utcOffsetH,
    dayHours: rng.int(template.dayHours[0], template.dayHours[1]),
  };
  const groupStage: StagePlan = {
    id: id * 10 + 1,
    tournament,
    title: template.phase === 'qualifier' ? 'Qualifier Groups' : 'Group Stage',
    order: 1,
    substages: [],
  };
  const playoffStage: StagePlan = {
    id: id * 10 + 2,
    tournament,
    title: template.phase === 'qualifier' ? 'Qualifier Playoffs' : 'Playoffs',
    order: 2,
    substages: [],
  };
  tournament.stages.push(groupStage, playoffStage);
  const ctx = { catalog, rng, tournament, nextSeriesId };

  const stages = { groups: groupStage, playoffs: playoffStage };
  if (where.outline) {
    // The teams alone, drawn as the stages draw them (their series take their own generators).
    const count = battleRoyale
      ? battleRoyaleGroups(template.tier) * 16
      : template.groups * template.groupSize;
    tournament.rosters = rng.sample(pool, Math.min(pool.length, count));
    return tournament;
  }
  if (battleRoyale) lobbyStages(ctx, template, pool, stages);
  else teamStages(ctx, template, pool, stages);
  return tournament;
}

interface Stages {
  groups: StagePlan;
  playoffs: StagePlan;
}

/** A battle-royale tournament: lobby groups of 16 over days, then a final lobby. */
function lobbyStages(ctx: Ctx, template: Template, pool: number[], stages: Stages): void {
  const { rng, tournament } = ctx;
  const groupStage = stages.groups;
  const playoffStage = stages.playoffs;
  const groups = battleRoyaleGroups(template.tier);
  const lobbies = LOBBY_DAYS;
  const entrants = rng.sample(pool, Math.min(pool.length, groups * 16));
  tournament.rosters = entrants;
  const finalSub = substage(
    playoffStage,
    1,
    'Final Lobby',
    3,
    template.phase === 'qualifier' ? 'qualifier' : 'final',
    5,
    null,
  );
  for (let g = 0; g < groups; g++) {
    const members = entrants.slice(g * 16, g * 16 + 16);
    const sub = substage(
      groupStage,
      g + 1,
      `Lobby ${String.fromCharCode(65 + g)}`,
      3,
      template.phase,
      3,
      null,
    );
    sub.rosters = members;
    sub.advance = { number: 16 / groups, substage: finalSub.id };
    sub.movements = Array.from({ length: 16 / groups }, (_, i) => ({
      position: i + 1,
      substage: finalSub.id,
      type: 'ascend' as const,
    }));
    for (let l = 0; l < lobbies; l++) addSeries(ctx, sub, members, 3, l + 1, `Day ${l + 1}`, null, []);
    groupStage.substages.push(sub);
  }
  const finalists = groupStage.substages.flatMap((sub) => finalStandings(sub).slice(0, 16 / groups));
  finalSub.rosters = finalists;
  const finals = finalLobbyDays(template.tier).length;
  for (let f = 0; f < finals; f++) addSeries(ctx, finalSub, finalists, 5, 10 + f, `Final ${f + 1}`, null, []);
  playoffStage.substages.push(finalSub);
}

/** A team tournament: round-robin groups, then a double-elimination bracket of the best. */
function teamStages(ctx: Ctx, template: Template, pool: number[], stages: Stages): void {
  const { rng, tournament } = ctx;
  const groupStage = stages.groups;
  const playoffStage = stages.playoffs;

  const entrants = rng.sample(pool, template.groups * template.groupSize);
  tournament.rosters = entrants;
  const bracketSub = substage(
    playoffStage,
    1,
    template.bracket === 8 ? 'Playoffs Bracket' : 'Bracket',
    2,
    template.phase === 'qualifier' ? 'qualifier' : 'final',
    3,
    null,
  );
  bracketSub.advance = { number: 1, substage: null };
  bracketSub.descend = { number: 1, substage: null };
  const perGroup = template.bracket / template.groups;
  for (let g = 0; g < template.groups; g++) {
    const members = entrants.slice(g * template.groupSize, (g + 1) * template.groupSize);
    const sub = substage(
      groupStage,
      g + 1,
      `Group ${String.fromCharCode(65 + g)}`,
      1,
      template.phase,
      template.groupBestOf,
      template.points,
    );
    sub.rosters = members;
    sub.advance = { number: perGroup, substage: bracketSub.id };
    sub.movements = Array.from({ length: perGroup }, (_, i) => ({
      position: i + 1,
      substage: bracketSub.id,
      type: 'ascend' as const,
    }));
    roundRobin(members).forEach((round, r) => {
      for (const [a, b] of round) addSeries(ctx, sub, [a, b], template.groupBestOf, r + 1, null, null, []);
    });
    groupStage.substages.push(sub);
  }
  // Seeds into the bracket: group winners first, then runners-up, crossing groups.
  const tables = groupStage.substages.map((sub) => finalStandings(sub));
  const seeds: number[] = [];
  for (let place = 0; place < perGroup; place++) {
    for (let g = 0; g < tables.length; g++) seeds.push(tables[(g + place) % tables.length]![place]!);
  }
  bracketSub.rosters = [...seeds];
  doubleElimination(ctx, bracketSub, seeds);
  playoffStage.substages.push(bracketSub);
}
