/**
 * `/schedule`: a day's series (today by default) for the tenant's games and tiers, grouped by
 * tournament, the day taken in the tenant's timezone. The service cannot filter by time range, so
 * the day is read from two ordered walks that stop at the day's edges: upcoming and live series by
 * start (when the day is not over), finished ones by start descending (when it has begun). The
 * walks share a budget of 8 pages (a busy day and the rest of today before it), read at once; with
 * a feed the day is read from it and costs nothing. A busy day (about 190 series at the default
 * tiers 1 and 2) is shown a page at a time (`src/bot/pages.ts`): by default the page with what is
 * on now, `page:` for another; each page says which it is and the command lines of its
 * neighbours, and Discord and Slack add previous/next buttons. When the budget runs out before the
 * day's edge, the answer says so and how to narrow with game: or tier:.
 */
import { DateTime } from 'luxon';
import type { CommandContext } from '../src/bot/command.ts';
import { defineCommand, UserError } from '../src/bot/command.ts';
import { scheduleCards } from '../src/bot/format-schedule.ts';
import { defaultPage, PAGE_SIZE, pageHint, paginate } from '../src/bot/pages.ts';
import type { Pager, Text } from '../src/bot/reply.ts';
import { dayTitle, zoneName } from '../src/bot/time-format.ts';
import type { Where } from '../src/client/types.ts';
import { cmd } from '../src/core/errors.ts';
import { spanned, type Translate } from '../src/i18n/i18n.ts';
import type { Series } from '../src/protocol/types.ts';
import { type FromFeed, fromFeed, gamesFor, gamesLabel, tiersLabel, visible } from './shared.ts';

/** How far from today a schedule may be asked for. */
export const MAX_DAYS_AWAY = 14;
/**
 * Service pages both walks may read together (one request each): a whole busy day (about 190
 * series at tiers 1 and 2) and the rest of today before tomorrow's, so every page of the day can
 * be numbered. With a feed (`npm start`, the bots) the day is read from it: no request at all.
 */
export const MAX_PAGES = 8;
/** Most series one answer shows (readable, and within every platform's limits). */
export const MAX_SHOWN = PAGE_SIZE;
/** The highest page: far more than a day of the busiest settings fills. */
const MAX_PAGE = 50;
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
      description: 'Game (default: the games chosen in settings)',
      autocomplete: 'game',
      max: 100,
    },
    tier: {
      type: 'integer',
      description: 'Tier 1 to 4 (default: the tiers chosen in settings)',
      min: 1,
      max: 4,
    },
    page: {
      type: 'integer',
      description: 'Page of a busy day (default: the page with what is on now)',
      min: 1,
      max: MAX_PAGE,
    },
  },
  async run(ctx) {
    const { args, tenant } = ctx;
    const { data, names } = ctx;
    const zone = tenant.settings.timezone;
    const t = ctx.t;
    const day = parseDay(t, args.day ?? 'today', ctx.now, zone);
    const games = await gamesFor(ctx, args.game);
    const tier = args.tier;
    const tiers = tier !== undefined ? [tier] : tenant.settings.tiers;
    const from = day.start.toMillis();
    const until = day.end.toMillis();
    const now = ctx.now.getTime();
    const { found, exact, held } = await daySeries(ctx, { games, tiers, from, until });
    const all = visible([...new Map(found.map((s) => [s.id, s])).values()]);
    const pages = paginate(all);
    const page = args.page ?? defaultPage(pages, from <= now && now < until);
    if (page > pages.length) throw pageOutOfRange(t, day.label, pages.length, exact);
    const series = pages[page - 1]!;
    await names.ensureSeriesLabels(data, series);
    await names.ensureTournaments(
      data,
      series.map((s) => s.tournament.id),
    );
    const title = `${day.label} · ${gamesLabel(ctx, games)} · ${tiersLabel(t, tiers)} (${zoneName(zone)})`;
    const cards = scheduleCards(series, names, {
      spoilers: tenant.settings.spoilers,
      t: ctx.t,
      title,
      empty: t('commands.schedule.empty', {
        day: day.label,
        games: gamesLabel(ctx, games),
        tiers: tiersLabel(t, tiers),
      }),
    });
    const narrow: Text = spanned(
      t,
      'commands.schedule.narrow',
      {},
      { command: cmd(`schedule ${tier === undefined ? `tier:${tiers[0] ?? 1}` : 'game:'}`) },
    );
    const notes: Text[] = [];
    if (all.length === 0 && !exact)
      notes.push([`${t('commands.schedule.cannotList', { day: day.label })} `, ...narrow]);
    else if (!exact) notes.push([`${t('commands.schedule.mayHaveMore')} `, ...narrow]);
    const pager: Pager | undefined =
      pages.length > 1
        ? {
            command: 'schedule',
            args: pagerArgs(
              day.start.toISODate()!,
              games.length === 1 && args.game ? names.game(games[0]!)?.title : undefined,
              tier,
            ),
            page,
            pages: pages.length,
            ...(exact ? {} : { atLeast: true }),
          }
        : undefined;
    if (pager) {
      const first = pages.slice(0, page - 1).reduce((n, p) => n + p.length, 0) + 1;
      notes.unshift(
        pageHint(
          pager,
          { first, last: first + series.length - 1, total: all.length, atLeast: !exact },
          ctx.t,
        ),
      );
    }
    // Said above the list, not in the first card's footer: a busy day has several cards.
    if (held?.filling) notes.push([`${t('commands.shared.filling')}.`]);
    // A blank line between the notes and the first tournament's heading (none before "nothing scheduled").
    if (notes.length > 0)
      cards[0]!.description = [
        ...notes,
        ...(series.length > 0 ? [[]] : []),
        ...(cards[0]!.description ?? []),
      ];
    return pager ? { cards, pager } : { cards };
  },
});

