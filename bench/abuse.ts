/**
 * `npm run bench:abuse [-- --quick]`: the cost of the worst filter and order a client may send,
 * next to a plain filter, over HTTP against the local service (before the
 * bounds of `LIMITS` in src/service/query.ts, one request with many `*` or sort keys could block
 * the process for seconds). Prints median and worst
 * milliseconds per kind, then one JSON line with the extra cost of each worst case over the plain
 * request (the goal: within 50 ms).
 */
import { Clock } from '../src/core/clock.ts';
import { startService } from '../src/service/index.ts';
import { LIMITS } from '../src/service/query.ts';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 15 : 60;

const service = await startService({
  rate: 0,
  seed: 1,
  clock: new Clock({ start: new Date('2026-11-18T15:00:00Z'), frozen: true }),
});

const worstPattern = `${'*a'.repeat((LIMITS.patternLength - 2) / 2)}*b`.slice(0, LIMITS.patternLength);
const sortKeys = [
  'start-desc',
  'tier-asc',
  'best_of-desc',
  'lifecycle-asc',
  'end-desc',
  'resource_version-asc',
];
const requests: Record<string, string> = {
  plain: '/series?filter=tier=1',
  plainText: '/teams?filter=name~=nova*',
  plainSeriesText: '/series?filter=title~=*lisbon*',
  worstWildcard: `/teams?filter=name~=${encodeURIComponent(worstPattern)}`,
  worstWildcardSeries: `/series?filter=title~=${encodeURIComponent(worstPattern)}`,
  worstSort: `/series?order=${sortKeys.join(',')}`,
};

async function time(path: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(service.url + path, { headers: { 'Service-Secret': service.secret } });
  await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return performance.now() - started;
}

const results: Record<string, { median: number; worst: number }> = {};
for (const [name, path] of Object.entries(requests)) {
  await time(path); // warm (JIT, caches)
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) samples.push(await time(path));
  samples.sort((a, b) => a - b);
  results[name] = {
    median: Number(samples[Math.floor(samples.length / 2)]!.toFixed(2)),
    worst: Number(samples.at(-1)!.toFixed(2)),
  };
  console.log(`${name.padEnd(20)} median ${results[name].median} ms, worst ${results[name].worst} ms`);
}
await service.close();

const extra = (name: string, base: string) =>
  Number((results[name]!.median - results[base]!.median).toFixed(2));
console.log(
  JSON.stringify({
    bench: 'abuse',
    rounds: ROUNDS,
    patternLength: worstPattern.length,
    results,
    extraMs: {
      worstWildcard: extra('worstWildcard', 'plainText'),
      worstWildcardSeries: extra('worstWildcardSeries', 'plainSeriesText'),
      worstSort: extra('worstSort', 'plain'),
    },
  }),
);
