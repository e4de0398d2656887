/**
 * Scale-out: 3 Matchday processes (`bench/scale-worker.ts`, the real app) on one Redis and one
 * rate-limited local esports service (5 requests/s, burst 5, one secret for all), users sending
 * commands to every process, the notifier under the Redis lease. Mid-run the lease holder is killed
 * with SIGKILL; another process must take the notifier over.
 *
 *   npm run bench:scale                 3 processes, 240 s, holder killed at 60 s
 *   npm run bench:scale -- --quick      3 processes, 90 s, holder killed at 15 s (about 2 min with start-up)
 *   --processes N  --seconds S  --kill-at S  --commands-per-s C (per process, default 1)
 *   --feed                              each process runs the feed as `matchday start` does (one
 *                                       poller by lease, shared snapshot); default: commands ask
 *                                       the client directly
 *   REDIS_URL=redis://...               the Redis to use (default: starts redis-server on a free port)
 *
 * Figures: upstream_per_s (the service's own request count from when every process is up to the
 * end), upstream_by_family (the same per family, as the processes' clients count it), budget_per_s
 * (the secret's budget), upstream_429 (429s the clients received), rate_limited_to_callers (commands
 * that failed for users: a 429 that reached a caller would be one), takeover_s (SIGKILL of the
 * holder to the new holder's lease), duplicates (notification keys posted more than once, by any
 * process: what a channel on a platform without deduplication would show twice; edits are not
 * posts), lost (keys claimed in the ledger that nobody completed by the end). The last line is one
 * JSON object.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createRedis } from '@redis/client';
import { createLogger } from '../src/bot/logger.ts';
import { channelSubscriptionSchema, defaultSettings, NOTIFICATION_KINDS } from '../src/bot/settings.ts';
import { openTenantStore } from '../src/bot/tenants.ts';
import { startService } from '../src/service/index.ts';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const arg = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const PROCESSES = arg('--processes', 3);
const SECONDS = arg('--seconds', quick ? 90 : 240);
const KILL_AT = arg('--kill-at', quick ? 15 : 60);
const COMMANDS_PER_S = arg('--commands-per-s', 1);
/** Run the feed as `matchday start` does (one poller by lease, commands answered from it). */
const FEED = argv.includes('--feed');
const TENANTS = 20;
const BUDGET = 5;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const children: ChildProcess[] = [];
/** The processes' working folders (removed at the end). */
const folders: string[] = [];
let ownRedis: ChildProcess | undefined;
async function cleanup(): Promise<void> {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  ownRedis?.kill('SIGTERM');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  ownRedis?.kill('SIGKILL');
});

let redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  const port = await freePort();
  ownRedis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  redisUrl = `redis://127.0.0.1:${port}`;
  await new Promise((resolve) => setTimeout(resolve, 300));
}
// A database of its own, emptied: the lease, the budget, the ledger and the tenants of this run only.
const db = 9;
const url = `${redisUrl.replace(/\/\d*$/, '')}/${db}`;
const redis = createRedis({ url });
await redis.connect();
await redis.flushDb();

// Tenants subscribed to everything, in the shared store, before any process starts: each written
// whole (defaults and one channel), so the run does not depend on what any earlier run left. No
// settings mirror here: the emptied database looks like a Redis that lost its data, and a mirror
// would restore an earlier run's documents into it (with the default `./data` mirror, every run
// added one more copy of each channel: 10 listings of one channel, 10 posts of each key).
const logger = createLogger({ level: 'silent', secrets: new Set() });
const store = await openTenantStore({ kind: 'redis', url }, { logger, mirrorPath: false });
for (let i = 0; i < TENANTS; i++) {
  const settings = defaultSettings();
  settings.channels = [
    channelSubscriptionSchema.parse({ id: `${2000 + i}`, name: 'matches', kinds: [...NOTIFICATION_KINDS] }),
  ];
  await store.save(`discord:${1000 + i}`, settings);
}
const listed = await store.list();
for (const id of listed) {
  const channels = (await store.get(id)).channels.length;
  if (channels !== 1) throw new Error(`${id} lists ${channels} channels after set-up; expected 1.`);
}
if (listed.length !== TENANTS) throw new Error(`${listed.length} tenants after set-up; expected ${TENANTS}.`);
await store.close();

const secret = `scale-${randomBytes(6).toString('hex')}`;
const service = await startService({ port: 0, secret, rate: BUDGET, burst: BUDGET, seed: 42, scale: 4 });

interface Status {
  pid: number;
  leading: boolean;
  token: number;
  sent: number;
  answered: number;
  failed: number;
  failures: Record<string, number>;
  upstream: number;
  upstreamByFamily: Record<string, number>;
  rateLimited: number;
}
const last = new Map<number, Status>();
const worker = join(import.meta.dirname, 'scale-worker.ts');
// Each process runs in a folder of its own, as a replica has its own volume: its `./data` (the
// settings mirror) is this run's, never the checkout's or an earlier run's.
for (let i = 0; i < PROCESSES; i++) {
  const folder = mkdtempSync(join(tmpdir(), 'matchday-scale-'));
  folders.push(folder);
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), worker, url, service.url, secret, String(COMMANDS_PER_S)],
    {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SCALE_TENANTS: String(TENANTS), ...(FEED ? { SCALE_FEED: 'poller' } : {}) },
    },
  );
  children.push(child);
  let buffer = '';
  child.stdout!.on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      try {
        const status = JSON.parse(line) as Status;
        last.set(status.pid, status);
      } catch {
        process.stderr.write(`${line}\n`);
      }
    }
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The run starts once every process reports (start-up: name index, lease).
const startedWaiting = performance.now();
while (last.size < PROCESSES) {
  if (performance.now() - startedWaiting > 90_000) throw new Error('the processes did not start within 90 s');
  await sleep(200);
}
const requestsAtStart = service.requests;
const statusAtStart = new Map(last);
const t0 = performance.now();
process.stderr.write(
  `${PROCESSES} processes up; running ${SECONDS} s, killing the lease holder at ${KILL_AT} s\n`,
);

