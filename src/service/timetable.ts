/**
 * When each series of a week is played. Every event plays broadcast days: a block of `dayHours`
 * hours in its host region's prime time (places.ts, schedule.ts), from its first day on, so its
 * series start in at most a dozen UTC hours, and regions round the clock keep something live at
 * every hour. Each series has its day (dayOf): group rounds a day each (or a few for short
 * series), the replays of cancelled series (replays.ts) on the last group day, then the playoffs
 * over the next days, a tier-1 final on the last. On its day a series takes the earliest
 * quarter-hour at which its teams have rested since their last series (of any event), the event
 * has a free stream (its `channels`, as many as fill its day), a tier-1 team has played fewer than
 * TIER1_PER_HOST_DAY tier-1 series that day and at most TIER1_PER_DAY in 24 hours, and for the
 * playoffs the group stage is over. If the day is full it moves to the next one; what
 * schedule-check.ts asks holds: one series at a time, with rest.
 */
import type { SeriesPlan, TournamentPlan } from './plan-types.ts';
import { TEAM_REST_MS, TIER1_PER_DAY, TIER1_PER_HOST_DAY } from './schedule-check.ts';
import { finalLobbyDays } from './tiers.ts';
import { WEEK_MS } from './weeks.ts';

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

const MINUTE_MS = 60_000;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** Start times are on the quarter hour. */
const STEP_MS = 15 * MINUTE_MS;
/** How long past its broadcast day a day's last series may run when the day is full. */
const OVERTIME_MS = 2 * HOUR_MS;
/** Pause between an event's group stage ending and its playoffs starting. */
const STAGE_BREAK_MS = HOUR_MS;
/** A stream's changeover between two series of an event (for how many streams fill a day). */
const CHANGEOVER_MS = 30 * MINUTE_MS;
/** The last day (Sunday) an event's days are planned on before it may run over into Monday. */
const LAST_DAY = 6;
/**
 * How far past the week's end a team entered in two events of the week (scale above 1,
 * entrants.ts) may still play when both events' days are full; the next week keeps such teams
 * free until then (lateRosters, schedule.ts).
 */
export const SPILL_MS = 12 * HOUR_MS;

/** The day of the week (0 Monday .. 6 Sunday) a series is planned on (see the file's comment). */
export function dayOf(plan: SeriesPlan): number {
  const t = plan.tournament;
  const inStage = plan.round % 100;
  if (plan.substage.stage.order === 1)
    return t.firstDay + Math.min(t.groupDays - 1, Math.floor((inStage - 1) / t.roundsPerDay));
  const playoffs = t.firstDay + t.groupDays;
  if (plan.kind === 'battle-royale') return playoffs + (finalLobbyDays(t.tier)[inStage - 10] ?? 0);
  const big = plan.substage.rosters.length > 4;
  const b = plan.bracket;
  if (!b) return playoffs;
  if (b.part === 'GF') return playoffs + (big ? 3 : 1);
  return playoffs + Math.min(b.col - 1, big ? 2 : 1);
}

/** The broadcast day `day` (0 Monday) of an event in the week starting at `base`: [start, end). */
export function dayWindow(t: TournamentPlan, base: number, day: number): [number, number] {
  const start = base + day * DAY_MS + t.dayStartH * HOUR_MS;
  return [start, start + t.dayHours * HOUR_MS];
}

/** The latest a series of the event may end when its days are full: its last day and overtime. */
export function lastDayEnd(t: TournamentPlan, base: number): number {
  return dayWindow(t, base, LAST_DAY)[1] + OVERTIME_MS;
}

/** The host's calendar day of an instant, for an event with this UTC offset. */
function hostDayOf(at: number, utcOffsetH: number): number {
  return Math.floor((at + utcOffsetH * HOUR_MS) / DAY_MS);
}

