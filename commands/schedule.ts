/**
 * `/schedule`: a day's series (today by default) for the tenant's games and tiers, grouped by
 * tournament, the day taken in the tenant's timezone. The service cannot filter by time range, so
 * the day is read from two ordered walks that stop at the day's edges: upcoming and live series by
 * start (when the day is not over), finished ones by start descending (when it has begun). The
 * walks share a budget of 3 pages (150 series; issue 4: at most 3 requests): one page each first,
 * then the rest to the upcoming walk. A busy day (about 190 series at the default tiers 1 and 2)
 * shows at most 50, live and upcoming first and then the latest results, and says how many there
 * are (or at least are, when the pages ran out) and how to narrow with game: or tier:.
 */
import { DateTime } from 'luxon';
import { defineCommand, UserError } from '../src/bot/command.ts';
import { byStart, isFinished, MAX_CARDS, MAX_LINES_PER_CARD, scheduleCards } from '../src/bot/format.ts';
import type { Where } from '../src/client/types.ts';
import type { Series } from '../src/protocol/types.ts';
import {
  dataOf,
  fromFeed,
  gamesFor,
  gamesLabel,
  intArg,
  namesOf,
  noteFilling,
  textArg,
  tiersLabel,
  visible,
} from './shared.ts';

/** How far from today a schedule may be asked for. */
export const MAX_DAYS_AWAY = 14;
/** Pages both walks may read together (one request each). */
export const MAX_PAGES = 3;
/** Most series one answer shows (readable, and within every platform's limits). */
export const MAX_SHOWN = 50;
/** The service's largest page. */
const PAGE = 50;

interface Walk {
  filter: Where<'series'>[];
  order: 'start-asc' | 'start-desc';
  /** True for the first series beyond the day's edge: the walk ends there. */
  past: (s: Series) => boolean;
  pages: number;
  done: boolean;
}

export default defineCommand({
  name: 'schedule',
  description: "A day's series in your games and tiers, by tournament",
  usesService: true,
  options: {
    day: {
      type: 'string',
      description: 'today (default), tomorrow, yesterday or a date like 2026-05-31',
      max: 20,
    },
    game: {
      type: 'string',
      description: 'Game (default: the games in /settings)',
      autocomplete: 'game',
      max: 100,
    },
    tier: { type: 'integer', description: 'Tier 1 to 4 (default: the tiers in /settings)', min: 1, max: 4 },
  },
  async run(ctx) {
    const { args, tenant } = ctx;
    const data = dataOf(ctx);
    const names = namesOf(ctx);
    const zone = tenant.settings.timezone;
    const day = parseDay(textArg('day', args.day, 20) ?? 'today', ctx.now, zone);
    const games = await gamesFor(ctx, args.game);
    const tier = intArg('tier', args.tier, 1, 4);
    const tiers = tier !== undefined ? [tier] : tenant.settings.tiers;
    const from = day.start.toMillis();
    const until = day.end.toMillis();
    const now = ctx.now.getTime();
    const base: Where<'series'>[] = [];
    if (games.length > 0) base.push(['game.id', '<=', games]);
    if (tiers.length > 0) base.push(['tier', '<=', tiers]);
    const inDay = (s: Series) =>
      s.start !== null && Date.parse(s.start) >= from && Date.parse(s.start) < until;
    const walks: Walk[] = [];
    if (until > now)
      walks.push({
        filter: [['lifecycle', '<=', ['upcoming', 'live']]],
        order: 'start-asc',
        past: (s) => s.start !== null && Date.parse(s.start) >= until,
        pages: 0,
        done: false,
      });
    if (from <= now)
      walks.push({
        filter: [['lifecycle', '<=', ['over', 'over-forfeited']]],
        order: 'start-desc',
        past: (s) => s.start !== null && Date.parse(s.start) < from,
        pages: 0,
        done: false,
      });
    const found: Series[] = [];
    const step = async (walk: Walk) => {
      const page = await data.series.list({
        filter: [...base, ...walk.filter],
        order: walk.order,
        skip: walk.pages * PAGE,
        take: PAGE,
      });
      walk.pages++;
      if (page.length < PAGE) walk.done = true;
      for (const s of page) {
        if (walk.past(s)) {
          walk.done = true;
          break;
        }
        if (inDay(s)) found.push(s);
      }
    };
    // The feed holds the whole day when it covers it: no walk, no page limit.
    const held = fromFeed(ctx, {
      lifecycles: ['upcoming', 'live', 'over', 'over-forfeited'],
      games,
      tiers,
      startFrom: from,
      startUntil: until,
      order: 'start-asc',
      take: Number.POSITIVE_INFINITY,
    });
    if (held) {
      found.push(...held.series);
      for (const walk of walks) walk.done = true;
    } else {
      // One page of each walk at once, then the pages left to the walks still open, upcoming first.
      await Promise.all(walks.map(step));
      let pages = walks.length;
      for (const walk of walks) {
        while (!walk.done && pages < MAX_PAGES) {
          await step(walk);
          pages++;
        }
      }
    }
    const exact = walks.every((w) => w.done);
    const all = visible([...new Map(found.map((s) => [s.id, s])).values()]);
    const series = pickShown(all);
    await names.ensureSeriesLabels(data, series);
    await names.ensureTournaments(
      data,
      series.map((s) => s.tournament.id),
    );
    const title = `${day.label} · ${gamesLabel(ctx, games)} · ${tiersLabel(tiers)} (${zone})`;
    const cards = scheduleCards(series, names, {
      spoilers: tenant.settings.spoilers,
      title,
      empty: `No series on ${day.label} in ${gamesLabel(ctx, games)}, ${tiersLabel(tiers)}.`,
    });
    if (series.length === 0 && !exact) {
      cards[0]!.description = [
        [
          `The series before ${day.label} fill all that one answer reads, so this day cannot be listed as is. Narrow with game: or tier:, e.g. /schedule ${tier === undefined ? `tier:${tiers[0] ?? 1}` : 'game:'}`,
        ],
      ];
    } else if (series.length < all.length || !exact) {
      const of = exact ? `of ${all.length}` : `of at least ${all.length}`;
      const shown =
        series.length < all.length
          ? `Showing ${series.length} ${of} series: live and upcoming first, then the latest results.`
          : `Showing ${series.length} series; the day may have more than one answer reads.`;
      const hint = tier === undefined ? `tier:${tiers[0] ?? 1}` : 'game:';
      cards[0]!.description = [
        [`${shown} Narrow with game: or tier:, e.g. /schedule ${hint}`],
        ...(cards[0]!.description ?? []),
      ];
    }
    noteFilling(cards[0]!, held);
    return { cards };
  },
});

