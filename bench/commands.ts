/**
 * Command benchmark: each command through the real runtime, the real client over
 * HTTP and the local service (seed 42, frozen at a busy Wednesday afternoon), measured
 *   - cold: a fresh client with an empty cache per run (the name index is the process's own,
 *     loaded once at start-up and not counted, as in production; its load cost is printed apart);
 *   - warm: the same client again and again;
 * with p50/p99 latency of each and the upstream requests per run (from `client.stats()`).
 * Goals: at most 3 upstream requests for any command cold, none warm; p99 warm under 20 ms.
 * The service's rate limit is off so latency measures the code, not the 5 requests/s budget.
 *
 *   npm run bench:commands [-- --quick]
 */
import { pino } from 'pino';
import { commands } from '../commands/index.ts';
import { createNameIndex } from '../src/bot/names.ts';
import { Runtime } from '../src/bot/runtime.ts';
import { defaultSettings, type Settings, settingsSchema } from '../src/bot/settings.ts';
import type { TenantStore } from '../src/bot/tenants.ts';
import { createClient } from '../src/client/client.ts';
import type { EsportsClient } from '../src/client/types.ts';
import { Clock } from '../src/core/clock.ts';
import { startService } from '../src/service/index.ts';

const quick = process.argv.includes('--quick');
const COLD_RUNS = quick ? 8 : 40;
const WARM_RUNS = quick ? 100 : 1000;
const AT = new Date('2026-03-18T15:20:00.000Z');

/** Settings in memory: the benchmark measures commands, not the store. */
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

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (n: number) => Math.round(n * 100) / 100;

const clock = new Clock({ start: AT, frozen: true });
const service = await startService({ port: 0, seed: 42, clock, rate: 0 });
const rate = { perSecond: 100_000, burst: 100_000 };
const logger = pino({ level: 'silent' });
const indexClient = createClient({ baseUrl: service.url, secret: service.secret, rate });
const names = createNameIndex({ client: indexClient, clock });
const indexStart = performance.now();
await names.refresh();
const indexMs = performance.now() - indexStart;
const indexRequests = indexClient.stats().upstreamTotal;

// Arguments taken from the world, so every scenario answers with content.
const world = service.world;
const t = world.now();
const team = world.catalog.teams[0]!;
const liveSeries = world.window(t).series.find((p) => world.lifecycle(p, t) === 'live')!;
const running = world.window(t).tournaments.find((x) => x.tier === 1 && x.start <= t && x.end >= t)!;
const bracket = running.stages.flatMap((s) => s.substages).find((s) => s.type === 2)!;

interface Scenario {
  label: string;
  command: string;
  subcommand?: string;
  args: Record<string, unknown>;
}

const scenarios: Scenario[] = [
  { label: 'series', command: 'series', args: {} },
  { label: 'series team recent', command: 'series', args: { team: team.name, when: 'recent' } },
  { label: 'live (all)', command: 'live', args: {} },
  { label: 'live series', command: 'live', args: { series: String(liveSeries.id) } },
  { label: 'schedule', command: 'schedule', args: {} },
  { label: 'schedule tomorrow', command: 'schedule', args: { day: 'tomorrow' } },
  { label: 'series live', command: 'series', args: { when: 'live' } },
  { label: 'team', command: 'team', args: { team: team.name } },
  { label: 'standings group', command: 'standings', args: { tournament: running.title } },
  {
    label: 'standings bracket',
    command: 'standings',
    args: { tournament: running.title, stage: bracket.title },
  },
  { label: 'casters', command: 'casters', args: { series: String(liveSeries.id) } },
  { label: 'tournament', command: 'tournament', args: { tournament: running.title } },
  { label: 'settings show', command: 'settings', subcommand: 'show', args: {} },
  { label: 'follow list', command: 'follow', subcommand: 'list', args: {} },
  { label: 'help', command: 'help', args: {} },
];

function runtimeFor(client: EsportsClient): Runtime {
  return new Runtime({
    commands,
    client,
    names,
    tenants: new MemoryStore(),
    clock,
    logger,
    perUserLimit: { count: 1_000_000_000, windowMs: 1000 },
  });
}

