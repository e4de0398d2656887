/**
 * How often a series needs a fresh read, by how close it is: the bands the feed polls the window by
 * (reads.ts, state.ts, feed.ts), which the notifier's own reads follow too (src/notify/feed-source.ts).
 */
import type { Series } from '../protocol/types.ts';

export type PollBand = 'live' | 'imminent' | 'near' | 'far';

/**
 * Adaptive polling: how often a series needs a fresh read, by how close it is. Live series about
 * every 10 s; those starting within 15 minutes every minute; within 3 hours every 5 minutes; the
 * rest only through the periodic window scan.
 */
export function pollBand(series: Series, now: number): PollBand {
  if (series.lifecycle === 'live') return 'live';
  if (series.start === null) return 'far';
  const until = Date.parse(series.start) - now;
  if (until <= 15 * 60_000) return 'imminent';
  if (until <= 3 * 3600_000) return 'near';
  return 'far';
}

export const POLL_INTERVAL_MS: Record<PollBand, number> = {
  live: 10_000,
  imminent: 60_000,
  near: 5 * 60_000,
  far: 30 * 60_000,
};
