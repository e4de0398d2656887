/**
 * `npm run bench:notify -- --faults`: 2 and 3 notifier instances on one ledger (SQLite, and Redis with
 * `--redis URL` or `REDIS_URL`), posting to one shared platform that, like Slack, does not deduplicate
 * (a repeated post is a second message unless the notifier reconciles it by its key). 10% and 30% of
 * posts answer 429 with Retry-After 30-120 s: up to 60 s is waited out inline by the delivery (longer
 * than the claim's lease, so only renewal keeps the claim), longer ones come back as transient and are
 * retried by the ledger.
 *
 * With `--kills N` (N > 0) each instance is a process of its own (`test/notify/child-notifier.ts`,
 * following one simulated clock written by this process) and N of them are SIGKILLed at random
 * moments of random ticks, each restarted at once with its instance identity. With `--kills 0` the
 * instances share this process (no kills; faster).
 *
 *   --hours H          simulated hours (default 6; --quick 2)
 *   --kills N          SIGKILLs per run (default 4; --quick 2); 0: instances in one process
 *   --seeds 1,2        seeds of the 429s and kills (default 1)
 *   --instances 2,3    --shares 0.1,0.3    the runs (default both x both)
 *   --sqlite-only      skip the Redis ledger even when REDIS_URL is set; --redis-only: skip SQLite
 *
 * Every expected key not delivered is printed with its fate: `dropped late: <the log line>` (a
 * lateness rule, logged with its key by the notifier) or `lost`, with every line logged about it.
 * The last line is one JSON object: per run `instances`, `rate_limited_share`, `kills`, `expected`,
 * `delivered`, `duplicates`, `lost`, `dropped_late`, and totals.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reply } from '../src/bot/reply.ts';
import { createClient } from '../src/client/client.ts';
import { Clock } from '../src/core/clock.ts';
import {
  type ChannelTarget,
  claimLost,
  type Delivery,
  type Posted,
  type PostOptions,
} from '../src/notify/delivery.ts';
import { DeliveryError } from '../src/notify/delivery-error.ts';
import type { Ledger, LedgerEntry } from '../src/notify/ledger.ts';
import { createNotifier } from '../src/notify/notifier.ts';
import { RedisLedger } from '../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../src/notify/sqlite-ledger.ts';
import { startService } from '../src/service/index.ts';
import { Rng } from '../src/service/random.ts';
import { World } from '../src/service/world.ts';
import { CHILD_SEED, childTenants } from '../test/notify/child-tenants.ts';
import { MemoryTenants, memoryLogger } from '../test/notify/helpers.ts';
import { type Expected, expectedNotifications } from '../test/notify/world-expect.ts';

const FROM = Date.parse('2025-06-04T06:00:00Z');
const TICK = 60_000;
/** Real ms per simulated second of a Retry-After waited inline (30-60 s -> 150-300 ms). */
const WAIT_SCALE = 5;
/** Real ms of a claim's lease: shorter than the inline waits. */
const LEASE_MS = 120;
/** Copies of the restart test's tenants: 20 servers, 30 channels. */
const COPIES = 10;
/** Simulated ticks after the span, for notifications delayed past its end (see `run`). */
const GRACE = 10 * 60_000;

/** The channels as the platform holds them: every message made, by key. */
class Platform {
  readonly posts = new Map<string, number>();
  readonly ids = new Map<string, string>();
  #seq = 0;
  make(key: string): string {
    this.posts.set(key, (this.posts.get(key) ?? 0) + 1);
    const id = `m-${++this.#seq}`;
    this.ids.set(key, id);
    return id;
  }
}

/** One instance's view of the platform, with 429s at `share`. */
class FaultyDelivery implements Delivery {
  readonly platform = 'discord' as const;
  rateLimited = 0;
  constructor(
    readonly shared: Platform,
    readonly share: number,
    readonly rng: Rng,
  ) {}
  async post(_target: ChannelTarget, _reply: Reply, key: string, options: PostOptions = {}): Promise<Posted> {
    for (;;) {
      if (this.rng.next() >= this.share) break;
      this.rateLimited++;
      const seconds = 30 + Math.floor(this.rng.next() * 91);
      if (seconds > 60) throw new DeliveryError('transient', 'RATE_LIMITED', 'rate limited', seconds * 1000);
      await new Promise((resolve) => setTimeout(resolve, seconds * WAIT_SCALE));
    }
    if (options.stillOurs && !(await options.stillOurs())) throw claimLost(key);
    const found = this.shared.ids.get(key);
    if (options.reconcile && found) return { messageId: found };
    return { messageId: this.shared.make(key) };
  }
  async edit(): Promise<void> {}
}

