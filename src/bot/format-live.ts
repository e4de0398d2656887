/**
 * The live card of a series: series score, the current map and, from its live summary, what its
 * game counts (`live-now.ts`: rounds, kills, goals, supply, places), earlier maps' results, and
 * streams (primary first). Used by `/live` and by the notifier's edited-in-place live cards, so
 * one match reads the same in both. Results follow the spoiler policy as in `format.ts`.
 */

import { spanned, type Translate } from '../i18n/i18n.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Match, Series } from '../protocol/types.ts';
import {
  dotted,
  type FormatOptions,
  forfeitVerdict,
  gameTag,
  guardResult,
  isFinished,
  isForfeit,
  isLobby,
  liveScoreSpans,
  lobbyLeaders,
  type MapNames,
  matchup,
  orderedParticipants,
  resultSpans,
  type SeriesLabels,
  seriesColour,
  teamName,
  tournamentName,
} from './format.ts';
import { streamFields, watchButtons } from './format-streams.ts';
import { liveNow } from './live-now.ts';
import type { Card, Field, Span, Table, Text } from './reply.ts';

interface LiveCardOptions extends FormatOptions {
  /** The series' matches (any order); the live one is "current". */
  matches?: readonly Match[];
  /** The live summary of the current match. */
  summary?: LiveSummary;
  /**
   * Show the summary's details (sides, economy, towers, gold, supply, a lobby's table) below the
   * "Now" line; false keeps the card to the line (an overview of several series). Default true.
   */
  detail?: boolean;
  casters?: readonly Caster[];
  mapName?: MapNames;
  /**
   * The current game's number when `matches` are not given (a caller within its request budget
   * derives it from the series' match refs and scores); used with `summary`.
   */
  currentOrder?: number;
  /** When this card was built; shown in the footer as "updated". */
  now?: Date;
}

/** The live card: the series' state, then fields for the current game, the games played and streams. */
export function liveCard(series: Series, labels: SeriesLabels, options: LiveCardOptions): Card {
  const matches = [...(options.matches ?? [])].sort((a, b) => a.order - b.order);
  const now = currentGame(series, labels, matches, options);
  const fields: Field[] = [
    ...now.fields,
    ...playedGames(series, labels, matches, options),
    ...streamFields(series, options.casters, options.t, 3),
  ];
  const { home, away } = sideNames(series, labels, options.t);
  const card: Card = {
    title: isLobby(series) ? matchup(series, labels, options.t) : `${home} vs ${away}`,
    colour: seriesColour(series),
    description: liveDescription(series, labels, options),
  };
  if (fields.length > 0) card.fields = fields;
  if (now.table) card.table = now.table;
  const buttons = watchButtons(series, options.casters, options.t);
  if (buttons.length > 0) card.buttons = buttons;
  card.footer = options.t('cards.series.footer', { id: series.id });
  return card;
}

/** The two sides' team names in seed order, "TBD" for a side not known yet. */
function sideNames(series: Series, labels: SeriesLabels, t: Translate): { home: string; away: string } {
  const [home, away] = orderedParticipants(series);
  return {
    home: home ? teamName(labels, home.roster.id) : t('cards.series.tbd'),
    away: away ? teamName(labels, away.roster.id) : t('cards.series.tbd'),
  };
}

/** Tournament, game and format, then the running score, the final result or when it starts. */
function liveDescription(series: Series, labels: SeriesLabels, options: FormatOptions): Text[] {
  const { t } = options;
  const description: Text[] = [
    [
      dotted(
        tournamentName(labels, series.tournament.id, t),
        gameTag(labels, series.game.id),
        `Bo${series.best_of || series.format.best_of}`,
      ),
    ],
  ];
  if (series.lifecycle === 'live') {
    description.push([`${t('cards.live.series')} `, ...liveScoreSpans(series, labels, t)]);
  } else if (isFinished(series)) {
    description.push([`${t('cards.live.final')} `, ...resultSpans(series, labels, options.spoilers, t)]);
  } else if (series.start) {
    const time: Span = { time: new Date(series.start), style: 'relative' };
    description.push(spanned<Span>(t, 'cards.live.starts', {}, { time }));
  }
  return description;
}

/**
 * The "Now: game N · map" field, and with a live summary (unless `detail` is false) its detail
 * fields and a lobby's table. No field when no game is current.
 */
function currentGame(
  series: Series,
  labels: SeriesLabels,
  matches: readonly Match[],
  options: LiveCardOptions,
): { fields: Field[]; table?: Table | undefined } {
  const current = matches.find((m) => m.lifecycle === 'live');
  const order = current?.order ?? (options.summary ? options.currentOrder : undefined);
  if (order === undefined) return { fields: [] };
  // A map whose name is not known (no match resource, or its name not read yet) is left out:
  // a made-up "Map 2" would read like a map's name.
  const map = current?.map ? options.mapName?.(current.map.id) : undefined;
  const name = dotted(options.t('cards.live.now', { order }), map);
  if (options.summary) {
    const now = liveNow(options.summary, (rosterId) => teamName(labels, rosterId), options.t);
    if (options.detail === false) return { fields: [{ name, value: [now.line] }] };
    return { fields: [{ name, value: [now.line] }, ...now.fields], table: now.table };
  }
  if (!current) return { fields: [] };
  return { fields: [{ name, value: [matchScore(series, current, labels, options.t)] }] };
}

/** The current game's score from its match resource alone (no live summary): a lobby's is its kills. */
function matchScore(series: Series, current: Match, labels: SeriesLabels, t: Translate): string {
  if (isLobby(series)) return t('cards.live.mostKills', { leaders: lobbyLeaders(current, labels, t) });
  const [home, away] = orderedParticipants(current);
  const names = sideNames(series, labels, t);
  return home && away && current.participants.length === 2
    ? `${names.home} ${home.score}–${away.score} ${names.away}`
    : t('cards.live.inProgress');
}

/** A field for each of the last 10 games played, with its result. */
function playedGames(
  series: Series,
  labels: SeriesLabels,
  matches: readonly Match[],
  options: LiveCardOptions,
): Field[] {
  // A forfeited series played no map: its matches (closed as forfeited) are not results to list.
  if (isForfeit(series)) return [];
  const finished = isFinished(series);
  return matches
    .filter((m) => isFinished(m))
    .slice(-10)
    .map((m) => {
      const label = m.map ? options.mapName?.(m.map.id) : undefined;
      const result = gameResult(series, m, labels, options.t);
      // Finished maps of a live series are live information; of a finished series, a result.
      const value: Text =
        result === undefined ? [] : finished ? guardResult([result], options.spoilers, options.t) : [result];
      return { name: dotted(options.t('cards.live.game', { order: m.order }), label), value, inline: true };
    });
}

/** One game's result as text: a lobby's leaders, a forfeit, or "2–1 Winner"; none without two sides. */
function gameResult(series: Series, game: Match, labels: SeriesLabels, t: Translate): string | undefined {
  if (isLobby(series)) return t('cards.series.top', { leaders: lobbyLeaders(game, labels, t) });
  const [home, away] = orderedParticipants(game);
  if (!home || !away || game.participants.length !== 2) return undefined;
  // A map forfeited within a played series: who forfeited, not a 0–0 "won".
  if (isForfeit(game)) return forfeitVerdict(game, labels, t);
  const winner = [home, away].find((p) => p.winner);
  return `${home.score}–${away.score}${winner ? ` ${teamName(labels, winner.roster.id)}` : ''}`;
}
