/**
 * Shared card builders and formatters: one way to show a series (a line, a card, a live card, a
 * day's schedule) for commands and notifications alike. Everything returns neutral spans and cards
 * (`reply.ts`); times stay instants and results follow the tenant's spoiler policy:
 * - `show`: in the clear, winner in bold;
 * - `spoiler`: wrapped in a spoiler span (nothing outside it hints at the winner);
 * - `hide`: withheld.
 * A live series' running score is live information and always shown; the final result of a
 * finished series follows the policy.
 *
 * Here: naming, results, series lines and cards. Beside it: `format-streams.ts` (where to watch),
 * `format-live.ts` (the live card) and `format-schedule.ts` (a day's schedule).
 */

import type { Platform } from '../core/tenant-id.ts';
import { spanned, type Translate } from '../i18n/i18n.ts';
import type { Caster, Participant, Series } from '../protocol/types.ts';
import { streamFields, watchButtons } from './format-streams.ts';
import type { Card, Span, Text } from './reply.ts';
import { COLOURS } from './reply.ts';
import type { SpoilerPolicy } from './settings.ts';

/** What the formatters need to name things; the name index (`names.ts`) provides all of it. */
export interface SeriesLabels {
  teamOfRoster(rosterId: number): { name: string; abbreviation: string } | undefined;
  tournament(id: number): { title: string; short_title: string } | undefined;
  substage(id: number): { title: string } | undefined;
  game(id: number): { title: string; abbreviation: string } | undefined;
}

export interface FormatOptions {
  spoilers: SpoilerPolicy;
  /** The reader's language: every word on the card is written with it. */
  t: Translate;
}

/** A map's name by id, when the caller has one (e.g. from `/maps`). */
export type MapNames = (mapId: number) => string | undefined;

const FINISHED = new Set(['over', 'over-forfeited']);

export function isFinished(series: Pick<Series, 'lifecycle'>): boolean {
  return FINISHED.has(series.lifecycle);
}

/** Participants in seed order (home first), as the service lists them for head-to-heads. */
export function orderedParticipants(series: Pick<Series, 'participants'>): Participant[] {
  return [...series.participants].sort((a, b) => a.seed - b.seed);
}

/** A roster's team name, or a neutral stand-in when the roster is unknown (never an id soup). */
export function teamName(labels: SeriesLabels, rosterId: number): string {
  return labels.teamOfRoster(rosterId)?.name ?? 'TBD';
}

/** Lobbies (battle royale) have more than two participants: listed by name, not as "A vs B". */
export function isLobby(series: Pick<Series, 'participants'>): boolean {
  return series.participants.length > 2;
}

/** "A vs B"; for a lobby "A, B, C and 13 more"; the series title when participants are unknown. */
export function matchup(
  series: Pick<Series, 'participants' | 'title'>,
  labels: SeriesLabels,
  t: Translate,
): string {
  const names = orderedParticipants(series).map((p) => teamName(labels, p.roster.id));
  if (names.length === 0) return series.title || 'TBD vs TBD';
  if (names.length === 1)
    return orderedParticipants(series)[0]!.seed === 2 ? `TBD vs ${names[0]}` : `${names[0]} vs TBD`;
  if (names.length > 2)
    return t('cards.series.lobbyMatchup', { names: names.slice(0, 3).join(', '), count: names.length - 3 });
  return names.join(' vs ');
}

/** A lobby's (or one of its games') leaders by score: "A 45, B 30, C 22". */
export function lobbyLeaders(
  series: Pick<Series, 'participants'>,
  labels: SeriesLabels,
  t: Translate,
  count = 3,
): string {
  return [...series.participants]
    .sort((a, b) => b.score - a.score || a.seed - b.seed)
    .slice(0, count)
    .map((p) => `${teamName(labels, p.roster.id)} ${t.number(p.score)}`)
    .join(', ');
}

