/**
 * What `/metrics` reports (Prometheus text format, prom-client). Most figures already exist as
 * counters in the client (`client.stats()`) and the notifier (`notifier.stats`); they are read when
 * scraped, so nothing on the request path changes for metrics. Two things are sampled once a second
 * instead: the upstream request rate (the share of the budget in use) and when the notifier last
 * read the feed. Command latency is observed per call (`observeCommand`, from the runtime).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Outcome } from '../bot/call-checks.ts';
import type { ClientStats } from '../client/types.ts';
import type { NotifierStats } from '../notify/types.ts';

/** The parts of a running Matchday the metrics read; each may come later or go away. */
interface MetricsSources {
  clientStats?: () => ClientStats;
  notifierStats?: () => NotifierStats | undefined;
  /** 1 while this process holds the notifier lease (or runs the notifier alone), else 0. */
  leader?: () => boolean;
  /** Discord shards of this process: id and discord.js status (0 = ready). */
  shards?: () => { id: number; status: number; ping: number }[];
}

/** Seconds over which the upstream rate (budget in use) is averaged. */
const RATE_WINDOW_S = 10;

export class OpsMetrics {
  readonly registry = new Registry();
  readonly #sources: MetricsSources = {};
  readonly #commands: Histogram<'command' | 'outcome'>;
  /** upstreamTotal once a second over the last `RATE_WINDOW_S` seconds. */
  readonly #upstreamSamples: number[] = [];
  #reads = -1;
  #readAt: number | undefined;
  readonly #sampler: NodeJS.Timeout;

