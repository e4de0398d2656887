/**
 * Lateness rules under platform failures (429s): a notification held back by failures is delayed,
 * and dropped only by a documented rule, each drop logged with its ledger key. Channels without
 * failures show that nothing else is dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import { ledgerKey } from '../../src/notify/ledger.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { type Subscription, subscriptionsOf } from '../../src/notify/plan.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import {
  MemoryTenants,
  memoryLogger,
  postsCarrying,
  RecordingDelivery,
  transient,
  uncachedClient,
} from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const MINUTE = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'matchday-late-drops-'));
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

function setup(name: string, settings: Partial<Settings>) {
  const tenants = new MemoryTenants();
  tenants.set('discord:1', settings);
  const discord = new RecordingDelivery('discord', () => clock.nowMs());
  const ledger = new SqliteLedger(join(dir, `${name}.sqlite`));
  const logger = memoryLogger();
  const client = uncachedClient(service);
  const notifier = createNotifier({
    client,
    tenants,
    clock,
    ledger,
    deliveries: { discord },
    logger: logger as never,
    editIntervalMs: 0,
    retryBaseMs: 60_000,
  });
  closers.push(async () => {
    await notifier.stop();
    await ledger.close();
    await client.close();
  });
  /** The keys logged with a message containing `text`. */
  const logged = (text: string) =>
    logger.lines
      .filter((l) => l.msg?.includes(text))
      .flatMap((l) => (l.obj as { keys?: string[] }).keys ?? []);
  return { tenants, discord, ledger, notifier, logged };
}

async function play(notifier: { tick(): Promise<void> }, from: number, to: number, step = MINUTE) {
  for (let t = from; t < to; t += step) {
    clock.set(new Date(t));
    await notifier.tick();
  }
}