/** Tournament label: short title when there is one. */
export function tournamentName(labels: SeriesLabels, tournamentId: number, t: Translate): string {
  const tournament = labels.tournament(tournamentId);
  return tournament
    ? tournament.short_title || tournament.title
    : t('cards.series.tournament', { id: tournamentId });
}

/**
 * A game's short tag ("CS2"), or an empty string when the labels lack the game: a made-up
 * "Game 7" would read like a map number next to "Bo3", so callers leave the tag out instead.
 */
export function gameTag(labels: SeriesLabels, gameId: number): string {
  const game = labels.game(gameId);
  return game ? game.abbreviation.toUpperCase() : '';
}

/** Joins the non-empty parts with " · ". */
export function dotted(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p !== '').join(' · ');
}

/**
 * What a tenant is called on its platform, for replies that speak about "here": a Discord
 * server, a Slack workspace, the terminal's chat. `noun` fits "server default", `here` fits
 * "Only admins of this server".
 */
export function tenantPlace(platform: Platform): { noun: string; here: string } {
  if (platform === 'discord') return { noun: 'server', here: 'this server' };
  if (platform === 'slack') return { noun: 'workspace', here: 'this workspace' };
  return { noun: 'chat', here: 'this chat' };
}

/** Applies a spoiler policy to result spans. */
export function guardResult(spans: Text, policy: SpoilerPolicy, t: Translate): Text {
  if (policy === 'show') return spans;
  if (policy === 'spoiler') return [{ spoiler: spans }];
  return [{ text: t('cards.series.resultHidden'), italic: true }];
}

/** The running score of a live (or any) series, shown in the clear: "A 1–0 B". */
export function liveScoreSpans(series: Series, labels: SeriesLabels, t: Translate): Text {
  if (isLobby(series))
    return [
      t('cards.series.lobbyLeading', {
        count: series.participants.length,
        leaders: lobbyLeaders(series, labels, t),
      }),
    ];
  const [home, away] = orderedParticipants(series);
  if (!home || !away) return [matchup(series, labels, t)];
  return [
    { text: teamName(labels, home.roster.id), bold: true },
    ` ${home.score}–${away.score} `,
    { text: teamName(labels, away.roster.id), bold: true },
  ];
}

/** The winner's team name of a finished series, if there is one. */
export function winnerName(series: Series, labels: SeriesLabels): string | undefined {
  const winner = series.participants.find((p) => p.winner);
  return winner ? teamName(labels, winner.roster.id) : undefined;
}

/** Did a series (or match) end by forfeit: the lifecycle says so, or a participant forfeited? */
export function isForfeit(item: Pick<Series, 'lifecycle' | 'participants'>): boolean {
  return item.lifecycle === 'over-forfeited' || item.participants.some((p) => p.forfeit);
}

/**
 * What a forfeit says: who forfeited and who wins, never a score (no map was played; the score the
 * service awards the winner is not one a fan should read as maps won). "A forfeited, B win".
 */
