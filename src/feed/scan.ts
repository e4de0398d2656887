/**
 * The window walk: the whole window, a page at a time: upcoming series by start (so the next hours
 * come first), then finished ones by end, newest first, then the standings and casters of
 * everything read. Each page overlaps the previous one by a few series (the upcoming listing
 * shifts as series go live), and the position is kept in the `Walk`, so an interrupted walk
 * resumes where it stopped. Coverage grows as pages arrive, so commands answer from the first
 * pages on. Upcoming series the walk no longer lists are re-read at the next tick; finished series
 * it no longer lists (their week left the window) are dropped.
 */
import type { Series } from '../protocol/types.ts';
import type { FeedReads } from './reads.ts';
import type { FeedState } from './state.ts';

/** The walk under way: which listing, from where (a start or end instant), what it has seen. */
export interface Walk {
  phase: 'upcoming' | 'finished' | 'details';
  skip: number;
  seen: Set<number>;
  /** Substages read as the walk went (each asked once per walk, found or not). */
  substagesAsked: Set<number>;
  /** The instant (simulated ms) the walk began: its reads count as read then. */
  at: number;
}

interface WalkContext {
  state: FeedState;
  reads: FeedReads;
  /** How far ahead the upcoming walk reads and how far back the finished walk reads (simulated ms). */
  horizonMs: number;
  pastMs: number;
  /** True once the feed is stopping: the walk ends at its next page. */
  stopping: () => boolean;
}

const PAGE = 50;
const OVERLAP = 5;

/** Walks on from where `walk` stands; true when the whole walk is complete. Throws when a page read fails. */
export async function walkWindow(walk: Walk, ctx: WalkContext): Promise<boolean> {
  while (walk.phase === 'upcoming' && !ctx.stopping()) {
    await upcomingStep(walk, ctx);
    await newSubstages(walk, ctx, walk.phase !== 'upcoming');
  }
  while (walk.phase === 'finished' && !ctx.stopping()) {
    await finishedStep(walk, ctx);
    await newSubstages(walk, ctx, walk.phase !== 'finished');
  }
  if (walk.phase !== 'details' || ctx.stopping()) return false;
  // Standings and casters of everything windowed (the live ones are kept fresh by the live reads).
  const known = [...ctx.state.series.values()];
  const substages = [...new Set(known.map((k) => k.series.substage.id))];
  const casters = [...new Set(known.flatMap((k) => k.series.casters.map((c) => c.caster.id)))];
  await ctx.reads.substages(substages, walk.at);
  await ctx.reads.casters(casters);
  ctx.state.scanned = true;
  return true;
}

/** New substages are read this many at a time, once this many are missing. */
const SUBSTAGE_BATCH = 20;

/**
 * The standings of substages the walk has listed series of but the feed does not hold yet, read as
 * the walk goes (one batch of `SUBSTAGE_BATCH` a page once that many are missing, and at the end of a phase): the
 * tournaments playing in the next hours get their tables first, as their series do, instead of
 * after the whole window. The details step re-reads them all.
 */
async function newSubstages(walk: Walk, { state, reads }: WalkContext, phaseDone: boolean): Promise<void> {
  const missing = new Set<number>();
  for (const { series } of state.series.values()) {
    const id = series.substage.id;
    if (!state.substages.has(id) && !walk.substagesAsked.has(id)) missing.add(id);
  }
  if (missing.size < SUBSTAGE_BATCH && !(phaseDone && missing.size > 0)) return;
  // At most one batch a page: a substage with its standings is a large answer for the service.
  const batch = [...missing].slice(0, SUBSTAGE_BATCH);
  for (const id of batch) walk.substagesAsked.add(id);
  await reads.substages(batch, walk.at);
}

/** One page of upcoming series; at the horizon or the listing's end, the walk turns to finished series. */
async function upcomingStep(walk: Walk, { state, reads, horizonMs }: WalkContext): Promise<void> {
  const now = walk.at;
  const page = await nextPage(walk, (skip, take) => reads.upcomingPage(skip, take));
  let beyond = false;
  for (const s of page) {
    const start = s.start === null ? Number.POSITIVE_INFINITY : Date.parse(s.start);
    if (start > now + horizonMs) {
      beyond = true;
      state.upcomingUntil = Math.max(state.upcomingUntil, now + horizonMs);
      break;
    }
    seeSeries(walk, state, s);
    state.upcomingUntil = Math.max(state.upcomingUntil, start - 1);
  }
  if (beyond || page.length < PAGE) {
    if (!beyond) state.upcomingUntil = Number.POSITIVE_INFINITY;
    for (const [id, k] of state.series)
      if (!walk.seen.has(id) && k.series.lifecycle === 'upcoming') k.readAt = Number.NEGATIVE_INFINITY;
    walk.phase = 'finished';
    walk.skip = 0;
    walk.seen = new Set();
  }
  state.dirty.window = true;
}

/** One page of finished series; past the window's start or at the listing's end, the walk turns to details. */
async function finishedStep(walk: Walk, { state, reads, pastMs }: WalkContext): Promise<void> {
  const now = walk.at;
  const page = await nextPage(walk, (skip, take) => reads.finishedPage(skip, take));
  let before = false;
  for (const s of page) {
    const end = Date.parse(s.end ?? s.start ?? '');
    if (end < now - pastMs) {
      before = true;
      state.finishedFrom = Math.min(state.finishedFrom, now - pastMs);
      break;
    }
    seeSeries(walk, state, s);
    state.finishedFrom = Math.min(state.finishedFrom, end + 1);
  }
  if (before || page.length < PAGE) {
    if (!before) {
      state.finishedFrom = Number.NEGATIVE_INFINITY;
      // The whole listing was read: a finished series it no longer holds left the window.
      for (const [id, k] of state.series) {
        const finished = k.series.lifecycle === 'over' || k.series.lifecycle === 'over-forfeited';
        if (finished && !walk.seen.has(id) && k.readAt < now) state.series.delete(id);
      }
    }
    walk.phase = 'details';
  }
  state.dirty.window = true;
}

/** The walk's next page of a listing, overlapping the previous page by a few series (the listing shifts). */
async function nextPage(
  walk: Walk,
  read: (skip: number, take: number) => Promise<Series[]>,
): Promise<Series[]> {
  const skip = Math.max(0, walk.skip - OVERLAP);
  const page = await read(skip, PAGE);
  walk.skip = skip + page.length;
  return page;
}

/** A series the walk listed: held, as read at the walk's start. */
function seeSeries(walk: Walk, state: FeedState, s: Series): void {
  walk.seen.add(s.id);
  state.remember(s, walk.at);
}
