/**
 * Retry and the limiter hand-off: each attempt takes a token from the process's limiter (and the
 * secret's shared budget), sends one GET, and turns the answer into a value or a `ServiceError`.
 * 429, 5xx and network errors are retried with backoff (or the wait the service asks for), never
 * past the flight's deadline.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  errorFromResponse,
  isRetryable,
  messageFromBody,
  NetworkError,
  QueueFullError,
  RateLimitedError,
  ServiceError,
  TimeoutError,
  UnavailableError,
} from './errors.ts';
import type { Flight } from './flight.ts';
import { type HttpAnswer, type HttpTransport, TransportTimeoutError } from './http.ts';
import type { Logger } from './logger.ts';
import { plainData, plainText } from './plain-text.ts';
import { type RateLimiter, WouldMissDeadlineError } from './rate-limiter.ts';
import type { SharedBudget } from './shared-budget.ts';

export interface RetryPolicy {
  /** Most attempts per call, the first included. Default 3. */
  attempts: number;
  /** Backoff base: the n-th wait is random(0, min(cap, base * 2^n)). Default 200 ms. */
  baseMs: number;
  /** Backoff cap. Default 2,000 ms. */
  capMs: number;
}

/** What one flight's attempts use, and report to. */
export interface FetchEnv {
  retry: RetryPolicy;
  limiter: RateLimiter;
  sharedBudget?: SharedBudget | undefined;
  transport: HttpTransport;
  logger: Logger;
  random: () => number;
  /** The request's path and query with the secret redacted, for errors and logs. */
  path: string;
  /** Counts an upstream answer by status ('timeout', 'network' for none). */
  count(status: string): void;
  /** Counts a request shed before sending, a 429, and a retry. */
  counted(what: 'shed' | 'rateLimited' | 'retries'): void;
  /** The error of a call that ran out of time (or whose client closed). */
  timeout(cause?: unknown): Error;
}

/** GETs `pathAndQuery` for `flight`, retrying on 429, 5xx and network errors within its deadline. */
export async function fetchWithRetry(flight: Flight, pathAndQuery: string, env: FetchEnv): Promise<unknown> {
  const { retry, limiter, logger, path } = env;
  const signal = flight.controller.signal;
  for (let attempt = 1; ; attempt++) {
    await takeToken(flight, env);
    const answer = await attemptOnce(flight, pathAndQuery, attempt, env);
    if (!(answer instanceof ServiceError)) return answer;
    const error = answer;
    if (!isRetryable(error) || attempt >= retry.attempts) throw error;
    const hint = error.retryAfterMs;
    if (error instanceof RateLimitedError && hint !== undefined) {
      limiter.pause(hint);
      env.sharedBudget?.pause(hint);
    }
    const ceiling = Math.min(retry.capMs, retry.baseMs * 2 ** (attempt - 1));
    const wait = hint !== undefined && hint > 0 ? hint : env.random() * ceiling;
    if (performance.now() + wait >= flight.deadlineAt) {
      // The hint is longer than the caller's budget: fail now (the caller may serve stale data).
      logger.info(
        { path, status: error.status, waitMs: Math.round(wait) },
        'not retrying: the wait exceeds the deadline',
      );
      throw error;
    }
    env.counted('retries');
    logger.info({ path, status: error.status, attempt, waitMs: Math.round(wait) }, 'retrying');
    try {
      await sleep(wait, undefined, { signal });
    } catch (cause) {
      throw env.timeout(cause);
    }
  }
}

/** Waits for a token from the limiter and the shared budget, or fails as shed or timed out. */
async function takeToken(flight: Flight, env: FetchEnv): Promise<void> {
  const signal = flight.controller.signal;
  try {
    await env.limiter.acquire(flight.ticket, signal, flight.deadlineAt);
    await env.sharedBudget?.acquire(flight.ticket.priority, signal, flight.deadlineAt);
  } catch (cause) {
    if (cause instanceof QueueFullError) {
      env.counted('shed');
      throw new QueueFullError({ status: 0, method: 'GET', path: env.path, msg: cause.msg });
    }
    if (cause instanceof WouldMissDeadlineError) {
      env.counted('shed');
      throw new TimeoutError({
        status: 0,
        method: 'GET',
        path: env.path,
        msg: `the request budget is busy: ${cause.message}, after the call's deadline`,
        cause,
      });
    }
    throw signal.aborted ? env.timeout(cause) : cause;
  }
}

