/**
 * `/series`: upcoming, live or recent series, filtered by game, tier, team or tournament; defaults
 * from the tenant's games and tiers. One listing request, plus one for a team's rosters or unknown
 * participants only when the name index lacks them. Nothing live: the next few upcoming series
 * instead (one more request). `series:<id or name>` shows one series in detail with its preview
 * (`series-detail.ts`).
 */

import { type CommandContext, defineCommand } from '../src/bot/command.ts';
import { seriesListCard } from '../src/bot/format.ts';
import { type Card, COLOURS } from '../src/bot/reply.ts';
import { cmd, UserError } from '../src/core/errors.ts';
import { spanned, type Translate } from '../src/i18n/i18n.ts';
import type { Series } from '../src/protocol/types.ts';
import { seriesDetail } from './series-detail.ts';
import {
  gamesFor,
  gamesLabel,
  nothingLiveCard,
  resolveName,
  scopeOf,
  teamRosters,
  tiersLabel,
} from './shared.ts';

const WHEN = ['upcoming', 'live', 'recent'] as const;

export default defineCommand({
  name: 'series',
  description: 'Upcoming, live or recent series',
  usesService: true,
  options: {
    when: {
      type: 'string',
      description: 'Upcoming (default), live or recent',
      choices: WHEN.map((w) => ({ name: w, value: w })),
      skippable: true,
    },
    series: {
      type: 'string',
      description: 'One series (id or name): its preview, with form, head-to-head, stakes and streams',
      autocomplete: 'series',
      max: 100,
      // `/series 1234` or `/series A vs B` typed is this series; other bare words still reach game, tier, team...
      skippable: true,
      bareSeries: true,
    },
    game: {
      type: 'string',
      description: 'Game (default: the games chosen in settings)',
      autocomplete: 'game',
      max: 100,
    },
    tier: {
      type: 'integer',
      description: 'Tier 1 (top) to 4 (default: the tiers chosen in settings)',
      min: 1,
      max: 4,
    },
    team: { type: 'string', description: 'Only series of this team', autocomplete: 'team', max: 100 },
    tournament: {
      type: 'string',
      description: 'Only series of this tournament',
      autocomplete: 'tournament',
      max: 100,
    },
    limit: { type: 'integer', description: 'How many (1 to 20, default 10)', min: 1, max: 20 },
  },
  async run(ctx) {
    const { args } = ctx;
    const seriesText = args.series;
    if (seriesText) {
      refuseListFilters(ctx.t, seriesText, args);
      return seriesDetail(ctx, await seriesBetween(ctx, seriesText));
    }
    const when = args.when ?? 'upcoming';
    const limit = args.limit ?? 10;
    const tier = args.tier;
    const picked = await seriesFilter(ctx, args.game, tier, args.team, args.tournament);
    if ('card' in picked) return { cards: [picked.card] };
    const series = await readSeries(ctx, picked, when, limit);
    return { cards: [await seriesCard(ctx, picked, when, series)] };
  },
});

type When = (typeof WHEN)[number];

/** What the listing asks for, besides the lifecycle; "nothing live" reuses it for what comes next. */
interface Picked {
  teamId?: number;
  tournamentId?: number;
  /** A named team or tournament: the tenant's default games and tiers do not hide it. */
  specific: boolean;
  gameFilter: number[];
  tiers: number[];
  /** The conditions, for the read model. */
  wanted: { games: number[]; tiers: number[]; tournament?: number; rosters?: number[] };
}

/** The options that list several series. */
const LIST_OPTIONS = ['when', 'game', 'tier', 'team', 'tournament', 'limit'] as const;
type ListOption = (typeof LIST_OPTIONS)[number];

/** `series:` shows one series; refused beside the filters that list several. */
function refuseListFilters(
  t: Translate,
  seriesText: string,
  args: Partial<Record<ListOption, unknown>>,
): void {
  const others = LIST_OPTIONS.filter((name) => args[name] !== undefined);
  if (others.length > 0) {
    const options = others.map((o) => `${o}:`).join(' ');
    const command = cmd(`series ${seriesText.includes(' ') ? `series:"${seriesText}"` : seriesText}`);
    throw new UserError(
      'SERIES_AND_FILTERS',
      spanned(t, 'commands.series.andFilters', { count: others.length, options }, { command }),
    );
  }
}

/** Series of the first team read per lifecycle when a series is named "A vs B". */
const BETWEEN_TAKE = 20;

/**
 * A series named by its teams ("Iron Pilots vs Nova Krakens", either order): the id of the live
 * one between them, else the next upcoming one, else the latest finished one (the first team's
 * live and upcoming series, then their meetings, through the read model). Other text (an id, a label, names that are not
 * two teams) is returned as given, for the series names.
 */
