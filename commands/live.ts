/**
 * `/live`: the live scoreline of one series, or of every live series in the tenant's games and
 * tiers: series score, the current map and its score in its game's words (`src/bot/live-now.ts`:
 * rounds, kills, goals, supply, a lobby's places), earlier maps, and streams (primary first).
 * At most 3 upstream requests cold:
 * - overview: the live series (1), their matches (1, all at once), their casters (1, all at once);
 *   no per-match summary reads (no batch endpoint): a current game's line comes from the summary
 *   the feed holds, as on the notifier's card; nothing live: the next few upcoming instead (1);
 * - one series (named, or a team's): the series (1), then at most 2 of, in this order, the
 *   matches (map names, earlier maps), the live summary of the current game, and the casters
 *   (left to `/casters` when the budget runs out). The current game of a head-to-head is the
 *   series' match ref after the maps already won (sum of the scores), so its summary needs no
 *   match request; a lobby's is its live match, so its summary is read after the matches. The
 *   summary source is the series' coverage (computer vision first, as the feed reads it).
 * Map names come from the name index; asked before its first load (a cold start), one more read
 * names the shown maps rather than a made-up "Map 1".
 */

import { type CommandContext, defineCommand } from '../src/bot/command.ts';
import { isLobby } from '../src/bot/format.ts';
import { liveCard } from '../src/bot/format-live.ts';
import { type Card, COLOURS, type Text } from '../src/bot/reply.ts';
import type { Where } from '../src/client/types.ts';
import { cmd } from '../src/core/errors.ts';
import { summarySource } from '../src/feed/reads.ts';
import { spanned } from '../src/i18n/i18n.ts';
import { type LiveSummary, liveSummaryMatch } from '../src/protocol/live-summary.ts';
import type { Caster, Match, Series } from '../src/protocol/types.ts';
import {
  type FromFeed,
  fromFeed,
  gamesFor,
  gamesLabel,
  isNotFound,
  noteFilling,
  nothingLiveCard,
  resolveName,
  scopeOf,
  seriesArg,
  teamRosters,
  tiersLabel,
  unlessBusy,
  visible,
} from './shared.ts';

/** Most series shown at once (one card each; Discord allows 10 embeds, this stays readable). */
export const MAX_LIVE_CARDS = 5;

/** Live series read at once (the service's page): the overview counts those it does not show. */
const LIVE_PAGE = 50;

/** Upstream requests a command may make cold (at most 3: `npm run bench:commands` checks it). */
const BUDGET = 3;

export default defineCommand({
  name: 'live',
  description: 'Live scorelines: one series, or everything live in your games',
  usesService: true,
  options: {
    series: {
      type: 'string',
      description: 'A series (default: every live series)',
      autocomplete: 'series',
      max: 100,
    },
    team: { type: 'string', description: 'The live series of this team', autocomplete: 'team', max: 100 },
    game: {
      type: 'string',
      description: 'Game (default: the games chosen in settings)',
      autocomplete: 'game',
      max: 100,
    },
  },
  async run(ctx) {
    const games = await gamesFor(ctx, ctx.args.game);
    const seriesText = ctx.args.series;
    const picked = seriesText
      ? { series: [await seriesArg(ctx, seriesText)], detailed: true, used: 1 }
      : await liveSeries(ctx, games, ctx.args.team, Boolean(ctx.args.game));
    if ('card' in picked) return { cards: [picked.card] };
    return { cards: await liveCards(ctx, picked) };
  },
});

/** The series `/live` shows, and what reading them cost. */
interface Picked {
  series: Series[];
  /** One series asked for on purpose (by name or team): shown in detail. */
  detailed: boolean;
  /** Upstream requests spent so far. */
  used: number;
  /** What the feed held (to say when the picture is still filling). */
  held?: FromFeed;
  /** "And 2 more live series", when the overview shows only the first few. */
  more?: string;
}

/**
 * The live series of a team (`teamText`), or of the tenant's games and tiers: from the feed when it
 * holds them, else one listing. Nothing live: the card that says so (with what comes next).
 */
