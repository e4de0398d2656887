/**
 * Drops while no notifier ran (docs/notifications.md, "Lateness rules"): a notification whose whole
 * lateness window passed while the process was down is recorded in the ledger and logged as dropped with
 * its key, once (across restarts and instances), by the look-back from the last run the ledger recorded. A
 * first start logs no past; a restart within the window sends late instead. Real SQLite ledger, and Redis
 * when REDIS_URL is set; the local service on a frozen simulated clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import { type Ledger, ledgerKey } from '../../src/notify/ledger.ts';
import { type Subscription, subscriptionsOf } from '../../src/notify/plan.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { discordProcess, MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const MINUTE = 60_000;
const HOUR = 3600_000;
const dir = mkdtempSync(join(tmpdir(), 'matchday-downtime-drops-'));
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

const BACKENDS: { name: string; open: (store: string) => Ledger; skip: boolean }[] = [
  { name: 'SQLite', open: (store) => new SqliteLedger(join(dir, `${store}.sqlite`)), skip: false },
  {
    name: `Redis${process.env.REDIS_URL ? '' : ' (skipped: REDIS_URL is not set)'}`,
    open: (store) =>
      new RedisLedger(process.env.REDIS_URL ?? '', { prefix: `test:${process.pid}:${store}:` }),
    skip: !process.env.REDIS_URL,
  },
];

function findPlan(pick: (p: SeriesPlan) => boolean): SeriesPlan {
  const from = FROM + 2 * HOUR;
  const plans = service.world
    .window(from)
    .series.filter(
      (p) =>
        p.start >= from &&
        p.start < from + 5 * 24 * HOUR &&
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

/** The subscription of channel `id` of tenant discord:1, as the notifier derives it. */
function subOf(settings: Partial<Settings>, id: string): Subscription {
  const parsed = settingsSchema.parse({ ...defaultSettings(), ...settings });
  const sub = subscriptionsOf('discord:1', parsed).find((s) => s.channelId === id);
  if (!sub) throw new Error(`no subscription for ${id}`);
  return sub;
}

/** Runs of notifiers one after another (or side by side) on one ledger store, with one record of posts and logs. */
function deployment(backend: (typeof BACKENDS)[number], store: string, settings: Partial<Settings>) {
  const tenants = new MemoryTenants();
  tenants.set('discord:1', settings);
  const discord = new RecordingDelivery('discord', () => clock.nowMs());
  const logger = memoryLogger();
  /** One process: a notifier on its own opening of the ledger. */
  const start = () => {
    const ledger = backend.open(store);
    const client = uncachedClient(service);
    return discordProcess({ client, ledger, tenants, clock, discord, logger });
  };
  /** Every key logged with a message containing `text`, as often as it was logged. */
  const logged = (text: string) =>
    logger.lines
      .filter((l) => l.msg?.includes(text))
      .flatMap((l) => (l.obj as { keys?: string[] }).keys ?? []);
  const posted = () => discord.posts().map((p) => p.key);
  return { start, logged, posted };
}

async function play(notifiers: { tick(): Promise<void> }[], from: number, to: number, step = 5 * MINUTE) {
  for (let t = from; t < to; t += step) {
    clock.set(new Date(t));
    await Promise.all(notifiers.map((n) => n.tick()));
  }
}

/** A 00:05 UTC digest day with a series of the channel's game and tier, and its key. */
function digestDay() {
  const plan = findPlan((p) => new Date(p.start).getUTCHours() >= 1);
  const day = new Date(plan.start).toISOString().slice(0, 10);
  const slot = Date.parse(`${day}T00:05:00Z`);
  const settings: Partial<Settings> = {
    games: [plan.game],
    tiers: [plan.tier],
    timezone: 'UTC',
    digestTime: '00:05',
    channels: [channel('news', ['digest'])],
  };
  const sub = subOf(settings, 'news');
  return { slot, settings, key: ledgerKey('digest', day, sub.digestTime, sub) };
}

