/**
 * Redis stops and comes back empty (a restart without
 * persistence), against a redis-server of the test's own. While it is down, calls fail at once
 * saying the store cannot be reached (no queueing, no hang); once it is back, the settings store and
 * the Redis ledger reconnect by themselves, and the tenants and their subscriptions are restored from
 * the settings mirror (the documented source of truth for a Redis that lost its data).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/bot/command.ts';
import type { NameIndex } from '../../src/bot/names.ts';
import { replyText } from '../../src/bot/reply.ts';
import { type DataClient, Runtime } from '../../src/bot/runtime.ts';
import { channelSubscriptionSchema, defaultSettings } from '../../src/bot/settings.ts';
import { openTenantStore, StoreError, type TenantStore } from '../../src/bot/tenants.ts';
import { Clock } from '../../src/core/clock.ts';
import { NotifierLease } from '../../src/notify/leader.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { startService } from '../../src/service/index.ts';
import { RedisLease } from '../../src/stores/lease-redis.ts';
import { memoryLogger, RecordingDelivery, uncachedClient } from '../notify/helpers.ts';
import { captureLogs } from './helpers.ts';
import { hasRedisServer, OwnRedis } from './redis-server.ts';

/** Repeats `attempt` until it resolves (at most `ms`); the last error otherwise. */
async function eventually<T>(attempt: () => Promise<T>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const timezone = defineCommand({
  name: 'timezone',
  description: 'Says the timezone (needs the settings)',
  usesSettings: true,
  async run({ tenant }) {
    return { cards: [{ title: `Timezone ${tenant.settings.timezone}` }] };
  },
});

describe.skipIf(!hasRedisServer())(
  'settings store and Redis ledger through a Redis restart without persistence',
  () => {
    const logs = captureLogs();
    const dir = mkdtempSync(join(tmpdir(), 'matchday-outage-'));
    let redis: OwnRedis;
    let store: TenantStore;
    let ledger: RedisLedger;
    let runtime: Runtime;

    beforeAll(async () => {
      redis = await OwnRedis.start();
      store = await openTenantStore(
        { kind: 'redis', url: redis.url },
        { logger: logs.logger, mirrorPath: join(dir, 'mirror.sqlite') },
      );
      ledger = new RedisLedger(redis.url);
      runtime = new Runtime({
        commands: [timezone],
        // The command here reads neither: stand-ins for the client and the name index.
        client: { forCaller: () => ({}) } as unknown as DataClient,
        names: { search: () => [] } as unknown as NameIndex,
        tenants: store,
        clock: new Clock(),
        logger: logs.logger,
      });
    });
    afterAll(async () => {
      await store.close();
      await ledger.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('fails at once while Redis is down, then reconnects and restores tenants and subscriptions', async () => {
      const channel = channelSubscriptionSchema.parse({ id: 'C42', name: 'scores', kinds: ['results'] });
      await store.save('slack:T1', {
        ...defaultSettings(),
        timezone: 'Asia/Tokyo',
        follows: [7, 9],
        channels: [channel],
      });
      await store.update('discord:99', (s) => ({ ...s, tiers: [1] }));
      expect(await ledger.claim('before-outage')).toBe(true);

      await redis.stop();
      const down = await store.get('slack:T1').catch((e: unknown) => e);
      expect(down).toBeInstanceOf(StoreError);
      expect((down as StoreError).failure).toBe('unreachable');
      const answer = await runtime.run({
        platform: 'slack',
        tenantKey: 'T1',
        user: { id: 'U1', name: 'Ann', isAdmin: true },
        channel: { id: 'C1' },
        command: 'timezone',
        args: {},
      });
      expect(answer.code).toBe('STORE_UNAVAILABLE');
      expect(replyText(answer.reply)).toContain(
        'Settings are unavailable right now: the settings store cannot be reached.',
      );
      await expect(ledger.claim('during-outage')).rejects.toThrow();
      // Longer than the 5 quick reconnects after which the ledger's client used to close for good.
      await new Promise((resolve) => setTimeout(resolve, 4000));

      await redis.restart();
      // Back, but empty: the first call that finds the epoch marker gone restores from the mirror.
      const listed = await eventually(() => store.list());
      expect(listed).toEqual(['discord:99', 'slack:T1']);
      const restored = await store.get('slack:T1');
      expect(restored).toMatchObject({ timezone: 'Asia/Tokyo', follows: [7, 9] });
      expect(restored.channels).toEqual([channel]);
      expect((await store.get('discord:99')).tiers).toEqual([1]);
      // The ledger reconnected by itself (it used to stay closed for good after about 3 s).
      expect(await eventually(() => ledger.claim('after-outage'))).toBe(true);
      expect(logs.text()).toContain('tenants from the mirror');

      // Writes after the restore build on the restored revision: nothing restored is overwritten later.
      await store.update('slack:T1', (s) => ({ ...s, follows: [...s.follows, 11] }));
      expect((await store.get('slack:T1')).follows).toEqual([7, 9, 11]);
    }, 60_000);

    it('lists a tenant saved again after a restart, and rebuilds a deleted index from the documents', async () => {
      await redis.stop();
      await redis.restart();
      await eventually(() => store.update('slack:T7', (s) => ({ ...s, spoilers: 'hide' })));
      expect(await store.list()).toContain('slack:T7');
      const other = await openTenantStore(
        { kind: 'redis', url: redis.url },
        { logger: logs.logger, mirrorPath: false },
      );
      const { createClient } = await import('@redis/client');
      const raw = createClient({ url: redis.url });
      await raw.connect();
      await raw.del('matchday:settings-index');
      await raw.close();
      // A store opening now rebuilds the index from the stored documents.
      const reopened = await openTenantStore(
        { kind: 'redis', url: redis.url },
        { logger: logs.logger, mirrorPath: false },
      );
      expect(await reopened.list()).toEqual(expect.arrayContaining(['slack:T1', 'slack:T7', 'discord:99']));
      await reopened.close();
      await other.close();
    }, 60_000);

    it('the notifier keeps posting with the subscriptions it loaded while the settings store is away', async () => {
      // Its ledger is a SQLite file, so only the settings store is gone: posting need not wait for it.
      const clock = new Clock({ start: new Date(Date.parse('2025-06-04T06:00:00Z')), frozen: true });
      const service = await startService({ port: 0, seed: 23, clock, rate: 0 });
      const client = uncachedClient(service);
      const ledger = new SqliteLedger(join(dir, 'notify-ledger.sqlite'));
      const delivery = new RecordingDelivery('discord', () => clock.nowMs());
      const log = memoryLogger();
      await store.update('discord:500', (s) => ({
        ...s,
        tiers: [1, 2],
        channels: [channelSubscriptionSchema.parse({ id: 'c500', kinds: ['live', 'results'] })],
      }));
      const notifier = createNotifier({
        client,
        tenants: store,
        clock,
        ledger,
        deliveries: { discord: delivery },
        logger: log,
        editIntervalMs: 0,
        tenantsRefreshMs: 60_000,
      });
      const hour = () => clock.set(new Date(clock.nowMs() + 3600_000));
      try {
        await notifier.tick();
        await redis.stop();
        const before = delivery.posts().length;
        for (let i = 0; i < 4; i++) {
          hour();
          await notifier.tick();
        }
        // Series went live and ended during the outage: their cards and results went out.
        const during = delivery.posts().slice(before);
        expect(during.length).toBeGreaterThan(0);
        expect(during.every((p) => p.tenantId === 'discord:500' && p.channelId === 'c500')).toBe(true);
        const stale = log.lines.filter((l) =>
          l.msg?.includes('notifying with the subscriptions loaded last'),
        );
        expect(stale).toHaveLength(1);
        expect(log.lines.some((l) => l.msg === 'notifier tick failed')).toBe(false);

        await redis.restart();
        await eventually(async () => {
          hour();
          await notifier.tick();
          if (!log.lines.some((l) => l.msg?.includes('subscriptions reloaded'))) throw new Error('not yet');
        });
      } finally {
        await notifier.stop();
        await ledger.close();
        await client.close();
        await service.close();
      }
    }, 60_000);

    it('the notifier lease is taken again as soon as Redis is back, not at its next retry', async () => {
      const led: number[] = [];
      // Renewals a minute apart: only the reconnection can explain a new lease within the wait below.
      const lease = new NotifierLease({
        lease: new RedisLease(redis.url),
        key: 'test:outage-lease',
        ttlMs: 120_000,
        retryMs: 60_000,
        logger: { info: () => undefined, warn: () => undefined },
        lead: async (token) => {
          led.push(token);
        },
        resign: async () => undefined,
      });
      await lease.start();
      expect(lease.leading).toBe(true);
      // A restart without persistence: the lease key is gone with everything else.
      await redis.stop();
      await redis.restart();
      const { createClient } = await import('@redis/client');
      const raw = createClient({ url: redis.url });
      await raw.connect();
      try {
        const held = await eventually(async () => {
          const value = await raw.get('test:outage-lease');
          if (value === null) throw new Error('not taken yet');
          return value;
        }, 20_000);
        expect(held.startsWith(`${lease.owner}|`)).toBe(true);
        expect(lease.leading).toBe(true);
      } finally {
        await raw.close();
        await lease.stop();
      }
    }, 60_000);
  },
);