let takeoverS: number | null = null;
let killedPid: number | undefined;
let killedAt = 0;
while (performance.now() - t0 < SECONDS * 1000) {
  await sleep(250);
  const elapsed = (performance.now() - t0) / 1000;
  const holder = await redis.get('matchday:notifier:lease');
  if (killedPid === undefined && elapsed >= KILL_AT && holder) {
    killedPid = Number(holder.split('-')[0]);
    const child = children.find((c) => c.pid === killedPid);
    if (child) {
      child.kill('SIGKILL');
      killedAt = performance.now();
      process.stderr.write(`killed the lease holder (pid ${killedPid}) at ${elapsed.toFixed(1)} s\n`);
    }
  } else if (killedPid !== undefined && takeoverS === null && holder && !holder.startsWith(`${killedPid}-`)) {
    takeoverS = (performance.now() - killedAt) / 1000;
    process.stderr.write(`pid ${holder.split('-')[0]} took the lease over after ${takeoverS.toFixed(1)} s\n`);
  }
}
const seconds = (performance.now() - t0) / 1000;
const upstream = service.requests - requestsAtStart;

/** Ledger keys still claimed (by a process that has not finished them). */
async function claimsLeft(): Promise<number> {
  let n = 0;
  for await (const keys of redis.scanIterator({ MATCH: 'matchday:ledger:*', COUNT: 1000 }))
    for (const key of keys) if ((await redis.get(key))?.startsWith('claimed|')) n++;
  return n;
}
// The killed holder's claims are taken over once the ledger's claim lease (15 s) runs out: give the
// survivors up to 75 s (the new holder's first ticks can be long) before counting what nobody finished.
const claimDeadline = killedAt + 75_000;
while (killedPid !== undefined && performance.now() < claimDeadline && (await claimsLeft()) > 0)
  await sleep(1000);

// Stop the survivors gracefully (they release the lease and finish their posts).
for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
await Promise.all(
  children.map((child) =>
    child.exitCode !== null || child.signalCode !== null
      ? undefined
      : new Promise((resolve) => child.once('exit', resolve)),
  ),
);

// Duplicates and losses, from what was posted and what the ledger says.
const posts = await redis.lRange('bench:scale:posts', 0, -1);
const counts = new Map<string, number>();
for (const key of posts) counts.set(key, (counts.get(key) ?? 0) + 1);
const duplicates = [...counts.values()].reduce((sum, n) => sum + (n > 1 ? n - 1 : 0), 0);
let sentWithoutPost = 0;
let sentInLedger = 0;
let stuckClaims = 0;
for await (const keys of redis.scanIterator({ MATCH: 'matchday:ledger:*', COUNT: 1000 })) {
  for (const key of keys) {
    const value = await redis.get(key);
    if (!value) continue;
    const ledgerKey = key.slice('matchday:ledger:'.length);
    if (value.startsWith('sent|')) {
      sentInLedger++;
      if (!counts.has(ledgerKey)) sentWithoutPost++;
    } else if (value.startsWith('claimed|')) stuckClaims++;
  }
}
// A claim nobody completed by the end is a notification lost (the killed holder's claims expire
// after the ledger's 15 s claim lease and are taken over; the wait above leaves time for that).
const lost = stuckClaims;
const statuses = [...last.values()];
// Where the run's upstream went: each process' requests per family since the run started, summed.
const byFamily: Record<string, number> = {};
for (const status of statuses) {
  const before = statusAtStart.get(status.pid)?.upstreamByFamily ?? {};
  for (const [family, n] of Object.entries(status.upstreamByFamily))
    byFamily[family] = (byFamily[family] ?? 0) + n - (before[family] ?? 0);
}
const upstreamByFamily = Object.fromEntries(
  Object.entries(byFamily)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]),
);
const result = {
  processes: PROCESSES,
  feed: FEED,
  seconds: Math.round(seconds),
  upstream_per_s: Number((upstream / seconds).toFixed(2)),
  budget_per_s: BUDGET,
  upstream_429: statuses.reduce((sum, s) => sum + s.rateLimited, 0),
  // Requests per family as the processes' clients count them (a killed process until its last report).
  upstream_by_family: upstreamByFamily,
  // Commands answered "the service is not answering" (a 429 after the retries would be one).
  rate_limited_to_callers: statuses.reduce((sum, s) => sum + (s.failures.SERVICE_UNAVAILABLE ?? 0), 0),
  // Commands past their deadline (an overloaded machine), and every other user-facing failure.
  slow_for_callers: statuses.reduce((sum, s) => sum + (s.failures.SERVICE_SLOW ?? 0), 0),
  failed_for_callers: statuses.reduce((sum, s) => sum + s.failed, 0),
  commands: statuses.reduce((sum, s) => sum + s.answered, 0),
  takeover_s: takeoverS === null ? null : Number(takeoverS.toFixed(1)),
  notifications: counts.size,
  sent_in_ledger: sentInLedger,
  // Results edit the live card in place and empty digests are recorded without a post.
  sent_by_edit_or_skip: sentWithoutPost,
  duplicates,
  lost,
};
if (!process.env.SCALE_KEEP) await redis.flushDb();
await redis.quit();
await service.close();
await cleanup();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
