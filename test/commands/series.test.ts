import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply, Span } from '../../src/bot/reply.ts';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';
import { byEndDescThenId, byStartThenId, FINISHED, matchupOf, teamNameOf, worldSeries } from './truth.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Every span of a reply's card descriptions, flattened (to look for bold winners and spoilers). */
  function spans(reply: Reply): Span[] {
    return reply.cards.flatMap((c) => (c.description ?? []).flat());
  }

  describe('/series', () => {
    it('lists the next upcoming series in the tenant tiers, in start order, with both teams', async () => {
      const result = await call(stack, 'series');
      expect(result.outcome).toBe('ok');
      const expected = worldSeries(stack.service.world)
        .filter((s) => s.lifecycle === 'upcoming' && [1, 2].includes(s.tier))
        .sort(byStartThenId)
        .slice(0, 10);
      expect(expected).toHaveLength(10);
      const lines = result.reply.cards[0]!.description!;
      expect(lines).toHaveLength(10);
      lines.forEach((line, i) => {
        const series = expected[i]!;
        const time = line.find((s) => typeof s === 'object' && 'time' in s) as { time: Date } | undefined;
        expect(time?.time.toISOString()).toBe(series.start);
        expect(
          line.some(
            (s) => typeof s === 'object' && 'text' in s && s.text === matchupOf(stack.service.world, series),
          ),
        ).toBe(true);
      });
    });

    it('filters by game, tier and limit', async () => {
      const world = stack.service.world;
      const game = world.catalog.games[1]!.game;
      const result = await call(stack, 'series', {
        game: game.abbreviation.toLowerCase(),
        tier: 3,
        limit: 4,
      });
      const expected = worldSeries(world)
        .filter((s) => s.lifecycle === 'upcoming' && s.tier === 3 && s.game.id === game.id)
        .sort(byStartThenId)
        .slice(0, 4)
        .map((s) => matchupOf(world, s));
      const text = result.text;
      expect(result.reply.cards[0]!.description).toHaveLength(4);
      for (const m of expected) expect(text).toContain(m);
      expect(result.reply.cards[0]!.title).toContain(game.abbreviation.toUpperCase());
    });

    it("shows a named team's upcoming series whatever the tenant's tiers", async () => {
      const world = stack.service.world;
      const team = world.catalog.teams[0]!;
      const rosters = [...world.catalog.rosterById.values()]
        .filter((r) => r.team.id === team.id)
        .map((r) => r.id);
      const tenant = await tenantWith(stack, { tiers: [4] });
      const result = await call(stack, 'series', { team: team.name, limit: 5 }, { tenant });
      const expected = worldSeries(world)
        .filter(
          (s) => s.lifecycle === 'upcoming' && s.participants.some((p) => rosters.includes(p.roster.id)),
        )
        .sort(byStartThenId)
        .slice(0, 5);
      expect(expected.length).toBeGreaterThan(0);
      const lines = result.reply.cards[0]!.description!.map((l) =>
        l.map((s) => (typeof s === 'string' ? s : 'text' in s ? s.text : '')).join(''),
      );
      expect(lines).toHaveLength(expected.length);
      expected.forEach((s, i) => {
        expect(lines[i]).toContain(matchupOf(world, s));
      });
      for (const line of lines) expect(line).toContain(team.name);
    });

    it('shows recent results with the winner in bold under the "show" policy', async () => {
      const world = stack.service.world;
      const result = await call(stack, 'series', { when: 'recent', limit: 3 });
      const expected = worldSeries(world)
        .filter((s) => FINISHED.includes(s.lifecycle) && [1, 2].includes(s.tier))
        .sort(byEndDescThenId)
        .slice(0, 3);
      for (const s of expected) {
        const [home, away] = [...s.participants].sort((a, b) => a.seed - b.seed);
        expect(result.text).toContain(
          `${teamNameOf(world, home!.roster.id)} ${home!.score}–${away!.score} ${teamNameOf(world, away!.roster.id)}`,
        );
        const winner = s.participants.find((p) => p.winner)!;
        expect(spans(result.reply)).toContainEqual({ text: teamNameOf(world, winner.roster.id), bold: true });
      }
    });

    it('wraps results in spoilers under "spoiler" and withholds them under "hide"', async () => {
      const world = stack.service.world;
      const expected = worldSeries(world)
        .filter((s) => FINISHED.includes(s.lifecycle) && [1, 2].includes(s.tier))
        .sort(byEndDescThenId)
        .slice(0, 3);
      const scoreOf = (s: (typeof expected)[number]) => {
        const [home, away] = [...s.participants].sort((a, b) => a.seed - b.seed);
        return `${home!.score}–${away!.score}`;
      };
      const spoiler = await call(
        stack,
        'series',
        { when: 'recent', limit: 3 },
        { tenant: await tenantWith(stack, { spoilers: 'spoiler' }) },
      );
      const hidden = await call(
        stack,
        'series',
        { when: 'recent', limit: 3 },
        { tenant: await tenantWith(stack, { spoilers: 'hide' }) },
      );
      for (const s of expected) {
        const winner = teamNameOf(world, s.participants.find((p) => p.winner)!.roster.id);
        // Spoiler: nothing outside the spoiler tells the score or the winner; revealing shows both.
        expect(spoiler.text).toContain(matchupOf(world, s));
        expect(spoiler.text).not.toContain(scoreOf(s));
        expect(spoiler.revealed).toContain(`${scoreOf(s)}, ${winner} win`);
        expect(spans(spoiler.reply)).not.toContainEqual({ text: winner, bold: true });
        // Hide: neither the text nor a revealed spoiler carries it.
        expect(hidden.revealed).not.toContain(scoreOf(s));
        expect(hidden.revealed).not.toContain(`${winner} win`);
        expect(hidden.text).toContain('result hidden');
      }
      expect(spans(spoiler.reply).some((s) => typeof s === 'object' && 'spoiler' in s)).toBe(true);
      expect(spans(hidden.reply).some((s) => typeof s === 'object' && 'spoiler' in s)).toBe(false);
    });

    it('restricts to one tournament named by its title', async () => {
      const world = stack.service.world;
      const upcoming = worldSeries(world).filter((s) => s.lifecycle === 'upcoming');
      const tournamentId = upcoming[0]!.tournament.id;
      const title = stack.names.tournament(tournamentId)!.title;
      const result = await call(stack, 'series', { tournament: title, limit: 20 });
      const expected = upcoming
        .filter((s) => s.tournament.id === tournamentId)
        .sort(byStartThenId)
        .slice(0, 20);
      expect(result.reply.cards[0]!.description).toHaveLength(expected.length);
      expect(result.reply.cards[0]!.title).toContain(title);
    });

    it('costs at most 3 upstream requests cold and none warm', async () => {
      const tenant = await tenantWith(stack);
      const args = { team: stack.service.world.catalog.teams[5]!.name, when: 'recent' };
      const cold = await call(stack, 'series', args, { tenant });
      const warm = await call(stack, 'series', args, { tenant });
      expect(cold.outcome).toBe('ok');
      expect(cold.upstream).toBeGreaterThan(0);
      expect(cold.upstream).toBeLessThanOrEqual(3);
      expect(warm.upstream).toBe(0);
    });
  });
});
