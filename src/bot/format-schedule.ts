/**
 * A day's schedule: series grouped by tournament into cards, one line each with its time of day.
 * For `/schedule`; each line (`scheduleLine`) comes from `format.ts`, beside the other series lines.
 */

import type { Series } from '../protocol/types.ts';
import {
  byStart,
  type FormatOptions,
  gameTag,
  MAX_CARDS,
  MAX_LINES_PER_CARD,
  type SeriesLabels,
  scheduleLine,
} from './format.ts';
import type { Card } from './reply.ts';
import { COLOURS } from './reply.ts';

/**
 * A day's series grouped by tournament, one card per tournament (when there are more tournaments
 * than `MAX_CARDS`, several share a card, each under a bold heading; what still does not fit is
 * counted in the last footer), each line with its start time as an instant (rendered in the
 * tenant's timezone by the platform). For `/schedule`.
 */
export function scheduleCards(
  series: readonly Series[],
  labels: SeriesLabels,
  options: FormatOptions & { title: string; empty?: string },
): Card[] {
  if (series.length === 0) {
    return [
      {
        title: options.title,
        colour: COLOURS.info,
        description: [[options.empty ?? options.t('cards.schedule.empty')]],
      },
    ];
  }
  const groups = new Map<number, Series[]>();
  for (const s of [...series].sort(byStart)) {
    const list = groups.get(s.tournament.id) ?? [];
    list.push(s);
    groups.set(s.tournament.id, list);
  }
  // Tournaments in order of their first series of the day.
  const ordered = [...groups.entries()];
  // More tournaments than cards (a busy page): several share a card, each under a bold heading.
  const share = ordered.length > MAX_CARDS;
  const cards: Card[] = [];
  const shown: number[] = [];
  for (const [tournamentId, list] of ordered) {
    const tournament = labels.tournament(tournamentId);
    const game = list[0] ? gameTag(labels, list[0].game.id) : '';
    const title = tournament?.title ?? options.t('cards.series.tournament', { id: tournamentId });
    const heading = `${title}${game ? ` (${game})` : ''}`;
    const lines = list.slice(0, MAX_LINES_PER_CARD).map((s) => scheduleLine(s, labels, options));
    const more =
      list.length > MAX_LINES_PER_CARD
        ? options.t('cards.series.more', { count: list.length - MAX_LINES_PER_CARD })
        : undefined;
    const last = cards[cards.length - 1];
    if (
      share &&
      last &&
      !last.footer &&
      !more &&
      last.description!.length + 2 + lines.length <= MAX_LINES_PER_CARD
    ) {
      last.description!.push([], [{ text: heading, bold: true }], ...lines);
    } else if (cards.length < MAX_CARDS) {
      cards.push({
        title: heading,
        colour: COLOURS.upcoming,
        description: lines,
        ...(more ? { footer: more } : {}),
      });
    } else break;
    shown.push(tournamentId);
  }
  // The day's title heads the reply; the first tournament's name moves under it, in bold as the
  // shared headings are (a title "Today · ... · AC Seoul League" read as that tournament's schedule).
  const first = cards[0];
  if (first) {
    first.description = [[{ text: first.title, bold: true }], ...(first.description ?? [])];
    first.title = options.title;
  }
  const hidden = ordered.slice(shown.length);
  if (hidden.length > 0) {
    const count = hidden.reduce((n, [, list]) => n + list.length, 0);
    const last = cards[cards.length - 1]!;
    const rest = options.t('cards.schedule.moreTournaments', { series: count, count: hidden.length });
    last.footer = [last.footer, rest].filter(Boolean).join(' · ');
  }
  return cards;
}
