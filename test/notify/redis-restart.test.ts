/**
 * A Redis restarted without persistence mid-run. The notifier runs on a Redis ledger and a
 * Redis settings store (both on a redis-server of the test's own, killed and started again empty);
 * the settings come back from the settings mirror, and the sent keys from the ledger mirror
 * (`RedisLedger` `mirror`), so nothing is posted twice and nothing is lost. The platform dedupes
 * nothing (every post is a new message, as on Slack), so a key claimed again would show as a second
 * post. Without the ledger mirror the same run posts many keys twice (the last case).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTenantStore, type TenantStore } from '../../src/bot/tenants.ts';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier, type Notifier } from '../../src/notify/notifier.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { captureLogs } from '../bot/helpers.ts';
import { hasRedisServer, OwnRedis } from '../bot/redis-server.ts';
import { CHILD_SEED, CHILD_TENANTS } from './child-tenants.ts';
import { memoryLogger, postsCarrying, RecordingDelivery, uncachedClient } from './helpers.ts';
import { expectedNotifications } from './world-expect.ts';

const FROM = Date.parse('2025-06-04T06:00:00Z');
const TO = FROM + 6 * 3600_000;
const TICK = 120_000;
/** Redis is killed at this instant of the run (simulated), and is away for two ticks. */
const CRASH_AT = FROM + 3 * 3600_000;

describe.skipIf(!hasRedisServer())('a Redis restarted without persistence mid-run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-redis-restart-'));
  let redis: OwnRedis;
  let service: RunningService;
  const clock = new Clock({ start: new Date(FROM), frozen: true });

  beforeAll(async () => {
    redis = await OwnRedis.start(dir);
    service = await startService({ port: 0, seed: CHILD_SEED, clock, rate: 0 });
  });
  afterAll(async () => {
    await service?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function reachable(call: () => Promise<unknown>): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await call();
        return;
      } catch (error) {
        if (i > 300) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  async function run(name: string, options: { mirror: boolean; restartNotifier: boolean }) {
    await redis.stop();
    await redis.restart();
    clock.set(new Date(FROM));
    const logs = captureLogs();
    const tenants: TenantStore = await openTenantStore(
      { kind: 'redis', url: redis.url },
      { logger: logs.logger, mirrorPath: join(dir, `${name}-settings.sqlite`) },
    );
    for (const [id, settings] of CHILD_TENANTS) await tenants.update(id, () => settings);
    const client = uncachedClient(service);
    const delivery = new RecordingDelivery('discord', () => clock.nowMs());
    delivery.dedupe = 'history';
    const open = () => {
      const mirror = options.mirror ? new SqliteLedger(join(dir, `${name}-ledger.sqlite`)) : undefined;
      const ledger = new RedisLedger(redis.url, { leaseMs: 200, ...(mirror ? { mirror } : {}) });
      const notifier = createNotifier({
        client,
        tenants,
        clock,
        ledger,
        deliveries: { discord: delivery },
        logger: memoryLogger(),
        editIntervalMs: 0,
        tenantsRefreshMs: 60_000,
      });
      return { ledger, notifier };
    };
    let current: { ledger: RedisLedger; notifier: Notifier } = open();
    const stop = async () => {
      await current.notifier.stop();
      await current.ledger.close();
    };
    let postsBeforeCrash = 0;
    try {
      for (let t = FROM; t < TO; t += TICK) {
        if (t === CRASH_AT) {
          postsBeforeCrash = delivery.posts().length;
          await redis.stop();
        }
        if (t === CRASH_AT + 2 * TICK) {
          await redis.restart();
          if (options.restartNotifier) {
            await stop();
            current = open();
          }
          // Both clients reconnect by themselves (with backoff): go on once they are back.
          await reachable(() => tenants.list());
          await reachable(() => current.ledger.getMany(['probe']));
        }
        clock.set(new Date(t));
        await current.notifier.tick().catch(() => undefined);
      }
      await current.notifier.drain();
      expect(await tenants.list()).toEqual(CHILD_TENANTS.map(([id]) => id));
      const world = service.world;
      const expected = expectedNotifications(world, CHILD_TENANTS, FROM, TO);
      const posts = delivery.posts();
      const counts = new Map<string, number>();
      for (const p of posts) counts.set(p.key, (counts.get(p.key) ?? 0) + 1);
      const duplicates = [...counts.entries()].filter(([, n]) => n > 1).map(([key]) => key);
      const missing: string[] = [];
      for (const e of expected) {
        // A result may be the frozen live card: the ledger, not a post, says it went out. A reminder may
        // go out in one message with others due that minute: the ledger holds that message.
        if (counts.has(e.key)) continue;
        if (e.kind === 'result') {
          if ((await current.ledger.get(e.key))?.state !== 'sent') missing.push(e.key);
        } else if ((await postsCarrying(e.key, posts, current.ledger)).length === 0) missing.push(e.key);
      }
      return { postsBeforeCrash, posts: posts.length, expected: expected.length, duplicates, missing };
    } finally {
      await stop();
      await tenants.close();
      await client.close();
    }
  }

  it('the notifier running on: tenants recovered, 0 duplicates, 0 lost', async () => {
    const r = await run('running', { mirror: true, restartNotifier: false });
    expect(r.postsBeforeCrash).toBeGreaterThan(5);
    expect(r.posts).toBeGreaterThan(r.postsBeforeCrash);
    expect(r.duplicates).toEqual([]);
    expect(r.missing).toEqual([]);
  }, 120_000);

  it('the notifier restarted with it (nothing in memory): 0 duplicates, 0 lost', async () => {
    const r = await run('restarted', { mirror: true, restartNotifier: true });
    expect(r.postsBeforeCrash).toBeGreaterThan(5);
    expect(r.duplicates).toEqual([]);
    expect(r.missing).toEqual([]);
  }, 120_000);

  it('without the ledger mirror, the restarted notifier posts keys twice (what the mirror prevents)', async () => {
    const r = await run('no-mirror', { mirror: false, restartNotifier: true });
    expect(r.duplicates.length).toBeGreaterThan(0);
  }, 120_000);
});
