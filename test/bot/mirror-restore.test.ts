/**
 * A Redis that comes back empty (a restart without persistence, or a deliberate FLUSHDB) is refilled
 * from the process's settings mirror: an explicit, logged behaviour ("restored N tenants from the
 * mirror", and the same sentence for the operator at start), which SETTINGS_MIRROR=off turns off.
 * Against a redis-server of the test's own (emptied by killing it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTenantStore } from '../../src/bot/tenants.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { captureLogs } from './helpers.ts';
import { hasRedisServer, OwnRedis } from './redis-server.ts';

describe('SETTINGS_MIRROR', () => {
  it('is on by default, and off only when told (a wrong value says what would be right)', () => {
    expect(loadConfig({ STORE_URL: 'redis://127.0.0.1:6379' }).store).toEqual({
      kind: 'redis',
      url: 'redis://127.0.0.1:6379',
    });
    expect(loadConfig({ STORE_URL: 'redis://127.0.0.1:6379', SETTINGS_MIRROR: 'off' }).store).toEqual({
      kind: 'redis',
      url: 'redis://127.0.0.1:6379',
      mirror: false,
    });
    let error: unknown;
    try {
      loadConfig({ STORE_URL: 'redis://127.0.0.1:6379', SETTINGS_MIRROR: 'no' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/^Configuration error: SETTINGS_MIRROR must be on or off/);
  });
});

describe.skipIf(!hasRedisServer())('an emptied Redis and the settings mirror', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-mirror-'));
  const mirrorPath = join(dir, 'mirror.sqlite');
  let redis: OwnRedis;

  beforeAll(async () => {
    redis = await OwnRedis.start(dir);
  });
  afterAll(async () => {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores the tenants from the mirror and says how many, in the log and to the operator', async () => {
    const first = await openTenantStore(
      { kind: 'redis', url: redis.url },
      { logger: captureLogs().logger, mirrorPath },
    );
    for (const id of ['discord:1', 'discord:2', 'slack:T1'])
      await first.update(id, (s) => ({ ...s, timezone: 'Europe/Berlin' }));
    await first.close();

    await redis.stop();
    await redis.restart();
    const logs = captureLogs();
    const notices: string[] = [];
    const again = await openTenantStore(
      { kind: 'redis', url: redis.url },
      { logger: logs.logger, mirrorPath, onRestore: (n) => notices.push(n) },
    );
    expect(await again.list()).toEqual(['discord:1', 'discord:2', 'slack:T1']);
    expect((await again.get('slack:T1')).timezone).toBe('Europe/Berlin');
    expect(logs.text()).toContain(`restored 3 tenants from the mirror ${mirrorPath}`);
    expect(notices).toEqual([
      `Restored 3 tenants from the mirror ${mirrorPath}: Redis had lost its data (set SETTINGS_MIRROR=off to start empty instead).`,
    ]);
    // A second open finds the marker: nothing restored, nothing said.
    await again.close();
    const third = await openTenantStore(
      { kind: 'redis', url: redis.url },
      { logger: logs.logger, mirrorPath, onRestore: (n) => notices.push(n) },
    );
    expect(notices).toHaveLength(1);
    await third.close();
  });

  it('with SETTINGS_MIRROR=off, an emptied Redis starts with no tenants, and the log says the mirror is off', async () => {
    expect(existsSync(mirrorPath)).toBe(true);
    await redis.stop();
    await redis.restart();
    const logs = captureLogs();
    const notices: string[] = [];
    const { store } = loadConfig({ STORE_URL: redis.url, SETTINGS_MIRROR: 'off' });
    const tenants = await openTenantStore(store, {
      logger: logs.logger,
      mirrorPath,
      onRestore: (n) => notices.push(n),
    });
    expect(await tenants.list()).toEqual([]);
    expect(notices).toEqual([]);
    expect(logs.text()).toContain('the mirror is off (SETTINGS_MIRROR=off), nothing restored');
    expect(logs.text()).not.toContain('restored 3');
    await tenants.close();
  });
});
