/**
 * Issue 19, item 3 and issue 18, item 2: Redis stops and comes back empty (a restart without
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
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
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
  },
);
