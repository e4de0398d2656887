/**
 * Users benchmark (docs/benchmarks.md): N simulated users (default 1,000) each run a real
 * command about every 10 s through the command runtime, the name index, the feed and one client
 * against the local service at its real limit of 5 requests/s. The feed and the name index start
 * cold: a warm-up phase lasts until the feed has read the whole window (about 400 requests, some
 * 80 s at 5/s; users already ask and are answered from what is there), then the measured phase runs
 * for `--seconds` (`--quick`: 15 s).
 *
 * Prints failed commands (and their share), latency (p50, p99 of all commands after warm-up),
 * upstream requests per second after warm-up (the poller, the name index and the commands' misses
 * together) against the budget; the last line is one JSON object.
 *
 * `--compare` runs 1,000 and then 10,000 users (each in its own process) and prints the ratio of
 * their upstream requests per second (goal: at most 1.2). `--service-process` runs the service in a
 * child process (`matchday service`) instead of this one's event loop.
 *
 *   npm run bench:users [-- --quick] [-- --users 10000] [-- --compare] [-- --seconds 60] [-- --think-ms 10000]
 */
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { commands } from '../commands/index.ts';
import { createNameIndex } from '../src/bot/names.ts';
import { Runtime } from '../src/bot/runtime.ts';
import { defaultSettings, type Settings, settingsSchema } from '../src/bot/settings.ts';
import type { TenantStore } from '../src/bot/tenants.ts';
import { createClient } from '../src/client/client.ts';
import { Clock } from '../src/core/clock.ts';
import { createFeed } from '../src/feed/feed.ts';
import { DEFAULT_SECRET, startService } from '../src/service/index.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const numberArg = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
};
const USERS = numberArg('--users', 1000);
const SECONDS = numberArg('--seconds', quick ? 15 : 60);
/** Mean pause between two commands of one user (default 10 s: 1,000 users ask about 100 commands/s). */
const THINK_MS = numberArg('--think-ms', 10_000);
const BUDGET = 5;
/** The longest warm-up before measuring anyway (users' misses take the budget first, so the scan can lag). */
const WARM_UP_MAX_S = numberArg('--warm-up-max', quick ? 60 : 300);

