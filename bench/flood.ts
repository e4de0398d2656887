/**
 * `npm run bench:flood [-- --quick]`: the public ports under a flood, on loopback. This process is
 * the bot's side: the local service, the client, the calendar server (CALENDAR_PORT) and the
 * operations server (METRICS_PORT), with their default limits (`src/core/http-guard.ts`). Two
 * attacker processes (`bench/flood-worker.ts`) hold 10,000 idle connections each (2,000 with
 * --quick) to the calendar and operations ports from 100 loopback addresses, reconnecting whatever
 * the server closes. Meanwhile: this process's open file descriptors (/proc/self/fd), `/healthz`
 * latency on a new connection each time, and a person's calendar fetched every 4 s. Then 20
 * clients (`bench/calendar-loop-worker.ts`) fetch one calendar URL in a loop: `/healthz` latency
 * and the upstream requests it cost.
 * Prints figures, then one JSON line (the goals: fds under 2,000, `/healthz` within 100 ms
 * throughout, p50 under 20 ms under the calendar loop, no upstream request from the loop).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createNameIndex } from '../src/bot/names.ts';
import { openUserStore } from '../src/bot/users.ts';
import { calendarRoute, startCalendarServer } from '../src/calendar/server.ts';
import { createClient } from '../src/client/client.ts';
import { Clock } from '../src/core/clock.ts';
import { OpsMetrics } from '../src/ops/metrics.ts';
import { OpsServer } from '../src/ops/server.ts';
import { startService } from '../src/service/index.ts';

const quick = process.argv.includes('--quick');
const CONNECTIONS = quick ? 2_000 : 10_000;
const ADDRESSES = 100;
const FLOOD_MS = quick ? 8_000 : 20_000;
const LOOP_MS = quick ? 4_000 : 10_000;
const LOOP_CLIENTS = 20;

const logger = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'matchday-flood-'));
const clock = new Clock();
const service = await startService({ port: 0, seed: 42, clock });
const client = createClient({ baseUrl: service.url, secret: service.secret });
const usersPath = join(dir, 'users.sqlite');
const users = await openUserStore(
  { kind: 'sqlite', url: `sqlite://${usersPath}`, path: usersPath },
  { logger },
);
const names = createNameIndex({ client, clock });
const calendar = await startCalendarServer(calendarRoute({ users, client, names, clock, logger }), {
  host: '127.0.0.1',
  port: 0,
  logger,
});
const metrics = new OpsMetrics();
const ops = await OpsServer.start({ host: '127.0.0.1', port: 0, metrics, logger });

const team = service.world.catalog.teams[0]!;
await users.update('discord:bench', (p) => ({ ...p, follows: [{ team: team.id, noQualifiers: false }] }));
const calendarUrl = `${calendar.url}/calendar/${await users.calendarToken('discord:bench')}.ics`;

const fds = () => readdirSync('/proc/self/fd').length;

/** One GET on a connection of its own (as a probe makes it): status and ms; status 0 when it failed. */
function probe(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = get(url, { agent: false, timeout: 5_000 }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
      );
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
  });
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const round = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The first calendar (its series read once) and the probes at rest.
if ((await probe(calendarUrl)).status !== 200) throw new Error('the calendar did not answer 200 at rest');
const rest = { fds: fds(), health: [] as number[] };
for (let i = 0; i < 20; i++) rest.health.push((await probe(`${ops.url}/healthz`)).ms);
console.log(`at rest: ${rest.fds} fds, /healthz p50 ${round(quantile(rest.health, 0.5))} ms`);

// The flood: two attacker processes, one per port.
const worker = join(import.meta.dirname, 'flood-worker.ts');
const attackers: ChildProcess[] = [];
const attackerOpen = new Map<string, number>();
for (const [name, url] of [
  ['calendar', calendar.url],
  ['ops', ops.url],
] as const) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      import.meta.resolve('tsx'),
      worker,
      new URL(url).port,
      String(CONNECTIONS),
      String(ADDRESSES),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  attackers.push(child);
  let buffer = '';
  child.stdout!.on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      try {
        attackerOpen.set(name, (JSON.parse(line) as { opened: number }).opened);
      } catch {
        process.stderr.write(`${line}\n`);
      }
    }
  });
}

