/**
 * One `/v3` request of the local service: the request target, the rate limit, the secret, the
 * injected faults, the route, and every error as the `{ msg }` body with the rate-limit headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../core/clock.ts';
import { ID_SPACES } from '../protocol/fields.ts';
import { ApiError } from './api-error.ts';
import type { FaultOptions } from './faults.ts';
import { send, sendTruncated } from './json-answer.ts';
import type { Rng } from './random.ts';
import type { RateLimiter } from './rate-limit.ts';
import { matchRoute, readIdSpace, resolveIds } from './routes.ts';
import type { World } from './world.ts';

/** Longest request target (path and query) answered; longer ones get a 400 saying so. */
export const MAX_URL_LENGTH = 8192;

/** What the running service gives every `/v3` request. */
export interface V3Settings {
  world: World;
  clock: Clock;
  /** The one accepted secret. */
  secret: string;
  /** Whether the secret may come in the `secret` query parameter. */
  querySecret: boolean;
  limiter: RateLimiter;
  faultRng: Rng;
}

interface RequestTarget {
  url: URL | null;
  error: string | null;
}

/** The id of a 404 as the client sent it, when it came in an external id space. */
interface ExternalRef {
  kind: string;
  raw: string;
  space: string;
}

const SPENT = 'Too many requests: the rate limit of this secret is spent.';

/**
 * Reads the request target: an origin-form path (one "/" then the path) of at most MAX_URL_LENGTH
 * characters. Anything else (`//[`, `http://x/`, an overlong query) is a 400 that says why.
 */
export function readTarget(raw: string): RequestTarget {
  if (raw.length > MAX_URL_LENGTH) {
    return {
      url: null,
      error: `The request target is ${raw.length} characters long; at most ${MAX_URL_LENGTH} are allowed: narrow the filter or split the request.`,
    };
  }
  // Only the path is echoed, never the query (which may hold a secret).
  const path = raw.split('?')[0]!;
  const shown = path.length > 40 ? `${path.slice(0, 40)}...` : path;
  const bad = {
    url: null,
    error: `Invalid request target "${shown}": use a path under /v3 such as /v3/series?take=10.`,
  };
  if (!raw.startsWith('/') || raw.startsWith('//')) return bad;
  try {
    return { url: new URL(raw, 'http://local'), error: null };
  } catch {
    return bad;
  }
}

/**
 * Every answer carries the rate-limit headers: a request with the right secret draws on the
 * secret's bucket, any other on a bucket of its remote address (so 401s cannot flood either).
 */
function takeRate(
  s: V3Settings,
  req: IncomingMessage,
  valid: boolean,
  faults: FaultOptions,
): { headers: Record<string, string>; refused: boolean } {
  if (!s.limiter.enabled) {
    return faults.rateLimitStorm
      ? { headers: { 'Retry-After': '1' }, refused: true }
      : { headers: {}, refused: false };
  }
  const key = valid ? `secret:${s.secret}` : `anonymous:${req.socket.remoteAddress ?? ''}`;
  const decision = faults.rateLimitStorm
    ? { ...s.limiter.take(key, false), allowed: false, remaining: 0, retryMs: 1000 }
    : s.limiter.take(key);
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Burst': String(decision.burst),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetMs),
  };
  if (!decision.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil(decision.retryMs / 1000)));
  return { headers, refused: !decision.allowed };
}

/** The secrets a request carries: the header's, the query parameter's, and the one that counts. */
function secretsOf(s: V3Settings, req: IncomingMessage, target: RequestTarget) {
  const header = req.headers['service-secret'] as string | undefined;
  const query = target.url?.searchParams.get('secret') ?? null;
  return { header, query, presented: header ?? (s.querySecret ? query : null) };
}

/** Throws the 400 or 401 of a GET that may not reach a route, and the injected 500s. */
function checkAccess(s: V3Settings, req: IncomingMessage, target: RequestTarget, faults: FaultOptions): void {
  if (target.error !== null) throw new ApiError(400, target.error);
  const { header, query, presented } = secretsOf(s, req, target);
  if (!s.querySecret && header === undefined && query !== null)
    throw new ApiError(
      401,
      'This service takes the secret only in the Service-Secret header, not in the query string.',
    );
  if (presented === null || presented === undefined || presented === '') {
    throw new ApiError(
      401,
      'Missing secret: send it in the Service-Secret header (or the secret query parameter).',
    );
  }
  if (presented !== s.secret) throw new ApiError(401, 'Invalid secret.');
  if (faults.errorRate > 0 && s.faultRng.chance(faults.errorRate))
    throw new ApiError(500, 'Internal error (injected fault).');
}

/** Answers one `/v3` request (the v2 ones go to `V2Interface`). */
export function answerV3(
  s: V3Settings,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
  faults: FaultOptions,
): void {
  let rateHeaders: Record<string, string> = {};
  let external: ExternalRef | null = null;
  try {
    const rate = takeRate(s, req, secretsOf(s, req, target).presented === s.secret, faults);
    rateHeaders = rate.headers;
    if (rate.refused) throw new ApiError(429, SPENT);
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      throw new ApiError(405, `Method ${req.method} is not allowed: the service is read-only, use GET.`);
    }
    checkAccess(s, req, target, faults);
    const url = target.url;
    if (url === null) throw new ApiError(400, 'Invalid request target.');
    const path = url.pathname.replace(/\/+$/, '');
    if (!path.startsWith('/v3/') && path !== '/v3')
      throw new ApiError(404, `Unknown path ${url.pathname}: the interface lives under /v3.`);
    const found = matchRoute(path.slice(3));
    if (!found) throw new ApiError(404, `Unknown path ${url.pathname}.`);
    const space = readIdSpace(url.searchParams, req.headers['service-idspace'] as string | undefined);
    const kind = found.route.idKinds[0];
    if (space !== null && kind) external = { kind, raw: found.rawIds[0]!, space: ID_SPACES[space - 1]!.name };
    const ids = resolveIds(s.world, found, space);
    const body = found.route.handle({
      world: s.world,
      t: s.clock.nowMs(),
      query: url.searchParams,
      ids,
      space,
    });
    if (faults.malformedRate > 0 && s.faultRng.chance(faults.malformedRate))
      sendTruncated(res, body, rateHeaders);
    else send(res, 200, body, rateHeaders);
  } catch (error) {
    if (error instanceof ApiError) {
      // An unknown external id is reported as the id the client sent, in its space.
      const message =
        error.status === 404 && external
          ? `No ${external.kind} with id ${external.raw} in id space ${external.space}.`
          : error.message;
      send(res, error.status, { msg: message }, rateHeaders);
    } else send(res, 500, { msg: 'Internal error.' }, rateHeaders);
  }
}
