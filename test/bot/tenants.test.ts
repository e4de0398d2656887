import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, SETTINGS_VERSION } from '../../src/bot/settings.ts';
import { openTenantStore, StoreError } from '../../src/bot/tenants.ts';
import { UserError } from '../../src/core/errors.ts';
import { captureLogs, tempStore } from './helpers.ts';

describe('TenantStore on SQLite', () => {
  let dir: string;
  const logs = captureLogs();
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-tenants-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives defaults to a new tenant: all games, tiers 1 and 2, UTC, spoilers shown, 15-minute reminders', async () => {
    const { store } = await tempStore(logs.logger, dir);
    const settings = await store.get('discord:1');
    expect(settings).toEqual(defaultSettings());
    expect(settings).toMatchObject({
      games: [],
      tiers: [1, 2],
      timezone: 'UTC',
      spoilers: 'show',
      reminderLeads: [15],
    });
    expect(await store.list()).toEqual([]);
    await store.close();
  });

  it('keeps settings across a restart (a real SQLite file) and keeps tenants apart', async () => {
    const first = await tempStore(logs.logger, dir);
    await first.store.save('discord:1', { ...defaultSettings(), timezone: 'Asia/Tokyo', games: [1, 3] });
    await first.store.save('slack:T1', { ...defaultSettings(), spoilers: 'hide' });
    await first.store.close();

    const second = await tempStore(logs.logger, dir);
    expect(second.path).toBe(first.path);
    expect(await second.store.get('discord:1')).toMatchObject({
      timezone: 'Asia/Tokyo',
      games: [1, 3],
      spoilers: 'show',
    });
    expect(await second.store.get('slack:T1')).toMatchObject({ timezone: 'UTC', spoilers: 'hide' });
    expect(await second.store.list()).toEqual(['discord:1', 'slack:T1']);

    await second.store.purge('discord:1');
    expect(await second.store.get('discord:1')).toEqual(defaultSettings());
    expect(await second.store.list()).toEqual(['slack:T1']);
    await second.store.close();
  });

  it('migrates a version-0 document (boolean spoilers) and writes the migrated version back', async () => {
    const path = join(dir, 'old.sqlite');
    const raw = new Keyv({ store: new KeyvSqlite({ uri: `sqlite://${path}` }), namespace: 'matchday' });
    await raw.set('tenant:discord:7:settings', { spoilers: true, timezone: 'Europe/Paris', tiers: [1] });
    await raw.disconnect();

    const store = await openTenantStore(
      { kind: 'sqlite', url: `sqlite://${path}`, path },
      { logger: logs.logger },
    );
    const settings = await store.get('discord:7');
    expect(settings).toMatchObject({
      version: SETTINGS_VERSION,
      spoilers: 'spoiler',
      timezone: 'Europe/Paris',
      tiers: [1],
    });
    expect(await store.list()).toEqual(['discord:7']);
    await store.close();

    // Moved out of keyv's table into the tenants table, and the migrated version written back.
    const check = new Keyv({ store: new KeyvSqlite({ uri: `sqlite://${path}` }), namespace: 'matchday' });
    expect(await check.get('tenant:discord:7:settings')).toBeUndefined();
    await check.disconnect();
    const rows = await new Promise<{ doc: string }[]>((resolve, reject) => {
      const db = new sqlite3.Database(path);
      db.all('SELECT doc FROM tenants', (error, found: { doc: string }[]) => {
        db.close();
        if (error) reject(error);
        else resolve(found);
      });
    });
    expect(rows.map((r) => JSON.parse(r.doc))).toEqual([
      expect.objectContaining({ version: SETTINGS_VERSION, spoilers: 'spoiler', timezone: 'Europe/Paris' }),
    ]);
    expect(logs.text()).toContain('migrated stored settings');
  });

  it('refuses settings from a newer version instead of overwriting them with defaults', async () => {
    const path = join(dir, 'new.sqlite');
    const raw = new Keyv({ store: new KeyvSqlite({ uri: `sqlite://${path}` }), namespace: 'matchday' });
    await raw.set('tenant:discord:8:settings', { version: SETTINGS_VERSION + 1, timezone: 'UTC' });
    await raw.disconnect();
    const store = await openTenantStore(
      { kind: 'sqlite', url: `sqlite://${path}`, path },
      { logger: logs.logger },
    );
    await expect(store.get('discord:8')).rejects.toThrow(/written by a newer Matchday/);
    await store.close();
  });

  it('refuses invalid settings with the field at fault, and bad tenant ids', async () => {
    const { store } = await tempStore(logs.logger, dir);
    const bad = { ...defaultSettings(), digestTime: '25:99' };
    const error = await store.save('discord:1', bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('digestTime: a time of day as HH:MM');
    await expect(store.get('nowhere:1')).rejects.toThrow(/not a tenant id/);
    await expect(store.get('discord:a b')).rejects.toThrow(/not a tenant id/);
    await store.close();
  });

  it('fails to open with a clear StoreError naming STORE_URL when the path cannot be a file', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const path = join(file, 'matchday.sqlite');
    const error = await openTenantStore(
      { kind: 'sqlite', url: `sqlite://${path}`, path },
      { logger: logs.logger },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/Check STORE_URL/);
  });
});

