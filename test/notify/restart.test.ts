import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { World } from '../../src/service/world.ts';
import { CHILD_SEED, CHILD_TENANTS } from './child-tenants.ts';
import { postsCarrying, type Recorded } from './helpers.ts';
import { expectedNotifications } from './world-expect.ts';

const dir = mkdtempSync(join(tmpdir(), 'matchday-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FROM = Date.parse('2025-06-04T06:00:00Z');
const TO = FROM + 6 * 3600_000;
const TICK = 120_000;
const files = {
  ledger: join(dir, 'ledger.sqlite'),
  out: join(dir, 'out.jsonl'),
  progress: join(dir, 'progress'),
};

function run(): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/notify/child-notifier.ts',
      files.ledger,
      files.out,
      files.progress,
      String(FROM),
      String(TO),
      String(TICK),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function records(): Recorded[] {
  if (!existsSync(files.out)) return [];
  return readFileSync(files.out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Recorded);
}

describe('notifier: killed with SIGKILL mid-run and restarted', () => {
  it('neither loses nor repeats a notification, and keeps editing the same live cards', async () => {
    const first = run();
    const firstExit = exited(first);
    // Kill it once it is well into the run: some posts made, many still to come.
    const deadline = Date.now() + 60_000;
    while (records().filter((r) => r.op === 'post').length < 5 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    first.kill('SIGKILL');
    expect(await firstExit).toBeNull();
    expect(existsSync(`${files.progress}.done`)).toBe(false);
    const beforeKill = records().filter((r) => r.op === 'post').length;
    expect(beforeKill).toBeGreaterThanOrEqual(5);

    const second = run();
    expect(await exited(second)).toBe(0);
    expect(existsSync(`${files.progress}.done`)).toBe(true);

    const world = new World(CHILD_SEED, 1, new Clock({ start: new Date(FROM), frozen: true }));
    const expected = expectedNotifications(world, CHILD_TENANTS, FROM, TO);
    const posts = records().filter((r) => r.op === 'post');
    expect(posts.length).toBeGreaterThan(beforeKill);
    // No duplicate: one post per key across both processes.
    const counts = new Map<string, number>();
    for (const p of posts) counts.set(p.key, (counts.get(p.key) ?? 0) + 1);
    expect([...counts.entries()].filter(([, n]) => n > 1)).toEqual([]);
    // No loss: every expected post is there; every expected result is recorded as sent.
    const ledger = new SqliteLedger(files.ledger);
    const missing: string[] = [];
    for (const e of expected) {
      if (e.kind === 'result') {
        if ((await ledger.get(e.key))?.state !== 'sent') missing.push(e.key);
      } else if ((await postsCarrying(e.key, posts, ledger)).length === 0) missing.push(e.key);
    }
    await ledger.close();
    expect(missing).toEqual([]);
    expect(posts.filter((p) => !expected.some((e) => e.key === p.key)).map((p) => p.key)).toEqual([]);
    // Edits only ever target messages that were posted (a restarted card is edited, not re-posted).
    const ids = new Set(posts.map((p) => p.messageId));
    for (const e of records().filter((r) => r.op === 'edit')) expect(ids.has(e.messageId)).toBe(true);
  }, 120_000);
});