export function forfeitVerdict(
  item: Pick<Series, 'participants'>,
  labels: SeriesLabels,
  t: Translate,
): string {
  const winner = item.participants.find((p) => p.winner);
  return [
    forfeited(item, labels, t),
    winner ? t('cards.series.win', { team: teamName(labels, winner.roster.id) }) : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** "A forfeited" (the teams whose participant says so), or "forfeit" when the data names none. */
function forfeited(item: Pick<Series, 'participants'>, labels: SeriesLabels, t: Translate): string {
  const who = orderedParticipants(item)
    .filter((p) => p.forfeit)
    .map((p) => teamName(labels, p.roster.id));
  return who.length > 0
    ? t('cards.series.forfeited', { teams: who.join(t('cards.series.and')) })
    : t('cards.series.forfeit');
}

/**
 * A finished series' result under the policy. `show`: "**A** 2–1 B" (winner bold); `spoiler`:
 * "A vs B" then a spoiler holding "2–1, A wins"; `hide`: "A vs B · result hidden" (the separator
 * reads where italics do not show). A forfeit names who forfeited and who won instead of a score:
 * `show` "A forfeited, B win".
 */
export function resultSpans(series: Series, labels: SeriesLabels, policy: SpoilerPolicy, t: Translate): Text {
  const gap = policy === 'hide' ? ' · ' : ' ';
  if (isLobby(series)) {
    const head = `${t('cards.series.lobby', { count: series.participants.length })}${gap}`;
    return [
      head,
      ...guardResult([t('cards.series.top', { leaders: lobbyLeaders(series, labels, t) })], policy, t),
    ];
  }
  const [home, away] = orderedParticipants(series);
  if (!home || !away) return [matchup(series, labels, t)];
  const homeName = teamName(labels, home.roster.id);
  const awayName = teamName(labels, away.roster.id);
  const winner = winnerName(series, labels);
  if (isForfeit(series)) {
    if (policy !== 'show')
      return [
        `${homeName} vs ${awayName}${gap}`,
        ...guardResult([forfeitVerdict(series, labels, t)], policy, t),
      ];
    // "A forfeited, B win": both teams, who forfeited and who won, in words (bold is lost in plain
    // text); "A vs B · forfeit, B win" when the data names no team that forfeited.
    const verdict = forfeitVerdict(series, labels, t);
    return series.participants.some((p) => p.forfeit)
      ? [verdict]
      : [`${homeName} vs ${awayName} · ${verdict}`];
  }
  if (policy === 'show') {
    return [
      home.winner ? { text: homeName, bold: true } : homeName,
      ` ${home.score}–${away.score} `,
      away.winner ? { text: awayName, bold: true } : awayName,
    ];
  }
  const verdict = `${home.score}–${away.score}${winner ? `, ${t('cards.series.win', { team: winner })}` : ''}`;
  return [`${homeName} vs ${awayName}${gap}`, ...guardResult([verdict], policy, t)];
}

/** A single line about a series, for lists: when, who (and the score or result), where, format. */
export function seriesLine(
  series: Series,
  labels: SeriesLabels,
  options: FormatOptions & { showTournament?: boolean },
): Text {
  const { t } = options;
  const tail: Text = [];
  if (options.showTournament !== false) tail.push(' · ', tournamentName(labels, series.tournament.id, t));
  tail.push(` · Bo${series.best_of || series.format.best_of}`);
  if (series.lifecycle === 'live') {
    return [{ text: t('cards.series.live'), bold: true }, ' ', ...liveScoreSpans(series, labels, t), ...tail];
  }
  if (isFinished(series)) {
    const when: Span = series.start
      ? { time: new Date(series.end ?? series.start), style: 'date' }
      : t('cards.series.dateTbd');
    return [when, ' · ', ...resultSpans(series, labels, options.spoilers, t), ...tail];
  }
  const when: Text = series.start
    ? [
        { time: new Date(series.start), style: 'full' },
        ' (',
        { time: new Date(series.start), style: 'relative' },
        ')',
      ]
    : [t('cards.series.timeTbd')];
  const postponed = series.postponed_from ? [` (${t('cards.series.postponed')})`] : [];
  return [...when, ' · ', { text: matchup(series, labels, t), bold: true }, ...postponed, ...tail];
}

/** A schedule line: time of day, then who (and live score or result), format. */
export function scheduleLine(series: Series, labels: SeriesLabels, options: FormatOptions): Text {
  const { t } = options;
  const when: Span = series.start ? { time: new Date(series.start), style: 'time' } : t('cards.series.tbd');
  const tail = ` · Bo${series.best_of || series.format.best_of}`;
  if (series.lifecycle === 'live')
    return [
      when,
      ' · ',
      { text: t('cards.series.live'), bold: true },
      ' ',
      ...liveScoreSpans(series, labels, t),
      tail,
    ];
  if (isFinished(series)) return [when, ' · ', ...resultSpans(series, labels, options.spoilers, t), tail];
  return [when, ' · ', { text: matchup(series, labels, t), bold: true }, tail];
}

/** Colour by lifecycle. */
export function seriesColour(series: Pick<Series, 'lifecycle'>): number {
  if (series.lifecycle === 'live') return COLOURS.live;
  if (isFinished(series)) return COLOURS.finished;
  return COLOURS.upcoming;
}

/**
 * One series as a card: matchup, tournament and substage, start time (absolute and relative), the
 * score while live, the result under the spoiler policy when finished, and streams (primary first)
 * when `casters` are given. For `/series`-style detail, reminders and result posts.
 */
export function seriesCard(
  series: Series,
  labels: SeriesLabels,
  options: FormatOptions & { casters?: readonly Caster[]; footer?: string; now?: Date },
): Card {
  const { t } = options;
  const description: Text[] = [];
  const substage = labels.substage(series.substage.id);
  description.push([
    dotted(
      tournamentName(labels, series.tournament.id, t),
      substage?.title,
      gameTag(labels, series.game.id),
      `Bo${series.best_of || series.format.best_of}`,
      t('cards.series.tier', { tier: series.tier }),
    ),
  ]);
  if (series.lifecycle === 'live') {
    description.push([
      { text: t('cards.series.live'), bold: true },
      ' · ',
      ...liveScoreSpans(series, labels, t),
    ]);
  } else if (isFinished(series)) {
    description.push([`${t('cards.series.result')} `, ...resultSpans(series, labels, options.spoilers, t)]);
  }
  if (series.start) {
    const start = new Date(series.start);
    // A forfeited series never started: it was due then (said only where results are shown).
    const key =
      series.lifecycle === 'upcoming' || series.lifecycle === 'unknown'
        ? 'cards.series.starts'
        : isForfeit(series) && options.spoilers === 'show'
          ? 'cards.series.wasDue'
          : 'cards.series.started';
    const times = {
      time: { time: start, style: 'full' },
      relative: { time: start, style: 'relative' },
    } as const;
    description.push(spanned<Span>(t, key, {}, times));
  }
  if (series.postponed_from) {
    const from: Span = { time: new Date(series.postponed_from), style: 'full' };
    description.push(spanned<Span>(t, 'cards.series.postponedFrom', {}, { time: from }));
  }
  const card: Card = {
    title: matchup(series, labels, t),
    colour: seriesColour(series),
    description,
  };
  const streams = streamFields(series, options.casters, t, undefined, options.now);
  if (streams.length > 0) card.fields = streams;
  const buttons = watchButtons(series, options.casters, t);
  if (buttons.length > 0) card.buttons = buttons;
  card.footer = options.footer ?? t('cards.series.footer', { id: series.id });
  return card;
}

/** Most series lines that one card carries (Discord: 4096 characters of description). */
export const MAX_LINES_PER_CARD = 20;
/** Most cards in one reply (Discord: 10 embeds per message). */
export const MAX_CARDS = 10;

/**
 * A titled list of series, one line each. `empty` is said when there are none.
 */
export function seriesListCard(
  title: string,
  series: readonly Series[],
  labels: SeriesLabels,
  options: FormatOptions & { empty?: string; showTournament?: boolean; colour?: number; footer?: string },
): Card {
  const lines = series.slice(0, MAX_LINES_PER_CARD).map((s) => seriesLine(s, labels, options));
  const card: Card = {
    title,
    colour: options.colour ?? COLOURS.info,
    description: lines.length > 0 ? lines : [[options.empty ?? options.t('cards.series.nothing')]],
  };
  const more = series.length - lines.length;
  const footer = [options.footer, more > 0 ? options.t('cards.series.more', { count: more }) : undefined]
    .filter(Boolean)
    .join(' · ');
  if (footer) card.footer = footer;
  return card;
}

/** Start ascending, unknown starts last, ties by id. */
export function byStart(a: Pick<Series, 'start' | 'id'>, b: Pick<Series, 'start' | 'id'>): number {
  const sa = a.start ? Date.parse(a.start) : Number.POSITIVE_INFINITY;
  const sb = b.start ? Date.parse(b.start) : Number.POSITIVE_INFINITY;
  return sa - sb || a.id - b.id;
}
