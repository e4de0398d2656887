/**
 * A channel hears of nothing that was over before it was subscribed (`since`): no results of series
 * that ended earlier, no live card of a series already live (its result still comes), no digest
 * whose slot had passed. A channel without `since` (older settings) keeps the old behaviour; the
 * two side by side show the world did have those results to post.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const T = Date.parse('2025-06-04T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-since-'));
let service: RunningService;
let clock: Clock;

beforeAll(async () => {
  clock = new Clock({ start: new Date(T), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const channel = (id: string, since?: number) => ({
  id,
  games: [],
  tiers: [],
  teams: [],
  kinds: ['reminders' as const, 'live' as const, 'results' as const, 'digest' as const],
  leads: [],
  ...(since !== undefined ? { since: new Date(since).toISOString() } : {}),
});
/** The series id of a ledger key (`result:<id>:over:...`, `live:<id>:card:...`). */
const seriesOf = (key: string) => Number(key.split(':')[1]);

describe('a subscription made at T', () => {
  it('gets no result, live card or digest of what was over or under way before T, and everything after', async () => {
    const tenants = new MemoryTenants();
    tenants.set('discord:1', { channels: [channel('old'), channel('new', T)], digestTime: '10:00' });
    const discord = new RecordingDelivery('discord', () => clock.nowMs());
    const ledger = new SqliteLedger(join(dir, 'ledger.sqlite'));
    const notifier = createNotifier({
      client: uncachedClient(service),
      tenants,
      clock,
      ledger,
      deliveries: { discord },
      logger: memoryLogger() as never,
      editIntervalMs: 0,
    });
    // Under way before T: live at T and started earlier (series start on the quarter hour, so some
    // start at T itself: those went live at T, not before, and get a card).
    const atT = service.world.seriesInWindow(T).filter((s) => s.lifecycle === 'live' && s.tier <= 2);
    const liveAtT = new Set(atT.filter((s) => Date.parse(s.start!) < T).map((s) => s.id));
    const startingAtT = new Set(atT.filter((s) => Date.parse(s.start!) === T).map((s) => s.id));
    expect(liveAtT.size).toBeGreaterThan(0);

    clock.set(new Date(T));
    await notifier.tick();
    const posts = (channelId: string, kind: string) =>
      discord.posts().filter((r) => r.channelId === channelId && r.key.startsWith(`${kind}:`));
    // The old channel shows what a new one is spared: earlier results, cards of live series, the digest.
    expect(posts('old', 'result').length).toBeGreaterThan(0);
    expect(posts('old', 'live').length).toBeGreaterThan(0);
    expect(posts('old', 'digest')).toHaveLength(1);
    // A result at T only of a series over at T itself (forfeited at a start of T), not before.
    const endedAtT = new Set(
      service.world
        .seriesInWindow(T)
        .filter((s) => s.end !== null && Date.parse(s.end) === T)
        .map((s) => s.id),
    );
    expect(posts('new', 'result').filter((r) => !endedAtT.has(seriesOf(r.key)))).toEqual([]);
    expect(posts('new', 'live').filter((r) => !startingAtT.has(seriesOf(r.key)))).toEqual([]);
    expect(posts('new', 'live').length).toBe(
      posts('old', 'live').filter((r) => startingAtT.has(seriesOf(r.key))).length,
    );
    expect(posts('new', 'digest')).toHaveLength(0);

    for (let t = T + 60_000; t <= T + 2 * 3600_000; t += 60_000) {
      clock.set(new Date(t));
      await notifier.tick();
    }
    await notifier.stop();
    await ledger.close();

    const endedAfter = posts('new', 'result').map((r) => seriesOf(r.key));
    const carded = posts('new', 'live').map((r) => seriesOf(r.key));
    // Series live at T: their result, never a live card.
    expect(endedAfter.some((id) => liveAtT.has(id))).toBe(true);
    expect(carded.filter((id) => liveAtT.has(id))).toEqual([]);
    // Series that went live after T: a live card, and no separate result post (the card is frozen).
    expect(carded.length).toBeGreaterThan(0);
    for (const id of carded) {
      const plan = service.world.window(T).series.find((p) => p.id === id)!;
      expect(plan.start).toBeGreaterThanOrEqual(T);
    }
    for (const r of posts('new', 'result')) {
      const series = service.world.seriesInWindow(clock.nowMs()).find((s) => s.id === seriesOf(r.key));
      expect(Date.parse(series!.end!)).toBeGreaterThanOrEqual(T);
    }
  }, 120_000);
});
