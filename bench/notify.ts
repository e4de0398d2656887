/**
 * Notifications at scale: 1, 100, 1,000 and 10,000 tenants with random settings over a simulated
 * day on the local service. Measures upstream requests (the service's own count), notifications
 * expected (computed from the world, not from the notifier), delivered and duplicated, tick time
 * p99 and peak memory. Goal: 10,000 tenants make at most 1.2x the upstream requests of 1 tenant.
 *
 *   npm run bench:notify            24 h, one tick per simulated minute
 *   npm run bench:notify -- --quick 1 h, one tick per 5 simulated minutes, 1, 100 and 1,000 tenants (< 30 s)
 *   --max N                          largest tenant count to run (e.g. `--quick --max 10000`)
 *   --hours H                        simulated hours (default 24, quick 1)
 *   --counts 1,10000                 exactly these tenant counts (the first is the ratio's base)
 *   --tick S                         simulated seconds per tick (10 = the real tick: upstream per
 *                                    simulated second is then what a deployment spends per second)
 *
 *   --crash                          the crash loop instead (`bench/notify-crash.ts`)
 *   --faults                         several instances under 429s and SIGKILLs (`bench/notify-faults.ts`)
 *   --api v2                         the notifier's requests on v3 and on v2 over one window (`bench/notify-api.ts`)
 *
 * The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings, type Settings, settingsSchema } from '../src/bot/settings.ts';
import { createClient } from '../src/client/client.ts';
import { Clock } from '../src/core/clock.ts';
import type { Platform } from '../src/core/tenant-id.ts';
import type { Delivery, Posted } from '../src/notify/delivery.ts';
import { createNotifier } from '../src/notify/notifier.ts';
import { SqliteLedger } from '../src/notify/sqlite-ledger.ts';
import { startService } from '../src/service/index.ts';
import { Rng } from '../src/service/random.ts';
import { MemoryTenants, memoryLogger } from '../test/notify/helpers.ts';
import { type Expected, expectedNotifications } from '../test/notify/world-expect.ts';
import { apiBench } from './notify-api.ts';
import { crashBench } from './notify-crash.ts';
import { faultsBench } from './notify-faults.ts';

const quick = process.argv.includes('--quick');
const hoursArg = process.argv.indexOf('--hours');
const SPAN = (hoursArg > 0 ? Number(process.argv[hoursArg + 1]) : quick ? 1 : 24) * 3600_000;
const tickArg = process.argv.indexOf('--tick');
const TICK = tickArg > 0 ? Number(process.argv[tickArg + 1]) * 1000 : quick ? 300_000 : 60_000;
const maxArg = process.argv.indexOf('--max');
const MAX = maxArg > 0 ? Number(process.argv[maxArg + 1]) : quick ? 1000 : 10_000;
const countsArg = process.argv.indexOf('--counts');
const COUNTS =
  countsArg > 0
    ? process.argv[countsArg + 1]!.split(',').map(Number)
    : [1, 100, 1000, 10_000].filter((n) => n <= MAX);
const FROM = Date.parse('2025-06-04T00:00:00Z');
const SEED = 11;
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Tokyo',
  'Australia/Sydney',
  'America/Sao_Paulo',
];
const KINDS = ['reminders', 'live', 'results', 'digest'] as const;
const PLATFORMS = ['discord', 'slack', 'terminal'] as const;

/**
 * Counts posts per key and edits, and nothing else: a day with 10,000 tenants is millions of posts,
 * too many to keep as records. Like Discord's nonce, a post repeated with its key returns the first
 * message (counted in `deduped`).
 */
class CountingDelivery implements Delivery {
  /** Keys posted (a repeat is answered from `#ids` and counted in `deduped`). */
  readonly posts = new Map<string, number>();
  readonly #ids = new Map<string, string>();
  /** The message ids of every post made (a grouped reminder's other keys are marked with its id). */
  readonly messages = new Set<string>();
  deduped = 0;
  edits = 0;
  #seq = 0;
  constructor(readonly platform: Platform) {}
  async post(_target: unknown, _reply: unknown, key: string): Promise<Posted> {
    const existing = this.#ids.get(key);
    if (existing) {
      this.deduped++;
      return { messageId: existing };
    }
    const messageId = `${this.platform}-${++this.#seq}`;
    this.#ids.set(key, messageId);
    this.messages.add(messageId);
    this.posts.set(key, 1);
    return { messageId };
  }
  async edit(): Promise<void> {
    this.edits++;
  }
}