interface FaultRun {
  ledger: string;
  instances: number;
  rate_limited_share: number;
  rate_limited: number;
  expected: number;
  delivered: number;
  duplicates: number;
  lost: number;
  dropped_late: number;
  seed: number;
  kills: number;
  /** Every expected key not delivered: dropped by a lateness rule (logged with its key) or lost. */
  fates: Fate[];
}

interface Fate {
  key: string;
  /** Simulated minutes after the run's start it was due. */
  due_min: number;
  fate: string;
  /** Its ledger state at the end. */
  ledger: string;
  /** Every line the instances logged about it. */
  trail: string[];
}

async function run(
  ledgerKind: 'sqlite' | string,
  instances: number,
  share: number,
  hours: number,
  seed: number,
): Promise<FaultRun> {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-faults-'));
  const clock = new Clock({ start: new Date(FROM), frozen: true });
  const service = await startService({ port: 0, seed: CHILD_SEED, clock, rate: 0 });
  const tenants = new MemoryTenants();
  for (const [id, s] of childTenants(COPIES)) tenants.set(id, s);
  const platform = new Platform();
  const prefix = `faults:${process.pid}:${Date.now()}:`;
  const ledgers: Ledger[] = [];
  const deliveries: FaultyDelivery[] = [];
  const logs: ReturnType<typeof stamped>[] = [];
  const notifiers = Array.from({ length: instances }, (_, i) => {
    const options = { leaseMs: LEASE_MS, holder: `instance-${i}` };
    const ledger =
      ledgerKind === 'sqlite'
        ? new SqliteLedger(join(dir, 'ledger.sqlite'), options)
        : new RedisLedger(ledgerKind, { ...options, prefix });
    ledgers.push(ledger);
    const delivery = new FaultyDelivery(platform, share, new Rng(seed, 'instance', i));
    deliveries.push(delivery);
    const logger = stamped(memoryLogger(), clock, i);
    logs.push(logger);
    return createNotifier({
      client: createClient({
        baseUrl: service.url,
        secret: service.secret,
        rate: { perSecond: 1e5, burst: 1e5 },
        ttl: { series: 0, matches: 0, live: 0, substages: 0 },
      }),
      tenants,
      clock,
      ledger,
      deliveries: { discord: delivery },
      logger: logger as never,
      editIntervalMs: 0,
    });
  });
  const to = FROM + hours * 3600_000;
  // Expected: what falls due in [FROM, to). The instances tick GRACE longer, so a notification due just
  // before `to` and delayed by a 429 (at most the 2-minute backoff cap or a 120 s Retry-After, again
  // and again at 30%) is counted once it goes out, not as lost.
  for (let t = FROM; t < to + GRACE; t += TICK) {
    clock.set(new Date(t));
    await Promise.all(notifiers.map((n) => n.tick()));
  }
  for (const n of notifiers) await n.stop();

  const expected = expectedOf(to);
  const states = await ledgers[0]!.getMany(expected.map((e) => e.key));
  for (const ledger of ledgers) await ledger.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    ledger: ledgerKind === 'sqlite' ? 'sqlite' : 'redis',
    instances,
    rate_limited_share: share,
    seed,
    kills: 0,
    rate_limited: deliveries.reduce((n, d) => n + d.rateLimited, 0),
    ...tally(
      expected,
      platform.posts,
      states,
      logs.flatMap((l) => l.lines),
    ),
  };
}

/**
 * The same run with each instance a process of its own, SIGKILLed `kills` times at random moments of
 * random ticks and restarted at once with its identity. This process writes the simulated clock to a
 * file; every instance ticks at each instant written, and the next instant is written once every
 * instance (a restarted one too) has finished the tick.
 */
