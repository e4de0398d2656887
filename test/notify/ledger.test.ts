import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Ledger, LedgerError, type LedgerOptions, ledgerKey } from '../../src/notify/ledger.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { openSqliteLedger, SqliteLedger } from '../../src/notify/sqlite-ledger.ts';

const dir = mkdtempSync(join(tmpdir(), 'matchday-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One contract, run against every backend (as keyv tests its stores). */
function ledgerContract(name: string, make: (leaseMs: number, now: () => number) => Ledger, skip = false) {
  describe.skipIf(skip)(name, () => {
    let n = 0;
    const key = () => `reminder:${++n}:15:discord:discord:g1:c${Date.now()}`;

    it('lets exactly one of many concurrent claims win', async () => {
      const ledger = make(60_000, Date.now);
      const k = key();
      const results = await Promise.all(Array.from({ length: 20 }, () => ledger.claim(k)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await ledger.get(k))?.state).toBe('claimed');
      await ledger.close();
    });

    it('records the message id once sent and never lets the key be claimed again', async () => {
      const ledger = make(0, Date.now);
      const k = key();
      expect(await ledger.claim(k)).toBe(true);
      await ledger.markSent(k, 'm-1');
      expect(await ledger.findMessage(k)).toBe('m-1');
      expect(await ledger.claim(k)).toBe(false);
      const entry = await ledger.get(k);
      expect(entry?.state).toBe('sent');
      expect(entry?.messageId).toBe('m-1');
      await ledger.close();
    });

    it('gives a released key back, but release never erases a sent key', async () => {
      const ledger = make(60_000, Date.now);
      const k = key();
      expect(await ledger.claim(k)).toBe(true);
      expect(await ledger.claim(k)).toBe(false);
      await ledger.release(k);
      expect(await ledger.get(k)).toBeUndefined();
      expect(await ledger.claim(k)).toBe(true);
      await ledger.markSent(k, 'm-2');
      await ledger.release(k);
      expect(await ledger.findMessage(k)).toBe('m-2');
      await ledger.close();
    });

    it('keeps a failed key failed with its reason', async () => {
      const ledger = make(0, Date.now);
      const k = key();
      expect(await ledger.claim(k)).toBe(true);
      await ledger.fail(k, 'MISSING_PERMISSIONS');
      expect(await ledger.claim(k)).toBe(false);
      const entry = await ledger.get(k);
      expect(entry?.state).toBe('failed');
      expect(entry?.reason).toBe('MISSING_PERMISSIONS');
      expect(await ledger.findMessage(k)).toBeUndefined();
      await ledger.close();
    });

    it('claims a batch atomically per key: concurrent batches and single claims each win a key once', async () => {
      const ledger = make(60_000, Date.now);
      const keys = Array.from({ length: 30 }, key);
      const taken = keys[0]!;
      await ledger.claim(taken);
      const sentKey = keys[1]!;
      await ledger.markSent(sentKey, 'm-sent');
      const results = await Promise.all([
        ledger.claimMany(keys),
        ledger.claimMany([...keys].reverse()),
        ...keys.slice(2, 8).map(async (k) => ((await ledger.claim(k)) ? new Set([k]) : new Set<string>())),
      ]);
      const wins = new Map<string, number>();
      for (const won of results) for (const k of won.keys()) wins.set(k, (wins.get(k) ?? 0) + 1);
      expect(wins.has(taken)).toBe(false);
      expect(wins.has(sentKey)).toBe(false);
      for (const k of keys.slice(2)) expect(wins.get(k)).toBe(1);
      await ledger.close();
    });

    it('marks and reads a batch, and a released key of the batch can be claimed again', async () => {
      const ledger = make(60_000, Date.now);
      const keys = Array.from({ length: 5 }, key);
      expect((await ledger.claimMany(keys)).size).toBe(5);
      await ledger.markSentMany(keys.slice(0, 3).map((k, i) => [k, `m-${i}`] as const));
      await ledger.release(keys[3]!);
      const entries = await ledger.getMany([...keys, 'absent:key']);
      expect(entries.has('absent:key')).toBe(false);
      expect(entries.get(keys[0]!)).toMatchObject({ state: 'sent', messageId: 'm-0' });
      expect(entries.get(keys[2]!)).toMatchObject({ state: 'sent', messageId: 'm-2' });
      expect(entries.has(keys[3]!)).toBe(false);
      expect(entries.get(keys[4]!)?.state).toBe('claimed');
      expect([...(await ledger.claimMany(keys)).keys()]).toEqual([keys[3]]);
      expect((await ledger.claimMany([])).size).toBe(0);
      await ledger.close();
    });

    it('records the last run: none on a first start, then only ever later, seen by another opening', async () => {
      const ledger = make(60_000, Date.now);
      expect(await ledger.lastRun()).toBeUndefined();
      await ledger.recordRun(5_000);
      await ledger.recordRun(3_000);
      expect(await ledger.lastRun()).toBe(5_000);
      await Promise.all([ledger.recordRun(9_000), ledger.recordRun(7_000)]);
      const other = make(60_000, Date.now);
      expect(await other.lastRun()).toBe(9_000);
      await other.close();
      await ledger.close();
    });
  });
}

ledgerContract(
  'SqliteLedger',
  (leaseMs, now) => new SqliteLedger(join(dir, 'ledger.sqlite'), { leaseMs, now }),
);
ledgerContract(
  `RedisLedger${process.env.REDIS_URL ? '' : ' (skipped: REDIS_URL is not set; CI starts redis-server and sets it)'}`,
  (leaseMs, now) =>
    new RedisLedger(process.env.REDIS_URL ?? '', {
      leaseMs: Math.max(leaseMs, 1),
      now,
      prefix: `test:${process.pid}:`,
    }),
  !process.env.REDIS_URL,
);

ledgerContract(
  'RedisLedger with a mirror',
  (leaseMs, now) =>
    new RedisLedger(process.env.REDIS_URL ?? '', {
      leaseMs: Math.max(leaseMs, 1),
      now,
      prefix: `test:${process.pid}:m:`,
      mirror: new SqliteLedger(join(dir, 'mirror.sqlite'), { now }),
    }),
  !process.env.REDIS_URL,
);

describe.skipIf(!process.env.REDIS_URL)('RedisLedger: the mirror keeps what Redis forgot', () => {
  it('a sent or failed key whose Redis entry is gone is neither claimed nor unknown, and is written back', async () => {
    const prefix = `test:${process.pid}:forgot:`;
    const mirrorPath = join(dir, 'forgot-mirror.sqlite');
    const open = () =>
      new RedisLedger(process.env.REDIS_URL ?? '', { prefix, mirror: new SqliteLedger(mirrorPath) });
    const first = open();
    const sent = `live:1:card:slack:slack:T1:C${Date.now()}`;
    const failed = `reminder:1:15:slack:slack:T1:C${Date.now()}`;
    const fresh = `result:1:over:slack:slack:T1:C${Date.now()}`;
    expect([...(await first.claimMany([sent, failed])).keys()]).toEqual([sent, failed]);
    await first.markSent(sent, 'M1');
    await first.fail(failed, 'dropped: test');
    await first.recordRun(1234);
    await first.close();
    // Redis loses the data (as a restart without persistence would).
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: process.env.REDIS_URL });
    await raw.connect();
    for (const k of [sent, failed, fresh]) await raw.del(prefix + k);
    await raw.del(`${prefix.replace(/:$/, '')}-last-run`);

    const again = open();
    expect(await again.findMessage(sent)).toBe('M1');
    expect((await again.get(failed))?.reason).toBe('dropped: test');
    expect(await again.lastRun()).toBe(1234);
    expect([...(await again.claimMany([sent, failed, fresh])).keys()]).toEqual([fresh]);
    // Written back: another instance without the mirror sees them in Redis.
    expect(await raw.get(prefix + sent)).toMatch(/^sent\|\d+\|M1$/);
    expect(await raw.get(prefix + failed)).toMatch(/^failed\|\d+\|dropped: test$/);
    await again.close();
    await raw.close();
  });
});