function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng.next() * list.length)]!;
}

function subset<T>(rng: Rng, list: readonly T[], p: number): T[] {
  const out = list.filter(() => rng.next() < p);
  return out.length > 0 ? out : [pick(rng, list)];
}

function randomSettings(rng: Rng, games: number[], teams: number[]): Settings {
  const channels = Array.from({ length: 1 + Math.floor(rng.next() * 2) }, (_, i) => ({
    id: `ch${i}`,
    kinds: subset(rng, KINDS, 0.6),
    leads: rng.next() < 0.3 ? subset(rng, [5, 10, 15, 30, 60], 0.3) : [],
    teams: rng.next() < 0.1 ? [pick(rng, teams)] : [],
  }));
  return settingsSchema.parse({
    ...defaultSettings(),
    games: rng.next() < 0.2 ? [] : subset(rng, games, 0.4),
    tiers: subset(rng, [1, 2, 3, 4], 0.4),
    timezone: pick(rng, ZONES),
    spoilers: pick(rng, ['show', 'spoiler', 'hide'] as const),
    reminderLeads: subset(rng, [10, 15, 30, 60], 0.4),
    digestTime: `${String(Math.floor(rng.next() * 24)).padStart(2, '0')}:${pick(rng, ['00', '30'])}`,
    digestWhenEmpty: pick(rng, ['skip', 'say'] as const),
    liveUpdates: rng.next() < 0.9,
    channels,
  });
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

interface RunResult {
  tenants: number;
  upstream: number;
  expected: number;
  delivered: number;
  duplicates: number;
  missing: number;
  /** Reminders delivered inside another reminder's message (one message per channel and minute). */
  grouped: number;
  /** Not delivered, and dropped by a documented lateness rule (recorded in the ledger): by rule. */
  droppedLate: Record<string, number>;
  unexpected: number;
  tickP99: number;
  tickMax: number;
  tickP99Steady: number;
  /** Ticks the start-up backlog took (1 when the first tick's budget sufficed). */
  startupTicks: number;
  /** Ticks that ran out of their posting budget (each followed by one more). */
  extraTicks: number;
  /** Live summaries read (every live series, capped per live read). */
  summaries: number;
  slowest: Record<string, number>;
  rssMb: number;
  seconds: number;
}

/**
 * Delivered, missing, grouped and dropped late, per expected notification. A result counts when the
 * ledger has it sent (a frozen live card is its result, with no post of its own); a reminder of a
 * grouped message ("3 series start soon") when the ledger marks it sent with the id of a message
 * that was posted (the post carries the first reminder's key only). What was not delivered but is
 * recorded as dropped by a lateness rule (`failed`, `dropped: <rule>`) is `dropped_late`, by rule.
 */
async function account(
  expected: Expected[],
  posted: Map<string, number>,
  deliveries: Record<string, CountingDelivery>,
  ledger: SqliteLedger,
) {
  const messages = new Set(Object.values(deliveries).flatMap((d) => [...d.messages]));
  const entries = await ledger.getMany(expected.map((e) => e.key));
  let delivered = 0;
  let missing = 0;
  let grouped = 0;
  const droppedLate: Record<string, number> = {};
  for (const e of expected) {
    const entry = entries.get(e.key);
    const sentId = entry?.state === 'sent' ? entry.messageId : undefined;
    if (e.kind === 'result' ? sentId !== undefined : posted.has(e.key)) delivered++;
    else if (e.kind === 'reminder' && sentId !== undefined && messages.has(sentId)) {
      delivered++;
      grouped++;
    } else if (entry?.state === 'failed' && entry.reason?.startsWith('dropped: ')) {
      const rule = entry.reason.slice('dropped: '.length);
      droppedLate[rule] = (droppedLate[rule] ?? 0) + 1;
    } else {
      missing++;
      if (process.argv.includes('--debug') && missing <= 5)
        console.log('  missing', e.kind, e.key, new Date(e.at).toISOString(), JSON.stringify(entry));
    }
  }
  return { delivered, missing, grouped, droppedLate };
}

async function run(count: number, dir: string): Promise<RunResult> {
  const clock = new Clock({ start: new Date(FROM), frozen: true });
  const service = await startService({ port: 0, seed: SEED, clock, rate: 0 });
  const rng = new Rng(SEED, 'bench-notify', count);
  const games = service.world.catalog.games.map((g) => g.game.id);
  const teams = service.world.catalog.teams.slice(0, 200).map((t) => t.id);
  const tenants = new MemoryTenants();
  const list: [string, Settings][] = [];
  for (let i = 0; i < count; i++) {
    const id = `${pick(rng, PLATFORMS)}:t${i}`;
    const s = randomSettings(rng, games, teams);
    tenants.set(id, s);
    list.push([id, s]);
  }
  const deliveries = {
    discord: new CountingDelivery('discord'),
    slack: new CountingDelivery('slack'),
    terminal: new CountingDelivery('terminal'),
  };
  const ledger = new SqliteLedger(join(dir, `ledger-${count}.sqlite`));
  const client = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 1e6, burst: 1e6 },
    // The client's cache runs on real time; a simulated minute passes in milliseconds here.
    ttl: { series: 0, matches: 0, live: 0, streams: 0 },
  });
  const notifier = createNotifier({
    client,
    tenants,
    clock,
    ledger,
    deliveries,
    logger: memoryLogger() as never,
    editIntervalMs: 0,
  });
  const started = performance.now();
  const before = service.requests;
  const ticks: number[] = [];
  let rss = 0;
  let extraTicks = 0;
  // Ticks until the start-up backlog (every running live card and due reminder) is out.
  let startupTicks = 0;
  // The last tick is at the end of the span, so what falls due in the final interval is sent too.
  for (let t = FROM; t <= FROM + SPAN; t += TICK) {
    clock.set(new Date(t));
    // A tick that ran out of its posting budget leaves the rest to the next real tick (10 s later):
    // here the next ticks run at once, at the same simulated instant (they read nothing new).
    do {
      const a = performance.now();
      await notifier.tick();
      ticks.push(performance.now() - a);
      rss = Math.max(rss, process.memoryUsage().rss);
      if (notifier.stats.deferred > 0) extraTicks++;
    } while (notifier.stats.deferred > 0);
    if (startupTicks === 0) startupTicks = ticks.length;
  }
  await notifier.drain();
  const upstream = service.requests - before;
  // The span includes its last instant (the final tick).
  const expected = expectedNotifications(service.world, list, FROM, FROM + SPAN + 1);
  const posted = new Map<string, number>();
  for (const d of Object.values(deliveries)) for (const [key, n] of d.posts) posted.set(key, n);
  const tally = await account(expected, posted, deliveries, ledger);
  const { delivered, missing, grouped, droppedLate } = tally;
  const expectedKeys = new Set(expected.map((e) => e.key));
  const duplicates =
    [...posted.values()].reduce((n, c) => n + (c - 1), 0) +
    Object.values(deliveries).reduce((n, d) => n + d.deduped, 0);
  const unexpectedKeys = [...posted.keys()].filter((k) => !expectedKeys.has(k));
  if (process.argv.includes('--debug'))
    for (const k of unexpectedKeys.slice(0, 5)) console.log('  unexpected', k);
  const unexpected = unexpectedKeys.length;
  await notifier.stop();
  await ledger.close();
  await client.close();
  await service.close();
  return {
    tenants: count,
    upstream,
    expected: expected.length,
    delivered,
    duplicates,
    missing,
    grouped,
    droppedLate,
    unexpected,
    tickP99: Math.round(p99(ticks) * 10) / 10,
    tickMax: Math.round(Math.max(...ticks) * 10) / 10,
    // The first tick carries the start-up backlog (every live card and due reminder at once).
    tickP99Steady: Math.round(p99(ticks.slice(startupTicks)) * 10) / 10,
    startupTicks,
    extraTicks,
    summaries: notifier.stats.summaries,
    slowest: notifier.stats.slowestTick,
    rssMb: Math.round(rss / 1e6),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

if (process.argv.includes('--crash')) {
  await crashBench(process.argv);
  process.exit(0);
}
if (process.argv.includes('--api')) {
  await apiBench(process.argv);
  process.exit(0);
}
if (process.argv.includes('--faults')) {
  await faultsBench(process.argv);
  process.exit(0);
}

/** The table's columns; `grouped`: delivered inside another reminder's message (counted in delivered). */
const HEADER = [
  'tenants',
  'upstream',
  'summaries',
  'expected',
  'delivered',
  '(grouped)',
  'dropped_late',
  'missing',
  'unexpected',
  'duplicates',
  'tick_p99_ms',
  'tick_max_ms',
  'rss_mb',
  'wall_s',
];

const dir = mkdtempSync(join(tmpdir(), 'matchday-bench-notify-'));
const results: RunResult[] = [];
try {
  console.log(
    `notify bench: ${SPAN / 3600_000} simulated hours, one tick per ${TICK / 1000} s, seed ${SEED}`,
  );
  console.log(HEADER.join('  '));
  for (const count of COUNTS) {
    const r = await run(count, dir);
    results.push(r);
    console.log(
      [
        r.tenants,
        r.upstream,
        r.summaries,
        r.expected,
        r.delivered,
        r.grouped,
        dropped(r),
        r.missing,
        r.unexpected,
        r.duplicates,
        r.tickP99,
        r.tickMax,
        r.rssMb,
        r.seconds,
      ]
        .map((v, i) => String(v).padStart(HEADER[i]!.length))
        .join('  '),
    );
    if (dropped(r) > 0) console.log(`         dropped late, by rule: ${JSON.stringify(r.droppedLate)}`);
    console.log(
      `         start-up backlog: ${r.startupTicks} tick(s); after it: p99 ${r.tickP99Steady} ms; budget ran out ${r.extraTicks} time(s); slowest tick by phase (ms): ${JSON.stringify(r.slowest)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
function dropped(r: RunResult): number {
  return Object.values(r.droppedLate).reduce((a, b) => a + b, 0);
}

const one = results[0]!;
const largest = results.at(-1)!;
const maxUpstream = Math.max(...results.map((r) => r.upstream));
const ratio = Math.round((largest.upstream / Math.max(1, one.upstream)) * 100) / 100;
console.log(`upstream ratio ${largest.tenants} tenants / 1 tenant: ${ratio} (goal <= 1.2)`);
const withoutSummaries =
  Math.round(((largest.upstream - largest.summaries) / Math.max(1, one.upstream - one.summaries)) * 100) /
  100;
console.log(`  without live summaries: ${withoutSummaries}`);
// At the real tick (`--tick 10`) this is the notifier's share of the 5 requests/s budget.
const perSecond = Math.round((maxUpstream / (SPAN / 1000)) * 100) / 100;
console.log(`upstream per simulated second: ${perSecond} (ticks every ${TICK / 1000} s)`);
console.log(
  JSON.stringify({
    tenants: largest.tenants,
    upstream_requests_1: one.upstream,
    upstream_requests_max: maxUpstream,
    upstream_ratio: ratio,
    upstream_ratio_without_summaries: withoutSummaries,
    upstream_per_simulated_s: perSecond,
    expected: largest.expected,
    delivered: largest.delivered,
    missing: largest.missing,
    grouped: largest.grouped,
    dropped_late: dropped(largest),
    dropped_late_by_rule: largest.droppedLate,
    duplicates: largest.duplicates,
    tick_p99_ms: largest.tickP99,
    tick_max_ms: largest.tickMax,
    tick_p99_after_startup_ms: largest.tickP99Steady,
    startup_ticks: largest.startupTicks,
    rss_mb: Math.max(...results.map((r) => r.rssMb)),
    simulated_hours: SPAN / 3600_000,
    runs: results.map((r) => ({
      tenants: r.tenants,
      upstream: r.upstream,
      summaries: r.summaries,
      tick_p99_ms: r.tickP99,
      expected: r.expected,
      delivered: r.delivered,
      grouped: r.grouped,
      dropped_late: dropped(r),
      missing: r.missing,
      duplicates: r.duplicates,
    })),
  }),
);
process.exit(0);
