/**
 * The `/v2` interface of the local service (the provider's v2 specification), served beside `/v3` from
 * the same world and clock. `V2Interface.handle` answers one request: token endpoint, access token,
 * per-second and per-minute rate limits, routing, and every error in the v2 body
 * `{ error, error_code, error_description }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock.ts';
import { ApiError } from '../api-error.ts';
import { send, sendTruncated } from '../json-answer.ts';
import type { Rng } from '../random.ts';
import { RateLimiter } from '../rate-limit.ts';
import type { World } from '../world.ts';
import {
  gameAssets,
  getMatch,
  getSubstage,
  lightSummary,
  listGames,
  listIncidents,
  seriesIncidents,
} from './games.ts';
import { V2_STATUS_TEXT, V2Error, V2Gone } from './params.ts';
import { getSeries, listSeries, type V2Context } from './series.ts';
import {
  getOrganisation,
  getPlayer,
  getRoster,
  getTeam,
  listOrganisations,
  listPlayers,
  listTeams,
} from './teams.ts';
import { TokenStore, type V2Credential } from './tokens.ts';
import { getTournament, listTournaments } from './tournaments.ts';

export type { V2Credential } from './tokens.ts';

/** The v2 defaults: the provider SDK's own pace. */
export const V2_DEFAULT_PER_SECOND = 5;
export const V2_DEFAULT_PER_MINUTE = 300;

const ROUTES: [RegExp, (c: V2Context) => unknown][] = [
  [/^\/games$/, listGames],
  [/^\/games\/([^/]+)\/assets$/, gameAssets],
  [/^\/series$/, listSeries],
  [/^\/series\/([^/]+)$/, getSeries],
  [/^\/matches\/([^/]+)$/, getMatch],
  [/^\/matches\/([^/]+)\/light_summary$/, lightSummary],
  [/^\/tournaments$/, listTournaments],
  [/^\/tournaments\/([^/]+)$/, getTournament],
  [/^\/substages\/([^/]+)$/, getSubstage],
  [/^\/teams$/, listTeams],
  [/^\/teams\/([^/]+)$/, getTeam],
  [/^\/organisations$/, listOrganisations],
  [/^\/organisations\/([^/]+)$/, getOrganisation],
  [/^\/players$/, listPlayers],
  [/^\/players\/([^/]+)$/, getPlayer],
  [/^\/rosters\/([^/]+)$/, getRoster],
  [/^\/incidents$/, listIncidents],
  [/^\/incidents\/([^/]+)$/, seriesIncidents],
];

export interface V2Options {
  world: World;
  clock: Clock;
  clients: readonly V2Credential[];
  /** Requests per second per client (0: no limit). */
  perSecond: number;
  burst: number;
  /** Requests per minute per client (0: no limit), counted in fixed real-time minutes. */
  perMinute: number;
}

/** What the shared faults ask of one v2 request. */
export interface V2Faults {
  errorRate: number;
  rateLimitStorm: boolean;
  malformedRate: number;
}

export class V2Interface {
  readonly tokens: TokenStore;
  readonly #o: V2Options;
  readonly #second: RateLimiter;
  readonly #minute = new Map<string, { window: number; count: number }>();
  /** Requests to `/oauth/access_token`, answered or not. */
  tokenRequests = 0;

  constructor(options: V2Options) {
    this.#o = options;
    this.tokens = new TokenStore(options.clients);
    this.#second = new RateLimiter(options.perSecond, options.burst);
  }

  get clients(): readonly V2Credential[] {
    return this.#o.clients;
  }