describe('SqliteLedger leases', () => {
  it('lets another process take over a claim only after the holder’s lease ran out', async () => {
    let now = 1_000_000;
    const path = join(dir, 'lease.sqlite');
    const a = new SqliteLedger(path, { leaseMs: 30_000, now: () => now });
    const b = new SqliteLedger(path, { leaseMs: 30_000, now: () => now });
    const k = 'live:7:card:terminal:terminal:local:main';
    expect(await a.claim(k)).toBe(true);
    now += 29_999;
    expect(await b.claim(k)).toBe(false);
    now += 1;
    expect(await b.claim(k)).toBe(true);
    expect(await a.claim(k)).toBe(false);
    await a.close();
    await b.close();
  });

  it('keeps its records across a reopen of the file', async () => {
    const path = join(dir, 'reopen.sqlite');
    const first = new SqliteLedger(path);
    await first.claim('k');
    await first.markSent('k', 'msg-9');
    await first.close();
    const second = new SqliteLedger(path);
    expect(await second.findMessage('k')).toBe('msg-9');
    expect(await second.claim('k')).toBe(false);
    await second.close();
  });
});

describe('SqliteLedger pruning', () => {
  it('deletes entries older than the cutoff and keeps newer ones', async () => {
    let now = 1_000_000;
    const ledger = new SqliteLedger(join(dir, 'prune.sqlite'), { now: () => now });
    await ledger.claim('old-sent');
    await ledger.markSent('old-sent', 'm-old');
    await ledger.claim('old-failed');
    await ledger.fail('old-failed', 'UNKNOWN_CHANNEL');
    now += 10_000;
    await ledger.claim('new-sent');
    await ledger.markSent('new-sent', 'm-new');
    expect(await ledger.prune(now - 5_000)).toBe(2);
    expect(await ledger.get('old-sent')).toBeUndefined();
    expect(await ledger.get('old-failed')).toBeUndefined();
    expect(await ledger.findMessage('new-sent')).toBe('m-new');
    expect(await ledger.prune(now - 5_000)).toBe(0);
    await ledger.close();
  });
});

