/**
 * `matchday ask` with a warm store: the local service at 5 requests/s in this process,
 * `matchday ask` as a real child process against it with a SQLite store in a temporary directory.
 * One cold `ask "/series live"` fills the store (the name index and the feed's live part); then
 * `ask "/help"` and `ask "/series live"` are timed (wall time of the whole process) with the
 * upstream requests each made (counted by the service). Goal: at most 3 requests and under 1.5 s
 * each. The last line is one JSON object.
 *
 *   npx tsx bench/ask.ts [-- --runs 3]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '../src/config.ts';
import { startService } from '../src/service/index.ts';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const BIN = join(import.meta.dirname, '..', 'bin', 'matchday.mjs');

const service = await startService({ port: 0, seed: 7, rate: 5, burst: 5 });
const dir = mkdtempSync(join(tmpdir(), 'matchday-ask-'));
const env: Record<string, string> = {};
for (const [key, value] of Object.entries(process.env))
  if (value !== undefined && !(CONFIG_VARIABLES as string[]).includes(key)) env[key] = value;
Object.assign(env, {
  ESPORTS_API_URL: service.url,
  ESPORTS_API_SECRET: service.secret,
  ESPORTS_RATE: '5',
  STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
  LOG_LEVEL: 'warn',
});

async function ask(
  line: string,
): Promise<{ ms: number; requests: number; code: number | null; out: string }> {
  const before = service.requests;
  const started = performance.now();
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'ask', line], {
      env,
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
  return { ms: Math.round(performance.now() - started), requests: service.requests - before, code, out };
}

const cold = await ask('/series live');
console.log(
  `cold  ask "/series live": ${cold.ms} ms, ${cold.requests} requests (fills the store), exit ${cold.code}`,
);
const results: Record<string, { ms: number[]; requests: number[] }> = {
  '/help': { ms: [], requests: [] },
  '/series live': { ms: [], requests: [] },
};
for (let i = 0; i < RUNS; i++) {
  for (const line of Object.keys(results)) {
    const run = await ask(line);
    if (run.code !== 0) console.log(run.out);
    results[line]!.ms.push(run.ms);
    results[line]!.requests.push(run.requests);
    console.log(`warm  ask "${line}": ${run.ms} ms, ${run.requests} requests, exit ${run.code}`);
  }
}
await service.close();
rmSync(dir, { recursive: true, force: true });
const summary = Object.fromEntries(
  Object.entries(results).map(([line, r]) => [
    line,
    { max_ms: Math.max(...r.ms), max_requests: Math.max(...r.requests), ms: r.ms, requests: r.requests },
  ]),
);
const met = Object.values(summary).every((s) => s.max_ms < 1500 && s.max_requests <= 3);
console.log(`Goal: at most 3 requests and under 1.5 s each with a warm store: ${met ? 'met' : 'not met'}`);
console.log(
  JSON.stringify({ bench: 'ask', cold: { ms: cold.ms, requests: cold.requests }, warm: summary, met }),
);