/** One GET: the value of a 200, or the `ServiceError` to retry or throw. Throws a timeout as is. */
async function attemptOnce(
  flight: Flight,
  pathAndQuery: string,
  attempt: number,
  env: FetchEnv,
): Promise<unknown | ServiceError> {
  const { limiter, transport, logger, path } = env;
  const signal = flight.controller.signal;
  const budget = flight.deadlineAt - performance.now();
  // Marked as on the wire only when it goes: a mark never settled would count forever in `observe`.
  const started = budget > 0 ? limiter.sent() : 0;
  try {
    if (budget <= 0) throw new TransportTimeoutError('deadline passed while waiting for a token');
    const answer = await transport.get(pathAndQuery, signal, budget).finally(() => limiter.settled(started));
    env.count(String(answer.status));
    limiter.observe(answer.headers, started);
    logger.debug(
      { path, status: answer.status, attempt, ms: Math.round(performance.now() - started) },
      'upstream answer',
    );
    // Where data enters: every string of the answer made plain text once (`plain-text.ts`).
    if (answer.status === 200)
      return plainData(answer.value !== undefined ? answer.value : parseBody(answer, path));
    const error = errorFromResponse({
      status: answer.status,
      method: 'GET',
      path,
      msg: plainText(messageFromBody(answer.body, answer.status)),
      retryAfterMs: retryHint(answer),
    });
    if (error instanceof RateLimitedError) env.counted('rateLimited');
    return error;
  } catch (cause) {
    if (cause instanceof ServiceError) return cause;
    if (cause instanceof TransportTimeoutError || signal.aborted) {
      if (!signal.aborted) env.count('timeout');
      throw env.timeout(cause);
    }
    env.count('network');
    return new NetworkError({ status: 0, method: 'GET', path, msg: describeNetworkError(cause), cause });
  }
}

function parseBody(answer: HttpAnswer, path: string): unknown {
  try {
    return JSON.parse(answer.body);
  } catch (cause) {
    throw new UnavailableError({
      status: 200,
      method: 'GET',
      path,
      msg: 'the answer is not valid JSON',
      cause,
    });
  }
}

/**
 * The wait a 429 or 5xx asks for, in ms: `X-RateLimit-Reset` (ms, on a 429) and `Retry-After`, whose
 * unit is seconds by HTTP but was seen as ms on the real service, so above 120 it is read as ms.
 */
export function retryHint(answer: Pick<HttpAnswer, 'status' | 'headers'>): number | undefined {
  const header = (name: string): string | undefined => {
    const raw = answer.headers[name];
    return Array.isArray(raw) ? raw[0] : raw;
  };
  const reset = Number(header('x-ratelimit-reset'));
  const resetMs =
    answer.status === 429 && header('x-ratelimit-reset') !== undefined && Number.isFinite(reset) && reset >= 0
      ? reset
      : undefined;
  const after = header('retry-after');
  let afterMs: number | undefined;
  if (after !== undefined) {
    const value = Number(after);
    if (Number.isFinite(value) && value >= 0) afterMs = value > 120 ? value : value * 1000;
    else if (!Number.isNaN(Date.parse(after))) afterMs = Math.max(0, Date.parse(after) - Date.now());
  }
  // Both present: the longer one. A bucket that reports "full again in 0 ms" while still refusing
  // (a storm) must not be hammered.
  if (resetMs === undefined) return afterMs;
  return afterMs === undefined ? resetMs : Math.max(resetMs, afterMs);
}

function describeNetworkError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}
