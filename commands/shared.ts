/**
 * What several commands share: argument checks that hold even when a command is called without
 * the runtime's validation, and the few lookups (a team's rosters, the series a user named) that
 * must stay within the request budget.
 * Not a command: `commands/index.ts` lists the commands explicitly.
 */

import type { CommandContext } from '../src/bot/command.ts';
import { seriesLine } from '../src/bot/format.ts';
import type { NameSource, ResolveScope } from '../src/bot/name-match.ts';
import type { Card, Text } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { cmd, MatchdayError, UserError } from '../src/core/errors.ts';
import { spanned, type Translate, translator } from '../src/i18n/i18n.ts';
import type { Series } from '../src/protocol/types.ts';
import type { SeriesWanted } from '../src/reads/query.ts';
import { isNotFound, visible } from '../src/reads/reads.ts';

/**
 * A name the user typed, as an id (`NameIndex.resolve`); a typo taken as the closest name leaves
 * a note in the reply.
 */
export function resolveName(
  ctx: CommandContext<unknown>,
  source: NameSource,
  text: string,
  scope?: ResolveScope,
): Promise<number> {
  return ctx.names.resolve(source, text, scope, ctx.notes, ctx.t);
}

/** Said above an answer that lacks a part the data service could not give in time (English). */
export const BUSY_NOTE = translator('en')('commands.shared.busy');

/**
 * A part of an answer the rest stands without (a team's players, the names in a list): its value,
 * or `undefined` when the data service is busy or unreachable (an error for the `outage` audience:
 * shed, timed out, down), with BUSY_NOTE once above the reply. Any other error is thrown.
 */
export async function unlessBusy<T>(ctx: CommandContext<unknown>, read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (!(error instanceof MatchdayError) || error.audience !== 'outage') throw error;
    const note = ctx.t('commands.shared.busy');
    if (ctx.notes && !ctx.notes.includes(note)) ctx.notes.push(note);
    return undefined;
  }
}

/** The games a command looks at: the one named, else the tenant's (empty: every game). */
export async function gamesFor(ctx: CommandContext<unknown>, game: string | undefined): Promise<number[]> {
  const text = game;
  if (text) return [await resolveName(ctx, 'game', text)];
  return [...ctx.tenant.settings.games];
}

/** Scope for name resolution: prefer the tenant's games when a name is ambiguous across games. */
export function scopeOf(ctx: CommandContext<unknown>, games?: readonly number[]): ResolveScope {
  const list = games && games.length > 0 ? games : ctx.tenant.settings.games;
  return list.length > 0 ? { games: list } : {};
}

/**
 * Every roster id of a team: from the name index, else one request. A team with no roster has
 * never played, which the caller says plainly.
 */
export async function teamRosters(ctx: CommandContext<unknown>, teamId: number): Promise<number[]> {
  const names = ctx.names;
  const known = names.rostersOfTeam(teamId);
  if (known.length > 0) return known;
  const rosters = await ctx.data.rosters.list({ filter: [['team.id', '=', teamId]], take: 50 });
  await names.ensureRosters(
    ctx.data,
    rosters.map((r) => r.id),
  );
  return rosters.map((r) => r.id);
}

/**
 * The series a user named: an id (as autocomplete sends, or typed) or a name from the index's
 * window of live, next and latest series. One request (`/series/{id}`), answered 404 as a UserError.
 */
export async function seriesArg(ctx: CommandContext<unknown>, text: string): Promise<Series> {
  const raw = text;
  if (!raw) throw new UserError('EMPTY_SERIES', ctx.t('commands.shared.emptySeries'));
  const id = /^\d{1,12}$/.test(raw) ? Number(raw) : await resolveName(ctx, 'series', raw, scopeOf(ctx));
  try {
    const series = await ctx.reads.seriesById(id);
    if (isDeleted(series)) throw cancelled(ctx, id);
    return series;
  } catch (error) {
    // 410 Gone: the service deleted (cancelled) the series; 404: it never existed.
    if ((error as { status?: unknown } | null)?.status === 410) throw cancelled(ctx, id);
    if (isNotFound(error))
      throw new UserError('UNKNOWN_SERIES', ctx.t('commands.shared.unknownSeries', { id }));
    throw error;
  }
}

