/**
 * Typed errors of the esports data client. One `ServiceError` carries what a log
 * line or a reply needs (status, method, path with the secret redacted, the service's `msg`); one
 * subclass per case so callers branch with `instanceof`. Built by `errorFromResponse`, the one
 * factory that maps a status to a class (stripe-node style).
 */

import { type Audience, MatchdayError } from '../core/errors.ts';

/** What every service error exposes. `status` is 0 when no HTTP answer arrived (timeout, network, queue). */
interface ServiceErrorInit {
  status: number;
  method: string;
  path: string;
  msg: string;
  cause?: unknown;
  /** The wait the service asked for (429 / 503), in milliseconds. */
  retryAfterMs?: number;
}

/** A call to the service failed. The message never contains the secret. */
export class ServiceError extends MatchdayError {
  override name = 'ServiceError';
  /** A stable code for callers and metrics. */
  override readonly code: string = 'SERVICE_ERROR';
  /** Unexpected answers are bugs; the subclasses below say otherwise where it is someone else's. */
  override readonly audience: Audience = 'bug';
  readonly status: number;
  readonly method: string;
  /** Path and query, secret redacted. */
  readonly path: string;
  /** The service's own `msg` (or a description of what went wrong when there was none). */
  readonly msg: string;
  readonly retryAfterMs: number | undefined;

  constructor(init: ServiceErrorInit) {
    super(
      'SERVICE_ERROR',
      'bug',
      `${init.method} ${init.path} failed${init.status ? ` with ${init.status}` : ''}: ${init.msg}`,
      {
        cause: init.cause,
      },
    );
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.msg = init.msg;
    this.retryAfterMs = init.retryAfterMs;
  }

  override get userMessage(): string {
    switch (this.audience) {
      case 'user':
        return 'The esports data service has no such item (it may have been removed). Check the name or id.';
      case 'outage':
        return 'The esports data service is not answering right now. Please try again in a minute.';
      default:
        return 'Matchday could not read its esports data.';
    }
  }
}

/** 400: the service refused the query (a bug in the caller or the client: queries are validated first). */
export class BadRequestError extends ServiceError {
  override name = 'BadRequestError';
  override readonly code = 'BAD_REQUEST';
}

/** 401 / 403: the secret is missing, wrong or revoked. */
export class UnauthorizedError extends ServiceError {
  override name = 'UnauthorizedError';
  override readonly audience: Audience = 'configuration';
  override readonly code = 'UNAUTHORIZED';
}

/** 404: no such resource. */
export class NotFoundError extends ServiceError {
  override name = 'NotFoundError';
  override readonly audience: Audience = 'user';
  override readonly code = 'NOT_FOUND';
}

/** 410: the resource was deleted (soft delete). */
export class GoneError extends ServiceError {
  override name = 'GoneError';
  override readonly audience: Audience = 'user';
  override readonly code = 'GONE';
}

/** 429 that outlasted the retries or the caller's deadline. */
export class RateLimitedError extends ServiceError {
  override name = 'RateLimitedError';
  override readonly audience: Audience = 'outage';
  override readonly code: string = 'RATE_LIMITED';
}

/**
 * The client's own queue was full, so this call was shed before reaching the service (background
 * work is shed first). A subclass of `RateLimitedError`: to a caller it means the same, "busy, later".
 */
export class QueueFullError extends RateLimitedError {
  override name = 'QueueFullError';
  override readonly code = 'QUEUE_FULL';
}

/** 5xx, or an answer the client could not read (a body that is not JSON). */
export class UnavailableError extends ServiceError {
  override name = 'UnavailableError';
  override readonly audience: Audience = 'outage';
  override readonly code = 'UNAVAILABLE';
}

/** The call's deadline passed (queueing, retries and the request itself included). */
export class TimeoutError extends ServiceError {
  override name = 'TimeoutError';
  override readonly audience: Audience = 'outage';
  override readonly code = 'TIMEOUT';
}

/**
 * The client was closed (Matchday is stopping) while a call waited. Nothing to report: background
 * work that meets it stops quietly (`stoppedByClose`).
 */
export class ClientClosedError extends MatchdayError {
  override name = 'ClientClosedError';
  constructor() {
    super('CLIENT_CLOSED', 'outage', 'The esports client is closed.');
  }
}

/** Whether `error` (or one of its causes) is the client closing, not a failure worth a warning. */
export function stoppedByClose(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof ClientClosedError) return true;
  return false;
}

/** The connection failed (refused, reset, DNS): no answer at all. */
export class NetworkError extends ServiceError {
  override name = 'NetworkError';
  override readonly audience: Audience = 'outage';
  override readonly code = 'NETWORK';
}

/**
 * A 3xx answer. Redirects are refused, never followed: a custom secret header would be forwarded
 * to the new origin.
 */
export class RedirectRefusedError extends ServiceError {
  override name = 'RedirectRefusedError';
  override readonly code = 'REDIRECT_REFUSED';
}

/**
 * A query that the client refuses before sending anything: an unknown field, an operator used with
 * the wrong kind of value, a bad `take`. A programming error in the caller, not the user's fault
 * (user text and ids fail with the protocol's `UnsafeFilterTextError`, whose message is fit for users).
 */
export class InvalidQueryError extends MatchdayError {
  override name = 'InvalidQueryError';
  constructor(message: string) {
    super('INVALID_QUERY', 'bug', message);
  }
}

/**
 * Reads the `msg` of an error body whatever its shape (the real service's are `{msg}`;
 * src/service/api-error.ts): JSON `{msg}`, an empty body or something that is not JSON at all.
 */
export function messageFromBody(body: string, status: number): string {
  const text = body.trim();
  if (text === '') return `no message (HTTP ${status})`;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'msg' in parsed && typeof parsed.msg === 'string')
      return parsed.msg;
  } catch {
    // not JSON: fall through to a short excerpt
  }
  const excerpt = text.replace(/\s+/g, ' ').slice(0, 200);
  return `unreadable answer (HTTP ${status}): ${excerpt}`;
}

/** Maps an HTTP status to its error class. */
export function errorFromResponse(init: ServiceErrorInit): ServiceError {
  const { status } = init;
  if (status >= 300 && status < 400) return new RedirectRefusedError(init);
  if (status === 400) return new BadRequestError(init);
  if (status === 401 || status === 403) return new UnauthorizedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 410) return new GoneError(init);
  if (status === 429) return new RateLimitedError(init);
  if (status >= 500) return new UnavailableError(init);
  return new ServiceError(init);
}

/** Whether a failed attempt may be retried (GET only, which is all this client sends). */
export function isRetryable(error: unknown): boolean {
  return error instanceof RateLimitedError
    ? !(error instanceof QueueFullError)
    : error instanceof UnavailableError || error instanceof NetworkError;
}

/** Replaces every occurrence of `secret` (raw and URL-encoded) in `text`. */
export function redact(text: string, secret: string): string {
  if (secret === '') return text;
  let out = text.split(secret).join('[redacted]');
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) out = out.split(encoded).join('[redacted]');
  return out;
}
