/**
 * The notifications' replies, built with the shared card builders (`src/bot/format.ts`) so a
 * reminder looks like `/series`, a live card like `/live` and a digest like `/schedule`. This file
 * only adds what is particular to notifications: the role mention, "starts in" and "moved" lines,
 * and the frozen result under the channel's spoiler policy.
 */
import { type MapNames, type SeriesLabels, seriesCard } from '../bot/format.ts';
import { liveCard } from '../bot/format-live.ts';
import { outcomeLines, type Placement } from '../bot/outcome.ts';
import { type Preview, previewLines } from '../bot/preview.ts';
import { COLOURS, type Reply, type Text } from '../bot/reply.ts';
import type { SpoilerPolicy } from '../bot/settings.ts';
import { formatLocalDate } from '../bot/time-format.ts';
import type { Translate } from '../i18n/i18n.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Match, Series, Tournament } from '../protocol/types.ts';
import { digestCards } from './digest.ts';

interface Audience {
  role?: string;
  spoilers: SpoilerPolicy;
  /** The channel's (or person's) language. */
  t: Translate;
}

function mention(audience: Audience, text: Text): Pick<Reply, 'content' | 'mentionRoles'> {
  if (audience.role === undefined) return { content: text };
  return { content: [{ role: audience.role }, ' ', ...text], mentionRoles: [audience.role] };
}

/** A reminder: the series card with its streams, "starts in", and what moved if the start changed. */
export function reminderReply(
  series: Series,
  labels: SeriesLabels,
  audience: Audience,
  options: {
    lead: number;
    casters?: readonly Caster[];
    movedFrom?: string;
    /** The first reminder of a series carries a compact preview (form, head-to-head, stakes). */
    preview?: Preview;
  },
): Reply {
  const start = new Date(series.start!);
  const text: Text = [
    'Starts ',
    { time: start, style: 'relative' },
    ' (',
    { time: start, style: 'time' },
    ')',
  ];
  if (options.movedFrom) text.push(' · moved from ', { time: new Date(options.movedFrom), style: 'full' });
  const card = seriesCard(series, labels, {
    spoilers: audience.spoilers,
    t: audience.t,
    ...(options.casters ? { casters: options.casters } : {}),
    footer: `Reminder ${options.lead} min before · series ${series.id}`,
  });
  if (options.movedFrom)
    card.description = [...(card.description ?? []), ['Moved: now starts ', { time: start, style: 'full' }]];
  if (options.preview)
    card.description = [
      ...(card.description ?? []),
      ...previewLines(options.preview, audience.spoilers, { compact: true }),
    ];
  return { ...mention(audience, text), cards: [card] };
}

/**
 * The live card, and the same card frozen once the series is over: the result follows the
 * channel's spoiler policy (shown, wrapped as a spoiler, or withheld).
 */
export function liveReply(
  series: Series,
  labels: SeriesLabels,
  audience: Audience,
  options: {
    matches?: readonly Match[];
    summary?: LiveSummary;
    casters?: readonly Caster[];
    /** Map names by id ("Mirage" instead of "Map 2"). */
    mapName?: MapNames;
    first: boolean;
  },
): Reply {
  const card = liveCard(series, labels, {
    spoilers: audience.spoilers,
    t: audience.t,
    ...(options.matches ? { matches: options.matches } : {}),
    ...(options.mapName ? { mapName: options.mapName } : {}),
    ...(options.summary ? { summary: options.summary } : {}),
    ...(options.casters ? { casters: options.casters } : {}),
  });
  const over = series.lifecycle === 'over' || series.lifecycle === 'over-forfeited';
  if (over) card.footer = `Final · series ${series.id}`;
  // The mention goes with the first post only; edits never ping.
  return options.first ? { ...mention(audience, ['Live now']), cards: [card] } : { cards: [card] };
}

/** A result post for a channel that takes results but no live card. */
export function resultReply(series: Series, labels: SeriesLabels, audience: Audience): Reply {
  const card = seriesCard(series, labels, {
    spoilers: audience.spoilers,
    t: audience.t,
    footer: `Result · series ${series.id}`,
  });
  return { ...mention(audience, ['Series over']), cards: [card] };
}

/**
 * The tournament-end card, when a tournament's last series (grand final, last lobby) ends: "<title>
 * is over", the game, tier and prize pool, then the champion and the top places with the prize of
 * each (the lines `/tournament` shows, `outcomeLines`), under the channel's spoiler policy: behind
 * spoilers, or, with `hide`, the card says the tournament ended and that its places are hidden
 * (as a result card does for a series).
 */
export function tournamentEndReply(
  tournament: Pick<Tournament, 'id' | 'title' | 'tier' | 'game' | 'string_prize_pool'>,
  placements: readonly Placement[],
  labels: SeriesLabels,
  audience: Audience,
): Reply {
  const game = labels.game(tournament.game.id)?.title ?? `Game ${tournament.game.id}`;
  const prize = tournament.string_prize_pool.total;
  const about = `${game} · tier ${tournament.tier}${prize ? ` · prize pool ${prize}` : ''}`;
  const card = {
    title: `${tournament.title} is over`,
    colour: COLOURS.finished,
    description: [[about], ...outcomeLines(placements, labels, audience.spoilers)],
    footer: `Tournament ${tournament.id}`,
  };
  return { ...mention(audience, ['Tournament over']), cards: [card] };
}

/**
 * The daily digest: the day's series grouped by tournament as compact tables (`digest.ts`), its
 * first page on a busy day with how to see the rest, or a short "nothing today".
 */
export function digestReply(
  series: readonly Series[],
  labels: SeriesLabels,
  audience: Audience,
  localDate: string,
): Reply {
  const date = formatLocalDate(localDate);
  const cards = digestCards(series, labels, {
    spoilers: audience.spoilers,
    t: audience.t,
    title: `Today's series (${date})`,
    empty: 'Nothing scheduled today for this channel.',
    localDate,
  });
  return { ...mention(audience, [`Daily digest for ${date}`]), cards };
}
