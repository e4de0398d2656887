/**
 * The daily digest's cards (docs/notifications.md): one card per tournament holding a compact
 * table, `time | match | event | Bo`, that reads at 80 columns in a terminal and as one line per
 * series on Discord and Slack. A busy day shows the tournaments one message holds, says how many more
 * series there are, and names the first of them and the exact `/schedule` command (day and page) that
 * shows it. The pages are the channel's series cut as `/schedule` cuts them, so the page is exact where
 * the channel follows the server's games and tiers (the default).
 */

import { seriesRoundLabel } from '../bot/bracket-rounds.ts';
import {
  byStart,
  type FormatOptions,
  gameTag,
  isFinished,
  liveScoreSpans,
  MAX_CARDS,
  MAX_LINES_PER_CARD,
  matchup,
  resultSpans,
  type SeriesLabels,
} from '../bot/format.ts';
import { PAGE_SIZE, pageCommand, paginate } from '../bot/pages.ts';
import { type Card, COLOURS, type Span, type Table, type Text } from '../bot/reply.ts';
import type { SpoilerPolicy } from '../bot/settings.ts';
import { cmd } from '../core/errors.ts';
import { spanned, type Translate } from '../i18n/i18n.ts';
import type { Series } from '../protocol/types.ts';

/** What the match column says: the teams, the live score, or the result under the spoiler policy. */
function matchCell(series: Series, labels: SeriesLabels, spoilers: SpoilerPolicy, t: Translate): Text {
  if (series.lifecycle === 'live')
    return [{ text: t('cards.series.live'), bold: true }, ' ', ...liveScoreSpans(series, labels, t)];
  if (isFinished(series)) return resultSpans(series, labels, spoilers, t);
  return [matchup(series, labels, t)];
}

/** What a digest's event column says of a series: its bracket round ("Upper-bracket final"), else its group. */
function eventCell(series: Series, labels: SeriesLabels, options: DigestOptions): string {
  const stage = options.stageSeries?.(series.substage.id) ?? [];
  return seriesRoundLabel(options.t, series, stage) ?? labels.substage(series.substage.id)?.title ?? '';
}

/** One tournament's series as a table. */
function digestTable(series: readonly Series[], labels: SeriesLabels, options: DigestOptions): Table {
  const { t } = options;
  return {
    columns: [
      { header: t('cards.digest.time') },
      { header: t('cards.digest.match') },
      { header: t('cards.digest.event') },
      { header: 'Bo', align: 'right' },
    ],
    rows: series.map((s) => [
      s.start ? [{ time: new Date(s.start), style: 'time' }] : [t('cards.series.tbd')],
      matchCell(s, labels, options.spoilers, t),
      [eventCell(s, labels, options)],
      [String(s.best_of || s.format.best_of)],
    ]),
  };
}

/** How a digest is written: the reader's settings, its title, and where its series' rounds are read. */
export interface DigestOptions extends FormatOptions {
  title: string;
  empty: string;
  localDate: string;
  /**
   * Every known series of a substage (not only the day's): a bracket round is named by its place
   * among them (the last upper-bracket round is the final). Without it, the day's series alone.
   */
  stageSeries?: (substageId: number) => readonly Series[];
}

/** Most series one digest lists (as one `/schedule` page). */
const MAX_SERIES = PAGE_SIZE;

/**
 * The digest's cards for a local date: whole tournaments in the order of their first series, as
 * many as one message holds (`MAX_CARDS` cards, `MAX_SERIES` series); a busy day says what is left
 * and the `/schedule` line (day and page) that shows the first series left. An empty day is one card
 * saying `empty`.
 */
export function digestCards(series: readonly Series[], labels: SeriesLabels, options: DigestOptions): Card[] {
  const { t } = options;
  if (series.length === 0)
    return [{ title: options.title, colour: COLOURS.info, description: [[options.empty]] }];
  const groups = new Map<number, Series[]>();
  for (const s of [...series].sort(byStart))
    groups.set(s.tournament.id, [...(groups.get(s.tournament.id) ?? []), s]);
  const cards: Card[] = [];
  const listed = new Set<number>();
  for (const [tournamentId, list] of groups) {
    const lines = list.slice(0, MAX_LINES_PER_CARD);
    if (cards.length >= MAX_CARDS || (cards.length > 0 && listed.size + lines.length > MAX_SERIES)) break;
    const game = gameTag(labels, list[0]!.game.id);
    const card: Card = {
      title: `${labels.tournament(tournamentId)?.title ?? t('cards.series.tournament', { id: tournamentId })}${game ? ` (${game})` : ''}`,
      colour: COLOURS.upcoming,
      table: digestTable(lines, labels, options),
    };
    if (list.length > lines.length)
      card.footer = t('cards.series.more', { count: list.length - lines.length });
    cards.push(card);
    for (const s of lines) listed.add(s.id);
  }
  // The day's title heads the digest; the first tournament's name moves under it, in bold, as in
  // `/schedule` (a title "Today's series · PM Kraków League" read as that tournament's digest).
  const head = cards[0]!;
  const firstHeading: Text = [{ text: head.title, bold: true }];
  head.title = options.title;
  head.description = [firstHeading];
  const rest = [...series].sort(byStart).filter((s) => !listed.has(s.id));
  const next = rest[0];
  if (next) {
    // The `/schedule` page (the same pages, in start order) that holds the first series not listed:
    // the hint promises that series, and the command shows it.
    const pages = paginate(series);
    const page = pages.findIndex((p) => p.some((s) => s.id === next.id)) + 1;
    const command = pageCommand({ command: 'schedule', args: { day: options.localDate } }, page);
    const tournaments = groups.size - cards.length;
    const where = labels.tournament(next.tournament.id);
    const values = {
      listed: listed.size,
      total: series.length,
      count: rest.length,
      more: tournaments > 0 ? t('cards.digest.moreTournaments', { count: tournaments }) : '',
      where: where ? ` (${where.short_title || where.title})` : '',
    };
    const match: Span = { text: matchup(next, labels, t), bold: true };
    const hint = next.start
      ? spanned<Span>(t, 'cards.digest.restAt', values, {
          match,
          time: { time: new Date(next.start), style: 'time' },
        })
      : spanned<Span>(t, 'cards.digest.rest', values, { match });
    head.description = [
      hint,
      // The command on a line of its own, so no narrow screen breaks it.
      [cmd(command), pages.length > 1 ? ` (${t('cards.digest.page', { page, pages: pages.length })})` : ''],
      [''],
      firstHeading,
    ];
  }
  return cards;
}