async function seriesBetween(ctx: CommandContext<unknown>, text: string): Promise<string> {
  const sides = /^(.+?)\s+vs\.?\s+(.+)$/i.exec(text.trim());
  if (!sides || text.includes(' · ')) return text;
  let teams: number[];
  try {
    teams = await Promise.all(
      [sides[1]!, sides[2]!].map((side) => resolveName(ctx, 'team', side.trim(), scopeOf(ctx))),
    );
  } catch (error) {
    // Not two team names ("TBD vs TBD", a series' own title): the series names read it.
    if (error instanceof UserError) return text;
    throw error;
  }
  const [first, second] = teams as [number, number];
  if (first === second) return text;
  const [mine, theirs] = await Promise.all([teamRosters(ctx, first), teamRosters(ctx, second)]);
  if (mine.length > 0 && theirs.length > 0) {
    const meets = (s: Series) => s.participants.some((p) => theirs.includes(p.roster.id));
    for (const when of ['live', 'upcoming'] as const) {
      const series = await ctx.reads.series({
        rosters: mine,
        lifecycles: [when],
        order: 'start-asc',
        take: BETWEEN_TAKE,
      });
      const between = series.find(meets);
      if (between) return String(between.id);
    }
    const [latest] = await ctx.reads.between(mine, theirs, 1);
    if (latest) return String(latest.id);
  }
  const name = (id: number) => ctx.names.team(id)?.name ?? ctx.t('commands.series.aTeam');
  throw new UserError(
    'NO_SERIES_BETWEEN',
    ctx.t('commands.series.noneBetween', { first: name(first), second: name(second) }),
  );
}

/**
 * The games, tiers, team and tournament asked for, as conditions for the service and the feed;
 * a card instead when the team has no roster (so no series).
 */
async function seriesFilter(
  ctx: CommandContext<unknown>,
  game: string | undefined,
  tier: number | undefined,
  team: string | undefined,
  tournament: string | undefined,
): Promise<Picked | { card: Card }> {
  const { tenant, names } = ctx;
  const games = await gamesFor(ctx, game);
  const teamText = team;
  const tournamentText = tournament;
  const teamId = teamText ? await resolveName(ctx, 'team', teamText, scopeOf(ctx, games)) : undefined;
  const tournamentId = tournamentText
    ? await resolveName(ctx, 'tournament', tournamentText, scopeOf(ctx, games))
    : undefined;
  // A named team or tournament is asked for on purpose: the tenant's default games and tiers do
  // not silently hide it; an explicit game or tier still narrows.
  const specific = teamId !== undefined || tournamentId !== undefined;
  const gameFilter = game ? games : specific ? [] : games;
  const tiers = tier !== undefined ? [tier] : specific ? [] : tenant.settings.tiers;

  const wanted: Picked['wanted'] = { games: gameFilter, tiers };
  if (tournamentId !== undefined) wanted.tournament = tournamentId;
  if (teamId !== undefined) {
    const rosters = await teamRosters(ctx, teamId);
    wanted.rosters = rosters;
    if (rosters.length === 0) {
      return {
        card: {
          title: names.team(teamId)?.name ?? ctx.t('commands.series.team'),
          colour: COLOURS.info,
          description: [[ctx.t('commands.series.noRoster')]],
        },
      };
    }
  }
  return { teamId, tournamentId, specific, gameFilter, tiers, wanted };
}

/** The series to show, as the read model answers them. */
function readSeries(
  ctx: CommandContext<unknown>,
  picked: Picked,
  when: When,
  limit: number,
): Promise<Series[]> {
  return ctx.reads.series({
    ...picked.wanted,
    lifecycles: when === 'upcoming' ? ['upcoming'] : when === 'live' ? ['live'] : ['over', 'over-forfeited'],
    order: when === 'recent' ? 'end-desc' : 'start-asc',
    take: limit,
  });
}

/** The listing's card, headed by what it covers; nothing live: the next few upcoming instead. */
async function seriesCard(
  ctx: CommandContext<unknown>,
  picked: Picked,
  when: When,
  series: Series[],
): Promise<Card> {
  const { data, names, tenant } = ctx;
  const { teamId, tournamentId, gameFilter, tiers, specific } = picked;
  const t = ctx.t;
  const scope: string[] = [];
  if (teamId !== undefined) scope.push(names.team(teamId)?.name ?? t('commands.series.aTeam'));
  if (tournamentId !== undefined)
    scope.push(names.tournament(tournamentId)?.title ?? t('commands.series.aTournament'));
  if (gameFilter.length > 0 || !specific) scope.push(gamesLabel(ctx, gameFilter));
  if (tiers.length > 0) scope.push(tiersLabel(t, tiers));
  if (when === 'live' && series.length === 0) return nothingLiveCard(ctx, scope.join(' · '), picked.wanted);
  await names.ensureSeriesLabels(data, series);
  await names.ensureTournaments(
    data,
    series.map((s) => s.tournament.id),
  );
  const heading = t(`commands.series.heading.${when}`);
  const empty = t(when === 'upcoming' ? 'commands.series.noUpcoming' : 'commands.series.noFinished');
  const colour = when === 'live' ? COLOURS.live : when === 'upcoming' ? COLOURS.upcoming : COLOURS.finished;
  return seriesListCard(`${heading} · ${scope.join(' · ')}`, series, names, {
    spoilers: tenant.settings.spoilers,
    t: ctx.t,
    empty,
    colour,
    showTournament: tournamentId === undefined,
  });
}