const flood = {
  fdsMax: 0,
  health: [] as number[],
  healthFailed: 0,
  calendar: [] as number[],
  calendarLimited: 0,
  calendarFailed: 0,
};
const requestsBefore = service.requests;
const floodUntil = performance.now() + FLOOD_MS;
let nextCalendar = 0;
while (performance.now() < floodUntil) {
  flood.fdsMax = Math.max(flood.fdsMax, fds());
  const health = await probe(`${ops.url}/healthz`);
  if (health.status === 200) flood.health.push(health.ms);
  else flood.healthFailed++;
  if (performance.now() >= nextCalendar) {
    nextCalendar = performance.now() + 4_000;
    const answer = await probe(calendarUrl);
    if (answer.status === 200) flood.calendar.push(answer.ms);
    else if (answer.status === 429) flood.calendarLimited++;
    else flood.calendarFailed++;
  }
  await sleep(100);
}
const floodConnections = {
  calendar: attackerOpen.get('calendar') ?? 0,
  ops: attackerOpen.get('ops') ?? 0,
};
for (const child of attackers) child.kill('SIGTERM');
await Promise.all(attackers.map((child) => new Promise((resolve) => child.once('exit', resolve))));
console.log(
  `flood: ${CONNECTIONS} idle connections held at each port (${floodConnections.calendar} and ${floodConnections.ops} opened in all), ` +
    `fds at most ${flood.fdsMax}; /healthz p50 ${round(quantile(flood.health, 0.5))} ms, ` +
    `p99 ${round(quantile(flood.health, 0.99))} ms, max ${round(Math.max(...flood.health))} ms, ` +
    `${flood.health.filter((ms) => ms > 100).length} of ${flood.health.length} over 100 ms, ${flood.healthFailed} failed; ` +
    `calendar (every 4 s) p50 ${round(quantile(flood.calendar, 0.5))} ms, ${flood.calendarLimited} answered 429, ${flood.calendarFailed} failed`,
);

// One calendar URL, 20 clients in a loop (in a process of their own).
await sleep(1_000);
const loop = { health: [] as number[], answers: {} as Record<string, number> };
const loopRequestsBefore = service.requests;
const loopUntil = performance.now() + LOOP_MS;
const looper = spawn(
  process.execPath,
  [
    '--import',
    import.meta.resolve('tsx'),
    join(import.meta.dirname, 'calendar-loop-worker.ts'),
    calendarUrl,
    String(LOOP_CLIENTS),
    String(LOOP_MS),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let looped = '';
looper.stdout!.on('data', (chunk) => {
  looped += chunk;
});
const loopEnded = new Promise((resolve) => looper.once('exit', resolve));
await sleep(500); // its start-up (tsx) before the clock of the loop counts
while (performance.now() < loopUntil) {
  loop.health.push((await probe(`${ops.url}/healthz`)).ms);
  await sleep(50);
}
await loopEnded;
loop.answers = JSON.parse(looped.trim() || '{}') as Record<string, number>;
const loopUpstream = service.requests - loopRequestsBefore;
const total = Object.values(loop.answers).reduce((a, b) => a + b, 0);
console.log(
  `calendar loop: ${LOOP_CLIENTS} clients, ${round(total / (LOOP_MS / 1000))} answers/s ${JSON.stringify(loop.answers)}; ` +
    `/healthz p50 ${round(quantile(loop.health, 0.5))} ms, p99 ${round(quantile(loop.health, 0.99))} ms; ` +
    `upstream requests ${loopUpstream}`,
);

const result = {
  connectionsPerPort: CONNECTIONS,
  fdsAtRest: rest.fds,
  fdsMaxUnderFlood: flood.fdsMax,
  healthzP50MsUnderFlood: round(quantile(flood.health, 0.5)),
  healthzMaxMsUnderFlood: round(Math.max(...flood.health)),
  healthzFailedUnderFlood: flood.healthFailed,
  calendarFailedUnderFlood: flood.calendarFailed,
  healthzP99MsUnderFlood: round(quantile(flood.health, 0.99)),
  healthzOver100MsUnderFlood: flood.health.filter((ms) => ms > 100).length,
  healthzSamplesUnderFlood: flood.health.length,
  upstreamRequestsDuringFlood: loopRequestsBefore - requestsBefore,
  loopAnswersPerSecond: round(total / (LOOP_MS / 1000)),
  loopRateLimited: loop.answers['429'] ?? 0,
  healthzP50MsUnderLoop: round(quantile(loop.health, 0.5)),
  upstreamRequestsFromLoop: loopUpstream,
};
await calendar.close();
await ops.close();
metrics.close();
await users.close();
await client.close();
await service.close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(result));
