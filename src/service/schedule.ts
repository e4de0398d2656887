/**
 * The plan of one week of competition, generated from (seed, week, scale) alone: tournaments,
 * stages, substages, series and matches with their timing and outcomes decided up front. The state
 * at an instant (world.ts) only reads these plans, so it is a pure function of (seed, instant).
 *
 * Weeks start on Monday 00:00 UTC, counted from Monday 2000-01-03. Ids encode where they come
 * from, so they are stable across restarts and a detail request can regenerate its week:
 *   tournament = week*1000 + game*100 + n      stage = tournament*10 + n     substage = stage*10 + n
 *   series     = week*1_000_000 + game*100_000 + n                            match = series*8 + order
 */
import type {
  BracketPart,
  Coverage,
  CoverageValue,
  Phase,
  PointsRules,
  SeriesBroadcasterEntry,
  SeriesCasterEntry,
} from '../protocol/types.ts';
import type { Catalog, GameKind } from './catalog.ts';
import { Rng } from './random.ts';

export const WEEK_MS = 7 * 24 * 3600_000;
/** Monday 2000-01-03T00:00:00Z. */
export const EPOCH_MS = Date.UTC(2000, 0, 3);

export function weekOf(ms: number): number {
  return Math.floor((ms - EPOCH_MS) / WEEK_MS);
}

export function weekStart(week: number): number {
  return EPOCH_MS + week * WEEK_MS;
}

export interface TournamentPlan {
  id: number;
  week: number;
  game: number;
  tier: number;
  title: string;
  shortTitle: string;
  start: number;
  end: number;
  stages: StagePlan[];
  casters: number[];
  rosters: number[];
  prize: number;
  hostRegion: number;
}

export interface StagePlan {
  id: number;
  tournament: TournamentPlan;
  title: string;
  order: number;
  substages: SubstagePlan[];
}

export interface SubstagePlan {
  id: number;
  stage: StagePlan;
  title: string;
  /** 1 round-robin group, 2 double-elimination bracket, 3 battle-royale lobby group. */
  type: number;
  phase: Phase;
  order: number;
  bestOf: number;
  rosters: number[];
  points: PointsRules | null;
  advance: { number: number; substage: number | null } | null;
  descend: { number: number; substage: number | null } | null;
  movements: { position: number; substage: number; type: 'ascend' | 'descend' }[];
  series: SeriesPlan[];
  start: number;
}

export interface MatchPlan {
  id: number;
  order: number;
  map: number;
  start: number;
  end: number;
  /** Index of the winning participant; -1 when the map is never played (deleted at series end). */
  winner: number;
  /** Final score per participant (kills, rounds, goals, or battle-royale points). */
  scores: number[];
  /** Battle royale only: final placement and kills per participant. */
  placements: number[] | null;
  kills: number[] | null;
}

export interface SeriesPlan {
  id: number;
  week: number;
  game: number;
  kind: GameKind;
  tier: number;
  bestOf: number;
  title: string;
  tournament: TournamentPlan;
  substage: SubstagePlan;
  /** Sort key used to schedule within the week (stage order, round). */
  round: number;
  start: number;
  /** When the last played map ends (the series' end once over). */
  end: number;
  /** The original start of a postponed series (`start` is then the new one). */
  postponedFrom: number | null;
  /**
   * When the postponement becomes known (before the original start): until then the series shows
   * its original start and no `postponed_from`, so a client sees a start time move without notice.
   */
  postponedAt: number | null;
  deletedAt: number | null;
  /** Roster ids in seed order. */
  rosters: number[];
  /** Index of the winner among rosters. */
  winner: number;
  /** Index of the forfeiting participant, or -1. */
  forfeit: number;
  matches: MatchPlan[];
  bracket: { part: BracketPart; col: number; offset: number } | null;
  chain: number[];
  /**
   * Where each participant comes from: the feeder series whose winner (or loser) takes the slot,
   * or null for a seed (from the group stage, or a group-stage series' own rosters).
   */
  sources: (number | null)[];
  /**
   * When each participant becomes known (0: from the start). A playoff slot is "TBD" until its
   * feeder series is over, a seed until the group stage is over, as on the real service.
   */
  revealAt: number[];
  streamed: boolean;
  casters: SeriesCasterEntry[];
  broadcasters: SeriesBroadcasterEntry[];
  coverage: Coverage;
  incidentAt: number | null;
  /** Instants at which the series object changes, ascending (for resource_version). */
  changes: number[];
}