async function processRun(
  ledgerKind: 'sqlite' | string,
  instances: number,
  share: number,
  hours: number,
  seed: number,
  kills: number,
): Promise<FaultRun> {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-faults-'));
  const rng = new Rng(seed, 'kills', instances, share);
  const to = FROM + hours * 3600_000;
  const files = {
    ledger: ledgerKind === 'sqlite' ? join(dir, 'ledger.sqlite') : ledgerKind,
    out: join(dir, 'out.jsonl'),
    clock: join(dir, 'clock'),
    progress: (i: number) => join(dir, `progress-${i}`),
    log: (i: number) => join(dir, `log-${i}.jsonl`),
  };
  const prefix = `faults:${process.pid}:${Date.now()}:`;
  writeFileSync(files.clock, String(FROM));
  const spawnInstance = (i: number): ChildProcess =>
    spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/notify/child-notifier.ts',
        files.ledger,
        files.out,
        files.progress(i),
        String(FROM),
        String(to + GRACE),
        String(TICK),
        '--holder',
        `instance-${i}`,
        '--platform',
        'history',
        '--post-delay',
        '5',
        '--rate-limited',
        String(share),
        '--seed',
        String(seed),
        '--copies',
        String(COPIES),
        '--follow',
        files.clock,
        '--prefix',
        prefix,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CRASH_LOG: files.log(i) } },
    );
  const children = Array.from({ length: instances }, (_, i) => spawnInstance(i));
  const progress = (i: number) => {
    try {
      return Number(readFileSync(files.progress(i), 'utf8')) || 0;
    } catch {
      return 0;
    }
  };
  const ticks = Math.ceil((to - FROM) / TICK);
  // The ticks (within the span) at which an instance is killed, and after how much of the tick.
  const killAt = new Map<number, number>();
  while (killAt.size < Math.min(kills, ticks - 1))
    killAt.set(1 + Math.floor(rng.next() * (ticks - 1)), rng.next());
  let done = 0;
  let lastTickMs = 500;
  try {
    for (let n = 0, t = FROM; t < to + GRACE; n++, t += TICK) {
      const started = Date.now();
      writeFileSync(files.clock, String(t));
      const fraction = killAt.get(n);
      if (fraction !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, fraction * lastTickMs));
        const i = Math.floor(rng.next() * instances);
        const victim = children[i]!;
        const exited = new Promise((resolve) => victim.once('exit', resolve));
        victim.kill('SIGKILL');
        await exited;
        done++;
        children[i] = spawnInstance(i);
      }
      for (;;) {
        const dead = children.findIndex((c) => c.exitCode !== null);
        if (dead >= 0) throw new Error(`instance ${dead} exited with ${children[dead]!.exitCode}`);
        if (children.every((_, i) => progress(i) >= t)) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      if (fraction === undefined) lastTickMs = Date.now() - started;
    }
    writeFileSync(files.clock, 'end');
    const codes = await Promise.all(
      children.map(
        (c) =>
          new Promise<number | null>((resolve) =>
            c.exitCode !== null ? resolve(c.exitCode) : c.once('exit', (code) => resolve(code)),
          ),
      ),
    );
    if (codes.some((code) => code !== 0)) throw new Error(`instances exited with ${codes.join(', ')}`);

    const records = readFileSync(files.out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { op: string; key: string });
    const posts = new Map<string, number>();
    for (const r of records) if (r.op === 'post') posts.set(r.key, (posts.get(r.key) ?? 0) + 1);
    const lines: Line[] = [];
    let rateLimited = 0;
    for (let i = 0; i < instances; i++) {
      if (!existsSync(files.log(i))) continue;
      for (const text of readFileSync(files.log(i), 'utf8').split('\n')) {
        if (!text) continue;
        const l = JSON.parse(text) as { t: number; level: string; msg?: string; obj: unknown };
        if (l.msg === 'rate limited') rateLimited++;
        else
          lines.push({
            level: l.level,
            obj: l.obj,
            at: (l.t - FROM) / 60_000,
            instance: i,
            ...(l.msg ? { msg: l.msg } : {}),
          });
      }
    }
    const expected = expectedOf(to);
    const ledger: Ledger =
      ledgerKind === 'sqlite' ? new SqliteLedger(files.ledger) : new RedisLedger(ledgerKind, { prefix });
    const states = await ledger.getMany(expected.map((e) => e.key));
    await ledger.close();
    return {
      ledger: ledgerKind === 'sqlite' ? 'sqlite' : 'redis',
      instances,
      rate_limited_share: share,
      seed,
      kills: done,
      rate_limited: rateLimited,
      ...tally(expected, posts, states, lines),
    };
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the world says was due in [FROM, to) for the bench's tenants. */
function expectedOf(to: number): Expected[] {
  const world = new World(CHILD_SEED, 1, new Clock({ start: new Date(FROM), frozen: true }));
  return expectedNotifications(world, childTenants(COPIES), FROM, to);
}

/**
 * Counts a run: every post (by key) against what was due. A result may be the live card's edit
 * (frozen), so the ledger, not a post, says it went out. Each key not delivered gets its fate from the
 * lines the instances logged about it: a lateness rule's drop, or lost.
 */