/** Deterministic pseudo-random numbers, so two runs issue the same mix. */
let seed = 42;
const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
/** Popular things are asked about more often (Zipf-like: index ~ n * u^3). */
const popular = <T>(items: readonly T[]): T => items[Math.floor(items.length * random() ** 3)]!;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Settings in memory: the benchmark measures commands and upstream, not the store. */
class MemoryStore implements TenantStore {
  #docs = new Map<string, Settings>();
  async get(id: string) {
    return structuredClone(this.#docs.get(id) ?? defaultSettings());
  }
  async save(id: string, settings: Settings) {
    const parsed = settingsSchema.parse(settings);
    this.#docs.set(id, parsed);
    return structuredClone(parsed);
  }
  async update(id: string, change: (current: Settings) => Settings): Promise<Settings> {
    return this.save(id, change(await this.get(id)));
  }
  async purge(id: string) {
    this.#docs.delete(id);
  }
  async list() {
    return [...this.#docs.keys()];
  }
  async close() {}
}

async function main() {
  const bootStarted = performance.now();
  const clock = new Clock();
  const service = await startService({ port: 0, seed: 7, clock });
  // The users' commands and the service share one event loop unless the service runs apart: at
  // 10,000 users the commands' timers starve the service's sockets and upstream stalls.
  const apart = args.includes('--service-process') ? await serviceProcess() : undefined;
  const client = createClient({
    baseUrl: apart?.url ?? service.url,
    secret: apart ? DEFAULT_SECRET : service.secret,
  });
  const logger = pino({ level: 'silent' });
  const names = createNameIndex({ client, clock });
  const feed = createFeed({ client, clock });
  const runtime = new Runtime({
    commands,
    client,
    names,
    picture: feed,
    tenants: new MemoryStore(),
    clock,
    logger,
    perUserLimit: { count: 1_000_000_000, windowMs: 1000 },
  });

  // What users ask about, from the world (no request).
  const world = service.world;
  const t = world.now();
  const teams = world.catalog.teams.filter((x) => x.active).map((x) => x.name);
  const running = world.window(t).tournaments.filter((x) => x.start <= t && x.end >= t);
  const liveIds = () =>
    world
      .window(world.now())
      .series.filter((p) => world.lifecycle(p, world.now()) === 'live')
      .map((p) => String(p.id));
  const gameTags = world.catalog.games.map((g) => g.game.abbreviation.toLowerCase());

  type Ask = { command: string; args: Record<string, unknown> };
  const mix: [weight: number, name: string, make: () => Ask][] = [
    [20, 'series', () => ({ command: 'series', args: { game: pick(gameTags) } })],
    [10, 'series live', () => ({ command: 'series', args: { when: 'live' } })],
    [5, 'series recent', () => ({ command: 'series', args: { when: 'recent', team: popular(teams) } })],
    [15, 'live', () => ({ command: 'live', args: {} })],
    [5, 'live series', () => ({ command: 'live', args: { series: pick(liveIds()) } })],
    [10, 'schedule', () => ({ command: 'schedule', args: {} })],
    [15, 'team', () => ({ command: 'team', args: { team: popular(teams) } })],
    [8, 'standings', () => ({ command: 'standings', args: { tournament: popular(running).title } })],
    [7, 'casters', () => ({ command: 'casters', args: {} })],
    [5, 'tournament', () => ({ command: 'tournament', args: { tournament: popular(running).title } })],
  ];
  const totalWeight = mix.reduce((sum, [w]) => sum + w, 0);
  const choose = () => {
    let r = random() * totalWeight;
    for (const entry of mix) {
      r -= entry[0];
      if (r < 0) return entry;
    }
    return mix[0]!;
  };

  let warm = false;
  const all: number[] = [];
  const afterWarm: number[] = [];
  /** Latencies after warm-up per command label, to see which commands make the tail. */
  const perCommand = new Map<string, number[]>();
  const failures = new Map<string, number>();
  const userErrors = new Map<string, number>();
  let commandsRun = 0;
  let commandsAfterWarm = 0;
  let failedAfterWarm = 0;
  let stop = false;

  const user = async (id: number) => {
    await sleep(random() * THINK_MS);
    while (!stop) {
      const [, label, make] = choose();
      const ask = make();
      const started = performance.now();
      const measured = warm;
      const result = await runtime.run({
        platform: 'discord',
        tenantKey: `bench${id % 500}`,
        user: { id: `u${id}`, name: 'bench', isAdmin: false },
        channel: { id: 'c' },
        command: ask.command,
        args: ask.args,
      });
      const ms = performance.now() - started;
      all.push(ms);
      commandsRun++;
      if (measured) {
        afterWarm.push(ms);
        commandsAfterWarm++;
        const list = perCommand.get(label) ?? [];
        list.push(ms);
        perCommand.set(label, list);
      }
      if (result.outcome === 'error') {
        failures.set(`${label}:${result.code}`, (failures.get(`${label}:${result.code}`) ?? 0) + 1);
        if (measured) failedAfterWarm++;
      } else if (result.outcome !== 'ok')
        userErrors.set(`${label}:${result.code}`, (userErrors.get(`${label}:${result.code}`) ?? 0) + 1);
      await sleep(-Math.log(1 - random()) * THINK_MS);
    }
  };

  console.log(
    `client bench: ${USERS} users, a command each about every ${THINK_MS / 1000} s, service at ${BUDGET} requests/s`,
  );
  // A new process: the name index first (from the store in production; read here, counted in the
  // warm-up), then the feed starts cold and fills while users already ask.
  await names.refresh();
  // Every player in one walk (about 25 requests), as `npm start` starts it (src/feed/warm.ts); awaited
  // here with the rest of the name index, before users ask (in production, after it, in the background).
  await names.ensurePlayers('background');
  await feed.start();
  // How busy this process's event loop is once users ask: a saturated loop answers nothing, upstream
  // included (a saturated loop never gets to read answers, so upstream stops: docs/architecture.md).
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const eluStart = performance.eventLoopUtilization();
  const users = Array.from({ length: USERS }, (_, i) => user(i));
  let shown = performance.now();
  const warmUpDeadline = performance.now() + WARM_UP_MAX_S * 1000;
  while (feed.filling && performance.now() < warmUpDeadline) {
    await sleep(200);
    if (performance.now() - shown > 10_000) {
      shown = performance.now();
      const st = client.stats();
      console.log(
        `  warming: ${st.upstreamTotal} requests, queue ${st.queueLength}, shed ${st.shed}, tokens ${st.budget?.available.toFixed(1)}, in flight ${st.inFlight}, feed ${JSON.stringify(feed.sizes())}`,
      );
    }
  }
  const warmUpMs = performance.now() - bootStarted;
  const warmUpRequests = client.stats().upstreamTotal;
  console.log(
    `warm-up: ${Math.round(warmUpMs)} ms, ${warmUpRequests} requests; feed ${JSON.stringify(feed.sizes())}`,
  );
  const fillingAtMeasure = feed.filling;
  warm = true;
  const measuredFrom = performance.now();
  await sleep(SECONDS * 1000);
  const measuredSeconds = (performance.now() - measuredFrom) / 1000;
  loopDelay.disable();
  const loopBusy = performance.eventLoopUtilization(eluStart).utilization;
  const upstreamMeasured = client.stats().upstreamTotal - warmUpRequests;
  stop = true;
  // Commands still running may finish; users in a long think time are not waited for.
  await Promise.race([Promise.all(users), sleep(Math.min(THINK_MS * 3, 30_000))]);
  await feed.stop();

  const stats = client.stats();
  all.sort((a, b) => a - b);
  afterWarm.sort((a, b) => a - b);
  const failed = [...failures.values()].reduce((a, b) => a + b, 0);
  const result = {
    users: USERS,
    seconds: SECONDS,
    think_ms: THINK_MS,
    commands: commandsRun,
    commands_after_warm_up: commandsAfterWarm,
    failed_commands: failed,
    failed_ratio: Number((failed / Math.max(1, commandsRun)).toFixed(4)),
    failed_after_warm_up: failedAfterWarm,
    failures: Object.fromEntries(failures),
    user_errors: Object.fromEntries(userErrors),
    warm_up_ms: Math.round(warmUpMs),
    feed_filling_when_measured: fillingAtMeasure,
    feed_series: feed.sizes().series,
    warm_up_requests: warmUpRequests,
    upstream_requests: stats.upstreamTotal,
    upstream_per_second: Number((upstreamMeasured / measuredSeconds).toFixed(2)),
    budget_per_second: BUDGET,
    p50_ms: Number(percentile(afterWarm, 50).toFixed(2)),
    p99_ms: Number(percentile(afterWarm, 99).toFixed(2)),
    p99_all_ms: Number(percentile(all, 99).toFixed(2)),
    rate_limited: stats.rateLimited,
    shed: stats.shed,
    p99_per_command_ms: perCommandP99(perCommand),
    commands_per_second: Number((commandsAfterWarm / measuredSeconds).toFixed(1)),
    event_loop_busy: Number(loopBusy.toFixed(3)),
    event_loop_delay_p99_ms: Math.round(loopDelay.percentile(99) / 1e6),
    event_loop_delay_max_ms: Math.round(loopDelay.max / 1e6),
  };
  console.log(`commands answered        ${result.commands} (${result.commands_after_warm_up} after warm-up)`);
  console.log(
    `failed commands          ${result.failed_commands} (${(result.failed_ratio * 100).toFixed(2)} %) ${JSON.stringify(result.failures)}`,
  );
  console.log(
    `upstream after warm-up   ${result.upstream_per_second}/s of ${BUDGET}/s (warm-up: ${warmUpRequests} requests in ${(warmUpMs / 1000).toFixed(1)} s)`,
  );
  console.log(
    `latency p50 / p99        ${result.p50_ms} / ${result.p99_ms} ms after warm-up (p99 of all: ${result.p99_all_ms} ms)`,
  );
  console.log(`429s received / shed     ${result.rate_limited} / ${result.shed}`);
  console.log(
    `event loop               ${(result.event_loop_busy * 100).toFixed(0)} % busy, delay p99 ${result.event_loop_delay_p99_ms} ms, max ${result.event_loop_delay_max_ms} ms (${result.commands_per_second} commands/s after warm-up)`,
  );
  console.log(`p99 per command          ${JSON.stringify(result.p99_per_command_ms)}`);
  await client.close();
  await service.close();
  apart?.stop();
  console.log(JSON.stringify(result));
  // Users still waiting out a think time, or a background read, must not hold the process open.
  process.exit(0);
}

/** Each command's p99 after warm-up, slowest first. */
function perCommandP99(perCommand: Map<string, number[]>): Record<string, number> {
  const rows = [...perCommand].map(([label, ms]): [string, number] => {
    ms.sort((a, b) => a - b);
    return [label, Number(percentile(ms, 99).toFixed(1))];
  });
  return Object.fromEntries(rows.sort((a, b) => b[1] - a[1]));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `--compare`: the same run at 1,000 and at 10,000 users, each in its own process (one after the
 * other), and the ratio of their upstream requests per second (goal: at most 1.2, flat in users).
 */
async function compare(): Promise<void> {
  const rest = args.filter((a, i) => a !== '--compare' && a !== '--users' && args[i - 1] !== '--users');
  const runs: Record<string, number | boolean | string>[] = [];
  for (const users of [1000, 10_000]) {
    console.log(`--- ${users} users`);
    const lines = await runChild([...rest, '--users', String(users)]);
    runs.push(JSON.parse(lines[lines.length - 1]!) as Record<string, number | boolean | string>);
  }
  const [small, large] = runs as [Record<string, number>, Record<string, number>];
  const ratio = Number((large.upstream_per_second! / Math.max(0.01, small.upstream_per_second!)).toFixed(2));
  console.log(
    `upstream/s ${small.upstream_per_second} at 1,000 users, ${large.upstream_per_second} at 10,000: ratio ${ratio} (goal <= 1.2)`,
  );
  console.log(
    `failed ${(small.failed_ratio! * 100).toFixed(2)} % and ${(large.failed_ratio! * 100).toFixed(2)} % (goal <= 1 %); p99 after warm-up ${small.p99_ms} ms and ${large.p99_ms} ms`,
  );
  const pick = (r: Record<string, number>) => ({
    failed_ratio: r.failed_ratio,
    p99_ms: r.p99_ms,
    upstream_per_second: r.upstream_per_second,
    commands_after_warm_up: r.commands_after_warm_up,
    commands_per_second: r.commands_per_second,
    event_loop_busy: r.event_loop_busy,
    event_loop_delay_p99_ms: r.event_loop_delay_p99_ms,
  });
  console.log(
    JSON.stringify({
      bench: 'users-compare',
      upstream_ratio: ratio,
      users_1000: pick(small),
      users_10000: pick(large),
    }),
  );
}

/** `matchday service` (seed 7, 5 requests/s) in a child process; its v3 URL once it listens. */
function serviceProcess(): Promise<{ url: string; stop: () => void }> {
  const bin = new URL('../bin/matchday.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'service', '--port', '0', '--seed', '7'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /\(v3\) at (\S+)/.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill() });
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`the service process exited with ${code}`)));
  });
}

/** Runs this bench in a child process with `argv`, echoing its output; resolves with its lines. */
function runChild(argv: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...argv], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`the run exited with ${code}`)),
    );
  });
}

(args.includes('--compare') ? compare() : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
