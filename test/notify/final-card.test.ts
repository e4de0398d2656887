/**
 * When a series ends, its live card is frozen from the final state (every map's
 * result, the winner, no "Now: game N"), read on every platform's rendering: terminal text, the
 * Discord payload and Slack blocks. The notifier watches a real series of the local service end
 * on a jumped clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';
import { renderReply as renderTerminal } from '../../src/platforms/terminal/render.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-final-card-'));
let service: RunningService;
let clock: Clock;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  for (const close of closers) await close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the final live card', () => {
  it('shows every map result and the winner, and no "Now", on terminal, Discord and Slack', async () => {
    const world = service.world;
    const plan = world
      .window(FROM)
      .series.filter(
        (p) =>
          p.start > FROM + 3600_000 &&
          p.kind === 'moba' &&
          p.bestOf === 3 &&
          p.forfeit < 0 &&
          p.deletedAt === null &&
          p.postponedFrom === null &&
          p.matches.filter((m) => m.winner >= 0).length === 3,
      )
      .sort((a, b) => a.start - b.start)[0]!;
    expect(plan).toBeDefined();
    const tenants = new MemoryTenants();
    const settings: Partial<Settings> = {
      games: [plan.game],
      tiers: [plan.tier],
      spoilers: 'show',
      channels: [{ id: 'c1', games: [], tiers: [], teams: [], kinds: ['live', 'results'], leads: [] }],
    };
    tenants.set('discord:1', settings);
    const discord = new RecordingDelivery('discord', () => clock.nowMs());
    const ledger = new SqliteLedger(join(dir, 'final.sqlite'));
    const client = uncachedClient(service);
    const notifier = createNotifier({
      client,
      tenants,
      clock,
      ledger,
      deliveries: { discord },
      logger: memoryLogger() as never,
      editIntervalMs: 0,
    });
    closers.push(async () => {
      await notifier.stop();
      await ledger.close();
      await client.close();
    });

    // Live through the last map: the card shows "Now: game 3".
    const last = plan.matches[2]!;
    clock.set(new Date(plan.start + 60_000));
    await notifier.tick();
    clock.set(new Date(last.start + 5 * 60_000));
    await notifier.tick();
    const whileLive = discord.records.filter(
      (r) => r.text.includes(`Series ${plan.id}`) || r.text.includes(`series ${plan.id}`),
    );
    expect(whileLive.length).toBeGreaterThan(0);
    expect(whileLive.at(-1)!.text).toMatch(/Now: game 3/);

    // The series ends: the card is edited once more, from the final state.
    clock.set(new Date(plan.end + 2 * 60_000));
    await notifier.tick();
    const final = discord.records.filter((r) => r.text.includes(`Final · series ${plan.id}`));
    expect(final).toHaveLength(1);
    expect(final[0]!.op).toBe('edit');
    const reply = final[0]!.reply!;
    const series = world.seriesAt(plan, clock.nowMs());
    const team = (roster: number) =>
      world.catalog.teamById.get(world.catalog.rosterById.get(roster)!.team.id)!.name;
    const winner = team(plan.rosters[plan.winner]!);
    const scores = plan.matches.map((m) => {
      const home = m.scores[0]!;
      const away = m.scores[1]!;
      return { order: m.order, text: `${home}–${away} ${team(plan.rosters[m.winner]!)}` };
    });
    expect(series.lifecycle).toBe('over');

    const terminal = renderTerminal(reply, { colour: false, timezone: 'UTC', now: new Date(clock.nowMs()) });
    const discordText = JSON.stringify(renderDiscord(reply));
    const slackText = JSON.stringify(renderSlack(reply));
    for (const [platform, text] of [
      ['terminal', terminal],
      ['discord', discordText],
      ['slack', slackText],
    ] as const) {
      expect(text, platform).not.toMatch(/Now: game/);
      expect(text, platform).toContain('Final');
      expect(text, platform).toContain(winner);
      for (const s of scores) {
        expect(text, `${platform}: game ${s.order}`).toContain(`Game ${s.order}`);
        expect(text, `${platform}: game ${s.order}`).toContain(s.text);
      }
    }
    // The terminal reads as a person would: one line per map, the last map's result included.
    expect(terminal).toContain(`Game 3`);
  });
});
