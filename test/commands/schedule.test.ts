import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SHOWN } from '../../commands/schedule.ts';

/** Service pages a cold day may read: a busy day and the rest of today before it. */
const MAX_PAGES = 8;

import { type Card, plainText, type Text } from '../../src/bot/reply.ts';
import { defaultSettings } from '../../src/bot/settings.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';
import { byStartThenId, matchupOf, worldSeries } from './truth.ts';

/** The lines of a card that are series: each starts with the series' start time. */
const seriesLines = (card: Card): Text[] =>
  (card.description ?? []).filter((line) => typeof line[0] === 'object' && 'time' in line[0]);

/** A card's title, then its bold lines: the tournaments it lists, each under its name. */
const headings = (card: Card): string[] => [
  card.title,
  ...(card.description ?? [])
    .filter((line) => line.length === 1 && typeof line[0] === 'object' && 'bold' in line[0] && line[0].bold)
    .map((line) => plainText(line)),
];

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** The expected day's series for one game and tier in a zone, from the world. */
  function expectedDay(zone: string, gameId: number, tier: number, offsetDays = 0) {
    const world = stack.service.world;
    const start = DateTime.fromMillis(world.now(), { zone }).startOf('day').plus({ days: offsetDays });
    const from = start.toMillis();
    const until = start.plus({ days: 1 }).toMillis();
    return worldSeries(world)
      .filter(
        (s) =>
          s.game.id === gameId &&
          s.tier === tier &&
          Date.parse(s.start!) >= from &&
          Date.parse(s.start!) < until,
      )
      .sort(byStartThenId);
  }

  describe('/schedule', () => {
    it("lists today's series of the tenant's games and tiers, grouped by tournament, times as instants", async () => {
      const world = stack.service.world;
      const game = world.catalog.games[0]!.game;
      const tenant = await tenantWith(stack, { games: [game.id], tiers: [2] });
      const result = await call(stack, 'schedule', {}, { tenant });
      expect(result.outcome).toBe('ok');
      const expected = expectedDay('UTC', game.id, 2);
      expect(expected.length).toBeGreaterThan(0);
      const lines = result.reply.cards.flatMap(seriesLines);
      expect(lines).toHaveLength(expected.length);
      // Each tournament's card lists its series in start order; every expected series appears once.
      for (const s of expected) {
        const card = result.reply.cards.find((c) =>
          headings(c).some((h) => h.includes(stack.names.tournament(s.tournament.id)!.title)),
        )!;
        const line = seriesLines(card).find((l) =>
          l.some((span) => typeof span === 'object' && 'time' in span && span.time.toISOString() === s.start),
        );
        expect(line).toBeDefined();
      }
      for (const card of result.reply.cards) {
        const times = seriesLines(card).map((l) => (l[0] as { time: Date }).time.getTime());
        expect(times).toEqual([...times].sort((a, b) => a - b));
      }
      // The day heads the reply on its own; the first tournament's name is the first line under it.
      const [first] = result.reply.cards;
      expect(first!.title).toMatch(/^Today, [^·]+ · .+ \(UTC\)$/);
      expect(headings(first!)[1]).toMatch(
        new RegExp(`^${stack.names.tournament(expected[0]!.tournament.id)!.title} \\(`),
      );
      expect(first!.title).not.toContain(stack.names.tournament(expected[0]!.tournament.id)!.title);
    });

    it("takes the day in the tenant's timezone", async () => {
      const world = stack.service.world;
      const game = world.catalog.games[2]!.game;
      const zone = 'Pacific/Auckland';
      const tenant = await tenantWith(stack, { games: [game.id], tiers: [3], timezone: zone });
      const result = await call(stack, 'schedule', { day: 'tomorrow' }, { tenant });
      const expected = expectedDay(zone, game.id, 3, 1);
      const lines = result.reply.cards.flatMap(seriesLines);
      expect(lines.length).toBe(expected.length);
      const shown = lines.map((l) => (l[0] as { time: Date }).time.toISOString()).sort();
      expect(shown).toEqual(expected.map((s) => s.start!).sort());
      expect(result.reply.cards[0]!.title).toContain(`(${zone})`);
      for (const s of expected.slice(0, 3))
        expect(result.text).toContain(matchupOf(world, s).split(' vs ')[0]!);
    });

    it('hides the results of finished series under "hide" and refuses a bad or far day', async () => {
      const world = stack.service.world;
      const game = world.catalog.games[1]!.game;
      const tenant = await tenantWith(stack, { games: [game.id], tiers: [1, 2], spoilers: 'hide' });
      const result = await call(stack, 'schedule', { day: 'yesterday' }, { tenant });
      expect(result.outcome).toBe('ok');
      expect(result.text).toContain('result hidden');
      expect(result.revealed).not.toMatch(/ \d+–\d+ /);
      const bad = await call(stack, 'schedule', { day: 'next blursday' }, { tenant });
      expect(bad.outcome).toBe('user-error');
      expect(bad.message).toContain('use today, tomorrow, yesterday or a date like');
      const far = await call(stack, 'schedule', { day: '2030-01-01' }, { tenant });
      expect(far.outcome).toBe('user-error');
      expect(far.code).toBe('DAY_OUT_OF_RANGE');
    });

    it('costs at most 8 requests cold (a whole busy day, read to both edges) and none warm', async () => {
      const world = stack.service.world;
      const game = world.catalog.games[0]!.game;
      const narrow = await tenantWith(stack, { games: [game.id], tiers: [1, 2] });
      const busy = await tenantWith(stack);
      for (const tenant of [narrow, busy]) {
        for (const day of ['today', 'tomorrow', 'yesterday']) {
          const cold = await call(stack, 'schedule', { day }, { tenant });
          const warm = await call(stack, 'schedule', { day, page: 1 }, { tenant });
          expect(cold.outcome).toBe('ok');
          expect(cold.upstream).toBeLessThanOrEqual(MAX_PAGES);
          // Every page of the day comes from the same reads.
          expect(warm.upstream).toBe(0);
          // The day was read to its edges: no "may have more" note.
          expect(cold.text).not.toContain('may have more');
        }
      }
    });

    it('pages through a busy day: every series exactly once, pages in start order, now first by default', async () => {
      const world = stack.service.world;
      const { games, tiers } = defaultSettings();
      const tenant = await tenantWith(stack);
      const start = DateTime.fromMillis(world.now(), { zone: 'UTC' }).startOf('day');
      const from = start.toMillis();
      const until = start.plus({ days: 1 }).toMillis();
      const day = worldSeries(world)
        .filter(
          (s) =>
            (games.length === 0 || games.includes(s.game.id)) &&
            tiers.includes(s.tier) &&
            Date.parse(s.start!) >= from &&
            Date.parse(s.start!) < until,
        )
        .sort(byStartThenId);
      // The default settings make a busy day: more than one page.
      expect(day.length).toBeGreaterThan(MAX_SHOWN);
      const timed = (l: Text) => l.some((span) => typeof span === 'object' && 'time' in span);
      const startOf = (l: Text) =>
        (l.find((span) => typeof span === 'object' && 'time' in span) as { time: Date }).time.getTime();
      const first = await call(stack, 'schedule', { page: 1 }, { tenant });
      expect(first.outcome).toBe('ok');
      const pages = first.reply.pager!.pages;
      expect(pages).toBe(Math.ceil(day.length / MAX_SHOWN));
      const seen: string[] = [];
      let previousLast = Number.NEGATIVE_INFINITY;
      for (let page = 1; page <= pages; page++) {
        const result = await call(stack, 'schedule', { page }, { tenant });
        expect(result.outcome).toBe('ok');
        expect(result.reply.pager).toMatchObject({ command: 'schedule', page, pages });
        const lines = result.reply.cards.flatMap((c) => c.description ?? []).filter(timed);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.length).toBeLessThanOrEqual(MAX_SHOWN);
        const starts = lines.map(startOf);
        // Pages follow each other: nothing on this page starts before the previous page's last.
        expect(Math.min(...starts)).toBeGreaterThanOrEqual(previousLast);
        previousLast = Math.max(...starts);
        for (const l of lines) seen.push(`${startOf(l)} ${plainText(l)}`);
        // The page says where it is and how to reach its neighbours, whole commands.
        const hint = plainText(result.reply.cards[0]!.description![0]!);
        expect(hint).toMatch(
          new RegExp(`^Page ${page} of ${pages} \\(series \\d+–\\d+ of ${day.length}\\)\\.`),
        );
        if (page > 1) expect(hint).toContain(`/schedule day:${start.toISODate()} page:${page - 1}`);
        if (page < pages) expect(hint).toContain(`/schedule day:${start.toISODate()} page:${page + 1}`);
        else expect(hint).not.toMatch(/later:/i);
      }
      // Every series of the day exactly once.
      expect(seen).toHaveLength(day.length);
      expect(new Set(seen).size).toBe(day.length);
      for (const s of day) {
        // A lobby (battle royale) is shown by its leaders, a head-to-head by its teams.
        const home =
          s.participants.length > 2 && s.lifecycle !== 'upcoming'
            ? 'lobby'
            : matchupOf(world, s).split(' vs ')[0]!;
        expect(seen.some((line) => line.startsWith(`${Date.parse(s.start!)} `) && line.includes(home))).toBe(
          true,
        );
      }
      // Without page:, the page of what is on now: the first series not over yet is on it.
      const now = await call(stack, 'schedule', {}, { tenant });
      const firstOpen = day.find((s) => s.lifecycle === 'live' || s.lifecycle === 'upcoming')!;
      expect(now.reply.pager!.page).toBeGreaterThan(1);
      const nowLines = now.reply.cards.flatMap((c) => c.description ?? []).filter(timed);
      expect(nowLines.some((l) => startOf(l) === Date.parse(firstOpen.start!))).toBe(true);
      // A page past the last is refused with the range to pick from.
      const past = await call(stack, 'schedule', { page: pages + 1 }, { tenant });
      expect(past.outcome).toBe('user-error');
      expect(past.code).toBe('PAGE_OUT_OF_RANGE');
      expect(past.message).toContain(`pick page:1 to page:${pages}`);
    });

    it('the command lines a page offers show the neighbouring pages when typed back', async () => {
      const game = stack.service.world.catalog.games[1]!.game;
      const tenant = await tenantWith(stack, { tiers: [1, 2, 3, 4] });
      const gameTitle = stack.names.game(game.id)!.title;
      const first = await call(stack, 'schedule', { page: 1, game: gameTitle, day: 'tomorrow' }, { tenant });
      expect(first.outcome).toBe('ok');
      expect(first.reply.pager?.pages ?? 1).toBeGreaterThan(1);
      const hint = plainText(first.reply.cards[0]!.description![0]!);
      const line = hint.match(/later: (\/schedule .*page:2)$/i)![1]!;
      expect(line).toContain(gameTitle.includes(' ') ? `game:"${gameTitle}"` : `game:${gameTitle}`);
      const parsed = parseCommandText(line, stack.runtime.commands);
      const second = await call(stack, parsed.command, parsed.args, { tenant });
      expect(second.outcome).toBe('ok');
      expect(second.reply.pager).toMatchObject({ page: 2, pages: first.reply.pager!.pages });
      // The same day and game, the next page.
      const head = (title: string) => title.split(' · ').slice(0, 3).join(' · ');
      expect(head(second.reply.cards[0]!.title)).toBe(head(first.reply.cards[0]!.title));
      expect(second.reply.cards[0]!.title).toMatch(/^Tomorrow, /);
    });

    it('says nothing about narrowing when the whole day fits', async () => {
      const world = stack.service.world;
      const game = world.catalog.games[0]!.game;
      const tenant = await tenantWith(stack, { games: [game.id], tiers: [2] });
      const result = await call(stack, 'schedule', {}, { tenant });
      expect(result.text).not.toContain('Narrow with');
      expect(result.text).not.toContain('Page ');
      expect(result.reply.pager).toBeUndefined();
    });
  });
});