export interface WeekPlan {
  week: number;
  tournaments: TournamentPlan[];
  series: SeriesPlan[];
}

/** Battle-royale placement points (index = placement - 1). */
export const PLACEMENT_POINTS = [12, 9, 7, 5, 4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0, 0];
export const KILL_MULTIPLIER = 1;

interface Template {
  tier: number;
  name: string;
  groups: number;
  groupSize: number;
  groupBestOf: number;
  bracket: 0 | 4 | 8;
  phase: Phase;
  points: PointsRules;
}

const TEMPLATES: Template[] = [
  {
    tier: 1,
    name: 'Masters',
    groups: 4,
    groupSize: 6,
    groupBestOf: 3,
    bracket: 8,
    phase: 'regular',
    points: { win: 3, draw: 1, loss: 0, scope: 'series' },
  },
  {
    tier: 2,
    name: 'League',
    groups: 2,
    groupSize: 8,
    groupBestOf: 1,
    bracket: 4,
    phase: 'regular',
    points: { win: 2, draw: 1, loss: 0, scope: 'series' },
  },
  {
    tier: 3,
    name: 'Cup',
    groups: 2,
    groupSize: 6,
    groupBestOf: 3,
    bracket: 4,
    phase: 'regular',
    points: { win: 3, draw: 1, loss: 0, scope: 'series' },
  },
  {
    tier: 4,
    name: 'Open Qualifier',
    groups: 2,
    groupSize: 5,
    groupBestOf: 1,
    bracket: 4,
    phase: 'qualifier',
    points: { win: 1, draw: 0, loss: 0, scope: 'series' },
  },
];
const BASE_COUNTS = [1, 3, 4, 7];
const SERIES_PER_GAME = 100_000;
const CITY = [
  'Lisbon',
  'Oslo',
  'Seoul',
  'Austin',
  'Kraków',
  'Lima',
  'Osaka',
  'Cologne',
  'Manila',
  'Perth',
  'Valencia',
  'Kyiv',
];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

const COVERAGE_BY_TIER: Coverage[] = [1, 2, 3, 4].map((tier) => {
  const leaf = (expectation: CoverageValue, fact: CoverageValue) => ({ expectation, fact });
  const good: CoverageValue =
    tier <= 1 ? 'available' : tier === 2 ? 'available' : tier === 3 ? 'partial' : 'possible';
  const cv: CoverageValue = tier <= 2 ? 'available' : tier === 3 ? 'partial' : 'unlikely';
  return {
    data: {
      live: {
        api: leaf(good, good === 'possible' ? 'unknown' : good),
        cv: leaf(cv, cv === 'unlikely' ? 'unavailable' : cv),
      },
      realtime: {
        api: leaf(good, good === 'possible' ? 'unknown' : good),
        server: leaf(tier <= 2 ? 'available' : 'partial', tier <= 2 ? 'available' : 'partial'),
      },
      postgame: {
        api: leaf('available', 'available'),
        server: leaf(tier <= 3 ? 'available' : 'deferred', tier <= 3 ? 'available' : 'deferred'),
      },
    },
  };
});

