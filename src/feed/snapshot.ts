/**
 * The feed's snapshot documents: one per part of its picture (`live`: the live listing and its
 * details; `window`: every windowed series and the coverage; `details`: substages and casters),
 * written by the refresher and loaded by every process on the same store. Loading merges: a
 * series or substage replaces the one held only when it was read later.
 */
import type { Caster, Series, Substage } from '../protocol/types.ts';
import type { FeedState, LiveData, Part } from './state.ts';

/** JSON has no Infinity: the edges of coverage are stored as null. */
const edge = (n: number): number | null => (Number.isFinite(n) ? n : null);
const unedge = (n: number | null, infinite: number): number => (n === null ? infinite : n);

/** The document of one part, ready for `JSON.stringify`. */
export function snapshotDocument(state: FeedState, part: Part): unknown {
  if (part === 'live')
    return {
      liveAt: edge(state.liveAt),
      series: [...state.series.values()]
        .filter((k) => k.series.lifecycle === 'live')
        .map((k) => [k.series, k.readAt]),
      live: [...state.live],
    };
  if (part === 'window')
    return {
      upcomingUntil: edge(state.upcomingUntil),
      finishedFrom: edge(state.finishedFrom),
      scanAt: edge(state.scanAt),
      scanned: state.scanned,
      series: [...state.series.values()].map((k) => [k.series, edge(k.readAt)]),
    };
  return {
    substages: [...state.substages.values()].map((s) => [s.substage, s.readAt]),
    casters: [...state.casters.values()],
  };
}

/** Merges a loaded document of one part into the picture. */
export function restoreSnapshot(state: FeedState, part: Part, doc: Record<string, unknown>): void {
  if (part === 'live') {
    mergeSeries(state, doc.series as [Series, number][]);
    state.liveAt = Math.max(state.liveAt, unedge(doc.liveAt as number | null, Number.NEGATIVE_INFINITY));
    state.live.clear();
    for (const [id, data] of doc.live as [number, LiveData][]) state.live.set(id, data);
  } else if (part === 'window') {
    mergeSeries(state, doc.series as [Series, number | null][]);
    state.upcomingUntil = Math.max(
      state.upcomingUntil,
      unedge(doc.upcomingUntil as number | null, Number.POSITIVE_INFINITY),
    );
    state.finishedFrom = Math.min(
      state.finishedFrom,
      unedge(doc.finishedFrom as number | null, Number.NEGATIVE_INFINITY),
    );
    state.scanAt = Math.max(state.scanAt, unedge(doc.scanAt as number | null, Number.NEGATIVE_INFINITY));
    if (doc.scanned === true) state.scanned = true;
  } else {
    for (const [s, readAt] of doc.substages as [Substage, number][]) {
      const known = state.substages.get(s.id);
      if (!known || readAt > known.readAt) state.substages.set(s.id, { substage: s, readAt });
    }
    for (const c of doc.casters as Caster[]) state.casters.set(c.id, c);
  }
}

function mergeSeries(state: FeedState, rows: [Series, number | null][]): void {
  for (const [s, readAt] of rows) {
    const at = unedge(readAt, Number.NEGATIVE_INFINITY);
    const known = state.series.get(s.id);
    if (!known || at > known.readAt) state.series.set(s.id, { series: s, readAt: at });
  }
}