function isDeleted(series: Series): boolean {
  return series.deleted_at !== null || series.lifecycle === 'deleted';
}

/** "Series 12 (A vs B · Event · when) was cancelled": what a fan needs instead of "no series". */
function cancelled(ctx: CommandContext<unknown>, id: number): UserError {
  const label = ctx.names.labelOf('series', id);
  const series = label
    ? ctx.t('commands.shared.seriesLabelled', { id, label })
    : ctx.t('commands.shared.series', { id });
  return new UserError('SERIES_CANCELLED', ctx.t('commands.shared.cancelled', { series }));
}

export { isNotFound, visible };

/** "CS2, Dota 2" or "all games". */
export function gamesLabel(ctx: CommandContext<unknown>, games: readonly number[]): string {
  if (games.length === 0) return ctx.t('commands.shared.allGames');
  const names = ctx.names;
  return games
    .map((id) => names.game(id)?.abbreviation.toUpperCase() ?? ctx.t('commands.shared.game', { id }))
    .join(', ');
}

/** "Team (CS2)", from the name index (/follow, /me). */
export function teamLabel(ctx: CommandContext<unknown>, id: number): string {
  const names = ctx.names;
  const found = names.team(id);
  return found
    ? `${found.name} (${names.game(found.game.id)?.abbreviation.toUpperCase() ?? ctx.t('commands.shared.aGame')})`
    : ctx.t('commands.shared.team', { id });
}

/**
 * The answer to a missing team name in `/<command> team:`: "Name a team: ... (a name, tag or id, as
 * /team shows it)", offering `/<orOrganisation> organisation:` too where that command takes one.
 */
export function nameATeam(t: Translate, command: string, orOrganisation?: string): UserError {
  const parts = {
    command: cmd(`${command} team:<${t('commands.shared.itsName')}>`),
    team: cmd('team'),
    ...(orOrganisation
      ? { organisation: cmd(`${orOrganisation} organisation:<${t('commands.shared.itsName')}>`) }
      : {}),
  };
  const key = orOrganisation ? 'commands.shared.nameATeamOrOrganisation' : 'commands.shared.nameATeam';
  return new UserError('EMPTY_NAME', spanned(t, key, {}, parts));
}

/** "tier 1" or "tiers 1, 2". */
export function tiersLabel(t: Translate, tiers: readonly number[]): string {
  return t('commands.shared.tiers', { count: tiers.length, tiers: tiers.join(', ') });
}

/** How many upcoming series a "nothing live" answer offers. */
export const NEXT_UP = 3;

/**
 * The answer when nothing is live for `who`: says so, then the next few upcoming series under the
 * same conditions (games, tiers, tournament, rosters) with their start times. Labels come from the
 * name index (a request only for participants it lacks).
 */
export async function nothingLiveCard(
  ctx: CommandContext<unknown>,
  who: string,
  wanted: Omit<SeriesWanted, 'lifecycles' | 'order' | 'take'> = {},
): Promise<Card> {
  const { data, names } = ctx;
  const next = await ctx.reads.series({
    ...wanted,
    lifecycles: ['upcoming'],
    order: 'start-asc',
    take: NEXT_UP,
  });
  await names.ensureSeriesLabels(data, next);
  await names.ensureTournaments(
    data,
    next.map((s) => s.tournament.id),
  );
  const t = ctx.t;
  const description: Text[] = [[t('commands.shared.nothingLive', { who })]];
  if (next.length === 0) description.push([t('commands.shared.nothingScheduled')]);
  else {
    description.push([t('commands.shared.nextUp', { count: next.length })]);
    for (const s of next)
      description.push(seriesLine(s, names, { spoilers: ctx.tenant.settings.spoilers, t: ctx.t }));
  }
  return { title: t('commands.shared.nothingLiveTitle'), colour: COLOURS.info, description };
}

/**
 * A region and its country ("Europe (Portugal)"), or the country alone where the data's region is
 * the country itself (v2 gives countries, not regions: "Brazil", never "Brazil (Brazil)").
 */
export function placeName(region: string, country: string, open: string, close: string): string {
  return region === country ? country : `${region}${open}${country}${close}`;
}