/**
 * The series one answer shows: live first, then upcoming by start, then results latest first, up
 * to MAX_SHOWN and within what the cards hold (MAX_CARDS tournaments, MAX_LINES_PER_CARD each), so
 * every series picked is also shown; in start order.
 */
export function pickShown(series: readonly Series[]): Series[] {
  const rank = (s: Series) => (s.lifecycle === 'live' ? 0 : isFinished(s) ? 2 : 1);
  const ordered = [...series].sort((a, b) => {
    const r = rank(a) - rank(b);
    if (r !== 0) return r;
    return rank(a) === 2 ? byStart(b, a) : byStart(a, b);
  });
  const perTournament = new Map<number, number>();
  const picked: Series[] = [];
  for (const s of ordered) {
    if (picked.length >= MAX_SHOWN) break;
    const count = perTournament.get(s.tournament.id);
    if (count === undefined && perTournament.size >= MAX_CARDS) continue;
    if ((count ?? 0) >= MAX_LINES_PER_CARD) continue;
    perTournament.set(s.tournament.id, (count ?? 0) + 1);
    picked.push(s);
  }
  return picked.sort(byStart);
}

/** A calendar day in `zone`: today, tomorrow, yesterday or YYYY-MM-DD, within MAX_DAYS_AWAY of today. */
export function parseDay(
  text: string,
  now: Date,
  zone: string,
): { start: DateTime; end: DateTime; label: string } {
  const today = DateTime.fromJSDate(now, { zone }).startOf('day');
  const word = text.trim().toLowerCase();
  let start: DateTime;
  if (word === 'today') start = today;
  else if (word === 'tomorrow') start = today.plus({ days: 1 });
  else if (word === 'yesterday') start = today.minus({ days: 1 });
  else if (/^\d{4}-\d{2}-\d{2}$/.test(word)) {
    start = DateTime.fromISO(word, { zone }).startOf('day');
    if (!start.isValid)
      throw new UserError('BAD_DAY', `${word} is not a date: use YYYY-MM-DD, e.g. ${today.toISODate()}.`);
  } else {
    throw new UserError(
      'BAD_DAY',
      `"${text.slice(0, 20)}" is not a day: use today, tomorrow, yesterday or a date like ${today.toISODate()}.`,
    );
  }
  const away = Math.round(start.diff(today, 'days').days);
  if (Math.abs(away) > MAX_DAYS_AWAY) {
    throw new UserError(
      'DAY_OUT_OF_RANGE',
      `Pick a day within ${MAX_DAYS_AWAY} days of today (${today.toISODate()}).`,
    );
  }
  const label =
    away === 0
      ? `Today, ${start.toFormat('ccc d LLL')}`
      : away === 1
        ? `Tomorrow, ${start.toFormat('ccc d LLL')}`
        : start.toFormat('cccc d LLLL yyyy');
  return { start, end: start.plus({ days: 1 }), label };
}
