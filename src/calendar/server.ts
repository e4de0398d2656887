/**
 * Calendar feeds over HTTP (docs/commands.md, "Calendar (ICS)"): `GET /calendar/<token>.ics` answers the
 * calendar of the person (`/me calendar`) or the notification channel (`/settings calendar`) holding that
 * token. Served on its own port (CALENDAR_PORT) or on the operations port (`calendarRoute` is the route
 * the operations server consults before its 404).
 *
 * The token is the only key: an unknown, malformed or revoked token, or one of a channel no longer
 * set up for notifications, gets the same 404 with no data, and the token is never logged. Which
 * series: `series.ts`; how they read as events: `ics.ts`.
 *
 * The port faces the internet, so one calendar fetched in a loop must cost next to nothing: each
 * calendar is kept (per token and settings) for `cacheMs` of the app's clock and then made again
 * only when its series changed (ids and revisions; their reads are cached by the client), one
 * build at a time per calendar; requests are limited per remote address (before the token is even
 * looked up; behind a proxy, the address it forwards: `core/client-address.ts`) and per token,
 * answered 429 with Retry-After past the limit. The server itself has the
 * connection cap and short timeouts of `core/http-guard.ts`.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../bot/logger.ts';
import type { NameIndex } from '../bot/names.ts';
import type { TenantStore } from '../bot/tenants.ts';
import type { UserStore } from '../bot/users.ts';
import type { EsportsClient } from '../client/types.ts';
import { clientAddress } from '../core/client-address.ts';
import type { Clock } from '../core/clock.ts';
import { type ConnectionLimits, guardedServer, LISTEN_BACKLOG } from '../core/http-guard.ts';
import { type Translate, translator } from '../i18n/i18n.ts';
import type { Caster, Series } from '../protocol/types.ts';
import { calendarIcs, REFRESH_SECONDS } from './ics.ts';
import { KeyedBuckets } from './rate.ts';
import { channelSeries, followedSeries } from './series.ts';

export { AHEAD_DAYS, PAST_DAYS } from './series.ts';

const PATH = /^\/calendar\/([^/]{1,100})\.ics$/;

export interface CalendarDeps {
  users: Pick<UserStore, 'ownerOfToken' | 'channelOfToken'>;
  /** The tenant settings, for channel calendars (absent: only personal calendars are served). */
  tenants?: Pick<TenantStore, 'get'>;
  client: Pick<EsportsClient, 'forCaller'>;
  names: NameIndex;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
  /** The cache and request limits; defaults in `DEFAULT_CALENDAR_LIMITS`. */
  limits?: Partial<CalendarLimits>;
}

export interface CalendarLimits {
  /** How long (app clock) a calendar is served as made, without looking at its series. */
  cacheMs: number;
  /** Most calendars kept; the least recently used go first. */
  cacheEntries: number;
  /** Requests one token may make at once, then one per `tokenRefillMs`. */
  tokenBurst: number;
  tokenRefillMs: number;
  /** Requests one remote address may make at once (any token), then one per `addressRefillMs`. */
  addressBurst: number;
  addressRefillMs: number;
}

/**
 * A calendar app polls every 15 minutes to a few hours; a person may press refresh a few times.
 * Far above that is a loop or a guesser.
 */
export const DEFAULT_CALENDAR_LIMITS: CalendarLimits = {
  cacheMs: 60_000,
  cacheEntries: 2_000,
  tokenBurst: 6,
  tokenRefillMs: 10_000,
  addressBurst: 30,
  addressRefillMs: 2_000,
};

/** Answers calendar requests; resolves false when the path is not a calendar's (the caller goes on). */
export type CalendarRoute = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/** What a calendar shows, once its token is known to be valid. */
interface Wanted {
  name: string;
  series: () => Promise<Series[]>;
  leads: readonly number[];
  timezone: string;
  /** The followed teams (a person's, or the channel's and the server's). */
  teams: ReadonlySet<number>;
  /** The language of its words: the person's, or the server's. */
  t: Translate;
  /** What shapes this calendar besides its series (follows, leads, zone, language): part of its cache key. */
  key: string;
}

