/**
 * Delivery behaviour of the notifier against the local service: one attempt per refused channel per
 * tick, a fresh live card when the old message was deleted, and cards that name the game and stage.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/bot/settings.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { DeliveryError } from '../../src/notify/delivery-error.ts';
import { ledgerKey } from '../../src/notify/ledger.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { MemoryTenants, memoryLogger, permanent, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-notify-delivery-'));
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

const client = (): EsportsClient => uncachedClient(service);

function setup(name: string, tenantSettings: [string, Partial<Settings>][]) {
  const tenants = new MemoryTenants();
  for (const [id, s] of tenantSettings) tenants.set(id, s);
  const discord = new RecordingDelivery('discord', () => clock.nowMs());
  const ledger = new SqliteLedger(join(dir, `${name}.sqlite`));
  const c = client();
  const notifier = createNotifier({
    client: c,
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
    await c.close();
  });
  return { tenants, discord, ledger, notifier, client: c };
}

function findPlan(pick: (p: SeriesPlan) => boolean, from = FROM + 2 * 3600_000): SeriesPlan {
  const plans = service.world
    .window(from)
    .series.filter((p) => p.start >= from && p.start < from + 5 * 24 * 3600_000 && pick(p))
    .sort((a, b) => a.start - b.start);
  if (!plans[0]) throw new Error('the seeded world has no such series; pick another seed');
  return plans[0];
}

const channel = (id: string, kinds: Settings['channels'][number]['kinds'], leads: number[] = []) => ({
  id,
  games: [],
  tiers: [],
  teams: [],
  kinds,
  leads,
});

describe('delivery', () => {
  it('tries a channel that refuses (permanent error) once on the first tick, and the others fully', async () => {
    // Every game and tier with a 60-minute lead: several reminders and live cards are due at once.
    const { discord, notifier, tenants } = setup('refused', [
      [
        'discord:1',
        {
          games: [],
          tiers: [1, 2, 3, 4],
          channels: [
            channel('refusing', ['reminders', 'live', 'results'], [60]),
            channel('fine', ['reminders', 'live', 'results'], [60]),
          ],
        },
      ],
    ]);
    discord.failures.set('discord:1/refusing', permanent('MISSING_PERMISSIONS'));
    clock.set(new Date(FROM + 3 * 3600_000));
    await notifier.tick();
    await notifier.drain();
    // The fine channel got several posts in that tick, so the refusing one had several due too.
    expect(discord.posts().filter((p) => p.channelId === 'fine').length).toBeGreaterThan(1);
    expect(discord.attempts.get('discord:1/refusing')).toBe(1);
    expect(discord.posts().filter((p) => p.channelId === 'refusing')).toEqual([]);
    // Disabled for good: later ticks do not try it again.
    clock.set(new Date(FROM + 3 * 3600_000 + 60_000));
    await notifier.tick();
    expect(discord.attempts.get('discord:1/refusing')).toBe(1);
    const stored = await tenants.get('discord:1');
    expect(stored.channels.find((c) => c.id === 'refusing')!.disabled?.reason).toContain(
      'MISSING_PERMISSIONS',
    );
    expect(stored.adminNotices).toHaveLength(1);
  });

  it('posts a fresh live card when the old message was deleted, and edits that one from then on', async () => {
    const plan = findPlan((p) => p.postponedFrom === null && p.deletedAt === null && p.forfeit < 0);
    const { discord, notifier, ledger } = setup('deleted-card', [
      ['discord:1', { games: [plan.game], tiers: [plan.tier], channels: [channel('c1', ['live'])] }],
    ]);
    const cardKey = ledgerKey('live', plan.id, 'card', {
      platform: 'discord',
      tenantId: 'discord:1',
      channelId: 'c1',
    });
    let t = plan.start + 30_000;
    const step = async () => {
      clock.set(new Date(t));
      t += 60_000;
      await notifier.tick();
      await notifier.drain();
    };
    while (!discord.posts().some((p) => p.key === cardKey) && t < plan.end) await step();
    const first = discord.posts().find((p) => p.key === cardKey)!;
    expect(first).toBeDefined();
    expect(await ledger.findMessage(cardKey)).toBe(first.messageId);
    discord.editFailures.set(
      first.messageId,
      new DeliveryError('transient', 'UNKNOWN_MESSAGE', 'Unknown Message (the card was deleted).'),
    );
    const reposted = () => discord.posts().filter((p) => p.key.startsWith(`${cardKey}:repost:`));
    while (reposted().length === 0 && t < plan.end) await step();
    expect(reposted()).toHaveLength(1);
    const fresh = reposted()[0]!;
    expect(fresh.messageId).not.toBe(first.messageId);
    expect(await ledger.findMessage(cardKey)).toBe(fresh.messageId);
    // Later changes edit the new message; the deleted one is not tried again.
    const editsBefore = discord.records.filter((r) => r.op === 'edit').length;
    while (discord.records.filter((r) => r.op === 'edit').length === editsBefore && t < plan.end)
      await step();
    const later = discord.records.filter((r) => r.op === 'edit').slice(editsBefore);
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((r) => r.messageId === fresh.messageId)).toBe(true);
    expect(reposted()).toHaveLength(1);
  });

  it('prunes ledger entries older than 30 days on its first tick, and keeps recent ones', async () => {
    const path = join(dir, 'prune.sqlite');
    const old = new SqliteLedger(path, { now: () => Date.now() - 31 * 24 * 3600_000 });
    await old.claim('reminder:1:15m@1:discord:1:c1');
    await old.markSent('reminder:1:15m@1:discord:1:c1', 'm-old');
    await old.close();
    const recent = new SqliteLedger(path, { now: () => Date.now() - 29 * 24 * 3600_000 });
    await recent.claim('reminder:2:15m@1:discord:1:c1');
    await recent.markSent('reminder:2:15m@1:discord:1:c1', 'm-recent');
    await recent.close();
    const ledger = new SqliteLedger(path);
    const notifier = createNotifier({
      client: client(),
      tenants: new MemoryTenants(),
      clock,
      ledger,
      deliveries: {},
      logger: memoryLogger() as never,
    });
    await notifier.tick();
    expect(await ledger.get('reminder:1:15m@1:discord:1:c1')).toBeUndefined();
    expect(await ledger.findMessage('reminder:2:15m@1:discord:1:c1')).toBe('m-recent');
    await ledger.close();
  });

  it('names the game and the stage on cards (no "Game 1")', async () => {
    const plan = findPlan((p) => p.postponedFrom === null && p.deletedAt === null && p.forfeit < 0);
    const {
      discord,
      notifier,
      client: c,
    } = setup('labels', [
      [
        'discord:1',
        { games: [plan.game], tiers: [plan.tier], channels: [channel('c1', ['reminders'], [30])] },
      ],
    ]);
    clock.set(new Date(plan.start - 30 * 60_000));
    await notifier.tick();
    // Other series may start in the same minute: one message holds their reminders, keyed by the first.
    const reminder = discord
      .posts()
      .find((p) => p.key.startsWith('reminder:') && new RegExp(`series ${plan.id}\\b`).test(p.text));
    expect(reminder).toBeDefined();
    const game = await c.games.get(plan.game);
    const series = await c.series.get(plan.id);
    const substage = await c.substages.get(series.substage.id);
    expect(reminder!.text).toContain(game.abbreviation.toUpperCase());
    expect(reminder!.text).toContain(substage.title);
    expect(reminder!.text).not.toMatch(/Game \d+ ·/);
  });
});
