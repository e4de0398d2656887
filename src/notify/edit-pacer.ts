/**
 * At most one live-card edit per second per channel; changes that arrive in between are coalesced
 * (only the latest version of each message is sent). Edits are idempotent (last write wins), so a
 * dropped intermediate state loses nothing a reader would miss.
 */

export interface EditPacerOptions {
  /** Minimum real time between two edits in one channel. Default 1000 ms. */
  minIntervalMs?: number;
  /** Real time source (platform rate limits are about real time, not the simulated clock). */
  now?: () => number;
}

type Edit = () => Promise<void>;

interface ChannelQueue {
  lastAt: number;
  /** The latest pending edit per message; an older pending one is replaced. */
  pending: Map<string, Edit>;
  timer?: NodeJS.Timeout;
  running: boolean;
}

export class EditPacer {
  readonly #minIntervalMs: number;
  readonly #now: () => number;
  readonly #channels = new Map<string, ChannelQueue>();
  #coalesced = 0;
  #sent = 0;

  constructor(options: EditPacerOptions = {}) {
    this.#minIntervalMs = options.minIntervalMs ?? 1000;
    this.#now = options.now ?? Date.now;
  }

  /** Queues an edit of `messageKey` in `channelKey`; replaces a pending edit of the same message. */
  schedule(channelKey: string, messageKey: string, edit: Edit): void {
    let queue = this.#channels.get(channelKey);
    if (!queue) {
      queue = { lastAt: Number.NEGATIVE_INFINITY, pending: new Map(), running: false };
      this.#channels.set(channelKey, queue);
    }
    if (queue.pending.has(messageKey)) this.#coalesced++;
    queue.pending.delete(messageKey);
    queue.pending.set(messageKey, edit);
    this.#pump(channelKey, queue);
  }

  /** Edits sent and edits replaced by a newer one before they went out. */
  get stats(): { sent: number; coalesced: number; pending: number } {
    let pending = 0;
    for (const q of this.#channels.values()) pending += q.pending.size;
    return { sent: this.#sent, coalesced: this.#coalesced, pending };
  }

  /** Waits until nothing is pending (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.stats.pending > 0 || [...this.#channels.values()].some((q) => q.running)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.#minIntervalMs, 20)));
    }
  }

  stop(): void {
    for (const queue of this.#channels.values()) {
      if (queue.timer) clearTimeout(queue.timer);
      queue.pending.clear();
    }
  }

  #pump(channelKey: string, queue: ChannelQueue): void {
    if (queue.running || queue.timer || queue.pending.size === 0) return;
    const wait = queue.lastAt + this.#minIntervalMs - this.#now();
    if (wait > 0) {
      queue.timer = setTimeout(() => {
        queue.timer = undefined;
        this.#pump(channelKey, queue);
      }, wait);
      queue.timer.unref?.();
      return;
    }
    const [messageKey, edit] = queue.pending.entries().next().value as [string, Edit];
    queue.pending.delete(messageKey);
    queue.running = true;
    queue.lastAt = this.#now();
    this.#sent++;
    edit()
      .catch(() => undefined)
      .finally(() => {
        queue.running = false;
        // The queue stays (with its lastAt) so the next edit in this channel still waits its turn.
        this.#pump(channelKey, queue);
      });
  }
}