/** One calendar as last made, and the series it was made from. */
interface Made {
  text: string;
  at: number;
  series: string;
}

export function calendarRoute(deps: CalendarDeps): CalendarRoute {
  const limits = { ...DEFAULT_CALENDAR_LIMITS, ...deps.limits };
  const now = () => deps.clock.nowMs();
  const byAddress = new KeyedBuckets({
    capacity: limits.addressBurst,
    refillMs: limits.addressRefillMs,
    maxKeys: 50_000,
    now,
  });
  const byToken = new KeyedBuckets({
    capacity: limits.tokenBurst,
    refillMs: limits.tokenRefillMs,
    maxKeys: 50_000,
    now,
  });
  const calendars = new CalendarCache(deps, limits);
  return async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (!path.startsWith('/calendar/')) return false;
    // Per address first: a guesser's unknown tokens must not cost a store read each.
    const addressWait = byAddress.take(clientAddress(request));
    if (addressWait > 0) return tooMany(response, addressWait);
    const token = PATH.exec(path)?.[1];
    const wanted = token ? await wantedBy(deps, token) : undefined;
    if (!token || !wanted) {
      response.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      response.end('not found\n');
      return true;
    }
    const tokenWait = byToken.take(token);
    if (tokenWait > 0) return tooMany(response, tokenWait);
    let text: string;
    try {
      text = await calendars.text(token, wanted);
    } catch (error) {
      deps.logger.warn({ err: error }, 'a calendar could not be made: the esports service did not answer');
      response.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '300' });
      response.end('the esports data service is not answering; try again later\n');
      return true;
    }
    response.writeHead(200, {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': 'inline; filename="matchday.ics"',
      'cache-control': `private, max-age=${Math.min(300, REFRESH_SECONDS)}`,
      'referrer-policy': 'no-referrer',
    });
    response.end(request.method === 'HEAD' ? undefined : text);
    return true;
  };
}

/** 429 with the wait in whole seconds (at least 1). */
function tooMany(response: ServerResponse, waitMs: number): true {
  response.writeHead(429, {
    'content-type': 'text/plain',
    'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    'cache-control': 'no-store',
  });
  response.end('too many requests for this calendar; try again later\n');
  return true;
}

/**
 * The calendars as last made, per token and settings: served as they are for `cacheMs`, then their
 * series are read again (through the client's cache) and the text is made again only when those
 * changed. One build at a time per calendar: twenty clients asking at once wait for the same one.
 */
class CalendarCache {
  readonly #deps: CalendarDeps;
  readonly #limits: CalendarLimits;
  readonly #made = new Map<string, Made>();
  readonly #building = new Map<string, Promise<string>>();

  constructor(deps: CalendarDeps, limits: CalendarLimits) {
    this.#deps = deps;
    this.#limits = limits;
  }