function findPlan(pick: (p: SeriesPlan) => boolean, from = FROM + 2 * 3600_000): SeriesPlan {
  const plans = service.world
    .window(from)
    .series.filter(
      (p) =>
        p.start >= from &&
        p.start < from + 5 * 24 * 3600_000 &&
        p.postponedFrom === null &&
        p.deletedAt === null &&
        p.forfeit < 0 &&
        pick(p),
    )
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

/** The key of one kind for channel `id` of tenant discord:1, as the notifier computes it. */
function keyOf(settings: Partial<Settings>, id: string, make: (sub: Subscription) => string): string {
  const parsed = settingsSchema.parse({ ...defaultSettings(), ...settings });
  const sub = subscriptionsOf('discord:1', parsed).find((s) => s.channelId === id);
  if (!sub) throw new Error(`no subscription for ${id}`);
  return make(sub);
}

describe('lateness under 429s: delayed, and dropped only by a rule, logged with its key', () => {
  it('a reminder held back until a shorter lead is due is replaced by it, and logged', async () => {
    const plan = findPlan(() => true);
    const settings: Partial<Settings> = {
      games: [plan.game],
      tiers: [plan.tier],
      channels: [channel('busy', ['reminders'], [30, 10]), channel('calm', ['reminders'], [30, 10])],
    };
    const { discord, notifier, ledger, logged } = setup('superseded', settings);
    discord.failures.set('discord:1/busy', transient());
    await play(notifier, plan.start - 31 * MINUTE, plan.start - 10 * MINUTE);
    discord.failures.clear();
    await play(notifier, plan.start - 10 * MINUTE, plan.start - 5 * MINUTE);

    const at = (lead: number) => `${lead}m@${plan.start / MINUTE}`;
    const key = (id: string, lead: number) =>
      keyOf(settings, id, (sub) => ledgerKey('reminder', plan.id, at(lead), sub));
    // The calm channel gets both; the busy one only the 10-minute reminder, and the 30 is logged.
    // (A reminder may go out in one message with others due that minute, keyed by the first.)
    const posts = discord.posts();
    for (const k of [key('busy', 10), key('calm', 30), key('calm', 10)])
      expect(await postsCarrying(k, posts, ledger), k).toHaveLength(1);
    expect(await postsCarrying(key('busy', 30), posts, ledger)).toEqual([]);
    // Logged for this series only in the busy channel; another series starting that minute is held
    // back the same way (its busy 30-minute reminder), the calm channel's never.
    const superseded = logged('reminder dropped: a shorter lead was due');
    expect(superseded.filter((k) => k.startsWith(`reminder:${plan.id}:`))).toEqual([key('busy', 30)]);
    for (const k of superseded)
      expect(k).toMatch(new RegExp(`^reminder:\\d+:30m@${plan.start / MINUTE}:discord:1:busy$`));
  }, 120_000);

  it('a result held back past the 3-hour window is dropped and logged; a channel without failures gets it', async () => {
    const plan = findPlan((p) => p.end - p.start < 6 * 3600_000);
    const settings: Partial<Settings> = {
      games: [plan.game],
      tiers: [plan.tier],
      channels: [channel('busy', ['results']), channel('calm', ['results'])],
    };
    const { discord, notifier, ledger, logged } = setup('late-result', settings);
    discord.failures.set('discord:1/busy', transient());
    // Started (after downtime) 2 minutes before the window closes; the busy channel keeps failing.
    await play(notifier, plan.end + 3 * 3600_000 - 2 * MINUTE, plan.end + 3 * 3600_000 + 3 * MINUTE);

    const key = (id: string) => keyOf(settings, id, (sub) => ledgerKey('result', plan.id, 'over', sub));
    const posted = discord.posts().map((p) => p.key);
    expect(posted).toContain(key('calm'));
    expect(posted).not.toContain(key('busy'));
    expect((await ledger.get(key('calm')))?.state).toBe('sent');
    expect(logged('result dropped: series ended more than 3 hours ago')).toEqual([key('busy')]);
    // Failures cleared later: it stays dropped (the rule), not sent late.
    discord.failures.clear();
    await play(notifier, plan.end + 3 * 3600_000 + 3 * MINUTE, plan.end + 3 * 3600_000 + 6 * MINUTE);
    expect(discord.posts().map((p) => p.key)).not.toContain(key('busy'));
  });

  it('a live card held back until its series ended is replaced by the result, and logged', async () => {
    const plan = findPlan((p) => p.end - p.start < 4 * 3600_000);
    const settings: Partial<Settings> = {
      games: [plan.game],
      tiers: [plan.tier],
      channels: [channel('busy', ['live', 'results']), channel('calm', ['live', 'results'])],
    };
    const { discord, notifier, logged } = setup('late-card', settings);
    discord.failures.set('discord:1/busy', transient());
    await play(notifier, plan.start - MINUTE, plan.end, 5 * MINUTE);
    discord.failures.clear();
    await play(notifier, plan.end + MINUTE, plan.end + 10 * MINUTE);

    const card = (id: string) => keyOf(settings, id, (sub) => ledgerKey('live', plan.id, 'card', sub));
    const result = (id: string) => keyOf(settings, id, (sub) => ledgerKey('result', plan.id, 'over', sub));
    const posted = discord.posts().map((p) => p.key);
    expect(posted).toContain(card('calm'));
    expect(posted).not.toContain(card('busy'));
    // The calm card is frozen (an edit, no post); the busy channel gets a result post instead.
    expect(posted).not.toContain(result('calm'));
    expect(posted).toContain(result('busy'));
    // Only that card: a series of these channels forfeited before play (the world has one in the span)
    // never was live, so closing its card key is no drop, in either channel.
    const forfeited = service.world
      .window(plan.start)
      .series.filter(
        (p) =>
          p.game === plan.game &&
          p.tier === plan.tier &&
          p.forfeit >= 0 &&
          p.deletedAt === null &&
          p.postponedFrom === null &&
          p.start >= plan.start - MINUTE &&
          p.start < plan.end,
      );
    expect(forfeited.length).toBeGreaterThan(0);
    expect(logged('live card dropped: series ended before it could be posted')).toEqual([card('busy')]);
  }, 120_000);

  it('a digest held back past 3 hours after its slot is dropped and logged; a channel without failures gets it', async () => {
    // A day with a series of the channels' game and tier, starting after the 00:05 UTC slot.
    const plan = findPlan((p) => new Date(p.start).getUTCHours() >= 1);
    const day = new Date(plan.start).toISOString().slice(0, 10);
    const slot = Date.parse(`${day}T00:05:00Z`);
    const settings: Partial<Settings> = {
      games: [plan.game],
      tiers: [plan.tier],
      timezone: 'UTC',
      digestTime: '00:05',
      channels: [channel('busy', ['digest']), channel('calm', ['digest'])],
    };
    const { discord, notifier, ledger, logged } = setup('late-digest', settings);
    discord.failures.set('discord:1/busy', transient());
    await play(notifier, slot - MINUTE, slot + 3 * 3600_000 + 5 * MINUTE, 5 * MINUTE);

    const key = (id: string) => keyOf(settings, id, (sub) => ledgerKey('digest', day, sub.digestTime, sub));
    const posted = discord.posts().map((p) => p.key);
    expect(posted).toContain(key('calm'));
    expect(posted).not.toContain(key('busy'));
    expect((await ledger.get(key('calm')))?.state).toBe('sent');
    // Dropped by the rule, logged once with its key; the calm channel's digest is not called dropped.
    expect(logged('digest dropped: its slot passed more than 3 hours ago')).toEqual([key('busy')]);
    // Failures cleared later: it stays dropped, not sent late.
    discord.failures.clear();
    await play(notifier, slot + 3 * 3600_000 + 5 * MINUTE, slot + 3 * 3600_000 + 15 * MINUTE, 5 * MINUTE);
    expect(discord.posts().map((p) => p.key)).not.toContain(key('busy'));
    expect(logged('digest dropped')).toEqual([key('busy')]);
  }, 120_000);
});
