/**
 * Over a running feed (`matchday start`) the notifier
 * reads the feed and the name index, and sends no request of its own. Two notifiers watch the same
 * simulated afternoon of the local service, one over a feed and one reading the service itself:
 * they post the same notifications (reminders, live cards, results) under the same ledger keys,
 * and the cards name the teams.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameIndex } from '../../src/bot/names.ts';
import type { Settings } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import { createFeed } from '../../src/feed/feed.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T12:00:00Z');
const HOUR = 3600_000;
const dir = mkdtempSync(join(tmpdir(), 'matchday-feed-source-'));
let service: RunningService;
let clock: Clock;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const settings: Partial<Settings> = {
  games: [],
  tiers: [1],
  spoilers: 'show',
  channels: [
    { id: 'c1', games: [], tiers: [], teams: [], kinds: ['reminders', 'live', 'results'], leads: [30, 10] },
  ],
};

function notifierOf(
  name: string,
  feed?: Parameters<typeof createNotifier>[0]['feed'],
  subscribed: Partial<Settings> = settings,
) {
  const tenants = new MemoryTenants();
  tenants.set('discord:1', subscribed);
  const discord = new RecordingDelivery('discord', () => clock.nowMs());
  const ledger = new SqliteLedger(join(dir, `${name}.sqlite`));
  const logger = memoryLogger();
  const notifier = createNotifier({
    client: uncachedClient(service),
    ...(feed ? { feed } : {}),
    tenants,
    clock,
    ledger,
    deliveries: { discord },
    logger: logger as never,
    editIntervalMs: 0,
  });
  closers.push(async () => {
    await notifier.stop();
    await ledger.close();
  });
  return { notifier, discord, logger };
}

describe('the notifier over the feed', () => {
  it('posts what the notifier reading the service posts, and reads nothing itself', async () => {
    const client = uncachedClient(service);
    const names = createNameIndex({ client, clock });
    await names.refresh();
    const feed = createFeed({ client, clock, horizonMs: 26 * HOUR, pastMs: 3 * HOUR });
    closers.push(() => feed.stop());
    const over = notifierOf('over-feed', { feed, names });
    const own = notifierOf('own-reads');

    for (let t = FROM; t < FROM + 2 * HOUR; t += 60_000) {
      clock.set(new Date(t));
      await feed.tick();
      await over.notifier.tick();
      await own.notifier.tick();
    }
    await over.notifier.drain();
    await own.notifier.drain();

    const keys = (d: RecordingDelivery) =>
      d
        .posts()
        .map((p) => p.key)
        .sort();
    const overKeys = keys(over.discord);
    // Something of every kind went out in two hours of tier 1 (a start every ~15 minutes).
    for (const kind of ['reminder:', 'live:', 'result:'])
      expect(overKeys.filter((k) => k.startsWith(kind)).length, kind).toBeGreaterThan(0);
    expect(overKeys).toEqual(keys(own.discord));
    // The reminders read the same, word for word (names from the name index, casters from the feed),
    // but for the streams' state: the feed reads casters with every live read, so a stream that is
    // online for another series says so (and online streams are listed first), where the notifier's
    // own reads kept a caster's first read. Streams are compared by name, in any order.
    const sameWords = (text: string) => {
      const lines = text.split('\n');
      const streams = lines
        .filter((l) => l.includes('Stream: '))
        .map((l) => l.replace(/ · (online, [\d,]+ viewers|offline)/, ''))
        .sort();
      return [...lines.filter((l) => !l.includes('Stream: ')), ...streams].join('\n');
    };
    const reminders = (d: RecordingDelivery) =>
      d
        .posts()
        .filter((p) => p.key.startsWith('reminder:'))
        .map((p) => `${p.key}\n${sameWords(p.text)}`)
        .sort();
    expect(reminders(over.discord)).toEqual(reminders(own.discord));
    // The feed did the reading: the notifier over it sent no request of its own (the notifier on
    // its own reads through a feed of its own, the same source).
    expect(over.notifier.stats.reads).toBe(0);
  }, 600_000);

  it("waits for the feed's first read of the schedule: the day's digest is not built from half of it", async () => {
    const client = uncachedClient(service);
    const names = createNameIndex({ client, clock });
    await names.refresh();
    const feed = createFeed({ client, clock, horizonMs: 26 * HOUR, pastMs: 3 * HOUR });
    closers.push(() => feed.stop());
    const digestOnly: Partial<Settings> = {
      ...settings,
      channels: [{ id: 'c1', games: [], tiers: [], teams: [], kinds: ['digest'], leads: [30, 10] }],
    };
    // Five minutes past the 09:00 digest: the first tick of a process started now owes the digest.
    clock.set(new Date(Date.parse('2025-06-05T09:05:00Z')));
    const over = notifierOf('over-filling', { feed, names }, digestOnly);
    const own = notifierOf('own-filling', undefined, digestOnly);
    const said = (logger: ReturnType<typeof memoryLogger>, msg: string) =>
      logger.lines.filter((l) => l.msg === msg).length;

    // The feed has read nothing yet: the notifier waits, posts nothing, and says why once.
    expect(feed.filling).toBe(true);
    await over.notifier.tick();
    await over.notifier.tick();
    expect(over.discord.posts()).toEqual([]);
    expect(said(over.logger, "notifications wait for the feed's first read of the schedule")).toBe(1);

    // Once the feed has walked its window, the next tick posts the digest with the day's series.
    await feed.tick();
    expect(feed.filling).toBe(false);
    await over.notifier.tick();
    await own.notifier.tick();
    await over.notifier.drain();
    await own.notifier.drain();
    const digests = (d: RecordingDelivery) => d.posts().filter((p) => p.key.startsWith('digest:'));
    expect(digests(over.discord)).toHaveLength(1);
    expect(digests(over.discord)[0]!.text).not.toContain('Nothing scheduled today');
    expect(digests(over.discord)[0]!.text).toMatch(/ vs /);
    // The same digest, word for word, as the notifier that reads the service itself.
    expect(digests(over.discord).map((p) => [p.key, p.text])).toEqual(
      digests(own.discord).map((p) => [p.key, p.text]),
    );
    expect(said(over.logger, 'the schedule is read; notifications start')).toBe(1);
  }, 600_000);

  it('after downtime, looks back and logs the same drops as the notifier reading the service', async () => {
    const client = uncachedClient(service);
    const names = createNameIndex({ client, clock });
    await names.refresh();
    const feed = createFeed({ client, clock, horizonMs: 26 * HOUR, pastMs: 3 * HOUR });
    closers.push(() => feed.stop());
    const over = notifierOf('over-down', { feed, names });
    const own = notifierOf('own-down');
    clock.set(new Date(FROM));
    await feed.tick();
    await over.notifier.tick();
    await own.notifier.tick();
    // Down for 10 hours: the series of that span started and ended unseen.
    clock.set(new Date(FROM + 10 * HOUR));
    await feed.tick();
    await over.notifier.tick();
    await own.notifier.tick();
    const dropped = (logger: ReturnType<typeof memoryLogger>) =>
      logger.lines
        .filter((l) => l.msg?.includes('dropped'))
        .flatMap((l) => (l.obj as { keys: string[] }).keys)
        .sort();
    const overDropped = dropped(over.logger);
    for (const kind of ['reminder:', 'result:'])
      expect(overDropped.filter((k) => k.startsWith(kind)).length, kind).toBeGreaterThan(0);
    expect(overDropped).toEqual(dropped(own.logger));
    expect(new Set(overDropped).size).toBe(overDropped.length);
  }, 600_000);
});
