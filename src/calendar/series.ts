/**
 * Which series a calendar holds, read through the data client (cached and rate-limited like the
 * commands' requests): the live series and those starting in the next AHEAD_DAYS, those finished
 * in the last PAST_DAYS, and those cancelled in that span (shown as STATUS:CANCELLED). A person's
 * calendar selects by the followed teams' rosters; a channel's by its games and tiers, plus its
 * teams whatever their tier (as its notifications do). Three listings per selection.
 */
import type { NameIndex } from '../bot/names.ts';
import type { PersonalFollow } from '../bot/users.ts';
import type { EsportsClient, Where } from '../client/types.ts';
import type { Series } from '../protocol/types.ts';

/** How far back finished and cancelled series stay in the calendar. */
export const PAST_DAYS = 7;
/** How far ahead upcoming series are listed (busy teams play several series a day). */
export const AHEAD_DAYS = 14;
/** Most upcoming and live series one selection holds. */
export const MAX_EVENTS = 300;
const DAY = 24 * 3600_000;

export interface SeriesDeps {
  client: Pick<EsportsClient, 'forCaller'>;
  names: NameIndex;
}

type Data = ReturnType<EsportsClient['forCaller']>;

/** The series of the window matching `base` (upcoming and live ahead, finished and cancelled behind). */
async function windowSeries(data: Data, base: Where<'series'>[], nowMs: number): Promise<Series[]> {
  const [coming, finished, cancelled] = await Promise.all([
    collectUntil(
      data.series.paginate(
        { filter: [...base, ['lifecycle', '<=', ['upcoming', 'live']]], order: 'start-asc' },
        { limit: MAX_EVENTS },
      ),
      nowMs + AHEAD_DAYS * DAY,
    ),
    data.series.list({
      filter: [...base, ['lifecycle', '<=', ['over', 'over-forfeited']]],
      order: 'end-desc',
      take: 50,
    }),
    data.series.list({ filter: [...base, ['lifecycle', '=', 'deleted']], order: 'start-desc', take: 50 }),
  ]);
  const since = nowMs - PAST_DAYS * DAY;
  const recent = (iso: string | null) => iso !== null && Date.parse(iso) >= since;
  return [...coming, ...finished.filter((s) => recent(s.end)), ...cancelled.filter((s) => recent(s.start))];
}

/** Makes sure the labels the calendar shows (teams, tournaments, stages) are known. */
async function label(deps: SeriesDeps, data: Data, series: Series[]): Promise<void> {
  await deps.names.ensureSeriesLabels(data, series);
  await deps.names.ensureTournaments(
    data,
    series.map((s) => s.tournament.id),
  );
  await deps.names.ensureSubstages(
    data,
    series.map((s) => s.substage.id),
  );
}

/** Each series once, by start then id. */
function distinct(series: Series[]): Series[] {
  const byId = new Map<number, Series>();
  for (const s of series) if (!byId.has(s.id)) byId.set(s.id, s);
  return [...byId.values()].sort(
    (a, b) => Date.parse(a.start ?? '') - Date.parse(b.start ?? '') || a.id - b.id,
  );
}

/** The followed teams' series, each kept when some follow's tier and qualifier options allow it. */
export async function followedSeries(
  deps: SeriesDeps,
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
  const candidates = await windowSeries(data, [['participants.roster.id', '^', all]], nowMs);
  await label(deps, data, candidates);
  const wanted = (s: Series) =>
    follows.some((f) => {
      const rosters = rostersOf.get(f.team) ?? [];
      if (!s.participants.some((p) => rosters.includes(p.roster.id))) return false;
      if (f.tier !== undefined && s.tier > f.tier) return false;
      return !(f.noQualifiers && isQualifier(s, deps.names));
    });
  return distinct(candidates.filter(wanted));
}

/** A channel's series: its games (empty: all) and tiers, plus its teams whatever their tier. */
export async function channelSeries(
  deps: SeriesDeps,
  wanted: { games: readonly number[]; tiers: readonly number[]; teams: readonly number[] },
  nowMs: number,
): Promise<Series[]> {
  const data = deps.client.forCaller({ priority: 'background' });
  const base: Where<'series'>[] = [['tier', '<=', [...wanted.tiers]]];
  if (wanted.games.length > 0) base.push(['game.id', '<=', [...wanted.games]]);
  const [byFilters, byTeams] = await Promise.all([
    windowSeries(data, base, nowMs),
    followedSeries(
      deps,
      wanted.teams.map((team) => ({ team, noQualifiers: false })),
      nowMs,
    ),
  ]);
  await label(deps, data, byFilters);
  return distinct([...byFilters, ...byTeams]);
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
