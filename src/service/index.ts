/**
 * The local esports data service (v3), in process: `startService()` listens on a loopback port
 * and serves the whole `/v3` interface over a living world generated from a seed. Used by
 * `npm start` (the embedded default), by `matchday service`, by tests and by benchmarks.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Clock } from '../core/clock.ts';
import { ID_SPACES } from '../protocol/fields.ts';
import { ApiError } from './api-error.ts';
import { Rng } from './random.ts';
import { RateLimiter } from './rate-limit.ts';
import { matchRoute, readIdSpace, resolveIds } from './routes.ts';
import { type V2Credential, V2Interface } from './v2/index.ts';
import { World } from './world.ts';

export { Clock } from '../core/clock.ts';
export { World } from './world.ts';

export interface ServiceOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * The one accepted secret. Default: a random one made for this start (the embedded service of
   * `npm start` hands it to its in-process client only). `matchday service` passes DEFAULT_SECRET.
   */
  secret?: string;
  /** Accept the secret in the `secret` query parameter too (spec, "Authentication"). Default true. */
  querySecret?: boolean;
  /** Default 1. */
  seed?: number;
  /** The shared clock; default a new real-time Clock. */
  clock?: Clock;
  /** Requests per second per secret; 0 turns rate limiting off. Default 5. */
  rate?: number;
  /** Default 5. */
  burst?: number;
  /** Multiplies the number of series per week (benchmarks). Default 1. */
  scale?: number;
  faults?: Partial<FaultOptions>;
  /** Accepted v2 client credentials (`/v2`); default one generated pair (see `RunningService.v2`). */
  v2Clients?: V2Credential[];
  /** v2 requests per minute per client; default 60 x `rate` (300 at the default 5/s); 0: no limit. */
  v2PerMinute?: number;
}

/** Fault injection, for tests and benchmarks of clients. Mutable at runtime on `RunningService.faults`. */
export interface FaultOptions {
  /** Added to every answer. */
  latencyMs: number;
  /** Share of requests answered 500, 0..1. */
  errorRate: number;
  /** Every request answered 429. */
  rateLimitStorm: boolean;
  /** Share of connections dropped without an answer, 0..1. */
  dropRate: number;
  /** Share of 200 answers with a malformed (truncated) JSON body, 0..1. */
  malformedRate: number;
}

export interface RunningService {
  /** e.g. http://127.0.0.1:41234/v3 */
  url: string;
  secret: string;
  clock: Clock;
  world: World;
  /** Mutable at runtime: tests flip faults on and off. */
  faults: FaultOptions;
  /** Requests received so far (every request, answered or not). */
  requests: number;
  /** The `/v2` interface: `v2.url` its root, `v2.clients` the accepted pairs, `v2.tokenRequests`. */
  v2: V2Interface & { url: string };
  close(): Promise<void>;
}

export const DEFAULT_SECRET = 'matchday-local';

/** Longest request target (path and query) answered; longer ones get a 400 saying so. */
export const MAX_URL_LENGTH = 8192;

const NO_FAULTS: FaultOptions = {
  latencyMs: 0,
  errorRate: 0,
  rateLimitStorm: false,
  dropRate: 0,
  malformedRate: 0,
};

