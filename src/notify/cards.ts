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
import { COLOURS, type Reply, type Span, type Text } from '../bot/reply.ts';
import type { SpoilerPolicy } from '../bot/settings.ts';
import { formatLocalDate } from '../bot/time-format.ts';
import { localMoney, spanned, type Translate } from '../i18n/i18n.ts';
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
  const { t } = audience;
  const start = new Date(series.start!);
  const times = {
    relative: { time: start, style: 'relative' },
    time: { time: start, style: 'time' },
  } as const;
  const text: Text = spanned<Span>(t, 'cards.notify.startsIn', {}, times);
  if (options.movedFrom) {
    const from: Span = { time: new Date(options.movedFrom), style: 'full' };
    text.push(' · ', ...spanned<Span>(t, 'cards.notify.movedFrom', {}, { time: from }));
  }
  const card = seriesCard(series, labels, {
    spoilers: audience.spoilers,
    t,
    ...(options.casters ? { casters: options.casters } : {}),
    footer: t('cards.notify.reminderFooter', { count: options.lead, id: series.id }),
  });
  if (options.movedFrom) {
    const now: Span = { time: start, style: 'full' };
    card.description = [
      ...(card.description ?? []),
      spanned<Span>(t, 'cards.notify.movedNow', {}, { time: now }),
    ];
  }
  if (options.preview)
    card.description = [
      ...(card.description ?? []),
      ...previewLines(options.preview, audience.spoilers, { compact: true, t }),
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
  if (over) card.footer = audience.t('cards.notify.finalFooter', { id: series.id });
  // The mention goes with the first post only; edits never ping.
  return options.first
    ? { ...mention(audience, [audience.t('cards.notify.liveNow')]), cards: [card] }
    : { cards: [card] };
}

/** A result post for a channel that takes results but no live card. */
export function resultReply(series: Series, labels: SeriesLabels, audience: Audience): Reply {
  const card = seriesCard(series, labels, {
    spoilers: audience.spoilers,
    t: audience.t,
    footer: audience.t('cards.notify.resultFooter', { id: series.id }),
  });
  return { ...mention(audience, [audience.t('cards.notify.seriesOver')]), cards: [card] };
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
  const { t } = audience;
  const game = labels.game(tournament.game.id)?.title ?? t('cards.notify.game', { id: tournament.game.id });
  const total = tournament.string_prize_pool.total;
  const prize = total ? localMoney(t.locale, total) : null;
  const about = [
    game,
    t('cards.series.tier', { tier: tournament.tier }),
    ...(prize ? [t('cards.notify.prizePool', { prize })] : []),
  ].join(' · ');
  const card = {
    title: t('cards.notify.tournamentOverTitle', { title: tournament.title }),
    colour: COLOURS.finished,
    description: [[about], ...outcomeLines(placements, labels, audience.spoilers, t)],
    footer: t('cards.series.tournament', { id: tournament.id }),
  };
  return { ...mention(audience, [t('cards.notify.tournamentOver')]), cards: [card] };
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
  stageSeries?: (substageId: number) => readonly Series[],
): Reply {
  const { t } = audience;
  const date = formatLocalDate(localDate, t);
  const cards = digestCards(series, labels, {
    spoilers: audience.spoilers,
    t,
    ...(stageSeries ? { stageSeries } : {}),
    title: t('cards.notify.digestTitle', { date }),
    empty: t('cards.notify.digestEmpty'),
    localDate,
  });
  return { ...mention(audience, [t('cards.notify.digest', { date })]), cards };
}
