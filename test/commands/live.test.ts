import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Stack, startStack, tenantWith } from './helpers.ts';
import { byStartThenId, matchupOf, teamNameOf, worldSeries } from './truth.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('/live', () => {
  it('shows every live series (up to 5) in start order with its running series score', async () => {
    const world = stack.service.world;
    const live = worldSeries(world)
      .filter((s) => s.lifecycle === 'live')
      .sort(byStartThenId);
    expect(live.length).toBeGreaterThan(0);
    const result = await call(stack, 'live');
    expect(result.outcome).toBe('ok');
    // The overview leaves the per-match summaries out (budget) and says where to find them.
    expect(result.text).not.toMatch(/Net worth: .+ \+\d/);
    expect(result.reply.cards.at(-1)!.footer).toContain('/live series:');
    expect(result.upstream).toBeLessThanOrEqual(3);
    const shown = live.slice(0, 5);
    expect(result.reply.cards).toHaveLength(shown.length);
    shown.forEach((s, i) => {
      const card = result.reply.cards[i]!;
      expect(card.footer).toMatch(new RegExp(`^Series ${s.id}`));
      if (s.participants.length === 2) {
        expect(card.title).toBe(matchupOf(world, s));
        const [home, away] = [...s.participants].sort((a, b) => a.seed - b.seed);
        // The running score is live information: shown even though it is a score.
        expect(result.text).toContain(
          `${teamNameOf(world, home!.roster.id)} ${home!.score}–${away!.score} ${teamNameOf(world, away!.roster.id)}`,
        );
      }
    });
  });

  it("shows one series' current map, the live summary's highlights and its streams, primary first", async () => {
    const world = stack.service.world;
    const t = world.now();
    const series = worldSeries(world)
      .filter((s) => s.lifecycle === 'live' && s.participants.length === 2)
      .sort(byStartThenId)
      .find((s) => {
        const plan = world.seriesPlan(s.id)!;
        return plan.matches.some((m) => world.matchLifecycle(plan, m, t) === 'live');
      })!;
    expect(series).toBeDefined();
    const plan = world.seriesPlan(series.id)!;
    const current = plan.matches.find((m) => world.matchLifecycle(plan, m, t) === 'live')!;
    const mapName = world.catalog.game(series.game.id)!.maps.find((m) => m.id === current.map)!.name;
    const result = await call(
      stack,
      'live',
      { series: String(series.id) },
      { tenant: await tenantWith(stack, { spoilers: 'hide' }) },
    );
    expect(result.outcome).toBe('ok');
    const card = result.reply.cards[0]!;
    const now = card.fields!.find((f) => f.name.startsWith('Now:'))!;
    expect(now.name).toBe(`Now: game ${current.order} · ${mapName}`);
    // The current map's score comes from the live summary and is in the clear even under "hide".
    expect(result.text).toMatch(
      new RegExp(
        `${teamNameOf(world, series.participants[0]!.roster.id)} \\d+–\\d+ ${teamNameOf(world, series.participants[1]!.roster.id)} · \\d+:\\d\\d`,
      ),
    );
    expect(card.fields!.map((f) => f.name)).toContain('Net worth');
    const streams = card.fields!.filter((f) => f.name.startsWith('Stream: '));
    expect(streams.length).toBe(Math.min(3, series.casters.length));
    const primary = series.casters.find((c) => c.primary);
    if (primary) {
      const info = world.catalog.casterById.get(primary.caster.id)!;
      expect(streams[0]!.name).toBe(`Stream: ${info.display_name} (primary)`);
    }
    // Earlier maps, one field each.
    const maps = world.catalog.game(series.game.id)!.maps;
    for (const m of plan.matches.filter((x) => world.matchLifecycle(plan, x, t) === 'over')) {
      expect(card.fields!.map((f) => f.name)).toContain(
        `Game ${m.order} · ${maps.find((x) => x.id === m.map)!.name}`,
      );
    }
  });

  it('says plainly when nothing is live for a game, and answers an unknown series id as a user error', async () => {
    const world = stack.service.world;
    const liveGames = new Set(
      worldSeries(world)
        .filter((s) => s.lifecycle === 'live')
        .map((s) => s.game.id),
    );
    const idle = world.catalog.games.find((g) => !liveGames.has(g.game.id));
    if (idle) {
      const result = await call(stack, 'live', { game: idle.game.title });
      expect(result.outcome).toBe('ok');
      expect(result.text).toContain('No series is live right now');
    }
    const missing = await call(stack, 'live', { series: '999999999' });
    expect(missing.outcome).toBe('user-error');
    expect(missing.message).toContain('There is no series 999999999');
  });

  it('costs the series, their matches, their casters and one summary per live match cold, and nothing warm', async () => {
    const world = stack.service.world;
    const series = worldSeries(world)
      .filter((s) => s.lifecycle === 'live')
      .sort(byStartThenId)[0]!;
    const tenant = await tenantWith(stack);
    const cold = await call(stack, 'live', { series: String(series.id) }, { tenant });
    const warm = await call(stack, 'live', { series: String(series.id) }, { tenant });
    expect(cold.upstream).toBeLessThanOrEqual(4);
    expect(warm.upstream).toBe(0);
  });
});