/** Starts the service; resolves once it listens. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  const querySecret = options.querySecret ?? true;
  const clock = options.clock ?? new Clock();
  const world = new World(options.seed ?? 1, options.scale ?? 1, clock);
  world.window();
  const limiter = new RateLimiter(options.rate ?? 5, options.burst ?? 5);
  const faultRng = new Rng(options.seed ?? 1, 'faults');
  const sockets = new Set<import('node:net').Socket>();
  const rate = options.rate ?? 5;
  const v2 = Object.assign(
    new V2Interface({
      world,
      clock,
      clients: options.v2Clients?.length
        ? options.v2Clients
        : [{ id: `matchday-${randomBytes(4).toString('hex')}`, secret: randomBytes(16).toString('hex') }],
      perSecond: rate,
      burst: options.burst ?? 5,
      perMinute: options.v2PerMinute ?? rate * 60,
    }),
    { url: '' },
  );

  const service: RunningService = {
    url: '',
    secret,
    clock,
    world,
    faults: { ...NO_FAULTS, ...options.faults },
    requests: 0,
    v2,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };

  const server = createServer((req, res) => {
    service.requests++;
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { msg: 'Internal error.' });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const faults = service.faults;
    if (faults.dropRate > 0 && faultRng.chance(faults.dropRate)) {
      req.socket.destroy();
      return;
    }
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
    const target = readTarget(req.url ?? '/');
    const url = target.url;
    if (url && (url.pathname === '/v2' || url.pathname.startsWith('/v2/')))
      return v2.handle(req, res, url, service.faults, faultRng);
    const headerSecret = req.headers['service-secret'] as string | undefined;
    const querySecretGiven = url?.searchParams.get('secret') ?? null;
    const presented = headerSecret ?? (querySecret ? querySecretGiven : null);
    let rateHeaders: Record<string, string> = {};
    let external: { kind: string; raw: string; space: string } | null = null;
    try {
      // Every answer carries the rate-limit headers: a request with the right secret draws on the
      // secret's bucket, any other on a bucket of its remote address (so 401s cannot flood either).
      const valid = presented === secret;
      if (limiter.enabled) {
        const key = valid ? `secret:${secret}` : `anonymous:${req.socket.remoteAddress ?? ''}`;
        const decision = faults.rateLimitStorm
          ? { ...limiter.take(key, false), allowed: false, remaining: 0, retryMs: 1000 }
          : limiter.take(key);
        rateHeaders = {
          'X-RateLimit-Limit': String(decision.limit),
          'X-RateLimit-Burst': String(decision.burst),
          'X-RateLimit-Remaining': String(decision.remaining),
          'X-RateLimit-Reset': String(decision.resetMs),
        };
        if (!decision.allowed) {
          rateHeaders['Retry-After'] = String(Math.max(1, Math.ceil(decision.retryMs / 1000)));
          throw new ApiError(429, 'Too many requests: the rate limit of this secret is spent.');
        }
      } else if (faults.rateLimitStorm) {
        rateHeaders = { 'Retry-After': '1' };
        throw new ApiError(429, 'Too many requests: the rate limit of this secret is spent.');
      }
      if (req.method !== 'GET') {
        res.setHeader('Allow', 'GET');
        throw new ApiError(405, `Method ${req.method} is not allowed: the service is read-only, use GET.`);
      }
      if (target.error !== null) throw new ApiError(400, target.error);
      if (!querySecret && headerSecret === undefined && querySecretGiven !== null)
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
      if (!valid) throw new ApiError(401, 'Invalid secret.');
      if (faults.errorRate > 0 && faultRng.chance(faults.errorRate))
        throw new ApiError(500, 'Internal error (injected fault).');
      if (url === null) throw new ApiError(400, 'Invalid request target.');
      const path = url.pathname.replace(/\/+$/, '');
      if (!path.startsWith('/v3/') && path !== '/v3')
        throw new ApiError(404, `Unknown path ${url.pathname}: the interface lives under /v3.`);
      const found = matchRoute(path.slice(3));
      if (!found) throw new ApiError(404, `Unknown path ${url.pathname}.`);
      const space = readIdSpace(url.searchParams, req.headers['service-idspace'] as string | undefined);
      const kind = found.route.idKinds[0];
      if (space !== null && kind)
        external = { kind, raw: found.rawIds[0]!, space: ID_SPACES[space - 1]!.name };
      const ids = resolveIds(world, found, space);
      const t = clock.nowMs();
      const body = found.route.handle({ world, t, query: url.searchParams, ids, space });
      if (faults.malformedRate > 0 && faultRng.chance(faults.malformedRate)) {
        const text = JSON.stringify(body);
        res.writeHead(200, { ...rateHeaders, 'Content-Type': 'application/json; charset=utf-8' });
        res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
        return;
      }
      send(res, 200, body, rateHeaders);
    } catch (error) {
      if (error instanceof ApiError) {
        let message = error.message;
        // An unknown external id is reported as the id the client sent, in its space.
        if (error.status === 404 && external)
          message = `No ${external.kind} with id ${external.raw} in id space ${external.space}.`;
        send(res, error.status, { msg: message }, rateHeaders);
      } else send(res, 500, { msg: 'Internal error.' }, rateHeaders);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  service.url = `http://${host}:${address.port}/v3`;
  v2.url = `http://${host}:${address.port}/v2`;
  return service;
}

/**
 * Reads the request target: an origin-form path (one "/" then the path) of at most MAX_URL_LENGTH
 * characters. Anything else (`//[`, `http://x/`, an overlong query) is a 400 that says why.
 */
function readTarget(raw: string): { url: URL | null; error: string | null } {
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

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
