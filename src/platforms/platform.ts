/**
 * What a chat platform adapter gives the process once started (src/platforms/discord and
 * src/platforms/slack; main.ts starts them): the `Delivery` the notifier posts through, a way to
 * leave the platform and a way to stop. The terminal chat is the process' own console: main.ts runs
 * it with its `TerminalDelivery`. Commands reach every adapter's users through `Runtime`
 * (src/bot/runtime.ts).
 *
 * A graceful stop (SIGTERM) first `leave`s every platform, so the platform routes new commands to
 * another process, lets the commands already received finish, then stops the notifier (posts under
 * way finish, the lease is released) and only then calls `stop`.
 */
import type { Delivery } from '../notify/delivery.ts';

export interface ChatPlatform {
  /** Posts and edits notifications on this platform (the notifier's `deliveries[platform]`). */
  readonly delivery: Delivery;
  /**
   * Stops receiving: closes the Discord gateway session or the Slack socket (or HTTP listener), so
   * the platform sends nothing new to this process. Resolves once the commands already received
   * are answered. Answers and notifications can still be sent until `stop`.
   */
  leave(): Promise<void>;
  /** Disconnects; in-flight posts finish first. */
  stop(): Promise<void>;
}

/** The handlers under way (commands received, not yet answered), so leaving can wait for them. */
export class InFlight {
  readonly #running = new Set<Promise<unknown>>();

  /** Counts `work` as under way until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#running.add(work);
    const done = () => this.#running.delete(work);
    work.then(done, done);
    return work;
  }

  get size(): number {
    return this.#running.size;
  }

  /** Resolves once nothing is under way (work tracked meanwhile is waited for too). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}
