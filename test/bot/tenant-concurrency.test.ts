/**
 * Concurrent settings changes all survive, and the list of tenants never
 * misses one, on a real SQLite file and on a real Redis (REDIS_URL), within one process and across
 * child processes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/bot/settings.ts';
import { openTenantStore, type TenantStore } from '../../src/bot/tenants.ts';
import { captureLogs } from './helpers.ts';

/** Runs test/bot/child-store.ts and resolves with what it printed. */
function child(args: string[]): Promise<{ done: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'test/bot/child-store.ts', ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.once('error', reject);
    proc.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()!) as { done: number });
      else reject(new Error(`child-store exited with ${code}: ${out}`));
    });
  });
}

const redisUrl = process.env.REDIS_URL;
const dir = mkdtempSync(join(tmpdir(), 'matchday-concurrency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const backends: { name: string; url: () => string; skip: boolean }[] = [
  { name: 'SQLite', url: () => `sqlite://${join(dir, 'settings.sqlite')}`, skip: false },
  { name: 'Redis', url: () => redisUrl ?? '', skip: !redisUrl },
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(`tenant store on ${backend.name}: concurrent writers`, () => {
    const logs = captureLogs();
    let store: TenantStore;
    let other: TenantStore;
    const run = `${process.pid}x${Date.now()}`;
    const open = () => {
      const url = backend.url();
      return openTenantStore(
        url.startsWith('sqlite://') ? { kind: 'sqlite', url, path: url.slice(9) } : { kind: 'redis', url },
        { logger: logs.logger, mirrorPath: false, timeoutMs: 5000 },
      );
    };
    beforeAll(async () => {
      store = await open();
      other = await open();
    });
    afterAll(async () => {
      await store.close();
      await other.close();
    });

    it('keeps all 16 of 16 follows made at the same moment through two connections', async () => {
      const tenant = `discord:follow-${run}`;
      await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 ? other : store).update(tenant, (s) => ({ ...s, follows: [...s.follows, 100 + i] })),
        ),
      );
      const stored = await store.get(tenant);
      expect([...stored.follows].sort((x, y) => x - y)).toEqual(
        Array.from({ length: 16 }, (_, i) => 100 + i),
      );
    });

    it('keeps three different changes (timezone, channels, tiers) made at once', async () => {
      const tenant = `slack:three-${run}`;
      await store.save(tenant, defaultSettings());
      await Promise.all([
        store.update(tenant, (s) => ({ ...s, timezone: 'Asia/Tokyo' })),
        other.update(tenant, (s) => ({ ...s, channels: [...s.channels, { ...channel('C1') }] })),
        store.update(tenant, (s) => ({ ...s, tiers: [1, 2, 3] })),
      ]);
      const stored = await other.get(tenant);
      expect(stored.timezone).toBe('Asia/Tokyo');
      expect(stored.channels.map((c) => c.id)).toEqual(['C1']);
      expect(stored.tiers).toEqual([1, 2, 3]);
    });

    it('stores nothing when the change refuses (a UserError thrown inside it)', async () => {
      const tenant = `discord:refused-${run}`;
      await store.update(tenant, (s) => ({ ...s, follows: [1] }));
      await expect(
        store.update(tenant, () => {
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect((await store.get(tenant)).follows).toEqual([1]);
    });

    it('keeps all 40 follows from 4 processes writing 10 each at the same instant', async () => {
      const tenant = `discord:procs-${run}`;
      const startAt = String(Date.now() + 2500);
      const results = await Promise.all(
        [0, 1, 2, 3].map((p) =>
          child(['follow', backend.url(), tenant, String(1000 + p * 10), '10', startAt]),
        ),
      );
      expect(results.map((r) => r.done)).toEqual([10, 10, 10, 10]);
      const stored = await store.get(tenant);
      expect(stored.follows).toHaveLength(40);
      expect(new Set(stored.follows)).toEqual(new Set(Array.from({ length: 40 }, (_, i) => 1000 + i)));
    }, 60_000);

    it('lists every tenant after 2 processes add 1,000 new tenants each at the same time', async () => {
      const startAt = String(Date.now() + 2500);
      const results = await Promise.all(
        ['a', 'b'].map((p) => child(['tenants', backend.url(), `t${p}${run}`, '1000', startAt])),
      );
      expect(results.map((r) => r.done)).toEqual([1000, 1000]);
      const listed = new Set(await other.list());
      const missing = ['a', 'b'].flatMap((p) =>
        Array.from({ length: 1000 }, (_, i) => `discord:t${p}${run}-${i}`).filter((id) => !listed.has(id)),
      );
      expect(missing).toEqual([]);
      for (const p of ['a', 'b']) {
        for (let i = 0; i < 1000; i++) await store.purge(`discord:t${p}${run}-${i}`);
      }
      const after = await store.list();
      expect(after.filter((id) => id.includes(run) && id.startsWith('discord:t'))).toEqual([]);
    }, 120_000);
  });
}

function channel(id: string) {
  return {
    id,
    games: [],
    tiers: [],
    teams: [],
    kinds: ['reminders' as const, 'live' as const, 'results' as const, 'digest' as const],
    leads: [],
  };
}