/** "16 Nov" for an instant. */
function dayMonth(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** The dates of a week, Monday to Sunday: "16-22 Nov 2026", "30 Nov-6 Dec 2026", "28 Dec 2026-3 Jan 2027". */
export function weekDates(week: number): string {
  const first = new Date(weekStart(week));
  const last = new Date(weekStart(week) + 6 * 24 * 3600_000);
  const y1 = first.getUTCFullYear();
  const y2 = last.getUTCFullYear();
  if (y1 !== y2) return `${dayMonth(first.getTime())} ${y1}-${dayMonth(last.getTime())} ${y2}`;
  if (first.getUTCMonth() !== last.getUTCMonth())
    return `${dayMonth(first.getTime())}-${dayMonth(last.getTime())} ${y2}`;
  return `${first.getUTCDate()}-${dayMonth(last.getTime())} ${y2}`;
}

/** Coverage of an entity of a tier (shared objects: never mutate). */
export function coverageFor(tier: number): Coverage {
  return COVERAGE_BY_TIER[Math.min(4, Math.max(1, tier)) - 1]!;
}

/** Tiers the default tenant follows: scheduled on their own grid so they alone cover every moment. */
const HIGH_TIERS = new Set([1, 2]);
/** Rest a roster gets between two series of one tournament, and a caster between two series. */
export const REST_MS = 15 * 60_000;
/**
 * How far into the next week a series of the week may run (postponements aside). A caster of
 * parity (id + week) % 2 === 1 may cast a series that ends up to this far after the week's end;
 * the others must be done a rest before it, and in the next week (where their parity flips)
 * wait this long plus a rest before their first series. So weeks, planned independently, never
 * put one caster on two series at once across their boundary.
 */
export const WEEK_CARRY_MS = 14 * 3600_000;

/** May this caster run past the end of the week? (see WEEK_CARRY_MS) */
export function runsLate(id: number, week: number): boolean {
  return (id + week) % 2 === 1;
}
/** Share of the week over which the paces of a tier's tournaments start, staggered. */
const PACE_STAGGER = 0.12;
/** Pause between a tournament's group stage ending and its playoffs starting. */
const STAGE_BREAK_MS = 60 * 60_000;

/** Generates the whole week. Deterministic in (catalog.seed, week, scale). */
export function planWeek(catalog: Catalog, week: number, scale: number): WeekPlan {
  const tournaments: TournamentPlan[] = [];
  const series: SeriesPlan[] = [];
  for (const info of catalog.games) {
    const game = info.game.id;
    const rng = new Rng(catalog.seed, 'week', week, 'game', game);
    let seq = 0;
    const nextSeriesId = () => week * 1_000_000 + game * SERIES_PER_GAME + ++seq;
    let tIndex = 0;
    TEMPLATES.forEach((template, ti) => {
      const count = ti === 0 ? 1 : Math.max(1, Math.round(BASE_COUNTS[ti]! * scale));
      for (let k = 0; k < count; k++) {
        tIndex++;
        const tournament = buildTournament(
          catalog,
          rng,
          week,
          game,
          tIndex,
          k,
          template,
          info.kind === 'battle-royale',
          nextSeriesId,
        );
        tournaments.push(tournament);
        for (const stage of tournament.stages) for (const sub of stage.substages) series.push(...sub.series);
      }
    });
  }
  // Timing relative to the series' own slot (start 0) first, so the scheduler knows durations.
  for (const plan of series) finishPlan(catalog, plan);
  // Two streams, each with starts spread evenly over the whole week: tiers 1-2 (what the default
  // tenant follows) and tiers 3-4. Each stream alone has a start every few minutes at any hour.
  const high = tournaments.filter((t) => HIGH_TIERS.has(t.tier));
  const low = tournaments.filter((t) => !HIGH_TIERS.has(t.tier));
  scheduleStream(high, weekStart(week), 0);
  scheduleStream(low, weekStart(week), 0.5);
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

/** A series that will not be played in its slot: soft-deleted, or postponed away from it. */
function leavesSlot(plan: SeriesPlan): boolean {
  return plan.deletedAt !== null || plan.postponedFrom !== null;
}

/**
 * Gives each series of the tournaments a slot on an even grid over the week (offset by `phase`
 * steps), so that starts never bunch up or leave gaps. At each slot the tournament furthest behind
 * its pace plays its next series whose rosters have rested since their last series and, for a
 * later stage, whose earlier stage is over (so bracket series follow the groups and the series
 * that feed them). Series that leave their slot (deleted, postponed) sit between grid slots, so a
 * grid slot always holds a series that is played there.
 */
function scheduleStream(tournaments: TournamentPlan[], base: number, phase: number): void {
  const queues = tournaments.map((t) => {
    const list = t.stages.flatMap((stage) => stage.substages.flatMap((sub) => sub.series));
    list.sort((a, b) => a.round - b.round || a.id - b.id);
    return {
      tournament: t,
      list,
      total: list.length,
      done: 0,
      busy: new Map<number, number>(),
      stageEnd: [0, 0, 0],
      from: 0,
    };
  });
  // Each tournament keeps its own pace from a start staggered within its tier to the week's end, so
  // the tournaments of a tier are not all in the same round at the same hours. (Staggering the
  // ends too would leave the last hours of the week with only a few bracket finals that wait for
  // each other, and so gaps.)
  for (const tier of new Set(tournaments.map((t) => t.tier))) {
    const same = queues.filter((q) => q.tournament.tier === tier);
    same.forEach((q, i) => {
      q.from = (PACE_STAGGER * (i + 0.5)) / same.length;
    });
  }
  const slots = queues.reduce((n, q) => n + q.list.filter((s) => !leavesSlot(s)).length, 0);
  if (slots === 0) return;
  const step = WEEK_MS / slots;
  /** When a series could start: its rosters rested, and for a later stage the earlier one over. */
  const readyAt = (q: (typeof queues)[number], plan: SeriesPlan) => {
    if (leavesSlot(plan)) return 0;
    const order = plan.substage.stage.order;
    let t = order > 1 ? q.stageEnd[order - 1]! + STAGE_BREAK_MS : 0;
    for (const r of plan.rosters) t = Math.max(t, (q.busy.get(r) ?? 0) + REST_MS);
    return t;
  };
  const candidates = (q: (typeof queues)[number]) => {
    const round = q.list[0]?.round;
    return q.list.filter((s) => s.round === round);
  };
  const place = (q: (typeof queues)[number], plan: SeriesPlan, at: number) => {
    q.list.splice(q.list.indexOf(plan), 1);
    q.done++;
    shiftPlan(plan, at);
    if (plan.deletedAt !== null) return;
    const order = plan.substage.stage.order;
    q.stageEnd[order] = Math.max(q.stageEnd[order] ?? 0, plan.end);
    for (const r of plan.rosters) q.busy.set(r, Math.max(q.busy.get(r) ?? 0, plan.end));
  };
  let remaining = queues.reduce((n, q) => n + q.total, 0);
  for (let slot = 0; remaining > 0; slot++) {
    const at = Math.floor((base + (slot + phase) * step) / 60_000) * 60_000;
    for (;;) {
      let best: { q: (typeof queues)[number]; plan: SeriesPlan } | null = null;
      const share = slot / slots;
      let bestLag = Number.POSITIVE_INFINITY;
      for (const q of queues) {
        if (q.list.length === 0) continue;
        // How far ahead of its pace the tournament is (negative: behind); the furthest behind plays.
        const expected = Math.min(1, Math.max(0, (share - q.from) / (1 - q.from)));
        const lag = q.done / q.total - expected;
        if (best && lag >= bestLag) continue;
        const plan = candidates(q).find((s) => readyAt(q, s) <= at);
        if (plan) {
          best = { q, plan };
          bestLag = lag;
        }
      }
      if (!best) {
        // Nothing can start in this slot (tournaments waiting for their brackets): the first
        // series ready before the next slot starts late instead of leaving the slot empty.
        const next = base + (slot + 1 + phase) * step;
        let first: { q: (typeof queues)[number]; plan: SeriesPlan; t: number } | null = null;
        for (const q of queues) {
          for (const plan of candidates(q)) {
            const t = Math.ceil(readyAt(q, plan) / 60_000) * 60_000;
            if (t < next && (!first || t < first.t)) first = { q, plan, t };
          }
        }
        if (first) {
          remaining--;
          place(first.q, first.plan, first.t);
        }
        break;
      }
      remaining--;
      if (leavesSlot(best.plan)) {
        // Between grid slots; pick again for this slot.
        place(best.q, best.plan, at + Math.floor(step / 2 / 60_000) * 60_000);
        continue;
      }
      place(best.q, best.plan, at);
      break;
    }
  }
}

/** Moves a plan timed relative to 0 (finishPlan) to its slot. */
function shiftPlan(plan: SeriesPlan, at: number): void {
  plan.start += at;
  plan.end += at;
  if (plan.postponedFrom !== null) plan.postponedFrom += at;
  if (plan.postponedAt !== null) plan.postponedAt += at;
  if (plan.deletedAt !== null) plan.deletedAt += at;
  if (plan.incidentAt !== null) plan.incidentAt += at;
  for (const m of plan.matches) {
    m.start += at;
    m.end += at;
  }
  plan.changes = plan.changes.map((c) => c + at);
}

function buildTournament(
  catalog: Catalog,
  rng: Rng,
  week: number,
  game: number,
  index: number,
  k: number,
  template: Template,
  battleRoyale: boolean,
  nextSeriesId: () => number,
): TournamentPlan {
  const info = catalog.game(game)!;
  const id = week * 1000 + game * 100 + index;
  const city = CITY[(week + index) % CITY.length]!;
  // Named after the city and the dates of the week it is played in (Monday to Sunday), so a name
  // says when it happens and never repeats; a numeral tells apart a template's tournaments of one
  // week when there are more of them than cities.
  const lap = Math.floor(k / CITY.length);
  const numeral = lap > 0 ? ` ${ROMAN[Math.min(lap, ROMAN.length - 1)]}` : '';
  const name = `${info.game.abbreviation} ${city} ${template.name}${numeral}`;
  const shortName = `${info.game.abbreviation} ${city} ${template.name.split(' ')[0]}${numeral}`;
  const title = `${name} ${weekDates(week)}`;
  const gameCasters = catalog.casters
    .filter((c) => c.game.id === game && c.deleted_at === null)
    .map((c) => c.id);
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
    casters: rng.sample(gameCasters, Math.min(3, gameCasters.length)),
    rosters: [],
    prize: [250_000, 50_000, 10_000, 2_000][template.tier - 1]!,
    hostRegion: rng.int(0, catalog.regions.length - 1),
  };
  const pool = catalog.activeRosters.get(game)!.map((r) => r.id);
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

  if (battleRoyale) {
    const groups = template.tier === 1 ? 2 : template.tier === 4 ? 1 : 2;
    const lobbies = template.tier === 1 ? 4 : 3;
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
    const finals = template.tier === 1 ? 2 : 1;
    for (let f = 0; f < finals; f++)
      addSeries(ctx, finalSub, finalists, 5, 10 + f, `Final ${f + 1}`, null, []);
    playoffStage.substages.push(finalSub);
    return tournament;
  }

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
  return tournament;
}

function substage(
  stage: StagePlan,
  order: number,
  title: string,
  type: number,
  phase: Phase,
  bestOf: number,
  points: PointsRules | null,
): SubstagePlan {
  return {
    id: stage.id * 10 + order,
    stage,
    title,
    type,
    phase,
    order,
    bestOf,
    rosters: [],
    points,
    advance: null,
    descend: null,
    movements: [],
    series: [],
    start: 0,
  };
}

/** Circle-method rounds: each roster plays every other once. */
function roundRobin(members: number[]): [number, number][][] {
  const list: (number | null)[] = [...members];
  if (list.length % 2 === 1) list.push(null);
  const n = list.length;
  const rounds: [number, number][][] = [];
  for (let r = 0; r < n - 1; r++) {
    const round: [number, number][] = [];
    for (let i = 0; i < n / 2; i++) {
      const a = list[i];
      const b = list[n - 1 - i];
      if (a != null && b != null) round.push(r % 2 === 0 ? [a, b] : [b, a]);
    }
    rounds.push(round);
    list.splice(1, 0, list.pop()!);
  }
  return rounds;
}

interface Ctx {
  catalog: Catalog;
  rng: Rng;
  tournament: TournamentPlan;
  nextSeriesId: () => number;
}

/** Plans one series' outcome (timing comes later, in finishPlan). */
function addSeries(
  ctx: Ctx,
  sub: SubstagePlan,
  rosters: number[],
  bestOf: number,
  round: number,
  label: string | null,
  bracket: SeriesPlan['bracket'],
  chain: number[],
): SeriesPlan {
  const { catalog, tournament } = ctx;
  const id = ctx.nextSeriesId();
  const rng = new Rng(catalog.seed, 'series', id);
  const info = catalog.game(tournament.game)!;
  const kind = info.kind;
  const teamName = (roster: number) => catalog.teamById.get(catalog.rosterById.get(roster)!.team.id)!.name;
  const title = label
    ? `${tournament.shortTitle} ${sub.title} ${label}`
    : `${teamName(rosters[0]!)} vs ${teamName(rosters[1]!)}`;
  const isGroup = sub.type === 1;
  const forfeit = isGroup && rng.chance(0.02) ? rng.int(0, 1) : -1;
  const matches: MatchPlan[] = [];
  let winner = 0;
  const maps = info.maps.length > 1 ? rng.shuffle(info.maps.filter((m) => m.official)) : info.maps;
  if (kind === 'battle-royale') {
    const totals = rosters.map(() => 0);
    for (let order = 1; order <= bestOf; order++) {
      const placements = rng.shuffle(rosters.map((_, i) => i + 1));
      const kills = rosters.map((_, i) => rng.int(0, 6) + Math.max(0, 8 - placements[i]!));
      const scores = rosters.map(
        (_, i) => PLACEMENT_POINTS[placements[i]! - 1]! + kills[i]! * KILL_MULTIPLIER,
      );
      scores.forEach((s, i) => {
        totals[i]! += s;
      });
      matches.push({
        id: id * 8 + order,
        order,
        map: maps[(order - 1) % maps.length]!.id,
        start: 0,
        end: 0,
        winner: placements.indexOf(1),
        scores,
        placements,
        kills,
      });
    }
    winner = totals.indexOf(Math.max(...totals));
  } else {
    const sa = catalog.strength.get(rosters[0]!) ?? 0.5;
    const sb = catalog.strength.get(rosters[1]!) ?? 0.5;
    const pA = 0.5 + (sa - sb) * 0.35;
    const need = Math.ceil(bestOf / 2);
    const won = [0, 0];
    for (let order = 1; order <= bestOf; order++) {
      const decided = won[0] === need || won[1] === need || forfeit >= 0;
      let w = -1;
      if (forfeit >= 0) w = 1 - forfeit;
      else if (!decided) {
        w = rng.next() < pA ? 0 : 1;
        won[w]!++;
      }
      const scores = [0, 0];
      if (w >= 0 && forfeit < 0) {
        const [hi, lo] = mapScore(kind, rng);
        scores[w] = hi;
        scores[1 - w] = lo;
      }
      matches.push({
        id: id * 8 + order,
        order,
        map: maps[(order - 1) % maps.length]!.id,
        start: 0,
        end: 0,
        winner: forfeit >= 0 ? -1 : w,
        scores,
        placements: null,
        kills: null,
      });
    }
    winner = forfeit >= 0 ? 1 - forfeit : won[0]! > won[1]! ? 0 : 1;
  }
  const plan: SeriesPlan = {
    id,
    week: tournament.week,
    game: tournament.game,
    kind,
    tier: tournament.tier,
    bestOf,
    title,
    tournament,
    substage: sub,
    round: sub.stage.order * 100 + round,
    start: 0,
    end: 0,
    postponedFrom: null,
    postponedAt: null,
    deletedAt: null,
    rosters,
    winner,
    forfeit,
    matches,
    bracket,
    chain,
    sources: rosters.map(() => null),
    revealAt: rosters.map(() => 0),
    streamed: false,
    casters: [],
    broadcasters: [],
    coverage: coverageFor(tournament.tier),
    incidentAt: null,
    changes: [],
  };
  sub.series.push(plan);
  return plan;
}

function mapScore(kind: GameKind, rng: Rng): [number, number] {
  switch (kind) {
    case 'moba': {
      const hi = rng.int(14, 42);
      return [hi, rng.int(4, hi - 3)];
    }
    case 'shooter':
      return [13, rng.int(0, 11)];
    case 'esoccer': {
      const hi = rng.int(1, 6);
      return [hi, rng.int(0, hi - 1)];
    }
    default:
      return [1, 0];
  }
}

/** Final group table by planned results: points, then map difference, then roster id. */
export function finalStandings(sub: SubstagePlan): number[] {
  const rows = new Map<number, { points: number; diff: number }>();
  for (const r of sub.rosters) rows.set(r, { points: 0, diff: 0 });
  for (const s of sub.series) {
    if (s.kind === 'battle-royale') {
      s.matches.forEach((m) => {
        m.scores.forEach((score, i) => {
          rows.get(s.rosters[i]!)!.points += score;
        });
      });
      continue;
    }
    const w = s.rosters[s.winner]!;
    rows.get(w)!.points += sub.points?.win ?? 1;
    const wonMaps = s.matches.filter((m) => m.winner === s.winner).length;
    const lostMaps = s.matches.filter((m) => m.winner === 1 - s.winner).length;
    rows.get(w)!.diff += wonMaps - lostMaps;
    rows.get(s.rosters[1 - s.winner]!)!.diff -= wonMaps - lostMaps;
  }
  return [...rows.entries()]
    .sort((a, b) => b[1].points - a[1].points || b[1].diff - a[1].diff || a[0] - b[0])
    .map(([r]) => r);
}

/** A double-elimination bracket for 4 or 8 seeds: UB, LB and a grand final (GF, best of 5). */
function doubleElimination(ctx: Ctx, sub: SubstagePlan, seeds: number[]): void {
  const play = (
    a: SeriesPlan | number,
    b: SeriesPlan | number,
    part: BracketPart,
    col: number,
    offset: number,
    round: number,
    useLoser: [boolean, boolean],
  ) => {
    const pick = (x: SeriesPlan | number, loser: boolean) =>
      typeof x === 'number' ? x : x.rosters[loser ? 1 - x.winner : x.winner]!;
    const chain = [a, b].filter((x): x is SeriesPlan => typeof x !== 'number').map((x) => x.id);
    const plan = addSeries(
      ctx,
      sub,
      [pick(a, useLoser[0]), pick(b, useLoser[1])],
      part === 'GF' ? 5 : 3,
      round,
      null,
      { part, col, offset },
      chain,
    );
    plan.sources = [a, b].map((x) => (typeof x === 'number' ? null : x.id));
    return plan;
  };
  const W: [boolean, boolean] = [false, false];
  if (seeds.length === 4) {
    const s1 = play(seeds[0]!, seeds[3]!, 'UB', 1, 0, 1, W);
    const s2 = play(seeds[1]!, seeds[2]!, 'UB', 1, 1, 1, W);
    const ubf = play(s1, s2, 'UB', 2, 0, 2, W);
    const lb1 = play(s1, s2, 'LB', 1, 0, 2, [true, true]);
    const lbf = play(ubf, lb1, 'LB', 2, 0, 3, [true, false]);
    play(ubf, lbf, 'GF', 1, 0, 4, W);
    return;
  }
  const qf = [0, 1, 2, 3].map((i) => play(seeds[i]!, seeds[7 - i]!, 'UB', 1, i, 1, W));
  const sf = [0, 1].map((i) => play(qf[i]!, qf[3 - i]!, 'UB', 2, i, 2, W));
  const lb1 = [0, 1].map((i) => play(qf[i]!, qf[3 - i]!, 'LB', 1, i, 2, [true, true]));
  const ubf = play(sf[0]!, sf[1]!, 'UB', 3, 0, 3, W);
  const lb2 = [0, 1].map((i) => play(sf[1 - i]!, lb1[i]!, 'LB', 2, i, 3, [true, false]));
  const lb3 = play(lb2[0]!, lb2[1]!, 'LB', 3, 0, 4, W);
  const lbf = play(ubf, lb3, 'LB', 4, 0, 5, [true, false]);
  play(ubf, lbf, 'GF', 1, 0, 6, W);
}

/** Timing, postponements, deletions, casters, broadcasters: once the series has its slot. */
function finishPlan(catalog: Catalog, plan: SeriesPlan): void {
  const rng = new Rng(catalog.seed, 'series-time', plan.id);
  const info = catalog.game(plan.game)!;
  const isGroup = plan.substage.type !== 2;
  if (isGroup && plan.forfeit < 0 && rng.chance(0.03)) {
    plan.postponedFrom = plan.start;
    plan.postponedAt = plan.start - rng.int(20, 12 * 60) * 60_000;
    plan.start += rng.int(1, 8) * 3600_000;
  }
  if (
    isGroup &&
    plan.kind !== 'battle-royale' &&
    plan.forfeit < 0 &&
    plan.postponedFrom === null &&
    rng.chance(0.015)
  ) {
    plan.deletedAt = plan.start - rng.int(1, 12) * 3600_000;
  }
  let t = plan.start;
  let end = plan.start;
  for (const m of plan.matches) {
    if (plan.forfeit >= 0) {
      m.start = plan.start;
      m.end = plan.start;
      continue;
    }
    if (m.winner < 0 && plan.kind !== 'battle-royale') {
      m.start = end;
      m.end = end;
      continue;
    }
    const [lo, hi] = info.mapMinutes;
    m.start = t;
    m.end = t + rng.int(lo * 60, hi * 60) * 1000;
    end = m.end;
    t = m.end + rng.int(5, 10) * 60_000;
  }
  plan.end = end;
  const tierStreamed = plan.tier <= 3 ? 0.85 : 0.4;
  plan.streamed = rng.chance(tierStreamed);
  if (plan.streamed) {
    const broadcasters = rng.sample(catalog.broadcasters, rng.int(1, 2));
    plan.broadcasters = broadcasters.map((b, i) => ({
      broadcaster: b,
      broadcasts: [{ external_id: `${b.external_id}-${plan.id}`, language: b.broadcast_defaults.language }],
      official: i === 0,
    }));
  }
  if (plan.forfeit < 0 && plan.deletedAt === null && rng.chance(0.03))
    plan.incidentAt = plan.end + 30 * 60_000;
  const changes = [plan.start];
  if (plan.kind === 'battle-royale') for (const m of plan.matches) changes.push(m.end);
  else for (const m of plan.matches) if (m.winner >= 0) changes.push(m.end);
  if (plan.deletedAt !== null) changes.push(plan.deletedAt);
  if (plan.postponedAt !== null) changes.push(plan.postponedAt);
  if (plan.incidentAt !== null) changes.push(plan.incidentAt);
  plan.changes = changes.sort((a, b) => a - b);
}

/**
 * Casters for the streamed series, once every series has its time (`series` sorted by start): one
 * to three, the tournament's own casters first, then the game's others, each casting one series
 * at a time with a rest between two (and the week-boundary rule of WEEK_CARRY_MS). A series whose
 * casters are all busy is streamed by its broadcasters without a caster.
 */
function assignCasters(catalog: Catalog, series: SeriesPlan[], week: number): void {
  const base = weekStart(week);
  const weekEnd = base + WEEK_MS;
  const busy = new Map<number, number>();
  const gameCasters = new Map<number, number[]>();
  for (const c of catalog.casters) {
    if (c.deleted_at !== null) continue;
    const list = gameCasters.get(c.game.id) ?? [];
    list.push(c.id);
    gameCasters.set(c.game.id, list);
  }
  const free = (id: number, plan: SeriesPlan) => {
    if ((busy.get(id) ?? 0) + REST_MS > plan.start) return false;
    if (runsLate(id, week)) return plan.end <= weekEnd + WEEK_CARRY_MS;
    return plan.start >= base + WEEK_CARRY_MS + REST_MS && plan.end <= weekEnd - REST_MS;
  };
  for (const plan of series) {
    if (!plan.streamed || plan.deletedAt !== null) continue;
    const rng = new Rng(catalog.seed, 'series-casters', plan.id);
    const own = rng.shuffle([...plan.tournament.casters]);
    const guests = rng.shuffle((gameCasters.get(plan.game) ?? []).filter((id) => !own.includes(id)));
    const chosen = [...own, ...guests].filter((id) => free(id, plan)).slice(0, rng.int(1, 3));
    if (chosen.length === 0) continue;
    const primary = rng.chance(0.9);
    plan.casters = chosen.map((id, i) => ({ primary: primary && i === 0, caster: { id } }));
    for (const id of chosen) busy.set(id, plan.end);
  }
}

/**
 * When the participants of each playoff series become known: a slot fed by a series when that
 * series is over, a seed when the whole group stage is over (its last series' end). Until then the
 * service shows the series without them (TBD). Each reveal is a change of the series.
 */
function revealParticipants(tournaments: TournamentPlan[]): void {
  for (const t of tournaments) {
    const groups = t.stages.find((stage) => stage.order === 1);
    let groupEnd = 0;
    for (const sub of groups?.substages ?? [])
      for (const s of sub.series) if (s.deletedAt === null) groupEnd = Math.max(groupEnd, s.end);
    const byId = new Map<number, SeriesPlan>();
    for (const stage of t.stages)
      for (const sub of stage.substages) for (const s of sub.series) byId.set(s.id, s);
    for (const stage of t.stages) {
      if (stage.order === 1) continue;
      for (const sub of stage.substages) {
        for (const plan of sub.series) {
          plan.revealAt = plan.sources.map((source) =>
            source === null ? groupEnd : (byId.get(source)?.end ?? groupEnd),
          );
          plan.changes = [...new Set([...plan.changes, ...plan.revealAt])].sort((a, b) => a - b);
        }
      }
    }
  }
}
