/**
 * Two OS processes on one v2 credential pair share one token through the store: each
 * runs the real client (test/client/child-v2-token.ts) with its token kept where `matchday start`
 * keeps it (`openTokenStore`: a table of the SQLite store file, or Redis) and the lock beside it
 * (`openTokenLock`). Started one after the other, the second reads the first's token from the
 * store; started at the same instant, the one that takes the lock asks and the other waits for its
 * token in the store: either way the service sees one POST /oauth/access_token. A process on
 * another pair is not given it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../src/service/index.ts';

const PAIR = { id: 'shared-bot', secret: 'shared-s3cret' };
const OTHER = { id: 'other-bot', secret: 'other-s3cret' };
const REDIS_URL = process.env.REDIS_URL;
/** Every answer of the service takes this long in the same-instant cases: both processes ask before either has a token. */
const SLOW_MS = 700;

interface Line {
  phase: 'armed' | 'ready' | 'done';
  pid: number;
  tokenRequests: number;
}

/** A child on `pair` with its token in `where`, and its output lines as they come. */
function child(pair: { id: string; secret: string }, where: string, mode?: 'nolock') {
  const proc: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'test/client/child-v2-token.ts',
      service.v2.url,
      pair.id,
      pair.secret,
      where,
      ...(mode ? [mode] : []),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines: Line[] = [];
  const waiting: ((line: Line) => void)[] = [];
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Line;
    lines.push(line);
    for (const resolve of waiting.splice(0)) resolve(line);
  });
  const next = (phase: Line['phase']) =>
    new Promise<Line>((resolve, reject) => {
      const found = lines.find((l) => l.phase === phase);
      if (found) return resolve(found);
      proc.once('exit', (code) => reject(new Error(`child exited with ${code} before '${phase}'`)));
      waiting.push((l) => l.phase === phase && resolve(l));
    });
  return { proc, next, go: () => proc.stdin!.write('go\n'), finish: () => proc.stdin!.end() };
}

let service: RunningService;
let dir: string;
beforeAll(async () => {
  service = await startService({ port: 0, rate: 0, v2Clients: [PAIR, OTHER] });
  dir = mkdtempSync(join(tmpdir(), 'matchday-v2-token-'));
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Each case on a store of its own: a token stored by an earlier case (or an earlier run on the same
// Redis, from a service since closed) must not be what a case finds.
let run = 0;
const stores: [string, () => string][] = [
  ['SQLite', () => join(dir, `matchday-${++run}.sqlite`)],
  ...(REDIS_URL
    ? ([['Redis', () => `${REDIS_URL.replace(/\/\d*$/, '')}/${(++run % 15) + 1}`]] as [
        string,
        () => string,
      ][])
    : []),
];

describe.each(stores)('two processes on one v2 pair over %s', (_name, store) => {
  it('make one token request between them, and a process on another pair makes its own', async () => {
    service.faults.latencyMs = 0;
    const where = store();
    const before = service.v2.tokenRequests;
    const first = child(PAIR, where);
    await first.next('armed');
    first.go();
    const a = await first.next('ready');
    const second = child(PAIR, where);
    await second.next('armed');
    second.go();
    const b = await second.next('ready');
    second.finish();
    first.finish();
    const [b2, a2] = await Promise.all([second.next('done'), first.next('done')]);
    expect(a.pid).not.toBe(b.pid);
    expect(service.v2.tokenRequests - before).toBe(1);
    expect(a2.tokenRequests + b2.tokenRequests).toBe(1);
    expect(b2.tokenRequests).toBe(0);

    // A pair is a pair: a process on other credentials obtains its own token.
    const other = child(OTHER, where);
    await other.next('armed');
    other.go();
    await other.next('ready');
    other.finish();
    expect((await other.next('done')).tokenRequests).toBe(1);
    expect(service.v2.tokenRequests - before).toBe(2);
  });

  it('asked at the same instant, one process asks and the other reads its token from the store', async () => {
    // Slow answers: each process has sent its first request before either has a token.
    service.faults.latencyMs = SLOW_MS;
    try {
      const where = store();
      const before = service.v2.tokenRequests;
      const pair = [child(PAIR, where), child(PAIR, where)];
      await Promise.all(pair.map((c) => c.next('armed')));
      for (const c of pair) c.go();
      const ready = await Promise.all(pair.map((c) => c.next('ready')));
      for (const c of pair) c.finish();
      const done = await Promise.all(pair.map((c) => c.next('done')));
      expect(ready[0]!.pid).not.toBe(ready[1]!.pid);
      // Three calls in each process, six in all, at once: one POST /oauth/access_token.
      expect(service.v2.tokenRequests - before).toBe(1);
      expect(done.map((d) => d.tokenRequests).sort()).toEqual([0, 1]);
    } finally {
      service.faults.latencyMs = 0;
    }
  });

  it('without the lock (the race it closes), both processes ask at the same instant', async () => {
    service.faults.latencyMs = SLOW_MS;
    try {
      const where = store();
      const before = service.v2.tokenRequests;
      const pair = [child(PAIR, where, 'nolock'), child(PAIR, where, 'nolock')];
      await Promise.all(pair.map((c) => c.next('armed')));
      for (const c of pair) c.go();
      await Promise.all(pair.map((c) => c.next('ready')));
      for (const c of pair) c.finish();
      const done = await Promise.all(pair.map((c) => c.next('done')));
      // Each process still asks once for its three calls (single flight within a process).
      expect(done.map((d) => d.tokenRequests)).toEqual([1, 1]);
      expect(service.v2.tokenRequests - before).toBe(2);
    } finally {
      service.faults.latencyMs = 0;
    }
  });
});
