import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SHOWN } from '../../commands/schedule.ts';
import type { Text } from '../../src/bot/reply.ts';
import { defaultSettings } from '../../src/bot/settings.ts';
import { call, type Stack, startStack, tenantWith } from './helpers.ts';
import { byStartThenId, matchupOf, worldSeries } from './truth.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
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
    const lines = result.reply.cards.flatMap((c) => c.description ?? []);
    expect(lines).toHaveLength(expected.length);
    // Each tournament's card lists its series in start order; every expected series appears once.
    for (const s of expected) {
      const card = result.reply.cards.find((c) =>
        c.title.includes(stack.names.tournament(s.tournament.id)!.title),
      )!;
      const line = card.description!.find((l) =>
        l.some((span) => typeof span === 'object' && 'time' in span && span.time.toISOString() === s.start),
      );
      expect(line).toBeDefined();
    }
    for (const card of result.reply.cards) {
      const times = card.description!.map((l) => (l[0] as { time: Date }).time.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    expect(result.reply.cards[0]!.title).toMatch(/^Today, /);
  });

  it("takes the day in the tenant's timezone", async () => {
    const world = stack.service.world;
    const game = world.catalog.games[2]!.game;
    const zone = 'Pacific/Auckland';
    const tenant = await tenantWith(stack, { games: [game.id], tiers: [3], timezone: zone });
    const result = await call(stack, 'schedule', { day: 'tomorrow' }, { tenant });
    const expected = expectedDay(zone, game.id, 3, 1);
    const lines = result.reply.cards.flatMap((c) => c.description ?? []);
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

  it('costs at most 3 requests cold and none warm, also on a busy day at the default settings', async () => {
    const world = stack.service.world;
    const game = world.catalog.games[0]!.game;
    const narrow = await tenantWith(stack, { games: [game.id], tiers: [1, 2] });
    const busy = await tenantWith(stack);
    for (const tenant of [narrow, busy]) {
      for (const day of ['today', 'tomorrow', 'yesterday']) {
        const cold = await call(stack, 'schedule', { day }, { tenant });
        const warm = await call(stack, 'schedule', { day }, { tenant });
        expect(cold.outcome).toBe('ok');
        expect(cold.upstream).toBeLessThanOrEqual(3);
        expect(warm.upstream).toBe(0);
      }
    }
  });

  it('shows at most 50 series of a busy day, live first, says how many there are and how to narrow', async () => {
    const world = stack.service.world;
    const { games, tiers } = defaultSettings();
    const tenant = await tenantWith(stack);
    const start = DateTime.fromMillis(world.now(), { zone: 'UTC' }).startOf('day');
    const from = start.toMillis();
    const until = start.plus({ days: 1 }).toMillis();
    const day = worldSeries(world).filter(
      (s) =>
        (games.length === 0 || games.includes(s.game.id)) &&
        tiers.includes(s.tier) &&
        Date.parse(s.start!) >= from &&
        Date.parse(s.start!) < until,
    );
    // The default settings make a busy day: more than one answer shows.
    expect(day.length).toBeGreaterThan(MAX_SHOWN);
    const result = await call(stack, 'schedule', {}, { tenant });
    expect(result.outcome).toBe('ok');
    const timed = (l: Text) => l.some((span) => typeof span === 'object' && 'time' in span);
    const lines = result.reply.cards.flatMap((c) => c.description ?? []).filter(timed);
    expect(lines).toHaveLength(MAX_SHOWN);
    const ids = new Set(day.map((s) => s.start));
    for (const l of lines) expect(ids.has((l[0] as { time: Date }).time.toISOString())).toBe(true);
    // Every live series of the day is among those shown.
    for (const s of day.filter((x) => x.lifecycle === 'live'))
      expect(result.text).toContain(matchupOf(world, s).split(' vs ')[0]!);
    const note = result.reply.cards[0]!.description![0]!.join('');
    const match = note.match(/^Showing 50 of (at least )?(\d+) series/);
    expect(match).not.toBeNull();
    const counted = Number(match![2]);
    if (match![1]) expect(counted).toBeLessThanOrEqual(day.length);
    else expect(counted).toBe(day.length);
    expect(counted).toBeGreaterThan(MAX_SHOWN);
    expect(note).toContain('Narrow with game: or tier:');
    // The cards hold every series picked: no "and N more" inside the 50.
    expect(result.text).not.toMatch(/and \d+ more/);
    expect(result.reply.cards.length).toBeLessThanOrEqual(10);
  });

  it('says nothing about narrowing when the whole day fits', async () => {
    const world = stack.service.world;
    const game = world.catalog.games[0]!.game;
    const tenant = await tenantWith(stack, { games: [game.id], tiers: [2] });
    const result = await call(stack, 'schedule', {}, { tenant });
    expect(result.text).not.toContain('Narrow with');
    expect(result.text).not.toContain('Showing');
  });
});