async function liveSeries(
  ctx: CommandContext<unknown>,
  games: number[],
  teamText: string | undefined,
  gameAsked: boolean,
): Promise<Picked | { card: Card }> {
  const { names, tenant } = ctx;
  const filter: Where<'series'>[] = [];
  // The same conditions for the feed.
  const wanted: { games?: number[]; tiers?: number[]; rosters?: number[] } = {};
  let used = 0;
  let who: string;
  if (teamText) {
    const teamId = await resolveName(ctx, 'team', teamText, scopeOf(ctx, games));
    if (names.rostersOfTeam(teamId).length === 0) used++;
    wanted.rosters = await teamRosters(ctx, teamId);
    filter.push(['participants.roster.id', '^', wanted.rosters]);
    who = names.team(teamId)?.name ?? ctx.t('commands.live.thatTeam');
    // A named team is asked for on purpose: only an explicit game narrows it.
    if (gameAsked) {
      filter.push(['game.id', '<=', games]);
      wanted.games = games;
    }
  } else {
    const tiers = tenant.settings.tiers;
    if (games.length > 0) filter.push(['game.id', '<=', games]);
    if (tiers.length > 0) filter.push(['tier', '<=', tiers]);
    wanted.games = games;
    wanted.tiers = tiers;
    who = `${gamesLabel(ctx, games)} · ${tiersLabel(ctx.t, tiers)}`;
  }
  // One page of up to 50 costs the same as 5: the cards show the first few, the rest are counted.
  const held = fromFeed(ctx, { ...wanted, lifecycles: ['live'], order: 'start-asc', take: LIVE_PAGE });
  let series = held?.series;
  if (!series) {
    const listing = {
      filter: [['lifecycle', '=', 'live'], ...filter] as Where<'series'>[],
      order: 'start-asc' as const,
    };
    series = visible(await ctx.data.series.list({ ...listing, take: LIVE_PAGE }));
    used++;
  }
  if (series.length === 0) return { card: await nothingLiveCard(ctx, filter, who, wanted) };
  const picked: Picked = { series, detailed: teamText !== undefined, used, ...(held ? { held } : {}) };
  if (series.length > MAX_LIVE_CARDS) {
    const left = series.length - MAX_LIVE_CARDS;
    const key = series.length >= LIVE_PAGE ? 'commands.live.moreAtLeast' : 'commands.live.more';
    picked.more = ctx.t(key, { count: left });
    picked.series = series.slice(0, MAX_LIVE_CARDS);
  }
  // A team's live series is normally one; with more, the overview rule applies.
  if (picked.series.length > 1) picked.detailed = false;
  return picked;
}

/** What the cards show beyond the series: matches, the current game's summary, casters. */
interface Details {
  matches: Match[] | undefined;
  casters: Caster[];
  /** The summary shown in detail, with its game's number. */
  shown: LiveSummary | undefined;
  shownOrder: number | undefined;
  /** The overview line of each series' current game, from the feed. */
  overview: (s: Series) => LiveSummary | undefined;
  /** Casters exist but were left to /casters (the budget ran out). */
  castersLeft: boolean;
}

/**
 * Reads what the cards show: what the feed holds costs nothing; the rest is asked for most telling
 * first, as the budget allows. The matches come first: one series in detail shows at least what the
 * overview shows (map names, earlier maps); streams are the part left to /casters.
 */
async function liveDetails(ctx: CommandContext<unknown>, picked: Picked): Promise<Details> {
  const { data, names, feed } = ctx;
  const { series, detailed } = picked;
  const labelsReady = Promise.all([
    names.ensureSeriesLabels(data, series),
    names.ensureTournaments(
      data,
      series.map((s) => s.tournament.id),
    ),
  ]);
  const casterIds = [...new Set(series.flatMap((s) => s.casters.map((c) => c.caster.id)))];
  const one = series[0]!;
  const heldMatches =
    feed && series.every((s) => feed.liveMatches(s.id) !== undefined)
      ? series.flatMap((s) => feed.liveMatches(s.id)!)
      : undefined;
  const heldCasters = casterIds.length > 0 ? feed?.casters(casterIds) : [];
  const current = detailed ? (currentGame(one) ?? playingGame(one, heldMatches)) : undefined;
  const heldSummary = current ? feed?.liveSummary(current.source, current.matchId) : undefined;
  const wanted: ('summary' | 'casters' | 'matches')[] = [];
  if (!heldMatches) wanted.push('matches');
  // A lobby's current game is known from its matches only: its summary is read after them.
  const lobbyDetail = detailed && current === undefined && isLobby(one) && summarySource(one) !== undefined;
  if ((current && !heldSummary) || lobbyDetail) wanted.push('summary');
  if (casterIds.length > 0 && !heldCasters) wanted.push('casters');
  const asked = new Set(wanted.slice(0, Math.max(0, BUDGET - picked.used)));
  const ids = series.map((s) => s.id);
  const [matches, casters, summary] = await Promise.all([
    heldMatches ??
      (asked.has('matches')
        ? unlessBusy(
            ctx,
            data.matches.list({ filter: [['series.id', '<=', ids]], order: 'order-asc', take: 50 }),
          )
        : undefined),
    heldCasters ?? (asked.has('casters') ? unlessBusy(ctx, data.casters.getMany(casterIds)) : []),
    heldSummary && current
      ? usableSummary(heldSummary, current, ctx.now)
      : asked.has('summary') && current
        ? unlessBusy(ctx, liveSummary(ctx, current))
        : undefined,
    unlessBusy(ctx, labelsReady),
  ]);
  // Map names: the index holds them once loaded; before that (a cold start), one read of the
  // shown matches' maps, so the first answer names them too.
  if (matches)
    await unlessBusy(
      ctx,
      names.ensureMaps(
        data,
        matches.flatMap((m) => (m.map ? [m.map.id] : [])),
      ),
    );
  let shown = summary;
  let shownOrder = current?.order;
  const playing =
    !shown && lobbyDetail && asked.has('summary') && matches ? playingGame(one, matches) : undefined;
  if (playing) {
    shown = await unlessBusy(ctx, liveSummary(ctx, playing));
    shownOrder = playing.order;
  }
  /** The summary the feed holds of a series' current game, as the notifier's card shows it. */
  const overview = (s: Series): LiveSummary | undefined => {
    const game = heldMatches?.find((m) => m.series.id === s.id && m.lifecycle === 'live');
    const source = summarySource(s);
    const held = game && source ? feed?.liveSummary(source, game.id) : undefined;
    return held && game && source
      ? usableSummary(held, { matchId: game.id, order: game.order, source }, ctx.now)
      : undefined;
  };
  // Left to /casters when the budget ran out or the service could not give them in time.
  const castersLeft = casterIds.length > 0 && !heldCasters && (!asked.has('casters') || !casters);
  return { matches, casters: casters ?? [], shown, shownOrder, overview, castersLeft };
}

