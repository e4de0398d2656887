/**
 * The rate budget of a secret shared by every process that uses it, kept in Redis (docs/operations.md,
 * "Many processes on one Redis"). The service counts requests per secret, not per process: three processes
 * that each keep their own 5/s bucket send 15/s and draw 429s. Each process keeps its own `RateLimiter`
 * (it orders waiting calls: interactive before background, deadlines, shedding); a call that got a local
 * token then takes one from the shared bucket before it goes on the wire.
 */
import type { Priority } from './types.ts';

export interface SharedBudget {
  /**
   * Waits for a token of the shared bucket. Rejects with `WouldMissDeadlineError` when the wait
   * would end after `deadlineAt` (`performance.now()` clock), or with the signal's reason.
   * When the shared store cannot answer, resolves at once (the local bucket still paces this process).
   */
  acquire(priority: Priority, signal: AbortSignal | undefined, deadlineAt: number): Promise<void>;
  /** Nobody may send for `ms` (a 429 said the budget is spent for everyone). */
  pause(ms: number): void;
  close(): Promise<void>;
}

/** What the client tells a shared budget about the bucket it should keep. */
export interface SharedBudgetPlan {
  /** Identifies the secret and service (a hash: never the secret itself). */
  key: string;
  perSecond: number;
  /** Tokens the bucket holds (the service's burst minus the client's reserve). */
  capacity: number;
}

export type SharedBudgetFactory = (plan: SharedBudgetPlan) => SharedBudget;