/** The teams' series so far: their intervals, tier-1 starts and tier-1 series per host day. */
class Rosters {
  readonly #busy = new Map<number, [number, number][]>();
  readonly #tier1 = new Map<number, number[]>();
  readonly #hostDays = new Map<string, number>();

  /** `late`: the rosters of last week's events still playing after `base`, until when. */
  constructor(late: Map<number, number>, base: number) {
    for (const [r, until] of late) this.#busy.set(r, [[base - DAY_MS, until]]);
  }

  /** May the series' teams play it from `start` to `start + length`? */
  free(plan: SeriesPlan, start: number, length: number): boolean {
    const end = start + length;
    const day = hostDayOf(start, plan.tournament.utcOffsetH);
    for (const r of plan.rosters) {
      for (const [a, b] of this.#busy.get(r) ?? [])
        if (a < end + TEAM_REST_MS && start < b + TEAM_REST_MS) return false;
      if (plan.tier !== 1) continue;
      if ((this.#hostDays.get(`${r}|${day}`) ?? 0) >= TIER1_PER_HOST_DAY) return false;
      const near = (this.#tier1.get(r) ?? []).filter((s) => Math.abs(s - start) < DAY_MS);
      near.push(start);
      near.sort((a, b) => a - b);
      for (let i = TIER1_PER_DAY; i < near.length; i++)
        if (near[i]! - near[i - TIER1_PER_DAY]! < DAY_MS) return false;
    }
    return true;
  }

  played(plan: SeriesPlan): void {
    const day = hostDayOf(plan.start, plan.tournament.utcOffsetH);
    for (const r of plan.rosters) {
      const list = this.#busy.get(r) ?? [];
      list.push([plan.start, plan.end]);
      this.#busy.set(r, list);
      if (plan.tier !== 1) continue;
      const starts = this.#tier1.get(r) ?? [];
      starts.push(plan.start);
      this.#tier1.set(r, starts);
      this.#hostDays.set(`${r}|${day}`, (this.#hostDays.get(`${r}|${day}`) ?? 0) + 1);
    }
  }
}

/** A series' length once timed relative to its own start (finishPlan). */
function lengthOf(plan: SeriesPlan): number {
  return plan.end - plan.start;
}

/** One event's days: its series placed so far by day, and how many streams each day has. */
class EventDays {
  readonly #placed = new Map<number, [number, number][]>();
  readonly #channels = new Map<number, number>();

  constructor(
    readonly tournament: TournamentPlan,
    list: SeriesPlan[],
  ) {
    const work = new Map<number, number>();
    for (const s of list) {
      if (s.deletedAt !== null) continue;
      const d = dayOf(s);
      work.set(d, (work.get(d) ?? 0) + lengthOf(s) + CHANGEOVER_MS);
    }
    const dayMs = tournament.dayHours * HOUR_MS;
    for (const [d, ms] of work) this.#channels.set(d, Math.max(1, Math.ceil(ms / dayMs)));
  }

  /** Has the event a free stream (within its streams of that day) from `start` to `end` on `day`? */
  free(day: number, start: number, end: number): boolean {
    const channels = this.#channels.get(day) ?? 1;
    let on = 0;
    for (const [a, b] of this.#placed.get(day) ?? []) if (a < end && start < b) on++;
    return on < channels;
  }

  add(day: number, start: number, end: number): void {
    const list = this.#placed.get(day) ?? [];
    list.push([start, end]);
    this.#placed.set(day, list);
  }
}

/**
 * Places every series of the week's tournaments (tier 1 first, so the top events get their days
 * as planned) on their broadcast days; see the file's comment. `late`: rosters of last week still
 * playing after `base`, until when.
 */
export function scheduleWeek(tournaments: TournamentPlan[], base: number, late: Map<number, number>): void {
  const rosters = new Rosters(late, base);
  const order = [...tournaments].sort((a, b) => a.tier - b.tier || a.id - b.id);
  for (const t of order) {
    const list = t.stages.flatMap((stage) => stage.substages.flatMap((sub) => sub.series));
    list.sort((a, b) => a.round - b.round || a.id - b.id);
    const days = new EventDays(t, list);
    let groupEnd = 0;
    const ends = new Map<number, number>();
    for (const plan of list) {
      const day = dayOf(plan);
      if (plan.deletedAt !== null) {
        // Never played: it keeps the slot it was announced in, taking no stream and no team.
        shiftPlan(plan, dayWindow(t, base, day)[0] + (plan.id % 8) * STEP_MS - plan.start);
        continue;
      }
      // After the group stage, and after the series its participants come from.
      let ready = plan.substage.stage.order > 1 ? groupEnd + STAGE_BREAK_MS : 0;
      for (const source of plan.sources)
        if (source !== null) ready = Math.max(ready, (ends.get(source) ?? 0) + TEAM_REST_MS);
      const at = slotFor(plan, { base, day, ready, rosters, days });
      days.add(dayOfStart(t, base, at, day), at, at + lengthOf(plan));
      shiftPlan(plan, at - plan.start);
      rosters.played(plan);
      ends.set(plan.id, plan.end);
      if (plan.substage.stage.order === 1) groupEnd = Math.max(groupEnd, plan.end);
    }
  }
}

/** The event day a start falls in (the planned day when it is before the first). */
function dayOfStart(t: TournamentPlan, base: number, at: number, planned: number): number {
  return Math.max(planned, Math.floor((at - base - t.dayStartH * HOUR_MS) / DAY_MS));
}

interface Search {
  base: number;
  day: number;
  ready: number;
  rosters: Rosters;
  days: EventDays;
}

/**
 * The start of a series: the earliest quarter hour of its day (or a later one) within the day,
 * its teams free and a stream free; when the days to Sunday are full, the earliest with its teams
 * free and a stream free ending in overtime; last, the earliest its teams are free in the event's
 * week or its spill (SPILL_MS), or after it.
 */
function slotFor(plan: SeriesPlan, search: Search): number {
  const { base, ready, rosters, days } = search;
  const t = plan.tournament;
  const length = lengthOf(plan);
  for (const overtime of [0, OVERTIME_MS]) {
    for (let d = search.day; d <= Math.max(search.day, LAST_DAY); d++) {
      const [from, to] = dayWindow(t, base, d);
      const first = Math.max(from, Math.ceil(ready / STEP_MS) * STEP_MS);
      for (let at = first; at + length <= to + overtime || at === from; at += STEP_MS) {
        if (days.free(d, at, at + length) && rosters.free(plan, at, length)) return at;
      }
    }
  }
  // The teams are busy on every day to Sunday: any hour of the event's week they are free, from
  // its first day to the end of its last, else the first hour after.
  const from = Math.max(dayWindow(t, base, t.firstDay)[0], Math.ceil(ready / STEP_MS) * STEP_MS);
  const last = Math.max(lastDayEnd(t, base), base + WEEK_MS + SPILL_MS);
  for (let at = from; at + length <= last; at += STEP_MS) if (rosters.free(plan, at, length)) return at;
  let at = Math.max(from, last - length);
  while (!rosters.free(plan, at, length)) at += STEP_MS;
  return at;
}

/** Moves a plan by `by` ms (a plan timed relative to 0 by finishPlan, to its slot). */
export function shiftPlan(plan: SeriesPlan, by: number): void {
  plan.start += by;
  plan.end += by;
  if (plan.postponedFrom !== null) plan.postponedFrom += by;
  if (plan.postponedAt !== null) plan.postponedAt += by;
  if (plan.deletedAt !== null) plan.deletedAt += by;
  if (plan.incidentAt !== null) plan.incidentAt += by;
  for (const m of plan.matches) {
    m.start += by;
    m.end += by;
  }
  plan.changes = plan.changes.map((c) => c + by);
}
