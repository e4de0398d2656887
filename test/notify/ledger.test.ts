import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Ledger, ledgerKey } from '../../src/notify/ledger.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';

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
