/**
 * `/live` asked before the name index has loaded (`npm start` fills it behind the banner)
 * names the maps all the same, the current one and the earlier ones; never a made-up "Map 1".
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { createNameIndex } from '../../src/bot/names.ts';
import { replyText } from '../../src/bot/reply.ts';
import { Runtime } from '../../src/bot/runtime.ts';
import { APIS, MemoryTenantStore, type Stack, startStack } from './helpers.ts';
import { worldSeries } from './truth.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  describe('/live before the name index has loaded', () => {
    it("names the current and earlier maps from the service, not 'Map N'", async () => {
      const world = stack.service.world;
      const t = world.now();
      // A live shooter series on its second map or later: one earlier map to name, and the current.
      const series = worldSeries(world).find(
        (s) =>
          s.lifecycle === 'live' &&
          world.catalog.game(s.game.id)!.kind === 'shooter' &&
          s.participants.reduce((n, p) => n + p.score, 0) >= 1,
      )!;
      expect(series).toBeDefined();
      const plan = world.window(t).series.find((p) => p.id === series.id)!;
      const mapNameOf = (id: number) => world.catalog.game(plan.game)!.maps.find((m) => m.id === id)!.name;
      const started = plan.matches.filter((m) => m.start <= t && m.end > m.start);
      expect(started.length).toBeGreaterThanOrEqual(2);

      const cold = createNameIndex({ client: stack.client, clock: stack.clock });
      const runtime = new Runtime({
        commands,
        client: stack.client,
        names: cold,
        tenants: new MemoryTenantStore(),
        clock: stack.clock,
        logger: pino({ level: 'silent' }),
        perUserLimit: { count: 1000, windowMs: 1000 },
      });
      const execution = await runtime.run({
        platform: 'terminal',
        tenantKey: 'cold',
        user: { id: 'u', name: 'u', isAdmin: false },
        channel: { id: 'c' },
        command: 'live',
        args: { series: String(series.id) },
      });
      const text = replyText(execution.reply);
      expect(execution.outcome, text).toBe('ok');
      expect(text).not.toMatch(/Map \d/);
      for (const m of started)
        expect(text, `game ${m.order}`).toContain(`ame ${m.order} · ${mapNameOf(m.map)}`);
    });
  });
});
