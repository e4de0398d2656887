/**
 * Single flight: one upstream call shared by every concurrent identical request. Each caller waits
 * only until its own deadline or abort; the call is cancelled when the last caller gives up.
 */
import type { Ticket } from './rate-limiter.ts';
import type { Priority } from './types.ts';

export class Flight {
  readonly controller = new AbortController();
  readonly ticket: Ticket;
  deadlineAt: number;
  joiners = 0;
  settled = false;
  promise!: Promise<unknown>;

  constructor(priority: Priority, deadlineAt: number) {
    this.ticket = { priority };
    this.deadlineAt = deadlineAt;
  }

  /** A new caller shares this flight: it can only raise the priority and extend the deadline. */
  join(priority: Priority, deadlineAt: number): void {
    this.joiners++;
    if (priority === 'interactive') this.ticket.priority = 'interactive';
    if (deadlineAt > this.deadlineAt) this.deadlineAt = deadlineAt;
  }

  /** A caller gave up (deadline or abort); when nobody waits any more, the upstream call is cancelled. */
  leave(): void {
    this.joiners--;
    if (this.joiners === 0 && !this.settled) {
      this.controller.abort(new DOMException('every caller of this request gave up', 'AbortError'));
    }
  }

  /**
   * Waits for this flight's answer as one caller: rejects with `timeout()` at `deadlineAt`, with the
   * signal's reason on abort, and leaves the flight either way.
   */
  wait(
    priority: Priority,
    deadlineAt: number,
    signal: AbortSignal | undefined,
    timeout: () => Error,
  ): Promise<unknown> {
    this.join(priority, deadlineAt);
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.leave();
        settle();
      };
      const onAbort = () => finish(() => reject(signal?.reason));
      const timer = setTimeout(
        () => finish(() => reject(timeout())),
        Math.max(0, deadlineAt - performance.now()),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.promise.then(
        (value) => finish(() => resolve(value)),
        (error: unknown) => finish(() => reject(error)),
      );
    });
  }
}
