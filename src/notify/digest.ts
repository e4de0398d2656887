/**
 * The daily digest's cards (issue 12, items 8 and 11): one card per tournament holding a compact
 * table, `time | match | event | Bo`, that reads at 80 columns in a terminal and as one line per
 * series on Discord and Slack. A busy day shows the tournaments one message holds and says how many
 * more series there are and the `/schedule` command line that shows the whole day a page at a time.
 */
import {
  byStart,
  gameTag,
  isFinished,
  liveScoreSpans,
  MAX_CARDS,
  MAX_LINES_PER_CARD,
  matchup,
  resultSpans,
  type SeriesLabels,
} from '../bot/format.ts';
import { PAGE_SIZE, pageCommand } from '../bot/pages.ts';
import { type Card, COLOURS, type Table, type Text } from '../bot/reply.ts';
import type { SpoilerPolicy } from '../bot/settings.ts';
import type { Series } from '../protocol/types.ts';

/** What the match column says: the teams, the live score, or the result under the spoiler policy. */
function matchCell(series: Series, labels: SeriesLabels, spoilers: SpoilerPolicy): Text {
  if (series.lifecycle === 'live')
    return [{ text: 'LIVE', bold: true }, ' ', ...liveScoreSpans(series, labels)];
  if (isFinished(series)) return resultSpans(series, labels, spoilers);
  return [matchup(series, labels)];
}

/** One tournament's series as a table. */
function digestTable(series: readonly Series[], labels: SeriesLabels, spoilers: SpoilerPolicy): Table {
  return {
    columns: [{ header: 'time' }, { header: 'match' }, { header: 'event' }, { header: 'Bo', align: 'right' }],
    rows: series.map((s) => [
      s.start ? [{ time: new Date(s.start), style: 'time' }] : ['TBD'],
      matchCell(s, labels, spoilers),
      [labels.substage(s.substage.id)?.title ?? ''],
      [String(s.best_of || s.format.best_of)],
    ]),
  };
}

/** Most series one digest lists (as one `/schedule` page). */
const MAX_SERIES = PAGE_SIZE;

/**
 * The digest's cards for a local date: whole tournaments in the order of their first series, as
 * many as one message holds (`MAX_CARDS` cards, `MAX_SERIES` series); a busy day says what is left
 * and the `/schedule` line that shows the whole day. An empty day is one card saying `empty`.
 */
export function digestCards(
  series: readonly Series[],
  labels: SeriesLabels,
  options: { spoilers: SpoilerPolicy; title: string; empty: string; localDate: string },
): Card[] {
  if (series.length === 0)
    return [{ title: options.title, colour: COLOURS.info, description: [[options.empty]] }];
  const groups = new Map<number, Series[]>();
  for (const s of [...series].sort(byStart))
    groups.set(s.tournament.id, [...(groups.get(s.tournament.id) ?? []), s]);
  const cards: Card[] = [];
  let shown = 0;
  for (const [tournamentId, list] of groups) {
    const lines = list.slice(0, MAX_LINES_PER_CARD);
    if (cards.length >= MAX_CARDS || (cards.length > 0 && shown + lines.length > MAX_SERIES)) break;
    const game = gameTag(labels, list[0]!.game.id);
    const card: Card = {
      title: `${labels.tournament(tournamentId)?.title ?? `Tournament ${tournamentId}`}${game ? ` (${game})` : ''}`,
      colour: COLOURS.upcoming,
      table: digestTable(lines, labels, options.spoilers),
    };
    if (list.length > lines.length) card.footer = `and ${list.length - lines.length} more`;
    cards.push(card);
    shown += lines.length;
  }
  cards[0]!.title = `${options.title} · ${cards[0]!.title}`;
  const rest = series.length - shown;
  if (rest > 0) {
    const tournaments = groups.size - cards.length;
    const command = pageCommand({ command: 'schedule', args: { day: options.localDate } }, 1).replace(
      / page:1$/,
      '',
    );
    cards[0]!.description = [
      [
        `${shown} of ${series.length} series. ${rest} more${tournaments > 0 ? ` in ${tournaments} more tournaments` : ''}: ${command} shows the whole day, a page at a time.`,
      ],
    ];
  }
  return cards;
}
