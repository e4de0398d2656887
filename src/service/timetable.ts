/**
 * When each series of a week is played. Two streams of tournaments (tiers 1-2, which the default
 * tenant follows, and tiers 3-4) each get an even grid of start slots over the week, so each
 * stream alone has a start every few minutes at any hour. At each slot the tournament furthest
 * behind its pace plays its next series whose teams have rested since their last series (of any
 * tournament of the stream), have played fewer than TIER1_PER_DAY tier-1 series in the last
 * 24 hours, and for a later stage, whose earlier stage is over. A team plays in one stream a week
 * (entrants.ts), so what schedule-check.ts asks holds: one series at a time, with rest.
 */
import type { SeriesPlan, TournamentPlan } from './plan-types.ts';
import { TEAM_REST_MS, TIER1_PER_DAY } from './schedule-check.ts';
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
/**
 * How long into the week the teams of last week's playoffs are kept free: its last series end
 * within a few hours of its end. A day for tier-1 playoff teams, so that no 24 hours across the
 * two weeks hold more than TIER1_PER_DAY of their tier-1 series.
 */
const LATE_MS = 6 * 3600_000;
const TIER1_LATE_MS = 24 * 3600_000;
/**
 * Share of the week by which a tournament of each tier (1-4) is due to be over. A tier-1 team plays
 * at most TIER1_PER_DAY series a day, so its bracket takes a day or two and must start well before
 * the week ends; the tier-2 tournaments (many and small, so some series is always ready) fill the
 * week's last hours.
 */
const PACE_END = [0.8, 1, 1, 1];
/** Share of the week over which the paces of a tier's tournaments start, staggered. */
const PACE_STAGGER = 0.12;
/** Pause between a tournament's group stage ending and its playoffs starting. */
const STAGE_BREAK_MS = 60 * 60_000;
const DAY_MS = 24 * 3600_000;

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
/** A tournament's series still to place, with its pace. */
interface Queue {
  tournament: TournamentPlan;
  list: SeriesPlan[];
  total: number;
  done: number;
  stageEnd: number[];
  /** The share of the week over which the tournament is paced. */
  from: number;
  to: number;
}

/** The stream's rosters: when each is free (its last series' end), and its tier-1 starts. */
class Rosters {
  readonly #busy = new Map<number, number>();
  readonly #tier1 = new Map<number, number[]>();

  /** `late`: the rosters of last week's playoffs, with the best tier they played in. */
  constructor(late: Map<number, number>, base: number) {
    for (const [r, tier] of late)
      this.#busy.set(r, base + (tier === 1 ? TIER1_LATE_MS : LATE_MS) - TEAM_REST_MS);
  }