describe.each(BACKENDS)('drops while down, on the $name ledger', (backend) => {
  it.skipIf(backend.skip)(
    'a digest whose whole window passed while down is logged once with its key, by one of two instances, and never posted',
    async () => {
      const { slot, settings, key } = digestDay();
      const d = deployment(backend, `digest-down-${slot}`, settings);
      const first = d.start();
      await play([first.notifier], slot - 30 * MINUTE, slot - 15 * MINUTE);
      await first.stop();
      expect(d.logged('dropped')).toEqual([]);

      // Down past the slot and its 3-hour window; two instances start side by side on the ledger.
      const [a, b] = [d.start(), d.start()];
      await play([a.notifier, b.notifier], slot + 3 * HOUR + 10 * MINUTE, slot + 3 * HOUR + 30 * MINUTE);
      expect(d.logged('digest dropped')).toEqual([key]);
      expect(a.notifier.stats.dropped + b.notifier.stats.dropped).toBe(1);
      expect(d.posted()).not.toContain(key);
      const entry = await a.ledger.get(key);
      expect(entry?.state).toBe('failed');
      expect(entry?.reason).toMatch(/^dropped: digest dropped/);
      await a.stop();
      await b.stop();

      // A second restart logs nothing again, and still posts nothing for it.
      const again = d.start();
      await play([again.notifier], slot + 4 * HOUR, slot + 4 * HOUR + 20 * MINUTE);
      expect(again.notifier.stats.dropped).toBe(0);
      expect(d.logged('digest dropped')).toEqual([key]);
      expect(d.posted()).not.toContain(key);
      await again.stop();
    },
    120_000,
  );

  it.skipIf(backend.skip)(
    'a process whose ticks stalled past the window (the machine slept) logs the digest dropped once',
    async () => {
      const { slot, settings, key } = digestDay();
      const d = deployment(backend, `digest-stall-${slot}`, settings);
      const run = d.start();
      await play([run.notifier], slot - 30 * MINUTE, slot - 15 * MINUTE);
      await play([run.notifier], slot + 3 * HOUR + 10 * MINUTE, slot + 3 * HOUR + 30 * MINUTE);
      expect(d.logged('digest dropped')).toEqual([key]);
      expect(run.notifier.stats.dropped).toBe(1);
      expect(d.posted()).not.toContain(key);
      await run.stop();
    },
    120_000,
  );

  it.skipIf(backend.skip)(
    'a first-ever start long after the slot logs no drops; a restart within the window sends the digest late',
    async () => {
      const { slot, settings, key } = digestDay();
      const fresh = deployment(backend, `digest-first-${slot}`, settings);
      const only = fresh.start();
      await play([only.notifier], slot + 3 * HOUR + 10 * MINUTE, slot + 3 * HOUR + 30 * MINUTE);
      expect(fresh.logged('dropped')).toEqual([]);
      expect(only.notifier.stats.dropped).toBe(0);
      expect(fresh.posted()).not.toContain(key);
      await only.stop();

      const late = deployment(backend, `digest-late-${slot}`, settings);
      const before = late.start();
      await play([before.notifier], slot - 30 * MINUTE, slot - 15 * MINUTE);
      await before.stop();
      const after = late.start();
      await play([after.notifier], slot + 2 * HOUR, slot + 2 * HOUR + 10 * MINUTE);
      expect(late.posted()).toEqual([key]);
      expect(late.logged('dropped')).toEqual([]);
      expect((await after.ledger.get(key))?.state).toBe('sent');
      await after.stop();
    },
    120_000,
  );

  it.skipIf(backend.skip)(
    'a series that started and ended while down: its reminder and its result are logged once each, nothing posted',
    async () => {
      const plan = findPlan((p) => p.end - p.start < 4 * HOUR);
      const settings: Partial<Settings> = {
        games: [plan.game],
        tiers: [plan.tier],
        channels: [channel('scores', ['reminders', 'results'], [30])],
      };
      const sub = subOf(settings, 'scores');
      const reminder = ledgerKey('reminder', plan.id, `30m@${plan.start / MINUTE}`, sub);
      const result = ledgerKey('result', plan.id, 'over', sub);
      const d = deployment(backend, `series-down-${plan.id}`, settings);
      const first = d.start();
      await play([first.notifier], plan.start - 2 * HOUR, plan.start - 90 * MINUTE);
      await first.stop();

      const back = d.start();
      await play([back.notifier], plan.end + 3 * HOUR + 10 * MINUTE, plan.end + 3 * HOUR + 20 * MINUTE);
      expect(d.logged('reminder dropped: series started or removed')).toContain(reminder);
      expect(d.logged('result dropped: series ended more than 3 hours ago')).toContain(result);
      expect(d.posted()).not.toContain(reminder);
      expect(d.posted()).not.toContain(result);
      await back.stop();

      // A third start drops neither key again. (Other series of the subscription's game and tier that
      // started or ended in the 40 minutes down since may be dropped, e.g. live cards of series that
      // ended meanwhile: only those are new.)
      const earlier = d.logged('dropped');
      const again = d.start();
      await play([again.notifier], plan.end + 4 * HOUR, plan.end + 4 * HOUR + 10 * MINUTE);
      const fresh = d.logged('dropped').slice(earlier.length);
      expect(again.notifier.stats.dropped).toBe(fresh.length);
      for (const key of fresh) expect(key.split(':')[1]).not.toBe(String(plan.id));
      // Every drop logged once in all: no key twice.
      const all = d.logged('dropped');
      expect(new Set(all).size).toBe(all.length);
      await again.stop();
    },
    120_000,
  );
});
