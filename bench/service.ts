/**
 * `npm run bench:service [-- --quick] [-- --scale <x>]`: latency and throughput of the local
 * service over HTTP. The service runs in its own process (`matchday service`), as in real use,
 * with a window of at least 20,000 series; the bench asks filtered, ordered `/series` pages
 * through a keep-alive undici Pool. Prints its figures, then one JSON line (the last line).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Pool } from 'undici';
import { Clock } from '../src/core/clock.ts';
import { World } from '../src/service/world.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const scaleIndex = args.indexOf('--scale');
const scale = scaleIndex >= 0 ? Number(args[scaleIndex + 1]) : 1.5;
const SEED = 1;
const SECRET = 'bench-secret';
const LATENCY_REQUESTS = quick ? 600 : 4000;
const THROUGHPUT_REQUESTS = quick ? 1500 : 10_000;
const CONCURRENCY = 8;

function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      'bin/matchday.mjs',
      'service',
      '--port',
      '0',
      '--rate',
      '0',
      '--seed',
      String(SEED),
      '--scale',
      String(scale),
      '--secret',
      SECRET,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /at (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

async function main(): Promise<void> {
  // The same seed, scale and instant give the same window: count it here without asking the service.
  const world = new World(SEED, scale, new Clock());
  const window = world.window();
  const seriesCount = window.series.length;
  const rosters = [...window.byRoster.keys()];
  const tournaments = window.tournaments.map((t) => t.id);
  const { child, url } = await startChild();
  const origin = new URL(url);
  const pool = new Pool(origin.origin, { connections: CONCURRENCY, pipelining: 1 });
  const base = origin.pathname;
  let k = 0;
  const queries: [string, () => string][] = [
    [
      'upcoming by game',
      () => `/series?filter=game.id=${(k % 6) + 1},lifecycle=upcoming&order=start-asc&take=50`,
    ],
    ['live', () => '/series?filter=lifecycle=live&order=start-asc&take=50'],
    [
      'over, tier 1-2, newest first',
      () => '/series?filter=tier<={1,2},lifecycle=over&order=start-desc&take=50',
    ],
    [
      'roster history',
      () => `/series?filter=participants.roster.id^{${rosters[k % rosters.length]}}&order=start-desc&take=20`,
    ],
    [
      'tournament schedule',
      () => `/series?filter=tournament.id=${tournaments[k % tournaments.length]}&order=start-asc&take=50`,
    ],
    [
      'head-to-head',
      () =>
        `/series?filter=participants.roster.id^{${rosters[k % rosters.length]}},participants.roster.id^{${rosters[(k * 7 + 3) % rosters.length]}}&order=start-desc&take=10`,
    ],
  ];
  const ask = async (path: string): Promise<number> => {
    const t0 = performance.now();
    const res = await pool.request({
      path: base + path,
      method: 'GET',
      headers: { 'service-secret': SECRET },
    });
    const body = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${body.slice(0, 200)}`);
    return performance.now() - t0;
  };
  try {
    // Warm-up: the first request per shape builds caches.
    for (let i = 0; i < 60; i++, k++) await ask(queries[i % queries.length]![1]());
    const perQuery = new Map<string, number[]>();
    const all: number[] = [];
    for (let i = 0; i < LATENCY_REQUESTS; i++, k++) {
      const [name, build] = queries[i % queries.length]!;
      const ms = await ask(build());
      all.push(ms);
      perQuery.set(name, [...(perQuery.get(name) ?? []), ms]);
    }
    all.sort((a, b) => a - b);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < THROUGHPUT_REQUESTS) {
          next++;
          k++;
          await ask(queries[k % queries.length]![1]());
        }
      }),
    );
    const rps = THROUGHPUT_REQUESTS / ((performance.now() - t0) / 1000);
    console.log(
      `local service bench${quick ? ' (quick)' : ''}: scale ${scale}, ${seriesCount} series in the window`,
    );
    console.log(`sequential latency over ${LATENCY_REQUESTS} filtered, ordered /series pages:`);
    for (const [name, list] of perQuery) {
      const sorted = [...list].sort((a, b) => a - b);
      console.log(
        `  ${name.padEnd(32)} p50 ${percentile(sorted, 50).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms`,
      );
    }
    console.log(
      `  ${'all'.padEnd(32)} p50 ${percentile(all, 50).toFixed(2)} ms  p99 ${percentile(all, 99).toFixed(2)} ms`,
    );
    console.log(
      `throughput: ${THROUGHPUT_REQUESTS} requests, ${CONCURRENCY} concurrent: ${rps.toFixed(0)} requests/s`,
    );
    console.log(
      JSON.stringify({
        bench: 'service',
        quick,
        scale,
        series: seriesCount,
        requests: LATENCY_REQUESTS,
        p50_ms: round(percentile(all, 50)),
        p99_ms: round(percentile(all, 99)),
        rps: Math.round(rps),
        concurrency: CONCURRENCY,
      }),
    );
  } finally {
    await pool.close();
    child.kill('SIGTERM');
  }
}

await main();