  /** The earliest start for a series of these rosters: rested, and within the tier-1 pace. */
  readyAt(plan: SeriesPlan): number {
    let t = 0;
    for (const r of plan.rosters) {
      t = Math.max(t, (this.#busy.get(r) ?? 0) + TEAM_REST_MS);
      const starts = this.#tier1.get(r);
      if (plan.tier === 1 && starts && starts.length >= TIER1_PER_DAY)
        t = Math.max(t, starts[starts.length - TIER1_PER_DAY]! + DAY_MS);
    }
    return t;
  }

  played(plan: SeriesPlan): void {
    for (const r of plan.rosters) {
      this.#busy.set(r, Math.max(this.#busy.get(r) ?? 0, plan.end));
      if (plan.tier !== 1) continue;
      const starts = this.#tier1.get(r) ?? [];
      starts.push(plan.start);
      starts.sort((a, b) => a - b);
      this.#tier1.set(r, starts);
    }
  }
}

/**
 * One queue per tournament. Each keeps its own pace from a start staggered within its tier to the
 * week's end, so the tournaments of a tier are not all in the same round at the same hours.
 * (Staggering the ends too would leave the last hours of the week with only a few bracket finals
 * that wait for each other, and so gaps.)
 */
function queuesOf(tournaments: TournamentPlan[]): Queue[] {
  const queues = tournaments.map((t) => {
    const list = t.stages.flatMap((stage) => stage.substages.flatMap((sub) => sub.series));
    list.sort((a, b) => a.round - b.round || a.id - b.id);
    const to = PACE_END[t.tier - 1] ?? 1;
    return { tournament: t, list, total: list.length, done: 0, stageEnd: [0, 0, 0], from: 0, to };
  });
  for (const tier of new Set(tournaments.map((t) => t.tier))) {
    const same = queues.filter((q) => q.tournament.tier === tier);
    same.forEach((q, i) => {
      q.from = (PACE_STAGGER * (i + 0.5)) / same.length;
    });
  }
  return queues;
}

/** The series of the tournament's earliest round still to place. */
function currentRound(q: Queue): SeriesPlan[] {
  const round = q.list[0]?.round;
  return q.list.filter((s) => s.round === round);
}

/** How far ahead of its pace the tournament is at this share of the week (negative: behind). */
function lagOf(q: Queue, share: number): number {
  const expected = Math.min(1, Math.max(0, (share - q.from) / (q.to - q.from)));
  return q.done / q.total - expected;
}

/** Places the stream's series on its grid (see the file's comment); the furthest behind plays. */
export function scheduleStream(
  tournaments: TournamentPlan[],
  base: number,
  phase: number,
  late: Map<number, number>,
): void {
  const queues = queuesOf(tournaments);
  const rosters = new Rosters(late, base);
  const slots = queues.reduce((n, q) => n + q.list.filter((s) => !leavesSlot(s)).length, 0);
  if (slots === 0) return;
  const step = WEEK_MS / slots;
  /**
   * When a series could take a slot: its rosters rested, and for a later stage the earlier one
   * over. A postponed series starts `plan.start` after its slot (finishPlan), so it is ready that
   * much earlier; a deleted one is never played.
   */
  const readyAt = (q: Queue, plan: SeriesPlan) => {
    if (plan.deletedAt !== null) return 0;
    const order = plan.substage.stage.order;
    const t = order > 1 ? q.stageEnd[order - 1]! + STAGE_BREAK_MS : 0;
    return Math.max(t, rosters.readyAt(plan) - plan.start);
  };
  const place = (q: Queue, plan: SeriesPlan, at: number) => {
    q.list.splice(q.list.indexOf(plan), 1);
    q.done++;
    shiftPlan(plan, at);
    if (plan.deletedAt !== null) return;
    const order = plan.substage.stage.order;
    q.stageEnd[order] = Math.max(q.stageEnd[order] ?? 0, plan.end);
    rosters.played(plan);
  };
  let remaining = queues.reduce((n, q) => n + q.total, 0);
  for (let slot = 0; remaining > 0; slot++) {
    const at = Math.floor((base + (slot + phase) * step) / 60_000) * 60_000;
    for (;;) {
      let best: { q: Queue; plan: SeriesPlan } | null = null;
      const share = slot / slots;
      let bestLag = Number.POSITIVE_INFINITY;
      for (const q of queues) {
        if (q.list.length === 0) continue;
        const lag = lagOf(q, share);
        if (best && lag >= bestLag) continue;
        const plan = currentRound(q).find((s) => readyAt(q, s) <= at);
        if (plan) {
          best = { q, plan };
          bestLag = lag;
        }
      }
      if (!best) {
        // Nothing can start in this slot (tournaments waiting for their brackets): the first
        // series ready before the next slot starts late instead of leaving the slot empty.
        const next = base + (slot + 1 + phase) * step;
        let first: { q: Queue; plan: SeriesPlan; t: number } | null = null;
        for (const q of queues) {
          for (const plan of currentRound(q)) {
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
export function shiftPlan(plan: SeriesPlan, at: number): void {
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
