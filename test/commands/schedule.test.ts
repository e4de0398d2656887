import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('costs one request per 50 series of the day (two walks), none warm', async () => {
    const world = stack.service.world;
    const game = world.catalog.games[0]!.game;
    const tenant = await tenantWith(stack, { games: [game.id], tiers: [1, 2] });
    const cold = await call(stack, 'schedule', {}, { tenant });
    const warm = await call(stack, 'schedule', {}, { tenant });
    const n = expectedDay('UTC', game.id, 1).length + expectedDay('UTC', game.id, 2).length;
    expect(cold.upstream).toBeLessThanOrEqual(2 + Math.ceil(n / 50));
    expect(warm.upstream).toBe(0);
  });
});