describe('TenantStore on a damaged or read-only SQLite file', () => {
  let dir: string;
  const logs = captureLogs();
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-damaged-'));
  });
  afterEach(() => {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens a damaged file in a failed state: every call says the store is damaged, nothing crashes', async () => {
    const path = join(dir, 'matchday.sqlite');
    writeFileSync(path, 'this is not a SQLite database\n'.repeat(200));
    const store = await openTenantStore(
      { kind: 'sqlite', url: `sqlite://${path}`, path },
      { logger: logs.logger },
    );
    const error = await store.get('discord:1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).failure).toBe('damaged');
    // Waiting never mends a damaged file: the words say who has to act, not "try again shortly".
    expect((error as StoreError).userMessage).toBe(
      "Settings are unavailable: the settings store is damaged. Waiting will not fix this: the operator of this bot has to repair the store (the bot's log says how).",
    );
    await expect(store.update('discord:1', (s) => s)).rejects.toThrow(/not a SQLite database or is damaged/);
    expect(logs.text()).toContain('the settings store is damaged');
    await store.close();
  });

  /**
   * As root the read-only cases run their child as an unprivileged user (root writes anywhere). That
   * user must be able to reach the checkout: a clone in a private folder (`mktemp -d` makes 0700)
   * cannot be tested that way, and those cases are skipped there with this reason.
   */
  const unreachableAsUser =
    process.getuid?.() === 0 &&
    process
      .cwd()
      .split(sep)
      .map((_, i, parts) => parts.slice(0, i + 1).join(sep) || sep)
      .some((folder) => (statSync(folder).mode & 0o001) === 0);

  /** Opens the store in a child process, as an unprivileged user when the tests run as root. */
  function openAsUser(path: string): { opened: boolean; name?: string; failure?: string; message?: string } {
    const asRoot = process.getuid?.() === 0;
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'test/bot/child-store.ts', 'open', `sqlite://${path}`],
      { encoding: 'utf8', ...(asRoot ? { uid: 65534, gid: 65534 } : {}) },
    );
    return JSON.parse(out.trim().split('\n').pop()!);
  }

  it.skipIf(unreachableAsUser)(
    'refuses a read-only data folder with a message naming the folder and what to do, not EACCES alone',
    () => {
      chmodSync(dir, 0o555);
      const path = join(dir, 'data', 'matchday.sqlite');
      const outcome = openAsUser(path);
      expect(outcome).toMatchObject({ opened: false, name: 'StoreError', failure: 'read-only' });
      expect(outcome.message).toContain(
        `The folder ${join(dir, 'data')} (or the file in it) is not writable`,
      );
      expect(outcome.message).toContain('set STORE_URL to a writable place');
    },
  );

  it.skipIf(unreachableAsUser)(
    'refuses a settings file it may not write, in a folder it may not write',
    async () => {
      const path = join(dir, 'matchday.sqlite');
      const first = await openTenantStore(
        { kind: 'sqlite', url: `sqlite://${path}`, path },
        { logger: logs.logger },
      );
      await first.save('discord:1', defaultSettings());
      await first.close();
      for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o444);
      chmodSync(dir, 0o555);
      const outcome = openAsUser(path);
      expect(outcome).toMatchObject({ opened: false, name: 'StoreError', failure: 'read-only' });
      expect(outcome.message).toContain('is not writable');
    },
  );
});

describe('TenantStore on Redis', () => {
  const url = process.env.REDIS_URL;
  const logs = captureLogs();

  it.skipIf(!url)('keeps settings across a reconnect and lists tenants', async () => {
    const store = await openTenantStore({ kind: 'redis', url: url! }, { logger: logs.logger });
    const tenant = `slack:T${process.pid}`;
    await store.save(tenant, { ...defaultSettings(), timezone: 'America/New_York' });
    await store.close();
    const again = await openTenantStore({ kind: 'redis', url: url! }, { logger: logs.logger });
    expect((await again.get(tenant)).timezone).toBe('America/New_York');
    expect(await again.list()).toContain(tenant);
    await again.purge(tenant);
    expect(await again.list()).not.toContain(tenant);
    await again.close();
  });

  it('fails to open an unreachable Redis with a clear StoreError, without hiding the password', async () => {
    const error = await openTenantStore(
      { kind: 'redis', url: 'redis://:hunter2hunter2@127.0.0.1:1' },
      { logger: logs.logger, timeoutMs: 500 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/redis:\/\/:\*\*\*@127\.0\.0\.1:1.*Check STORE_URL/);
    expect((error as Error).message).not.toContain('hunter2');
  });
});