/** One card per series (the first in detail when one was asked for), with hints to go further. */
async function liveCards(ctx: CommandContext<unknown>, picked: Picked): Promise<Card[]> {
  const { names, tenant } = ctx;
  const { series, detailed } = picked;
  const one = series[0]!;
  const details = await liveDetails(ctx, picked);
  const { matches, casters, shown, shownOrder } = details;
  const cards = series.map((s) => {
    // The overview shows each current game's line as the live card says it (no details).
    const overview = detailed ? undefined : details.overview(s);
    return liveCard(s, names, {
      spoilers: tenant.settings.spoilers,
      t: ctx.t,
      ...(matches ? { matches: matches.filter((m) => m.series.id === s.id && m.deleted_at === null) } : {}),
      ...(shown && s.id === one.id ? { summary: shown, currentOrder: shownOrder! } : {}),
      ...(overview ? { summary: overview, detail: false } : {}),
      casters: casters.filter((c) => s.casters.some((e) => e.caster.id === c.id)),
      mapName: (id) => names.mapName(id),
      now: ctx.now,
    });
  });
  const t = ctx.t;
  noteFilling(t, cards[0]!, picked.held);
  // Hints name commands, so they are lines of the card (footers are plain text on Discord).
  const more = t('commands.live.moreField');
  if (details.castersLeft)
    hint(
      more,
      cards[0]!,
      spanned(t, 'commands.live.streams', {}, { command: cmd(`casters series:${one.id}`) }),
    );
  if (!detailed)
    hint(
      more,
      cards[cards.length - 1]!,
      spanned(t, 'commands.live.inDetail', {}, { command: cmd('live series:<id>') }),
    );
  if (picked.more)
    cards.push({
      title: picked.more,
      colour: COLOURS.live,
      description: [spanned(t, 'commands.live.listsAll', {}, { command: cmd('series when:live') })],
    });
  return cards;
}

/** The game being played now: its match ref, number and the summary source the series covers. */
interface CurrentGame {
  matchId: number;
  order: number;
  source: 'cv' | 'api';
}

/**
 * The current game of a live head-to-head series without reading its matches: the maps already
 * decided are the sum of the series score, so the current one is the next match ref. Lobbies
 * (scores are points) and series without live coverage have none.
 */
export function currentGame(series: Series): CurrentGame | undefined {
  if (series.lifecycle !== 'live' || isLobby(series)) return undefined;
  const source = summarySource(series);
  if (!source) return undefined;
  const decided = series.participants.reduce((sum, p) => sum + p.score, 0);
  const ref = series.matches[decided];
  return ref ? { matchId: ref.id, order: decided + 1, source } : undefined;
}

/** A lobby's current game (its points say nothing of it): the live match among `matches`, if any. */
function playingGame(series: Series, matches: readonly Match[] | undefined): CurrentGame | undefined {
  const playing = matches?.find((m) => m.series.id === series.id && m.lifecycle === 'live');
  const source = summarySource(series);
  return playing && source ? { matchId: playing.id, order: playing.order, source } : undefined;
}

/** The summary if it is the current game's and that game has started, else undefined. */
function usableSummary(summary: LiveSummary, current: CurrentGame, now: Date): LiveSummary | undefined {
  const match = liveSummaryMatch(summary);
  if (match.id !== current.matchId) return undefined;
  // The next game's summary exists before it starts: until then the series score says it all.
  return Date.parse(match.start) <= now.getTime() ? summary : undefined;
}

/**
 * The live summary of the current game from the source the series' coverage promises (computer
 * vision first, then the API source); none when the service has no summary for it (a game that
 * has not started yet, or just ended), or when it answers for another match.
 */
async function liveSummary(
  ctx: CommandContext<unknown>,
  current: CurrentGame,
): Promise<LiveSummary | undefined> {
  const data = ctx.data;
  try {
    const summary =
      current.source === 'cv'
        ? await data.matches.liveCv(current.matchId)
        : await data.matches.liveApi(current.matchId);
    return usableSummary(summary, current, ctx.now);
  } catch (error) {
    // Between games the next one has no summary yet: the card shows the series score.
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Adds a pointer to another command to a card, in its "More" field (`name`; one line per pointer). */
function hint(name: string, card: Card, line: Text): void {
  const more = card.fields?.find((f) => f.name === name);
  if (more) more.value.push('\n', ...line);
  else card.fields = [...(card.fields ?? []), { name, value: [...line] }];
}