describe('ledgerKey', () => {
  it('names kind, subject, detail, platform, tenant and channel', () => {
    expect(
      ledgerKey('reminder', 42, '15m', { platform: 'discord', tenantId: 'discord:123', channelId: '456' }),
    ).toBe('reminder:42:15m:discord:123:456');
    expect(
      ledgerKey('digest', '2025-03-30', '09:00', { platform: 'slack', tenantId: 'T1', channelId: 'C1' }),
    ).toBe('digest:2025-03-30:09:00:slack:T1:C1');
  });
});

/** Holders, sessions and leases: what several instances and restarts rely on (both backends). */
function claimContract(name: string, make: (options: LedgerOptions) => Ledger, skip = false) {
  describe.skipIf(skip)(`${name}: holders and leases`, () => {
    let n = 0;
    const key = () => `live:${++n}:card:slack:slack:T1:C${Date.now()}`;

    it('lets a process restarted with the same identity take its predecessor’s claim at once, as retaken', async () => {
      let now = 5_000_000;
      const dead = make({ holder: 'bot-1', leaseMs: 60_000, now: () => now });
      const k = key();
      expect(await dead.claimMany([k])).toEqual(new Map([[k, { retaken: false }]]));
      await dead.close();
      now += 1;
      const other = make({ holder: 'bot-2', leaseMs: 60_000, now: () => now });
      expect(await other.claim(k)).toBe(false);
      const restarted = make({ holder: 'bot-1', leaseMs: 60_000, now: () => now });
      expect(await restarted.claimMany([k])).toEqual(new Map([[k, { retaken: true }]]));
      // The restarted process holds it now: the other instance still cannot take it.
      expect(await other.claim(k)).toBe(false);
      await other.close();
      await restarted.close();
    });

    it('keeps a renewed claim past its lease; an unrenewed one is taken over and its old holder can neither renew nor release it', async () => {
      let now = 7_000_000;
      const a = make({ holder: 'a', leaseMs: 10_000, now: () => now });
      const b = make({ holder: 'b', leaseMs: 10_000, now: () => now });
      const kept = key();
      const lapsed = key();
      await a.claimMany([kept, lapsed]);
      for (let i = 0; i < 5; i++) {
        now += 6_000;
        expect(await a.renewMany([kept])).toEqual(new Set([kept]));
      }
      // 30 s later: the renewed claim holds, the other one ran out and goes to b, as retaken.
      expect((await b.claimMany([kept, lapsed])).get(lapsed)).toEqual({ retaken: true });
      expect(await b.claim(kept)).toBe(false);
      expect(await a.renewMany([kept, lapsed])).toEqual(new Set([kept]));
      await a.release(lapsed);
      expect((await a.get(lapsed))?.state).toBe('claimed');
      expect(await a.claim(lapsed)).toBe(false);
      await a.close();
      await b.close();
    });

    it('after a release that may have posted, the next claim is retaken; after a plain release it is fresh', async () => {
      const ledger = make({ holder: 'x', leaseMs: 60_000 });
      const maybe = key();
      const plain = key();
      await ledger.claimMany([maybe, plain]);
      await ledger.release(maybe, { maybePosted: true });
      await ledger.release(plain);
      expect(await ledger.claimMany([maybe, plain])).toEqual(
        new Map([
          [maybe, { retaken: true }],
          [plain, { retaken: false }],
        ]),
      );
      await ledger.markSent(maybe, 'm-1');
      expect(await ledger.renewMany([maybe, plain])).toEqual(new Set([plain]));
      await ledger.close();
    });
  });
}

