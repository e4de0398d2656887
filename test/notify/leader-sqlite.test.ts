/**
 * The notifier lease (src/notify/leader.ts) on a SQLite file, as processes sharing one SQLite store
 * run it: one leads, the other stands by and says so once, a stopped holder passes the notifier on
 * with a greater fencing token, a dead holder's lease is taken over once it ran out, and a holder
 * whose lease another took stands down. (The same on Redis: test/ops/lease-and-budget.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotifierLease } from '../../src/notify/leader.ts';
import { SqliteLease } from '../../src/stores/lease-sqlite.ts';

const KEY = 'matchday:notifier:lease';

async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!test()) {
    if (Date.now() - started > ms) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the notifier lease on one SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-leader-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;

  function notifier(path: string, log: string[], name: string, lines: string[] = []): NotifierLease {
    return new NotifierLease({
      lease: new SqliteLease(path),
      ttlMs: 600,
      retryMs: 150,
      logger: {
        info: (_o: object, m: string) => lines.push(`${name}: ${m}`),
        warn: (_o: object, m: string) => lines.push(`${name}: ${m}`),
      },
      lead: async (token) => {
        log.push(`${name} leads ${token}`);
      },
      resign: async () => {
        log.push(`${name} resigns`);
      },
    });
  }

  it('one leads, the other stands by (said once); a stop passes it on with a greater token', async () => {
    const path = join(dir, `store-${++files}.sqlite`);
    const log: string[] = [];
    const lines: string[] = [];
    const a = notifier(path, log, 'a', lines);
    const b = notifier(path, log, 'b', lines);
    await a.start();
    await b.start();
    expect(a.leading).toBe(true);
    expect(b.leading).toBe(false);
    const first = a.token;
    expect(first).toBeGreaterThan(0);
    // Several tries later b still stands by, and said so once.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(a.leading && !b.leading).toBe(true);
    expect(log).toEqual([`a leads ${first}`]);
    const standby =
      'b: another process holds the notifier lease; this process stands by to take the notifier over';
    expect(lines.filter((l) => l === standby)).toHaveLength(1);

    await a.stop();
    expect(lines).toContain('a: released the notifier lease');
    await until(() => b.leading, 3000, 'takeover by b');
    expect(b.token).toBe(first + 1);
    expect(log).toEqual([`a leads ${first}`, 'a resigns', `b leads ${first + 1}`]);
    await b.stop();
  });

  it('a holder that died (never renewed) is replaced once its lease ran out', async () => {
    const path = join(dir, `store-${++files}.sqlite`);
    const raw = new SqliteLease(path);
    const dead = await raw.acquire(KEY, 'dead-process', 500);
    const log: string[] = [];
    const c = notifier(path, log, 'c');
    const started = Date.now();
    await c.start();
    expect(c.leading).toBe(false);
    await until(() => c.leading, 3000, 'takeover by c');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(c.token).toBe(dead + 1);
    expect(await raw.holder(KEY)).toMatchObject({ owner: c.owner, token: dead + 1 });
    await c.stop();
    await raw.close();
  });

  it('a holder whose lease another took stands down, and its stop leaves that lease alone', async () => {
    const path = join(dir, `store-${++files}.sqlite`);
    const raw = new SqliteLease(path);
    const log: string[] = [];
    const d = notifier(path, log, 'd');
    await d.start();
    expect(d.leading).toBe(true);
    // As after a long pause of d's process: its lease ran out and another process took it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await raw.release(KEY, d.owner);
    const other = await raw.acquire(KEY, 'other-process', 60_000);
    await until(() => !d.leading, 3000, 'd standing down');
    expect(log.at(-1)).toBe('d resigns');
    await d.stop();
    expect(await raw.holder(KEY)).toMatchObject({ owner: 'other-process', token: other });
    await raw.close();
  });

  it('a holder whose lease ran out before its renewal stops that term before leading the next', async () => {
    const path = join(dir, `store-${++files}.sqlite`);
    const raw = new SqliteLease(path);
    const log: string[] = [];
    const e = notifier(path, log, 'e');
    await e.start();
    const first = e.token;
    // As a stalled process finds it: its lease gone, nobody else holding it.
    await raw.release(KEY, e.owner);
    await until(() => e.token === first + 1, 3000, 'the new term');
    expect(log).toEqual([`e leads ${first}`, 'e resigns', `e leads ${first + 1}`]);
    await e.stop();
    await raw.close();
  });
});