  constructor() {
    const registers = [this.registry];
    // Process, heap, GC and event-loop lag (nodejs_eventloop_lag_seconds and its percentiles).
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    const sources = this.#sources;
    const stats = () => sources.clientStats?.();
    upstreamMetrics(registers, stats, this.#upstreamSamples);
    cacheMetrics(registers, stats);
    notifierMetrics(registers, sources, () => this.#readAt);
    discordMetrics(registers, sources);
    this.#commands = new Histogram({
      name: 'matchday_command_duration_seconds',
      help: 'Time to answer a command, by command and outcome',
      labelNames: ['command', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
      registers,
    });

    this.#sampler = setInterval(() => this.#sample(), 1000);
    this.#sampler.unref();
  }

  /** Adds or replaces sources (the notifier and the platforms start after the client). */
  use(sources: MetricsSources): void {
    Object.assign(this.#sources, sources);
  }

  observeCommand = (command: string, outcome: Outcome, ms: number): void => {
    this.#commands.observe({ command, outcome }, ms / 1000);
  };

  #sample(): void {
    const total = this.#sources.clientStats?.().upstreamTotal;
    if (total !== undefined) {
      this.#upstreamSamples.push(total);
      if (this.#upstreamSamples.length > RATE_WINDOW_S + 1) this.#upstreamSamples.shift();
    }
    const reads = this.#sources.notifierStats?.()?.reads;
    if (reads !== undefined && reads !== this.#reads) {
      // The first sample only learns the count; a change since means a read happened.
      if (this.#reads >= 0 || reads > 0) this.#readAt = performance.now();
      this.#reads = reads;
    }
  }

  /** The Prometheus text exposition. */
  async text(): Promise<string> {
    this.#sample();
    return this.registry.metrics();
  }

  close(): void {
    clearInterval(this.#sampler);
    this.registry.clear();
  }
}

type Registers = Registry[];
type ReadStats = () => ClientStats | undefined;

/** Requests to the data service and the rate budget they use. `samples`: upstreamTotal once a second. */
function upstreamMetrics(registers: Registers, stats: ReadStats, samples: readonly number[]): void {
  new Counter({
    name: 'matchday_upstream_requests_total',
    help: 'Requests sent to the esports data service, by resource family and HTTP status',
    labelNames: ['family', 'status'],
    registers,
    collect() {
      syncCounter(this, perFamily(stats()));
    },
  });
  new Counter({
    name: 'matchday_upstream_rate_limited_total',
    help: 'Answers 429 (rate limited) from the esports data service, by resource family',
    labelNames: ['family'],
    registers,
    collect() {
      const s = stats();
      const byFamily: [Record<string, string>, number][] = [];
      for (const [family, byStatus] of Object.entries(s?.upstream ?? {}))
        byFamily.push([{ family }, byStatus['429'] ?? 0]);
      syncCounter(this, byFamily);
    },
  });
  new Gauge({
    name: 'matchday_rate_budget_per_second',
    help: "The secret's request budget per second as the client plans for it",
    registers,
    collect() {
      const budget = stats()?.budget;
      if (budget) this.set(budget.perSecond);
    },
  });
  new Gauge({
    name: 'matchday_rate_budget_in_use_ratio',
    help: `Upstream requests per second over the last ${RATE_WINDOW_S} s divided by the budget (1 = all of it)`,
    registers,
    collect() {
      const budget = stats()?.budget;
      if (!budget || samples.length < 2) return;
      const seconds = samples.length - 1;
      this.set((samples.at(-1)! - samples[0]!) / seconds / budget.perSecond);
    },
  });
  new Gauge({
    name: 'matchday_rate_queue_length',
    help: 'Calls waiting for a request token',
    registers,
    collect() {
      this.set(stats()?.queueLength ?? 0);
    },
  });
}

/** The client's cache: hits, misses and their ratio. */
function cacheMetrics(registers: Registers, stats: ReadStats): void {
  new Counter({
    name: 'matchday_cache_hits_total',
    help: 'Client calls answered from the cache',
    registers,
    collect() {
      syncCounter(this, [[{}, stats()?.cacheHits ?? 0]]);
    },
  });
  new Counter({
    name: 'matchday_cache_misses_total',
    help: 'Client calls the cache could not answer',
    registers,
    collect() {
      syncCounter(this, [[{}, stats()?.cacheMisses ?? 0]]);
    },
  });
  new Gauge({
    name: 'matchday_cache_hit_ratio',
    help: 'Cache hits over all cached-resource calls since start (0 to 1)',
    registers,
    collect() {
      const s = stats();
      const total = (s?.cacheHits ?? 0) + (s?.cacheMisses ?? 0);
      this.set(total === 0 ? 0 : s!.cacheHits / total);
    },
  });
}

/** The notifier: its last feed read (`readAt`, performance.now()), backlog, deliveries and lease. */
function notifierMetrics(
  registers: Registers,
  sources: MetricsSources,
  readAt: () => number | undefined,
): void {
  new Gauge({
    name: 'matchday_feed_last_read_age_seconds',
    help: 'Seconds since the notifier last read the feed (absent until this process read it)',
    labelNames: ['reader'],
    registers,
    collect() {
      this.reset();
      const at = readAt();
      if (at !== undefined) this.set({ reader: 'notifier' }, (performance.now() - at) / 1000);
    },
  });
  new Gauge({
    name: 'matchday_notify_backlog',
    help: "Notifications due that the notifier's last tick left to the next one (its posting budget ran out)",
    registers,
    collect() {
      this.set(sources.notifierStats?.()?.deferred ?? 0);
    },
  });
  new Counter({
    name: 'matchday_deliveries_total',
    help: 'Notifications by kind and outcome (sent, or failures counted over all kinds)',
    labelNames: ['kind', 'outcome'],
    registers,
    collect() {
      const n = sources.notifierStats?.();
      if (n) syncCounter(this, deliveries(n));
    },
  });
  new Gauge({
    name: 'matchday_notifier_leader',
    help: 'Whether this process runs the notifier (holds the lease): 1 or 0',
    registers,
    collect() {
      this.set(sources.leader?.() ? 1 : 0);
    },
  });
}

function deliveries(n: NotifierStats): [Record<string, string>, number][] {
  const values: [Record<string, string>, number][] = Object.entries(n.sent).map(([kind, count]) => [
    { kind, outcome: 'sent' },
    count,
  ]);
  values.push([{ kind: 'live', outcome: 'edited' }, n.edits]);
  values.push([{ kind: 'all', outcome: 'transient_failure' }, n.transientFailures]);
  values.push([{ kind: 'all', outcome: 'permanent_failure' }, n.permanentFailures]);
  values.push([{ kind: 'all', outcome: 'dropped' }, n.dropped]);
  return values;
}

/** Each Discord shard of this process: status and heartbeat. */
function discordMetrics(registers: Registers, sources: MetricsSources): void {
  new Gauge({
    name: 'matchday_discord_shard_status',
    help: 'Each Discord shard of this process: discord.js status (0 ready, 1 connecting, 2 reconnecting, 3 idle, 4 nearly, 5 disconnected, 6 waiting for guilds, 7 identifying, 8 resuming)',
    labelNames: ['shard'],
    registers,
    collect() {
      this.reset();
      for (const shard of sources.shards?.() ?? []) this.set({ shard: String(shard.id) }, shard.status);
    },
  });
  new Gauge({
    name: 'matchday_discord_shard_ping_seconds',
    help: "Each Discord shard's last heartbeat round trip",
    labelNames: ['shard'],
    registers,
    collect() {
      this.reset();
      for (const shard of sources.shards?.() ?? [])
        if (shard.ping >= 0) this.set({ shard: String(shard.id) }, shard.ping / 1000);
    },
  });
}

function perFamily(stats: ClientStats | undefined): [Record<string, string>, number][] {
  const values: [Record<string, string>, number][] = [];
  for (const [family, byStatus] of Object.entries(stats?.upstream ?? {}))
    for (const [status, count] of Object.entries(byStatus)) values.push([{ family, status }, count]);
  return values;
}

/** What each counter was last synced to, per label set. */
const synced = new WeakMap<Counter<string>, Map<string, number>>();

/** Counts kept elsewhere, as a Prometheus counter: it only ever increments by what was added since. */
function syncCounter(counter: Counter<string>, values: [Record<string, string>, number][]): void {
  let last = synced.get(counter);
  if (!last) {
    last = new Map();
    synced.set(counter, last);
  }
  for (const [labels, value] of values) {
    const key = JSON.stringify(labels);
    const before = last.get(key) ?? 0;
    if (value > before) counter.inc(labels, value - before);
    else if (!last.has(key)) counter.inc(labels, 0);
    last.set(key, Math.max(before, value));
  }
}