  text(token: string, wanted: Wanted): Promise<string> {
    const key = `${token}\n${wanted.key}`;
    const made = this.#made.get(key);
    if (made && this.#deps.clock.nowMs() - made.at < this.#limits.cacheMs) return Promise.resolve(made.text);
    let building = this.#building.get(key);
    if (!building) {
      building = this.#build(key, wanted, made).finally(() => this.#building.delete(key));
      this.#building.set(key, building);
    }
    return building;
  }

  async #build(key: string, wanted: Wanted, before: Made | undefined): Promise<string> {
    const series = await wanted.series();
    const fingerprint = series.map((s) => `${s.id}.${s.resource_version}`).join(',');
    const text =
      before?.series === fingerprint ? before.text : await calendarText(this.#deps, wanted, series);
    this.#made.delete(key);
    this.#made.set(key, { text, at: this.#deps.clock.nowMs(), series: fingerprint });
    if (this.#made.size > this.#limits.cacheEntries) this.#made.delete(this.#made.keys().next().value!);
    return text;
  }
}

/** The calendar a token opens: a person's, or a channel's still set up; undefined otherwise. */
async function wantedBy(deps: CalendarDeps, token: string): Promise<Wanted | undefined> {
  const person = await deps.users.ownerOfToken(token);
  if (person) {
    const { profile } = person;
    return {
      name: 'Matchday: my teams',
      series: () => followedSeries(deps, profile.follows, deps.clock.nowMs()),
      leads: profile.leads,
      timezone: profile.timezone,
      teams: new Set(profile.follows.map((f) => f.team)),
      t: translator(profile.language),
      key: JSON.stringify(['person', profile.follows, profile.leads, profile.timezone, profile.language]),
    };
  }
  const place = deps.tenants ? await deps.users.channelOfToken(token) : undefined;
  if (!place || !deps.tenants) return undefined;
  const settings = await deps.tenants.get(place.tenantId);
  const channel = settings.channels.find((c) => c.id === place.channelId);
  if (!channel) return undefined;
  const games = channel.games.length > 0 ? channel.games : settings.games;
  const tiers = channel.tiers.length > 0 ? channel.tiers : settings.tiers;
  const teams = [...new Set([...channel.teams, ...settings.follows])];
  return {
    name: `Matchday: #${channel.name ?? channel.id}`,
    series: () => channelSeries(deps, { games, tiers, teams }, deps.clock.nowMs()),
    leads: channel.leads.length > 0 ? channel.leads : settings.reminderLeads,
    timezone: settings.timezone,
    teams: new Set(teams),
    t: translator(settings.language),
    key: JSON.stringify([
      'channel',
      channel.name ?? channel.id,
      games,
      tiers,
      teams,
      channel.leads,
      settings.reminderLeads,
      settings.timezone,
      settings.language,
    ]),
  };
}

/** The calendar's iCalendar text, with each series' primary stream (one request for the casters). */
async function calendarText(deps: CalendarDeps, wanted: Wanted, series: Series[]): Promise<string> {
  const now = deps.clock.now();
  const data = deps.client.forCaller({ priority: 'background' });
  const casterIds = [...new Set(series.map((s) => primaryCaster(s)).filter((id) => id !== undefined))];
  const casters = new Map<number, Caster>();
  if (casterIds.length > 0) for (const c of await data.casters.getMany(casterIds)) casters.set(c.id, c);
  return calendarIcs({
    name: wanted.name,
    series,
    labels: deps.names,
    streamOf: (s) => {
      const id = primaryCaster(s);
      return id === undefined ? undefined : casters.get(id);
    },
    leads: wanted.leads,
    timezone: wanted.timezone,
    t: wanted.t,
    followed: (rosterId) => {
      const team = deps.names.teamOfRoster(rosterId);
      return team !== undefined && wanted.teams.has(team.id);
    },
    now,
  });
}

/** The first caster of a series, primary ones first. */
function primaryCaster(series: Series): number | undefined {
  return (series.casters.find((c) => c.primary) ?? series.casters[0])?.caster.id;
}

/** A server of its own for the calendars (CALENDAR_PORT), with the public port's limits (`core/http-guard.ts`). */
export async function startCalendarServer(
  route: CalendarRoute,
  options: {
    host: string;
    port: number;
    logger: Pick<Logger, 'warn' | 'info'>;
    limits?: Partial<ConnectionLimits>;
  },
): Promise<{ url: string; close(): Promise<void> }> {
  const { server } = guardedServer((request, response) => {
    const answer = async () => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
        response.end('only GET\n');
      } else if (!(await route(request, response))) {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found\n');
      }
    };
    answer().catch((error: unknown) => {
      options.logger.warn({ err: error }, 'the calendar endpoint failed to answer');
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('internal error\n');
    });
  }, options.limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  options.logger.info({ url }, 'calendar endpoint: /calendar/<token>.ics');
  return {
    url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