function tally(
  expected: Expected[],
  posts: Map<string, number>,
  states: Map<string, LedgerEntry>,
  lines: Line[],
): Pick<FaultRun, 'expected' | 'delivered' | 'duplicates' | 'lost' | 'dropped_late' | 'fates'> {
  const trail = new Map<string, Line[]>();
  for (const line of [...lines].sort((x, y) => x.at - y.at)) {
    const obj = line.obj as { key?: unknown; keys?: unknown } | undefined;
    // `keys` is a list of ledger keys in drop lines (a count in some others).
    const keys = Array.isArray(obj?.keys) ? (obj.keys as string[]) : [];
    for (const k of [...keys, ...(typeof obj?.key === 'string' ? [obj.key] : [])]) {
      const list = trail.get(k) ?? [];
      list.push(line);
      trail.set(k, list);
    }
  }
  const fates: Fate[] = [];
  for (const e of expected) {
    const delivered = e.kind === 'result' ? states.get(e.key)?.state === 'sent' : posts.has(e.key);
    if (delivered) continue;
    const dropped = trail.get(e.key)?.find((l) => l.msg?.includes('dropped'))?.msg;
    fates.push({
      key: e.key,
      due_min: (e.at - FROM) / 60_000,
      fate: dropped ? `dropped late: ${dropped}` : 'lost',
      ledger: states.get(e.key)?.state ?? 'absent',
      trail: (trail.get(e.key) ?? []).map((l) => `${l.at}m #${l.instance} ${l.level} ${l.msg ?? ''}`),
    });
  }
  const lost = fates.filter((f) => f.fate === 'lost').length;
  // Keys posted more than once, with their trails (to look into; none expected).
  for (const [key, count] of posts)
    if (count > 1)
      fates.push({
        key,
        due_min: Number.NaN,
        fate: `posted ${count} times`,
        ledger: states.get(key)?.state ?? 'absent',
        trail: (trail.get(key) ?? []).map((l) => `${l.at}m #${l.instance} ${l.level} ${l.msg ?? ''}`),
      });
  return {
    expected: expected.length,
    delivered: expected.length - fates.filter((f) => !f.fate.startsWith('posted')).length,
    duplicates: [...posts.values()].reduce((n, c) => n + c - 1, 0),
    lost,
    dropped_late: fates.filter((f) => f.fate.startsWith('dropped')).length,
    fates,
  };
}

interface Line {
  level: string;
  obj: unknown;
  msg?: string;
  /** Simulated minutes since the run began, and the instance that logged it. */
  at: number;
  instance: number;
}

/** A logger that stamps each line with the simulated minute and the instance. */
function stamped(base: ReturnType<typeof memoryLogger>, clock: Clock, instance: number) {
  const lines: Line[] = [];
  const at =
    (level: string) =>
    (obj: unknown, msg?: string): void => {
      lines.push({
        level,
        obj,
        ...(msg !== undefined ? { msg } : {}),
        at: (clock.nowMs() - FROM) / 60_000,
        instance,
      });
    };
  void base;
  return { lines, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

export async function faultsBench(argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const option = (name: string) => {
    const at = argv.indexOf(name);
    return at > 0 ? argv[at + 1] : undefined;
  };
  const hours = Number(option('--hours') ?? (quick ? 2 : 6));
  const kills = Number(option('--kills') ?? (quick ? 2 : 4));
  const redis = argv.includes('--sqlite-only') ? undefined : (option('--redis') ?? process.env.REDIS_URL);
  const ledgers = [...(argv.includes('--redis-only') ? [] : ['sqlite']), ...(redis ? [redis] : [])];
  const seeds = (option('--seeds') ?? '1').split(',').map(Number);
  const instanceCounts = (option('--instances') ?? '2,3').split(',').map(Number);
  const shares = (option('--shares') ?? '0.1,0.3').split(',').map(Number);
  const runs: FaultRun[] = [];
  for (const ledger of ledgers)
    for (const seed of seeds)
      for (const instances of instanceCounts)
        for (const share of shares) {
          const r =
            kills > 0
              ? await processRun(ledger, instances, share, hours, seed, kills)
              : await run(ledger, instances, share, hours, seed);
          runs.push(r);
          console.log(
            `${r.ledger.padEnd(6)} seed ${seed}  instances ${instances}  429s ${share * 100}% (${r.rate_limited})  kills ${r.kills}  expected ${r.expected}  delivered ${r.delivered}  duplicates ${r.duplicates}  lost ${r.lost}  dropped_late ${r.dropped_late}`,
          );
          // Each key not delivered, with its fate and every line logged about it.
          for (const f of r.fates) {
            console.log(`  ${f.fate.padEnd(8)} ${f.key} (due at ${f.due_min} min, ledger ${f.ledger})`);
            for (const line of f.trail) console.log(`      ${line}`);
          }
        }
  if (!redis) console.log('(Redis skipped: set REDIS_URL or pass --redis URL to include the Redis ledger)');
  const sum = (f: (r: FaultRun) => number) => runs.reduce((n, r) => n + f(r), 0);
  console.log(
    JSON.stringify({
      bench: 'notify-faults',
      simulated_hours: hours,
      runs,
      kills: sum((r) => r.kills),
      expected: sum((r) => r.expected),
      delivered: sum((r) => r.delivered),
      duplicates: sum((r) => r.duplicates),
      lost: sum((r) => r.lost),
      dropped_late: sum((r) => r.dropped_late),
    }),
  );
}
