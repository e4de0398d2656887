/**
 * Calendar feeds over HTTP (issue 16, item 3): `GET /calendar/<token>.ics` answers the calendar of
 * the person holding that token. Served on its own port (CALENDAR_PORT) or on the operations port
 * (`handle` is the route the operations server consults first).
 *
 * The token is the only key: an unknown, malformed or revoked token gets the same 404 with no data,
 * and the token is never logged. The series come through the data client (cached, rate-limited
 * like the commands' requests): the live series of the person's followed teams and those starting
 * in the next two weeks, those that finished in the last week, and those cancelled in that span
 * (as STATUS:CANCELLED events).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../bot/logger.ts';
import type { NameIndex } from '../bot/names.ts';
import type { PersonalFollow, Profile, UserStore } from '../bot/users.ts';
import type { EsportsClient } from '../client/types.ts';
import type { Caster, Series } from '../protocol/types.ts';
import type { Clock } from '../service/clock.ts';
import { calendarIcs, REFRESH_SECONDS } from './ics.ts';

/** How far back finished and cancelled series stay in the calendar. */
export const PAST_DAYS = 7;
/** How far ahead upcoming series are listed (busy teams play several series a day). */
export const AHEAD_DAYS = 14;
/** Most upcoming and live series one calendar holds. */
export const MAX_EVENTS = 300;
const DAY = 24 * 3600_000;
const PATH = /^\/calendar\/([^/]{1,100})\.ics$/;

export interface CalendarDeps {
  users: Pick<UserStore, 'ownerOfToken'>;
  client: Pick<EsportsClient, 'forCaller'>;
  names: NameIndex;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
}

/** Answers calendar requests; resolves false when the path is not a calendar's (the caller goes on). */
export type CalendarRoute = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

export function calendarRoute(deps: CalendarDeps): CalendarRoute {
  return async (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (!path.startsWith('/calendar/')) return false;
    const token = PATH.exec(path)?.[1];
    const found = token ? await deps.users.ownerOfToken(token) : undefined;
    if (!found) {
      response.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      response.end('not found\n');
      return true;
    }
    let text: string;
    try {
      text = await personalCalendar(deps, found.profile);
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

/** The person's calendar: their followed teams' series, as iCalendar text. */
export async function personalCalendar(deps: CalendarDeps, profile: Profile): Promise<string> {
  const now = deps.clock.now();
  const series = await followedSeries(deps, profile.follows, now.getTime());
  const data = deps.client.forCaller({ priority: 'background' });
  const casterIds = [...new Set(series.map((s) => primaryCaster(s)).filter((id) => id !== undefined))];
  const casters = new Map<number, Caster>();
  if (casterIds.length > 0) for (const c of await data.casters.getMany(casterIds)) casters.set(c.id, c);
  return calendarIcs({
    name: 'Matchday: my teams',
    series,
    labels: deps.names,
    streamOf: (s) => {
      const id = primaryCaster(s);
      return id === undefined ? undefined : casters.get(id);
    },
    leads: profile.leads,
    timezone: profile.timezone,
    now,
  });
}

/** The first caster of a series, primary ones first. */
function primaryCaster(series: Series): number | undefined {
  return (series.casters.find((c) => c.primary) ?? series.casters[0])?.caster.id;
}

/**
 * The series of the followed teams: upcoming and live, finished in the last week, and cancelled
 * with a start in the last week or later; each kept when some follow's tier and qualifier options
 * allow it. Three listings in all, whatever the number of teams (one roster filter).
 */
export async function followedSeries(
  deps: Pick<CalendarDeps, 'client' | 'names'>,
  follows: readonly PersonalFollow[],
  nowMs: number,
): Promise<Series[]> {
  if (follows.length === 0) return [];
  const data = deps.client.forCaller({ priority: 'background' });
  const rostersOf = new Map<number, number[]>();
  for (const f of follows) {
    let rosters = deps.names.rostersOfTeam(f.team);
    if (rosters.length === 0)
      rosters = (await data.rosters.list({ filter: [['team.id', '=', f.team]], take: 50 })).map((r) => r.id);
    rostersOf.set(f.team, rosters);
  }
  const all = [...new Set([...rostersOf.values()].flat())];
  if (all.length === 0) return [];
  const byRoster = ['participants.roster.id', '^', all] as const;
  const [coming, finished, cancelled] = await Promise.all([
    collectUntil(
      data.series.paginate(
        { filter: [byRoster, ['lifecycle', '<=', ['upcoming', 'live']]], order: 'start-asc' },
        { limit: MAX_EVENTS },
      ),
      nowMs + AHEAD_DAYS * DAY,
    ),
    data.series.list({
      filter: [byRoster, ['lifecycle', '<=', ['over', 'over-forfeited']]],
      order: 'end-desc',
      take: 50,
    }),
    data.series.list({ filter: [byRoster, ['lifecycle', '=', 'deleted']], order: 'start-desc', take: 50 }),
  ]);
  const since = nowMs - PAST_DAYS * DAY;
  const recent = (iso: string | null) => iso !== null && Date.parse(iso) >= since;
  const candidates = [
    ...coming,
    ...finished.filter((s) => recent(s.end)),
    ...cancelled.filter((s) => recent(s.start)),
  ];
  await deps.names.ensureSeriesLabels(data, candidates);
  await deps.names.ensureTournaments(
    data,
    candidates.map((s) => s.tournament.id),
  );
  if (follows.some((f) => f.noQualifiers))
    await deps.names.ensureSubstages(
      data,
      candidates.map((s) => s.substage.id),
    );
  const wanted = (s: Series) =>
    follows.some((f) => {
      const rosters = rostersOf.get(f.team) ?? [];
      if (!s.participants.some((p) => rosters.includes(p.roster.id))) return false;
      if (f.tier !== undefined && s.tier > f.tier) return false;
      return !(f.noQualifiers && isQualifier(s, deps.names));
    });
  const seen = new Set<number>();
  return candidates
    .filter((s) => !seen.has(s.id) && seen.add(s.id) && wanted(s))
    .sort((a, b) => Date.parse(a.start ?? '') - Date.parse(b.start ?? '') || a.id - b.id);
}

/** A qualifier: its tournament or its stage says so ("Open Qualifier", "Qualifier Playoffs"). */
export function isQualifier(series: Series, names: NameIndex): boolean {
  const titles = [names.tournament(series.tournament.id)?.title, names.substage(series.substage.id)?.title];
  return titles.some((t) => t !== undefined && /qualif/i.test(t));
}

/** The series of a start-ordered listing that start before `until` (the walk stops there). */
async function collectUntil(items: AsyncIterable<Series>, until: number): Promise<Series[]> {
  const out: Series[] = [];
  for await (const item of items) {
    if (item.start !== null && Date.parse(item.start) >= until) break;
    out.push(item);
  }
  return out;
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
