/**
 * `/schedule`: a day's series (today by default) for the tenant's games and tiers, grouped by
 * tournament, the day taken in the tenant's timezone. The day is read whole through the read model
 * (src/reads/reads.ts): from the feed when it holds the day (`npm start`: no request), else from the
 * service in ordered walks to the day's edges (src/reads/series-listing.ts). A busy day (about 190
 * series at the default tiers 1 and 2) is shown a page at a time (`src/bot/pages.ts`): by default
 * the page with what is on now, `page:` for another; each page says which it is and the command
 * lines of its neighbours, and Discord and Slack add previous/next buttons.
 */
import { DateTime } from 'luxon';
import { defineCommand } from '../src/bot/command.ts';
import { scheduleCards } from '../src/bot/format-schedule.ts';
import { defaultPage, PAGE_SIZE, pageHint, paginate } from '../src/bot/pages.ts';
import type { Pager, Text } from '../src/bot/reply.ts';
import { dayTitle, zoneName } from '../src/bot/time-format.ts';
import { UserError } from '../src/core/errors.ts';
import type { Translate } from '../src/i18n/i18n.ts';
import { gamesFor, gamesLabel, tiersLabel } from './shared.ts';

/** How far from today a schedule may be asked for. */
export const MAX_DAYS_AWAY = 14;
/** Most series one answer shows (readable, and within every platform's limits). */
export const MAX_SHOWN = PAGE_SIZE;
/** The highest page: far more than a day of the busiest settings fills. */
const MAX_PAGE = 50;

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
    const all = await ctx.reads.series({
      lifecycles: ['upcoming', 'live', 'over', 'over-forfeited'],
      games,
      tiers,
      startFrom: from,
      startUntil: until,
      order: 'start-asc',
      take: Number.POSITIVE_INFINITY,
    });
    const pages = paginate(all);
    const page = args.page ?? defaultPage(pages, from <= now && now < until);
    if (page > pages.length) throw pageOutOfRange(t, day.label, pages.length);
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
    const notes: Text[] = [];
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
          }
        : undefined;
    if (pager) {
      const first = pages.slice(0, page - 1).reduce((n, p) => n + p.length, 0) + 1;
      notes.unshift(
        pageHint(pager, { first, last: first + series.length - 1, total: all.length, atLeast: false }, ctx.t),
      );
    }
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

/** A `page:` past the day's last page: how many pages the day has. */
function pageOutOfRange(t: Translate, day: string, pages: number): UserError {
  return new UserError(
    'PAGE_OUT_OF_RANGE',
    pages === 1
      ? t('commands.schedule.onePage', { day })
      : t('commands.schedule.pages', { day, count: pages }),
  );
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