async function once(runtime: Runtime, scenario: Scenario): Promise<number> {
  const start = performance.now();
  const result = await runtime.run({
    platform: 'terminal',
    tenantKey: 'bench',
    user: { id: 'bench', name: 'bench', isAdmin: true },
    channel: { id: 'c' },
    command: scenario.command,
    ...(scenario.subcommand ? { subcommand: scenario.subcommand } : {}),
    args: scenario.args,
  });
  const ms = performance.now() - start;
  if (result.outcome !== 'ok')
    throw new Error(`${scenario.label}: ${result.outcome} ${result.message ?? ''}`);
  return ms;
}

interface Figures {
  coldP50: number;
  coldP99: number;
  warmP50: number;
  warmP99: number;
  upstreamCold: number;
  upstreamWarm: number;
}

const results: Record<string, Figures> = {};
for (const scenario of scenarios) {
  const cold: number[] = [];
  const coldRequests: number[] = [];
  let warmClient: EsportsClient | undefined;
  for (let i = 0; i < COLD_RUNS; i++) {
    const client = createClient({ baseUrl: service.url, secret: service.secret, rate });
    const runtime = runtimeFor(client);
    cold.push(await once(runtime, scenario));
    coldRequests.push(client.stats().upstreamTotal);
    if (i === COLD_RUNS - 1) warmClient = client;
    else await client.close();
  }
  const runtime = runtimeFor(warmClient!);
  const warm: number[] = [];
  const before = warmClient!.stats().upstreamTotal;
  for (let i = 0; i < WARM_RUNS; i++) warm.push(await once(runtime, scenario));
  const upstreamWarm = (warmClient!.stats().upstreamTotal - before) / WARM_RUNS;
  await warmClient!.close();
  cold.sort((a, b) => a - b);
  warm.sort((a, b) => a - b);
  results[scenario.label] = {
    coldP50: round(percentile(cold, 50)),
    coldP99: round(percentile(cold, 99)),
    warmP50: round(percentile(warm, 50)),
    warmP99: round(percentile(warm, 99)),
    upstreamCold: Math.max(...coldRequests),
    upstreamWarm: round(upstreamWarm),
  };
}

await indexClient.close();
await service.close();

const header = `${'command'.padEnd(20)} ${'cold p50'.padStart(9)} ${'cold p99'.padStart(9)} ${'warm p50'.padStart(9)} ${'warm p99'.padStart(9)} ${'req cold'.padStart(9)} ${'req warm'.padStart(9)}`;
console.log(
  `Commands against the local service (seed 42, ${AT.toISOString()}), ${COLD_RUNS} cold and ${WARM_RUNS} warm runs each; ms`,
);
console.log(
  `Name index load (once per process, not counted per command): ${round(indexMs)} ms, ${indexRequests} requests`,
);
console.log(header);
for (const [label, f] of Object.entries(results)) {
  console.log(
    `${label.padEnd(20)} ${String(f.coldP50).padStart(9)} ${String(f.coldP99).padStart(9)} ${String(f.warmP50).padStart(9)} ${String(f.warmP99).padStart(9)} ${String(f.upstreamCold).padStart(9)} ${String(f.upstreamWarm).padStart(9)}`,
  );
}
const overBudget = Object.entries(results)
  .filter(([, f]) => f.upstreamCold > 3)
  .map(([label]) => label);
const warmOver = Object.entries(results)
  .filter(([, f]) => f.upstreamWarm > 0)
  .map(([label]) => label);
const slowWarm = Object.entries(results)
  .filter(([, f]) => f.warmP99 >= 20)
  .map(([label]) => label);
console.log(
  `Goal: at most 3 upstream requests cold: ${overBudget.length === 0 ? 'met' : `not met by ${overBudget.join(', ')}`}`,
);
console.log(
  `Goal: no upstream requests warm: ${warmOver.length === 0 ? 'met' : `not met by ${warmOver.join(', ')}`}`,
);
console.log(
  `Goal: p99 warm under 20 ms: ${slowWarm.length === 0 ? 'met' : `not met by ${slowWarm.join(', ')}`}`,
);
console.log(
  JSON.stringify({
    bench: 'commands',
    quick,
    coldRuns: COLD_RUNS,
    warmRuns: WARM_RUNS,
    index: { ms: round(indexMs), requests: indexRequests },
    commands: results,
    goals: { maxUpstreamCold3: overBudget, zeroWarm: warmOver, p99Warm20ms: slowWarm },
  }),
);
