/**
 * When each series of a week is played. Two streams of tournaments (tiers 1-2, which the default
 * tenant follows, and tiers 3-4) each get an even grid of start slots over the week, so each
 * stream alone has a start every few minutes at any hour. At each slot the tournament furthest
 * behind its pace plays its next series whose rosters have rested since their last series of the
 * tournament and, for a later stage, whose earlier stage is over.
 *
 * Known limit (issue 12 item 16): rest is kept within a tournament only, so a team entered in two
 * tournaments of a week can play two series at once (schedule-check.ts counts it).
 */
import type { SeriesPlan, TournamentPlan } from './plan-types.ts';
import { REST_MS } from './series-timing.ts';
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
/** Share of the week over which the paces of a tier's tournaments start, staggered. */
const PACE_STAGGER = 0.12;
/** Pause between a tournament's group stage ending and its playoffs starting. */
const STAGE_BREAK_MS = 60 * 60_000;

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
/** A tournament's series still to place, with its pace and its rosters' rest. */
interface Queue {
  tournament: TournamentPlan;
  list: SeriesPlan[];
  total: number;
  done: number;
  busy: Map<number, number>;
  stageEnd: number[];
  from: number;
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
    const busy = new Map<number, number>();
    return { tournament: t, list, total: list.length, done: 0, busy, stageEnd: [0, 0, 0], from: 0 };
  });
  for (const tier of new Set(tournaments.map((t) => t.tier))) {
    const same = queues.filter((q) => q.tournament.tier === tier);
    same.forEach((q, i) => {
      q.from = (PACE_STAGGER * (i + 0.5)) / same.length;
    });
  }
  return queues;
}

export function scheduleStream(tournaments: TournamentPlan[], base: number, phase: number): void {
  const queues = queuesOf(tournaments);
  const slots = queues.reduce((n, q) => n + q.list.filter((s) => !leavesSlot(s)).length, 0);
  if (slots === 0) return;
  const step = WEEK_MS / slots;
  /** When a series could start: its rosters rested, and for a later stage the earlier one over. */
  const readyAt = (q: Queue, plan: SeriesPlan) => {
    if (leavesSlot(plan)) return 0;
    const order = plan.substage.stage.order;
    let t = order > 1 ? q.stageEnd[order - 1]! + STAGE_BREAK_MS : 0;
    for (const r of plan.rosters) t = Math.max(t, (q.busy.get(r) ?? 0) + REST_MS);
    return t;
  };
  const candidates = (q: Queue) => {
    const round = q.list[0]?.round;
    return q.list.filter((s) => s.round === round);
  };
  const place = (q: Queue, plan: SeriesPlan, at: number) => {
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
      let best: { q: Queue; plan: SeriesPlan } | null = null;
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
        let first: { q: Queue; plan: SeriesPlan; t: number } | null = null;
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