claimContract('SqliteLedger', (options) => new SqliteLedger(join(dir, 'holders.sqlite'), options));
claimContract(
  'RedisLedger with a mirror',
  (options) =>
    new RedisLedger(process.env.REDIS_URL ?? '', {
      ...options,
      prefix: `test:${process.pid}:hm:`,
      mirror: new SqliteLedger(join(dir, 'holders-mirror.sqlite'), options.now ? { now: options.now } : {}),
    }),
  !process.env.REDIS_URL,
);
claimContract(
  'RedisLedger',
  (options) => new RedisLedger(process.env.REDIS_URL ?? '', { ...options, prefix: `test:${process.pid}:h:` }),
  !process.env.REDIS_URL,
);

describe('SqliteLedger integrity', () => {
  const logger = { warn: () => undefined };

  it('refuses a damaged file with an operator message, and with LEDGER_START_FRESH sets it aside and starts anew', async () => {
    const path = join(dir, 'damaged.sqlite');
    writeFileSync(path, 'this is not a database, it was overwritten by mistake'.repeat(200));
    const error = await openSqliteLedger(path, {
      startFresh: false,
      usedBefore: async () => true,
      logger,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerError);
    expect(error).toMatchObject({ problem: 'damaged' });
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('LEDGER_START_FRESH=yes');
    const fresh = await openSqliteLedger(path, { startFresh: true, usedBefore: async () => true, logger });
    expect(await fresh.claim('k')).toBe(true);
    await fresh.close();
    expect(readdirSync(dir).some((name) => name.startsWith('damaged.sqlite.damaged-'))).toBe(true);
  });

  it('refuses a ledger missing after use (the settings store has tenants), but creates one on a first start', async () => {
    const path = join(dir, 'gone.sqlite');
    const error = await openSqliteLedger(path, {
      startFresh: false,
      usedBefore: async () => true,
      logger,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ problem: 'missing' });
    expect((error as Error).message).toContain('was deleted or moved');
    expect(existsSync(path)).toBe(false);
    const first = await openSqliteLedger(path, { startFresh: false, usedBefore: async () => false, logger });
    await first.close();
    expect(existsSync(path)).toBe(true);
  });

  it('notices the file deleted while running: verify() and the notifier stop with a clear message', async () => {
    const path = join(dir, 'deleted.sqlite');
    const ledger = new SqliteLedger(path);
    await ledger.verify();
    rmSync(path);
    const error = await ledger.verify().catch((e: unknown) => e);
    expect(error).toMatchObject({ problem: 'missing' });
    expect((error as Error).message).toContain('deleted or replaced while Matchday was running');
    await ledger.close();
  });

  // Root ignores folder permissions, so this runs only as an ordinary user (as in CI and production).
  it.skipIf(process.getuid?.() === 0)(
    'says which folder is not writable instead of a raw EACCES',
    async () => {
      const folder = join(dir, 'readonly');
      mkdirSync(folder);
      chmodSync(folder, 0o555);
      try {
        const ledger = new SqliteLedger(join(folder, 'ledger.sqlite'));
        const error = await ledger.verify().catch((e: unknown) => e);
        expect(error).toMatchObject({ problem: 'unwritable' });
        expect((error as Error).message).toContain(`make the folder ${folder} writable`);
        await ledger.close();
      } finally {
        chmodSync(folder, 0o755);
      }
    },
  );

  it('upgrades a ledger of the first layout in place and keeps its records', async () => {
    const path = join(dir, 'v0.sqlite');
    const sqlite3 = (await import('sqlite3')).default;
    await new Promise<void>((resolve, reject) => {
      const db = new sqlite3.Database(path);
      db.exec(
        `CREATE TABLE ledger (key TEXT PRIMARY KEY, state TEXT NOT NULL, message_id TEXT, reason TEXT,
          claimed_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
         INSERT INTO ledger VALUES ('old', 'sent', 'm-old', NULL, 1, 1);`,
        (err) => (err ? reject(err) : db.close(() => resolve())),
      );
    });
    const ledger = new SqliteLedger(path);
    expect(await ledger.findMessage('old')).toBe('m-old');
    expect(await ledger.claimMany(['new'])).toEqual(new Map([['new', { retaken: false }]]));
    await ledger.close();
  });
});