/** A `page:` past the day's last page: how many pages the day has (or at least has). */
function pageOutOfRange(t: Translate, day: string, pages: number, exact: boolean): UserError {
  return new UserError(
    'PAGE_OUT_OF_RANGE',
    pages === 1
      ? t('commands.schedule.onePage', { day })
      : t(exact ? 'commands.schedule.pages' : 'commands.schedule.pagesAtLeast', { day, count: pages }),
  );
}

/**
 * The series starting in [from, until) in these games and tiers: from the feed when it covers the
 * day (no page limit), else two walks from now (upcoming forward, finished backward), a page at a
 * time until the day's edge or the shared budget of MAX_PAGES. `exact`: both walks reached the edge.
 */
async function daySeries(
  ctx: CommandContext<unknown>,
  day: { games: number[]; tiers: number[]; from: number; until: number },
): Promise<{ found: Series[]; exact: boolean; held: FromFeed | undefined }> {
  const { games, tiers, from, until } = day;
  const now = ctx.now.getTime();
  const held = fromFeed(ctx, {
    lifecycles: ['upcoming', 'live', 'over', 'over-forfeited'],
    games,
    tiers,
    startFrom: from,
    startUntil: until,
    order: 'start-asc',
    take: Number.POSITIVE_INFINITY,
  });
  if (held) return { found: [...held.series], exact: true, held };
  const base: Where<'series'>[] = [];
  if (games.length > 0) base.push(['game.id', '<=', games]);
  if (tiers.length > 0) base.push(['tier', '<=', tiers]);
  const started = (s: Series) => (s.start === null ? undefined : Date.parse(s.start));
  const walks: Walk[] = [];
  if (until > now)
    walks.push({
      filter: [['lifecycle', '<=', ['upcoming', 'live']]],
      order: 'start-asc',
      past: (s) => (started(s) ?? Number.NEGATIVE_INFINITY) >= until,
      pages: 0,
      done: false,
    });
  if (from <= now)
    walks.push({
      filter: [['lifecycle', '<=', ['over', 'over-forfeited']]],
      order: 'start-desc',
      past: (s) => (started(s) ?? Number.POSITIVE_INFINITY) < from,
      pages: 0,
      done: false,
    });
  const found: Series[] = [];
  const step = async (walk: Walk) => {
    const page = await ctx.data.series.list({
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
      const at = started(s);
      if (at !== undefined && at >= from && at < until) found.push(s);
    }
  };
  // Both walks at once, each a page at a time until the day's edge or the shared budget.
  let used = 0;
  await Promise.all(
    walks.map(async (walk) => {
      while (!walk.done && used < MAX_PAGES) {
        used++;
        await step(walk);
      }
    }),
  );
  return { found, exact: walks.every((w) => w.done), held: undefined };
}

/** The options that show the same day again (the day as a date, so a later click shows the same day). */
function pagerArgs(
  date: string,
  game: string | undefined,
  tier: number | undefined,
): Record<string, string | number> {
  const args: Record<string, string | number> = { day: date };
  if (game) args.game = game;
  if (tier !== undefined) args.tier = tier;
  return args;
}

/** A calendar day in `zone`: today, tomorrow, yesterday or YYYY-MM-DD, within MAX_DAYS_AWAY of today. */
export function parseDay(
  t: Translate,
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
      throw new UserError('BAD_DAY', t('commands.schedule.notADate', { word, today: today.toISODate()! }));
  } else {
    throw new UserError(
      'BAD_DAY',
      t('commands.schedule.notADay', { text: text.slice(0, 20), today: today.toISODate()! }),
    );
  }
  const away = Math.round(start.diff(today, 'days').days);
  if (Math.abs(away) > MAX_DAYS_AWAY) {
    throw new UserError(
      'DAY_OUT_OF_RANGE',
      t('commands.schedule.dayOutOfRange', { count: MAX_DAYS_AWAY, today: today.toISODate()! }),
    );
  }
  const label = dayTitle(start, today, t);
  return { start, end: start.plus({ days: 1 }), label };
}
