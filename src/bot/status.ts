/**
 * What `/status` says about this process (commands/status.ts): the bot's version, when the feed last
 * read the live listing, and how much of the upstream budget the process uses. The tracker samples
 * the client's counters every 5 s (a minute kept), so `/status` costs no extra request for them.
 */
import packageJson from '../../package.json' with { type: 'json' };
import type { ClientStats } from '../client/types.ts';

/** The package's version (package.json, taken into the build: `dist/` needs no package.json beside it). */
export const VERSION: string = String((packageJson as { version?: unknown }).version ?? 'unknown');

export interface ProcessStatus {
  version: string;
  /** Epoch ms (service clock) of the last successful read of the live listing; absent before any, or without a feed. */
  lastPollAt?: number;
  /** The process runs a feed (`npm start`); without one, commands ask the service each time. */
  hasFeed: boolean;
  /**
   * Service-clock milliseconds per real millisecond (1, or `CLOCK_SPEED` on the embedded service):
   * the feed polls on a real timer, so its age is judged in real time.
   */
  clockSpeed: number;
  /** The feed has not read the whole window yet. */
  feedFilling: boolean;
  /** Upstream use over the last minute (or since start, if shorter). */
  upstream: {
    /** Seconds the figures cover. */
    seconds: number;
    requests: number;
    /** Answers other than 2xx, 404 and 410 (the service failing or refusing). */
    failed: number;
    rateLimited: number;
    /** The budget as this process's bucket sees it. */
    perSecond?: number;
    /** Requests per second over the window / the budget (0..1+). */
    inUseRatio?: number;
    queueLength: number;
  };
  /** This process runs the notifier now (it holds the lease, or runs alone). */
  notifier: boolean;
  /**
   * This process answers one command and ends (`matchday ask`): its upstream figures are its own,
   * not those of the Matchday that runs the chat and the notifier.
   */
  oneShot: boolean;
}

interface Sample {
  at: number;
  total: number;
  failed: number;
  limited: number;
}

const SAMPLE_MS = 5000;
const WINDOW_MS = 60_000;

function failedOf(stats: ClientStats): number {
  let n = 0;
  for (const byStatus of Object.values(stats.upstream))
    for (const [status, count] of Object.entries(byStatus)) {
      const code = Number(status);
      // 404/410 are answers about data (unknown or deleted), not a failing service.
      if (!(code >= 200 && code < 300) && code !== 404 && code !== 410) n += count;
    }
  return n;
}

/** Samples the client's counters; `status()` reads them with the feed's last poll. */
export class StatusTracker {
  readonly #samples: Sample[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly sources: {
      clientStats: () => ClientStats;
      /** Epoch ms of the feed's last live read, undefined before any; absent without a feed. */
      lastPollAt?: () => number | undefined;
      feedFilling?: () => boolean;
      notifier: () => boolean;
      /** The service clock's speed (default 1). */
      clockSpeed?: () => number;
      /** A process that answers one command and ends (`matchday ask`). */
      oneShot?: boolean;
    },
  ) {
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), SAMPLE_MS);
    this.#timer.unref();
  }

  #sample(): void {
    const stats = this.sources.clientStats();
    const now = performance.now();
    this.#samples.push({
      at: now,
      total: stats.upstreamTotal,
      failed: failedOf(stats),
      limited: stats.rateLimited,
    });
    while (this.#samples.length > 2 && now - this.#samples[1]!.at >= WINDOW_MS) this.#samples.shift();
  }

  status(): ProcessStatus {
    const stats = this.sources.clientStats();
    const now = performance.now();
    const first = this.#samples[0] ?? { at: now, total: 0, failed: 0, limited: 0 };
    const seconds = Math.max(1, (now - first.at) / 1000);
    const requests = stats.upstreamTotal - first.total;
    const perSecond = stats.budget?.perSecond;
    const lastPollAt = this.sources.lastPollAt?.();
    return {
      version: VERSION,
      ...(lastPollAt !== undefined ? { lastPollAt } : {}),
      hasFeed: this.sources.lastPollAt !== undefined,
      clockSpeed: this.sources.clockSpeed?.() ?? 1,
      feedFilling: this.sources.feedFilling?.() ?? false,
      upstream: {
        seconds: Math.round(seconds),
        requests,
        failed: failedOf(stats) - first.failed,
        rateLimited: stats.rateLimited - first.limited,
        ...(perSecond ? { perSecond, inUseRatio: requests / seconds / perSecond } : {}),
        queueLength: stats.queueLength,
      },
      notifier: this.sources.notifier(),
      oneShot: this.sources.oneShot === true,
    };
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
