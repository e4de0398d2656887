/**
 * A live card says a live series' streams are online: the casters were first read before the
 * series started (for its reminder, all offline then); the notifier reads them again while the
 * series is live, so the card does not keep "offline" from that earlier read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-live-streams-'));
let service: RunningService;
let clock: Clock;

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('live card streams', () => {
  it('are read again once the series is live: online, not the offline of the reminder-time read', async () => {
    const world = service.world;
    const plan = world
      .window(FROM)
      .series.filter(
        (p) =>
          p.start > FROM + 3600_000 &&
          p.casters.length > 0 &&
          p.forfeit < 0 &&
          p.deletedAt === null &&
          p.postponedFrom === null &&
          p.end > p.start + 30 * 60_000,
      )
      .sort((a, b) => a.start - b.start)[0]!;
    expect(plan).toBeDefined();
    const tenants = new MemoryTenants();
    const settings: Partial<Settings> = {
      games: [plan.game],
      tiers: [plan.tier],
      reminderLeads: [15],
      channels: [{ id: 'c1', games: [], tiers: [], teams: [], kinds: ['reminders', 'live'], leads: [] }],
    };
    tenants.set('discord:1', settings);
    const discord = new RecordingDelivery('discord', () => clock.nowMs());
    const ledger = new SqliteLedger(join(dir, 'ledger.sqlite'));
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
    try {
      const ofPlan = () => discord.records.filter((r) => r.text.includes(`eries ${plan.id}`));
      const streamLines = (text: string) =>
        text.split('\n').filter((l) => /Stream/.test(l) || /· (on|off)line/.test(l));

      // The reminder, 15 minutes before: the streams are offline, and the card says so.
      clock.set(new Date(plan.start - 14 * 60_000));
      await notifier.tick();
      await notifier.drain();
      const reminder = ofPlan().find((r) => r.key.startsWith('reminder:'));
      expect(reminder?.text).toMatch(/offline/);

      // Live: the card's streams are online, with viewers, and none says offline.
      clock.set(new Date(plan.start + 2 * 60_000));
      await notifier.tick();
      await notifier.drain();
      const card = ofPlan()
        .filter((r) => r.key.startsWith('live:') || r.op === 'edit')
        .at(-1);
      expect(card, 'a live card').toBeDefined();
      expect(card!.text).toMatch(/online, [\d,]+ viewers/);
      expect(card!.text).not.toMatch(/offline/);
      expect(streamLines(card!.text).length).toBeGreaterThan(0);
    } finally {
      await notifier.stop();
      await ledger.close();
      await client.close();
    }
  });
});
