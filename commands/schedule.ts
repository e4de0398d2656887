/**
 * `/schedule`: a day's series (today by default) for the tenant's games and tiers, grouped by
 * tournament, the day taken in the tenant's timezone. The service cannot filter by time range, so
 * the day is read from two ordered walks that stop at the day's edges: upcoming and live series by
 * start (when the day is not over), finished ones by start descending (when it has begun). Usually
 * one page each.
 */
import { DateTime } from 'luxon';
import { defineCommand, UserError } from '../src/bot/command.ts';
import { byStart, scheduleCards } from '../src/bot/format.ts';
import type { Where } from '../src/client/types.ts';
import type { Series } from '../src/protocol/types.ts';
import { dataOf, gamesFor, gamesLabel, intArg, namesOf, textArg, tiersLabel, visible } from './shared.ts';

/** How far from today a schedule may be asked for. */
export const MAX_DAYS_AWAY = 14;
/** Most series read per walk (4 pages): a day busier than that is cut, and the reply says so. */
export const MAX_WALK = 200;

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
    let cut = false;
    const walk = async (
      filter: Where<'series'>[],
      order: 'start-asc' | 'start-desc',
      past: (s: Series) => boolean,
    ) => {
      const found: Series[] = [];
      let seen = 0;
      for await (const s of data.series.paginate(
        { filter: [...base, ...filter], order },
        { limit: MAX_WALK },
      )) {
        seen++;
        if (past(s)) return found;
        if (inDay(s)) found.push(s);
      }
      if (seen >= MAX_WALK) cut = true;
      return found;
    };
    const [ahead, behind] = await Promise.all([
      until > now
        ? walk(
            [['lifecycle', '<=', ['upcoming', 'live']]],
            'start-asc',
            (s) => s.start !== null && Date.parse(s.start) >= until,
          )
        : Promise.resolve([]),
      from <= now
        ? walk(
            [['lifecycle', '<=', ['over', 'over-forfeited']]],
            'start-desc',
            (s) => s.start !== null && Date.parse(s.start) < from,
          )
        : Promise.resolve([]),
    ]);
    const series = visible([...ahead, ...behind]).sort(byStart);
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
    if (cut) {
      const last = cards[cards.length - 1]!;
      last.footer = [last.footer, 'A very busy day: some series may be missing; narrow by game or tier.']
        .filter(Boolean)
        .join(' · ');
    }
    return { cards };
  },
});

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
