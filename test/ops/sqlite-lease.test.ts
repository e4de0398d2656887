/**
 * Two real `matchday start` processes on one SQLite store (STORE_URL), as `npm start` beside a
 * headless `matchday start` gives them (docs/operations.md): one holds the notifier lease in the
 * store file (src/stores/lease-sqlite.ts) and runs the notifier, the other stands by and says so;
 * the holder killed with SIGKILL, the other takes the notifier over within the lease's ttl + retry
 * (15 s + 5 s), and no notification key is posted twice (the ledger's states and attempts, and the
 * posts each process printed).
 *
 * Headless processes (stdin /dev/null, no platform token): their notifications for the terminal
 * channel are printed on stdout, numbered per process ("#terminal · message 3").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { matchday, type Running } from './spawn.ts';

const LEASE = 'matchday:notifier:lease';
/** The notifier lease's ttl and retry (src/notify/leader.ts defaults). */
const TTL_AND_RETRY_MS = 15_000 + 5_000;

function query<T>(path: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(err);
      db.all<T>(sql, params, (error, rows) => {
        db.close(() => (error ? reject(error) : resolve(rows)));
      });
    });
  });
}

/** The lease's row in the store file: its owner (`<pid>-<hex>`, null once released) and token. */
async function leaseRow(store: string): Promise<{ owner: string | null; token: number } | undefined> {
  const rows = await query<{ owner: string | null; token: number; expires_at: number }>(
    store,
    'SELECT owner, token, expires_at FROM store_leases WHERE name = ?',
    [LEASE],
  ).catch(() => []);
  const row = rows[0];
  if (!row) return undefined;
  return { owner: row.owner !== null && row.expires_at > Date.now() ? row.owner : null, token: row.token };
}

/** Notifications a headless process printed (each post's header). */
function posts(run: Running): number {
  return run.stdout().match(/^#terminal · message \d+$/gm)?.length ?? 0;
}

async function until<T>(test: () => T | Promise<T>, ms: number, what: string): Promise<NonNullable<T>> {
  const started = Date.now();
  for (;;) {
    const value = await test();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > ms) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('two processes on one SQLite store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-sqlite-lease-'));
  const running: Running[] = [];
  afterAll(async () => {
    for (const run of running) await run.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const t0 = Date.now();
  const mark = (what: string) =>
    process.stderr.write(`sqlite-lease: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);

  it('run one notifier: the other stands by and takes over within ttl + retry of a SIGKILL; nothing posted twice', async () => {
    const store = join(dir, 'data', 'matchday.sqlite');
    const ledger = join(dir, 'data', 'ledger.sqlite');
    const env = {
      STORE_URL: `sqlite://${store}`,
      // 300 simulated seconds a second: reminders and live cards within the run.
      CLOCK_SPEED: '300',
      LOG_LEVEL: 'info',
    };
    // Started together, as a compose file or two terminals would: they race for the lease.
    const both = [matchday(['start'], env), matchday(['start'], env)];
    running.push(...both);
    await Promise.all(
      both.map((run) =>
        run.waitFor((o) => o.stderr.includes('running headless'), 90_000, 'the headless line'),
      ),
    );

    mark('both up');
    // Exactly one holds the lease (in the store file) and runs the notifier; the other stands by and says so.
    const held = await until(() => leaseRow(store), 10_000, 'lease row');
    const holder = both.find((run) => held.owner?.startsWith(`${run.child.pid}-`));
    expect(holder, `lease owner ${held.owner}`).toBeDefined();
    const standby = both.find((run) => run !== holder)!;
    expect(holder!.stderr()).toContain('this process holds the notifier lease and runs the notifier');
    expect(holder!.stdout()).toContain(`this process holds the notifier lease, term ${held.token}`);
    expect(standby.stderr()).toContain(
      'another process holds the notifier lease; this process stands by to take the notifier over',
    );
    expect(standby.stderr()).toContain('standing by for the notifier lease (another process holds it)');
    expect(standby.stderr()).not.toContain('this process holds the notifier lease and runs the notifier');

    // The holder posts; the one standing by posts nothing.
    await until(() => posts(holder!) > 0, 90_000, "the holder's first notification");
    expect(posts(standby)).toBe(0);

    mark("holder's first post");
    // SIGKILL between two bursts of posts (nothing printed for a moment): no post is under way.
    let seen = holder!.stdout().length;
    await until(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        const quiet = holder!.stdout().length === seen;
        seen = holder!.stdout().length;
        return quiet;
      },
      20_000,
      'a quiet moment',
    );
    const postedByHolder = posts(holder!);
    holder!.child.kill('SIGKILL');
    const killedAt = Date.now();
    mark('SIGKILL');
    await holder!.exited;

    // The other takes the lease (a greater token) within ttl + retry, and runs the notifier.
    const taken = await until(
      async () => {
        const row = await leaseRow(store);
        return row?.owner?.startsWith(`${standby.child.pid}-`) ? row : undefined;
      },
      TTL_AND_RETRY_MS + 5_000,
      'takeover',
    );
    const takeoverMs = Date.now() - killedAt;
    process.stderr.write(`sqlite-lease: takeover ${(takeoverMs / 1000).toFixed(1)} s after SIGKILL\n`);
    expect(taken.token).toBeGreaterThan(held.token);
    expect(takeoverMs).toBeLessThanOrEqual(TTL_AND_RETRY_MS + 1_000);
    await standby.waitFor(
      (o) => o.stderr.includes('this process holds the notifier lease and runs the notifier'),
      10_000,
      'the successor running the notifier',
    );
    await until(() => posts(standby) > 0, 60_000, "the successor's first notification");

    mark("successor's first post");
    // Stopped: it releases the lease (kept token) and exits 0.
    standby.child.kill('SIGTERM');
    expect(await standby.exited, standby.stderr().slice(-6000)).toBe(0);
    expect(standby.stderr()).toContain('released the notifier lease');
    expect(await leaseRow(store)).toEqual({ owner: null, token: taken.token });

    // The ledger: every key claimed once and finished (none left claimed, none retaken), each post
    // printed by exactly one process, and as many distinct messages as the two printed.
    const rows = await query<{ key: string; state: string; attempts: number; message_id: string | null }>(
      ledger,
      'SELECT key, state, attempts, message_id, claimed_at, updated_at, session FROM ledger',
    );
    const states: Record<string, number> = {};
    for (const row of rows) states[row.state] = (states[row.state] ?? 0) + 1;
    expect(states.sent ?? 0, JSON.stringify(states)).toBeGreaterThan(0);
    expect(states.claimed ?? 0, JSON.stringify(rows.filter((r) => r.state === 'claimed'))).toBe(0);
    expect(rows.filter((row) => row.attempts > 1).map((row) => row.key)).toEqual([]);
    // Posts' message ids name the process's run (`<run>.<n>`); other rows are the notifier's bookkeeping.
    const messages = new Set(
      rows
        .filter((row) => row.state === 'sent' && /^[0-9a-f]{6}\.\d+$/.test(row.message_id ?? ''))
        .map((row) => row.message_id),
    );
    const printed = postedByHolder + posts(standby);
    expect(messages.size).toBe(printed);
    // Each process's messages carry its own run prefix: both posted, neither the other's keys.
    const runs = new Set([...messages].map((id) => id?.split('.')[0]));
    expect(runs.size).toBe(2);
  }, 240_000);
});
