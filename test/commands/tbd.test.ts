/**
 * Every command copes with a playoff series whose teams are not yet known
 * (TBD): no crash, no spoiled names, "TBD" where a team would stand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  describe('a series whose participants are not yet known', () => {
    it('is answered by /series, /live, /casters, /standings, /tournament and /schedule with TBD', async () => {
      const world = stack.service.world;
      const t = world.now();
      const plan = world
        .window(t)
        .series.filter(
          (p) =>
            p.bracket !== null &&
            p.kind !== 'battle-royale' &&
            p.revealAt.every((at) => at > t) &&
            p.start < t + 7 * 24 * 3600_000,
        )
        .sort((a, b) => a.start - b.start)[0]!;
      expect(plan).toBeDefined();
      const series = world.seriesAt(plan, t);
      expect(series.participants).toEqual([]);
      const hidden = plan.rosters.map((r) => {
        const roster = world.catalog.rosterById.get(r)!;
        return world.catalog.teamById.get(roster.team.id)!.name;
      });
      const tournament = world.catalog.game(plan.game)!;
      const tenant = await tenantWith(stack, { games: [plan.game], tiers: [plan.tier] });
      const day = new Date(plan.start).toISOString().slice(0, 10);
      const calls: [string, Record<string, unknown>][] = [
        ['series', { tournament: plan.tournament.title, limit: 20 }],
        ['live', { series: String(plan.id) }],
        ['casters', { series: String(plan.id) }],
        ['standings', { tournament: plan.tournament.title }],
        ['tournament', { tournament: plan.tournament.title }],
        ['schedule', { day, game: tournament.game.title, tier: plan.tier }],
      ];
      let sawTbd = 0;
      for (const [command, args] of calls) {
        const result = await call(stack, command, args, { tenant });
        expect(result.outcome, `${command}: ${result.text}`).not.toBe('error');
        expect(result.text, command).not.toMatch(/undefined|NaN|\[object/);
        if (result.text.includes('TBD')) sawTbd++;
        if (command === 'live' || command === 'casters') {
          expect(result.text, command).toContain('TBD vs TBD');
          for (const name of hidden)
            expect(result.text, `${command} spoils ${name}`).not.toContain(`${name} vs`);
        }
      }
      expect(sawTbd).toBeGreaterThanOrEqual(3);
    });
  });
});
