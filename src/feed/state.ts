/**
 * The feed's picture of the window, in memory: what it holds (series, live data, casters,
 * substages), how far its coverage reaches, and which snapshot parts changed since they were
 * written. The reads (`reads.ts`) and the window walk (`scan.ts`) fill it; `Feed` answers from it;
 * `snapshot.ts` turns it into the stored documents and back.
 */
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Match, Series, Substage } from '../protocol/types.ts';
import { POLL_INTERVAL_MS, pollBand } from './poll-band.ts';

/** A live series' matches and the live summary of its current game. */
export interface LiveData {
  matches: Match[];
  summary?: LiveSummary;
  /** `cv:<match id>` or `api:<match id>`: which summary it is. */
  summaryKey?: string;
  summaryAt?: number;
  /** The summary came over push (not yet read again from REST). */
  pushed?: boolean;
}

/**
 * While the push socket is up, the live listing (and its details) is read this often instead of every
 * `POLL_INTERVAL_MS.live`: a safety poll, REST staying the truth. Pushed changes the feed cannot place
 * (a map that starts or ends) read it at once.
 */
export const PUSH_SAFETY_POLL_MS = 60_000;

/** A series as last read. */
interface Known {
  series: Series;
  /** Simulated ms of the read. */
  readAt: number;
}

/** The snapshot's parts: each is written (and loaded) as one document. */
export const PARTS = ['live', 'window', 'details'] as const;
export type Part = (typeof PARTS)[number];

export class FeedState {
  readonly series = new Map<number, Known>();
  readonly live = new Map<number, LiveData>();
  readonly casters = new Map<number, Caster>();
  readonly substages = new Map<number, { substage: Substage; readAt: number }>();
  /** Substages whose standings may have changed (a series of theirs is live or just finished). */
  readonly substagesDue = new Set<number>();
  /** When the live listing was last read (simulated ms). */
  liveAt = Number.NEGATIVE_INFINITY;
  /** Every upcoming series starting up to here is held. */
  upcomingUntil = Number.NEGATIVE_INFINITY;
  /** Every finished series ending from here on is held. */
  finishedFrom = Number.POSITIVE_INFINITY;
  /** When the last window walk began. */
  scanAt = Number.NEGATIVE_INFINITY;
  /** True once a whole window walk is complete. */
  scanned = false;
  /** True while the push socket is up: live polling stretches to `PUSH_SAFETY_POLL_MS`. */
  pushUp = false;
  /** Per part: whether memory is newer than what was last written. */
  readonly dirty: Record<Part, boolean> = { live: false, window: false, details: false };

  /** True once the live listing has been read (or loaded). */
  get ready(): boolean {
    return Number.isFinite(this.liveAt);
  }

  /**
   * How often the live listing is read: every 10 s while anything is live or imminent (every
   * `PUSH_SAFETY_POLL_MS` while push is up).
   */
  liveEvery(now: number): number {
    for (const k of this.series.values()) {
      const band = pollBand(k.series, now);
      if (band === 'live' || band === 'imminent')
        return this.pushUp ? PUSH_SAFETY_POLL_MS : POLL_INTERVAL_MS.live;
    }
    return this.ready ? POLL_INTERVAL_MS.near : 0;
  }

  /** Takes in a series read at `now`, unless a newer read is held; its substage is due when it went live or finished. */
  remember(series: Series, now: number): void {
    const known = this.series.get(series.id);
    if (known && known.readAt > now) return;
    const finished = series.lifecycle === 'over' || series.lifecycle === 'over-forfeited';
    if (series.lifecycle === 'live' || (finished && known && known.series.lifecycle !== series.lifecycle))
      this.substagesDue.add(series.substage.id);
    this.series.set(series.id, { series, readAt: now });
  }

  /** Takes in a batched re-read: what came back is fresh, what did not is deleted. */
  applyRereads(stale: readonly number[], fresh: Series[], now: number): void {
    const found = new Set(fresh.map((s) => s.id));
    for (const s of fresh) this.remember(s, now);
    for (const id of stale) {
      if (found.has(id)) continue;
      // Not found: deleted (the service answers 410, and `id<=` lists leave it out).
      const k = this.series.get(id)!;
      k.series = {
        ...k.series,
        lifecycle: 'deleted',
        deleted_at: k.series.deleted_at ?? new Date(now).toISOString(),
      };
      k.readAt = now;
    }
    this.dirty.window = true;
  }

  sizes(): Record<string, number> {
    return {
      series: this.series.size,
      live: this.live.size,
      casters: this.casters.size,
      substages: this.substages.size,
    };
  }
}
