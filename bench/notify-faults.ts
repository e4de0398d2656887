/**
 * `npm run bench:notify -- --faults`: 2 and 3 notifier instances on one ledger (SQLite, and Redis with
 * `--redis URL`), in one process on one simulated clock, posting to one shared platform that, like
 * Slack, does not deduplicate (a repeated post is a second message unless the notifier reconciles it
 * by its key). 10% and 30% of posts answer 429 with Retry-After 30-120 s: up to 60 s is waited out
 * inline by the delivery (longer than the claim's lease, so only renewal keeps the claim), longer
 * ones come back as transient and are retried by the ledger. SIGKILLs are measured by `--crash`.
 *
 *   --hours H   simulated hours (default 6; --quick 2)
 *
 * The last line is one JSON object: per run `instances`, `rate_limited_share`, `expected`,
 * `delivered`, `duplicates`, `lost`, `dropped_late`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reply } from '../src/bot/reply.ts';
import { createClient } from '../src/client/client.ts';
import {
  type ChannelTarget,
  claimLost,
  type Delivery,
  DeliveryError,
  type Posted,
  type PostOptions,
} from '../src/notify/delivery.ts';
import type { Ledger } from '../src/notify/ledger.ts';
import { createNotifier } from '../src/notify/notifier.ts';
import { RedisLedger } from '../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../src/notify/sqlite-ledger.ts';
import { Clock } from '../src/service/clock.ts';
import { startService } from '../src/service/index.ts';
import { Rng } from '../src/service/random.ts';
import { World } from '../src/service/world.ts';
import { CHILD_SEED, CHILD_TENANTS } from '../test/notify/child-tenants.ts';
import { MemoryTenants, memoryLogger } from '../test/notify/helpers.ts';
import { expectedNotifications } from '../test/notify/world-expect.ts';

const FROM = Date.parse('2025-06-04T06:00:00Z');
const TICK = 60_000;
/** Real ms per simulated second of a Retry-After waited inline (30-60 s -> 150-300 ms). */
const WAIT_SCALE = 5;
/** Real ms of a claim's lease: shorter than the inline waits. */
const LEASE_MS = 120;

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
  lost_keys: string[];
}

async function run(
  ledgerKind: 'sqlite' | string,
  instances: number,
  share: number,
  hours: number,
): Promise<FaultRun> {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-faults-'));
  const clock = new Clock({ start: new Date(FROM), frozen: true });
  const service = await startService({ port: 0, seed: CHILD_SEED, clock, rate: 0 });
  const tenants = new MemoryTenants();
  // Ten copies of the restart test's tenants: 20 servers, 30 channels.
  const settings: [string, (typeof CHILD_TENANTS)[number][1]][] = CHILD_TENANTS.flatMap(([id, s]) =>
    Array.from({ length: 10 }, (_, i): [string, typeof s] => [`${id}${i}`, s]),
  );
  for (const [id, s] of settings) tenants.set(id, s);
  const platform = new Platform();
  const prefix = `faults:${process.pid}:${Date.now()}:`;
  const ledgers: Ledger[] = [];
  const deliveries: FaultyDelivery[] = [];
  const logs: ReturnType<typeof memoryLogger>[] = [];
  const notifiers = Array.from({ length: instances }, (_, i) => {
    const options = { leaseMs: LEASE_MS, holder: `instance-${i}` };
    const ledger =
      ledgerKind === 'sqlite'
        ? new SqliteLedger(join(dir, 'ledger.sqlite'), options)
        : new RedisLedger(ledgerKind, { ...options, prefix });
    ledgers.push(ledger);
    const delivery = new FaultyDelivery(platform, share, new Rng(100 + i));
    deliveries.push(delivery);
    const logger = memoryLogger();
    logs.push(logger);
    return createNotifier({
      client: createClient({
        baseUrl: service.url,
        secret: service.secret,
        rate: { perSecond: 1e5, burst: 1e5 },
        ttl: { series: 0, matches: 0, live: 0 },
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
  for (let t = FROM; t < to; t += TICK) {
    clock.set(new Date(t));
    await Promise.all(notifiers.map((n) => n.tick()));
  }
  for (const n of notifiers) await n.stop();

  const world = new World(CHILD_SEED, 1, new Clock({ start: new Date(FROM), frozen: true }));
  const expected = expectedNotifications(world, settings, FROM, to);
  const states = await ledgers[0]!.getMany(expected.map((e) => e.key));
  const dropped = new Set<string>();
  for (const log of logs)
    for (const line of log.lines) {
      const keys = (line.obj as { keys?: string[] } | undefined)?.keys;
      if (line.msg?.includes('dropped') && keys) for (const k of keys) dropped.add(k);
    }
  const lostKeys = expected
    .filter((e) => (e.kind === 'result' ? states.get(e.key)?.state !== 'sent' : !platform.posts.has(e.key)))
    .map((e) => e.key);
  for (const ledger of ledgers) await ledger.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    ledger: ledgerKind === 'sqlite' ? 'sqlite' : 'redis',
    instances,
    rate_limited_share: share,
    rate_limited: deliveries.reduce((n, d) => n + d.rateLimited, 0),
    expected: expected.length,
    delivered: expected.filter((e) =>
      e.kind === 'result' ? states.get(e.key)?.state === 'sent' : platform.posts.has(e.key),
    ).length,
    duplicates: [...platform.posts.values()].reduce((n, c) => n + c - 1, 0),
    lost: lostKeys.filter((k) => !dropped.has(k)).length,
    dropped_late: lostKeys.filter((k) => dropped.has(k)).length,
    lost_keys: lostKeys.filter((k) => !dropped.has(k)).slice(0, 10),
  };
}

export async function faultsBench(argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const hoursArg = argv.indexOf('--hours');
  const hours = hoursArg > 0 ? Number(argv[hoursArg + 1]) : quick ? 2 : 6;
  const redisArg = argv.indexOf('--redis');
  const ledgers = ['sqlite', ...(redisArg > 0 ? [argv[redisArg + 1]!] : [])];
  const runs: FaultRun[] = [];
  for (const ledger of ledgers)
    for (const instances of [2, 3])
      for (const share of [0.1, 0.3]) {
        const r = await run(ledger, instances, share, hours);
        runs.push(r);
        console.log(
          `${r.ledger.padEnd(6)} instances ${instances}  429s ${share * 100}% (${r.rate_limited})  expected ${r.expected}  delivered ${r.delivered}  duplicates ${r.duplicates}  lost ${r.lost}  dropped_late ${r.dropped_late}`,
        );
      }
  const sum = (f: (r: FaultRun) => number) => runs.reduce((n, r) => n + f(r), 0);
  console.log(
    JSON.stringify({
      bench: 'notify-faults',
      simulated_hours: hours,
      runs,
      expected: sum((r) => r.expected),
      delivered: sum((r) => r.delivered),
      duplicates: sum((r) => r.duplicates),
      lost: sum((r) => r.lost),
      dropped_late: sum((r) => r.dropped_late),
    }),
  );
}
