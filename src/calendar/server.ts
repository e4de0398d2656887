/**
 * Calendar feeds over HTTP (docs/commands.md, "Calendar (ICS)"): `GET /calendar/<token>.ics` answers the
 * calendar of the person (`/me calendar`) or the notification channel (`/settings calendar`) holding that
 * token. Served on its own port (CALENDAR_PORT) or on the operations port (`calendarRoute` is the route
 * the operations server consults before its 404).
 *
 * The token is the only key: an unknown, malformed or revoked token, or one of a channel no longer
 * set up for notifications, gets the same 404 with no data, and the token is never logged. Which
 * series: `series.ts`; how they read as events: `ics.ts`.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../bot/logger.ts';
import type { NameIndex } from '../bot/names.ts';
import type { TenantStore } from '../bot/tenants.ts';
import type { UserStore } from '../bot/users.ts';
import type { EsportsClient } from '../client/types.ts';
import type { Clock } from '../core/clock.ts';
import { type Translate, translator } from '../i18n/i18n.ts';
import type { Caster, Series } from '../protocol/types.ts';
import { calendarIcs, REFRESH_SECONDS } from './ics.ts';
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
}

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
}

export function calendarRoute(deps: CalendarDeps): CalendarRoute {
  return async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (!path.startsWith('/calendar/')) return false;
    const token = PATH.exec(path)?.[1];
    const wanted = token ? await wantedBy(deps, token) : undefined;
    if (!wanted) {
      response.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      response.end('not found\n');
      return true;
    }
    let text: string;
    try {
      text = await calendarText(deps, wanted);
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
  };
}

/** The calendar's iCalendar text, with each series' primary stream (one request for the casters). */
async function calendarText(deps: CalendarDeps, wanted: Wanted): Promise<string> {
  const now = deps.clock.now();
  const series = await wanted.series();
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

/** A server of its own for the calendars (CALENDAR_PORT). */
export async function startCalendarServer(
  route: CalendarRoute,
  options: { host: string; port: number; logger: Pick<Logger, 'warn' | 'info'> },
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
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
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
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
