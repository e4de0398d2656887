/**
 * Pages of a day's schedule: `/schedule` and the daily digest show a busy day a
 * page at a time instead of stopping at 50 series. A page is a run of the day's series in start
 * order that one answer can show: at most `PAGE_SIZE` series, 25 tournaments and
 * `MAX_LINES_PER_CARD` series of one tournament. Pages follow each other, so together they hold
 * every series of the day exactly once, in order.
 *
 * The command line that shows a page (`/schedule day:2026-03-18 page:3`) is built here too, for the
 * text hints every platform shows and for the next/previous buttons of Discord and Slack.
 */

import { cmd } from '../core/errors.ts';
import type { Translate } from '../i18n/i18n.ts';
import type { Series } from '../protocol/types.ts';
import { byStart, isFinished, MAX_LINES_PER_CARD } from './format.ts';
import type { Pager, Text } from './reply.ts';

/** Most series on one page (readable, and within every platform's limits). */
export const PAGE_SIZE = 50;
/**
 * Most tournaments on one page: past `MAX_CARDS` they share cards (`scheduleCards`), and 25 with
 * their headings always fit the cards one message carries.
 */
const MAX_TOURNAMENTS = 25;

/** The series a page can hold, in start order, split into pages. An empty day is one empty page. */
export function paginate<S extends { start: string | null; id: number; tournament: { id: number } }>(
  series: readonly S[],
): S[][] {
  const pages: S[][] = [];
  let page: S[] = [];
  let perTournament = new Map<number, number>();
  for (const s of [...series].sort(byStart)) {
    const count = perTournament.get(s.tournament.id) ?? 0;
    const full =
      page.length >= PAGE_SIZE ||
      count >= MAX_LINES_PER_CARD ||
      (count === 0 && perTournament.size >= MAX_TOURNAMENTS);
    if (full) {
      pages.push(page);
      page = [];
      perTournament = new Map();
    }
    page.push(s);
    perTournament.set(s.tournament.id, (perTournament.get(s.tournament.id) ?? 0) + 1);
  }
  pages.push(page);
  return pages;
}

/**
 * The page to show when none was asked for (1-based): the one with the first series not over yet
 * (what is on now and next), else the last page when the day is today (all of it over), else the
 * first.
 */
export function defaultPage(
  pages: readonly (readonly Pick<Series, 'lifecycle'>[])[],
  dayUnderWay: boolean,
): number {
  const index = pages.findIndex((page) => page.some((s) => !isFinished(s)));
  if (index >= 0) return index + 1;
  return dayUnderWay ? pages.length : 1;
}

/** A value as an option of a command line: quoted when it has spaces. */
function optionText(name: string, value: string | number): string {
  const text = String(value);
  return /\s/.test(text) ? `${name}:"${text.replace(/"/g, '')}"` : `${name}:${text}`;
}

/** The command line (no slash) that shows `page` of a pager: `schedule day:2026-03-18 page:3`. */
export function pageCommand(pager: Pick<Pager, 'command' | 'args'>, page: number): string {
  const args = Object.entries(pager.args).map(([name, value]) => optionText(name, value));
  return [pager.command, ...args, `page:${page}`].join(' ');
}

/**
 * What a page says about the others, whole words only: "Page 2 of 4 (series 51-100 of 190). Earlier:
 * /schedule page:1 · later: /schedule page:3", the commands written by each platform.
 */
export function pageHint(
  pager: Pager,
  range: { first: number; last: number; total: number; atLeast: boolean },
  t: Translate,
): Text {
  const count = (n: number, atLeast: boolean) =>
    atLeast ? t('platform.pages.atLeast', { count: t.number(n) }) : t.number(n);
  const where = t('platform.pages.where', {
    page: t.number(pager.page),
    pages: count(pager.pages, pager.atLeast === true),
    first: t.number(range.first),
    last: t.number(range.last),
    total: count(range.total, range.atLeast),
  });
  const line: Text = [where];
  // The first move is capitalised ("Earlier: …"); a second one follows it ("· later: …").
  if (pager.page > 1) line.push(t('platform.pages.earlierFirst'), cmd(pageCommand(pager, pager.page - 1)));
  if (pager.page < pager.pages)
    line.push(
      t(pager.page > 1 ? 'platform.pages.later' : 'platform.pages.laterFirst'),
      cmd(pageCommand(pager, pager.page + 1)),
    );
  return line;
}

/**
 * What a page button carries (a Discord `custom_id`, a Slack button `value`): a marker and the
 * command line of the page, which the platform runs as if typed. Undefined when it would not fit
 * Discord's 100 characters; the text hint still says the command.
 */
const PAGE_ACTION = 'md_page|';

function pageAction(pager: Pick<Pager, 'command' | 'args'>, page: number): string | undefined {
  const id = `${PAGE_ACTION}/${pageCommand(pager, page)}`;
  return id.length <= 100 ? id : undefined;
}

/** The command line a page button carries, or undefined for anything else. */
export function pageActionLine(id: string): string | undefined {
  return id.startsWith(PAGE_ACTION) ? id.slice(PAGE_ACTION.length) : undefined;
}

/** The previous and next page buttons of a pager: label and action, for the pages that exist. */
export function pageButtons(
  pager: Pager,
  t: Translate,
): { label: string; action: string; previous: boolean }[] {
  const buttons: { label: string; action: string; previous: boolean }[] = [];
  const previous = pager.page > 1 ? pageAction(pager, pager.page - 1) : undefined;
  const next = pager.page < pager.pages ? pageAction(pager, pager.page + 1) : undefined;
  if (previous)
    buttons.push({
      label: t('platform.pages.previousButton', { page: t.number(pager.page - 1) }),
      action: previous,
      previous: true,
    });
  if (next)
    buttons.push({
      label: t('platform.pages.nextButton', { page: t.number(pager.page + 1) }),
      action: next,
      previous: false,
    });
  return buttons;
}
