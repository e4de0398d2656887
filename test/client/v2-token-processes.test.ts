/**
 * Two OS processes on one v2 credential pair share one token through the store (issue 11): each
 * runs the real client (test/client/child-v2-token.ts) with its token kept where `matchday start`
 * keeps it (`openTokenStore`: a table of the SQLite store file, or Redis). The first obtains the
 * token; the second, started while the first still runs, reads it from the store: across both,
 * the service sees one POST /oauth/access_token. A third process on another pair is not given it.
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

interface Line {
  phase: 'ready' | 'done';
  pid: number;
  tokenRequests: number;
}

/** A child on `pair` with its token in `where`, and its output lines as they come. */
function child(pair: { id: string; secret: string }, where: string) {
  const proc: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/client/child-v2-token.ts', service.v2.url, pair.id, pair.secret, where],
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
  return { proc, next, finish: () => proc.stdin!.end() };
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

const stores: [string, () => string][] = [
  ['SQLite', () => join(dir, 'matchday.sqlite')],
  ...(REDIS_URL ? ([['Redis', () => REDIS_URL]] as [string, () => string][]) : []),
];

describe.each(stores)('two processes on one v2 pair over %s', (_name, where) => {
  it('make one token request between them, and a process on another pair makes its own', async () => {
    // Another run of this test on the same Redis must not find this run's token: a fresh service
    // issues its own tokens, so the stored one would be refused (and renewed) rather than shared.
    const before = service.v2.tokenRequests;
    const first = child(PAIR, where());
    const a = await first.next('ready');
    const second = child(PAIR, where());
    const b = await second.next('ready');
    second.finish();
    first.finish();
    const [b2, a2] = await Promise.all([second.next('done'), first.next('done')]);
    expect(a.pid).not.toBe(b.pid);
    expect(service.v2.tokenRequests - before).toBe(1);
    expect(a2.tokenRequests + b2.tokenRequests).toBe(1);
    expect(b2.tokenRequests).toBe(0);

    // A pair is a pair: a process on other credentials obtains its own token.
    const other = child(OTHER, where());
    await other.next('ready');
    other.finish();
    expect((await other.next('done')).tokenRequests).toBe(1);
    expect(service.v2.tokenRequests - before).toBe(2);
  });
});