  /** Answers one request whose path starts with `/v2`. */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    faults: V2Faults,
    rng: Rng,
  ): Promise<void> {
    const now = this.#o.clock.nowMs();
    const headers: Record<string, string> = { Date: new Date(now).toUTCString() };
    try {
      const path = url.pathname.replace(/\/+$/, '').slice(3);
      if (path === '/oauth/access_token') {
        this.tokenRequests++;
        const form = await readForm(req);
        this.#limit(`client:${form.get('client_id') ?? ''}`, headers, faults);
        return send(res, 200, this.#token(req, form, now), headers);
      }
      const token = url.searchParams.get('access_token');
      const check = token ? this.tokens.check(token, now) : null;
      this.#limit(
        check?.ok ? `client:${check.clientId}` : `anonymous:${req.socket.remoteAddress ?? ''}`,
        headers,
        faults,
      );
      if (req.method !== 'GET') {
        headers.Allow = 'GET';
        throw new V2Error(
          405,
          `Method ${req.method} is not allowed here: use GET (POST only for /oauth/access_token).`,
        );
      }
      if (!token)
        throw new V2Error(
          401,
          'Missing access token: obtain one with POST /oauth/access_token and send it as the access_token parameter.',
        );
      if (!check?.ok)
        throw new V2Error(
          401,
          check?.reason === 'expired'
            ? 'The access token has expired: obtain a new one with POST /oauth/access_token.'
            : 'Invalid access token.',
        );
      if (faults.errorRate > 0 && rng.chance(faults.errorRate))
        throw new V2Error(502, 'Internal server error.');
      const found = ROUTES.map(([pattern, handle]) => ({ m: pattern.exec(path), handle })).find((r) => r.m);
      if (!found) throw new V2Error(404, 'Resource not found.');
      const ids = found.m!.slice(1).map((raw) => {
        if (!/^\d{1,15}$/.test(raw))
          throw new V2Error(400, `Could not parse data. The id "${raw}" is not a whole number.`);
        return Number(raw);
      });
      const body = found.handle({ world: this.#o.world, t: now, query: url.searchParams, ids });
      if (faults.malformedRate > 0 && rng.chance(faults.malformedRate)) sendTruncated(res, body, headers);
      else send(res, 200, body, headers);
    } catch (error) {
      if (error instanceof V2Gone) return send(res, 410, error.body, headers);
      const status = error instanceof V2Error || error instanceof ApiError ? error.status : 502;
      const description =
        error instanceof V2Error || error instanceof ApiError ? error.message : 'Internal server error.';
      send(
        res,
        status,
        { error: V2_STATUS_TEXT[status] ?? 'Error', error_code: status, error_description: description },
        headers,
      );
    }
  }

  /** POST /oauth/access_token: form-urlencoded client credentials (spec, "Token request body"). */
  #token(req: IncomingMessage, form: URLSearchParams, now: number) {
    if (req.method !== 'POST') throw new V2Error(405, 'Use POST for /oauth/access_token.');
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded')
      throw new V2Error(
        400,
        'Could not parse data. Send the token request as application/x-www-form-urlencoded.',
      );
    if (form.get('grant_type') !== 'client_credentials')
      throw new V2Error(401, 'Missing or invalid grant type.');
    const id = form.get('client_id');
    if (!id) throw new V2Error(401, 'Missing client id.');
    const secret = form.get('client_secret');
    if (!secret) throw new V2Error(401, 'Missing client secret.');
    if (!this.tokens.accepts(id, secret)) throw new V2Error(401, 'Invalid client credentials.');
    const { token, expiresIn } = this.tokens.issue(id, now);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn };
  }

  /** Per-second token bucket, then the fixed per-minute window; a 429 in the v2 body when spent. */
  #limit(key: string, headers: Record<string, string>, faults: V2Faults): void {
    if (faults.rateLimitStorm) {
      headers['Retry-After'] = '1';
      throw new V2Error(429, 'Too many requests');
    }
    if (this.#second.enabled) {
      const decision = this.#second.take(key);
      headers['X-RateLimit-Limit'] = String(decision.limit);
      headers['X-RateLimit-Burst'] = String(decision.burst);
      headers['X-RateLimit-Remaining'] = String(decision.remaining);
      if (!decision.allowed) {
        headers['X-RateLimit-Reset'] = String(decision.retryMs);
        headers['Retry-After'] = String(Math.max(1, Math.ceil(decision.retryMs / 1000)));
        throw new V2Error(429, 'Too many requests');
      }
    }
    const perMinute = this.#o.perMinute;
    if (perMinute > 0) {
      const real = Date.now();
      const window = Math.floor(real / 60_000);
      let slot = this.#minute.get(key);
      if (!slot || slot.window !== window) {
        if (this.#minute.size > 10_000) this.#minute.clear();
        slot = { window, count: 0 };
        this.#minute.set(key, slot);
      }
      headers['X-RateLimit-Minute-Limit'] = String(perMinute);
      headers['X-RateLimit-Minute-Remaining'] = String(Math.max(0, perMinute - slot.count - 1));
      if (slot.count >= perMinute) {
        const wait = (window + 1) * 60_000 - real;
        headers['X-RateLimit-Reset'] = String(wait);
        headers['Retry-After'] = String(Math.max(1, Math.ceil(wait / 1000)));
        throw new V2Error(429, 'Too many requests');
      }
      slot.count++;
    }
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 10_000) throw new V2Error(400, 'Could not parse data. The request body is too large.');
  }
  return new URLSearchParams(text);
}
