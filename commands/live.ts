/**
 * `/live`: the live scoreline of one series, or of every live series in the tenant's games and
 * tiers: series score, the current map and its score in its game's words (`src/bot/live-now.ts`:
 * rounds, kills, goals, supply, a lobby's places), earlier maps, and streams (primary first).
 Everything is read through the read model (src/reads/reads.ts), which answers from the feed when
 * it holds the answer (`npm start`: no request at all) and from the service otherwise:
 * - overview: the live series, their matches (all at once), their casters (all at once) and each
 *   shown series' current game summary, as on the notifier's card; nothing live: the next few
 *   upcoming instead;
 * - one series (named, or a team's): the series, its matches (map names, earlier maps), the live
 *   summary of the current game, and the casters. The current game of a head-to-head is the
 *   series' match ref after the maps already won (sum of the scores); a lobby's is its live match,
 *   so its summary is read after the matches. The summary source is the series' coverage
 *   (computer vision first, as the feed reads it). A part the service cannot give in time is left
 *   out with a note (streams then point to `/casters`).
 * Map names come from the name index; asked before its first load (a cold start), one more read
 * names the shown maps rather than a made-up "Map 1".
 */

import { type CommandContext, defineCommand } from '../src/bot/command.ts';
import { isLobby } from '../src/bot/format.ts';
import { liveCard } from '../src/bot/format-live.ts';
import { type Card, COLOURS, type Text } from '../src/bot/reply.ts';
import { cmd } from '../src/core/errors.ts';
import { summarySource } from '../src/feed/reads.ts';
import { spanned } from '../src/i18n/i18n.ts';
import { type LiveSummary, liveSummaryMatch } from '../src/protocol/live-summary.ts';
import type { Caster, Match, Series } from '../src/protocol/types.ts';
import {
  gamesFor,
  gamesLabel,
  nothingLiveCard,
  resolveName,
  scopeOf,
  seriesArg,
  teamRosters,
  tiersLabel,
  unlessBusy,
} from './shared.ts';

/** Most series shown at once (one card each; Discord allows 10 embeds, this stays readable). */
export const MAX_LIVE_CARDS = 5;

/** Live series read at once (the service's page): the overview counts those it does not show. */
const LIVE_PAGE = 50;

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
      ? { series: [await seriesArg(ctx, seriesText)], detailed: true }
      : await liveSeries(ctx, games, ctx.args.team, Boolean(ctx.args.game));
    if ('card' in picked) return { cards: [picked.card] };
    return { cards: await liveCards(ctx, picked) };
  },
});

/** The series `/live` shows. */
interface Picked {
  series: Series[];
  /** One series asked for on purpose (by name or team): shown in detail. */
  detailed: boolean;
  /** "And 2 more live series", when the overview shows only the first few. */
  more?: string;
}

/**
 * The live series of a team (`teamText`), or of the tenant's games and tiers. Nothing live: the
 * card that says so (with what comes next).
 */
async function liveSeries(
  ctx: CommandContext<unknown>,
  games: number[],
  teamText: string | undefined,
  gameAsked: boolean,
): Promise<Picked | { card: Card }> {
  const { names, tenant } = ctx;
  const wanted: { games?: number[]; tiers?: number[]; rosters?: number[] } = {};
  let who: string;
  if (teamText) {
    const teamId = await resolveName(ctx, 'team', teamText, scopeOf(ctx, games));
    wanted.rosters = await teamRosters(ctx, teamId);
    who = names.team(teamId)?.name ?? ctx.t('commands.live.thatTeam');
    // A named team is asked for on purpose: only an explicit game narrows it.
    if (gameAsked) wanted.games = games;
  } else {
    wanted.games = games;
    wanted.tiers = tenant.settings.tiers;
    who = `${gamesLabel(ctx, games)} · ${tiersLabel(ctx.t, wanted.tiers)}`;
  }
  // One page of up to 50 costs the same as 5: the cards show the first few, the rest are counted.
  const series = await ctx.reads.series({
    ...wanted,
    lifecycles: ['live'],
    order: 'start-asc',
    take: LIVE_PAGE,
  });
  if (series.length === 0) return { card: await nothingLiveCard(ctx, who, wanted) };
  const picked: Picked = { series, detailed: teamText !== undefined };
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
  /** The overview line of each series' current game. */
  overview: (s: Series) => LiveSummary | undefined;
  /** Casters exist but were left to /casters (the service could not give them in time). */
  castersLeft: boolean;
}

/**
 * Reads what the cards show, all at once. The matches come first where a lobby's current game is
 * known only from them; a part the service cannot give in time is left out (streams then point to
 * /casters).
 */
async function liveDetails(ctx: CommandContext<unknown>, picked: Picked): Promise<Details> {
  const { data, names, reads } = ctx;
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
  const current = detailed ? currentGame(one) : undefined;
  const summaryOf = async (game: CurrentGame): Promise<LiveSummary | undefined> => {
    const summary = await reads.liveSummary(game.source, game.matchId);
    return summary && usableSummary(summary, game, ctx.now);
  };
  const [matches, casters, summary] = await Promise.all([
    unlessBusy(ctx, reads.matchesOf(series.map((s) => s.id))),
    unlessBusy(ctx, reads.casters(casterIds)),
    current ? unlessBusy(ctx, summaryOf(current)) : undefined,
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
  // A lobby's current game is known from its matches only: its summary is read after them.
  const playing = detailed && !current && matches ? playingGame(one, matches) : undefined;
  if (playing) {
    shown = await unlessBusy(ctx, summaryOf(playing));
    shownOrder = playing.order;
  }
  // The overview shows each current game's line as the notifier's live card says it.
  const overviews = new Map<number, LiveSummary>();
  if (!detailed && matches)
    await Promise.all(
      series.map(async (s) => {
        const game = playingGame(s, matches);
        const line = game ? await unlessBusy(ctx, summaryOf(game)) : undefined;
        if (line) overviews.set(s.id, line);
      }),
    );
  const castersLeft = casterIds.length > 0 && !casters;
  return {
    matches,
    casters: casters ?? [],
    shown,
    shownOrder,
    overview: (s) => overviews.get(s.id),
    castersLeft,
  };
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

/** Adds a pointer to another command to a card, in its "More" field (`name`; one line per pointer). */
function hint(name: string, card: Card, line: Text): void {
  const more = card.fields?.find((f) => f.name === name);
  if (more) more.value.push('\n', ...line);
  else card.fields = [...(card.fields ?? []), { name, value: [...line] }];
}
