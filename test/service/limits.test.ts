import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { parseServiceArgs } from '../../src/service/cli.ts';
import type { RunningService } from '../../src/service/index.ts';
import { RateLimiter } from '../../src/service/rate-limit.ts';
import { get, start } from './helpers.ts';

let running: RunningService[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()));
  running = [];
});
async function service(options: Parameters<typeof start>[0]) {
  const s = await start(options);
  running.push(s);
  return s;
}

describe('rate limiting', () => {
  it('sends X-RateLimit headers on every answer and a 429 with Retry-After once the burst is spent', async () => {
    // A slow refill (one token per 100 s) keeps the count exact however slow this machine is.
    const s = await service({ rate: 0.01, burst: 5 });
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await get(s, '/games');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('0.01');
      expect(answer.headers.get('x-ratelimit-burst')).toBe('5');
      expect(Number(answer.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(Number(answer.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining[0]).toBe(4);
    expect(remaining.at(-1)).toBe(0);
    const limited = await get(s, '/games');
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toMatch(/rate limit/i);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    // Errors that still reach the limiter carry the headers too.
    const other = await service({ rate: 5, burst: 5 });
    const bad = await get(other, '/series?take=99');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('4');
    // Answers to requests without the right secret carry them too, from a bucket of their own.
    const anonymous = await get(other, '/games', { secret: 'wrong' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('x-ratelimit-remaining')).toBe('4');
    const notGet = await get(other, '/games', { method: 'POST' });
    expect(notGet.status).toBe(405);
    expect(notGet.headers.get('x-ratelimit-remaining')).toBe('3');
  });

  it('refills at the rate (a token bucket on an injected clock)', () => {
    let now = 0;
    const limiter = new RateLimiter(5, 5, () => now);
    for (let i = 0; i < 5; i++) expect(limiter.take('k').allowed).toBe(true);
    const spent = limiter.take('k');
    expect(spent.allowed).toBe(false);
    expect(spent.retryMs).toBe(200);
    now += 200;
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(false);
    now += 1000;
    const full = limiter.take('k', false);
    expect(full.remaining).toBe(5);
    expect(full.resetMs).toBe(0);
    expect(limiter.take('other').remaining).toBe(4);
  });

  it('--rate 0 turns the limit off', async () => {
    const s = await service({ rate: 0 });
    for (let i = 0; i < 20; i++) expect((await get(s, '/games')).status).toBe(200);
    expect((await get(s, '/games')).headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('fault injection', () => {
  it('answers 500s, 429 storms, drops and malformed bodies while switched on, and counts requests', async () => {
    const s = await service({ faults: { errorRate: 1 } });
    const failed = await get(s, '/games');
    expect(failed.status).toBe(500);
    expect(failed.body.msg).toEqual(expect.any(String));
    s.faults.errorRate = 0;
    expect((await get(s, '/games')).status).toBe(200);
    s.faults.rateLimitStorm = true;
    const storm = await get(s, '/games');
    expect(storm.status).toBe(429);
    expect(storm.headers.get('retry-after')).toBe('1');
    s.faults.rateLimitStorm = false;
    s.faults.malformedRate = 1;
    const malformed = await get(s, '/games');
    expect(malformed.status).toBe(200);
    expect(malformed.body).toBeUndefined();
    expect(() => JSON.parse(malformed.text)).toThrow();
    s.faults.malformedRate = 0;
    s.faults.dropRate = 1;
    await expect(get(s, '/games')).rejects.toThrow();
    s.faults.dropRate = 0;
    s.faults.latencyMs = 20;
    expect((await get(s, '/games')).status).toBe(200);
    expect(s.requests).toBe(6);
  });
});

describe('matchday service (CLI)', () => {
  it('parses every flag', () => {
    const options = parseServiceArgs([
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--secret',
      's3',
      '--seed',
      '9',
      '--now',
      '2026-11-22T18:00:00Z',
      '--speed',
      '60',
      '--rate',
      '0',
      '--burst',
      '3',
      '--scale',
      '2.5',
      '--latency',
      '10',
      '--error-rate',
      '0.1',
      '--drop-rate',
      '0.2',
      '--malformed-rate',
      '0.3',
      '--rate-limit-storm',
    ]);
    expect(options).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      secret: 's3',
      seed: 9,
      speed: 60,
      rate: 0,
      burst: 3,
      scale: 2.5,
    });
    expect(options.now?.toISOString()).toBe('2026-11-22T18:00:00.000Z');
    expect(options.faults).toEqual({
      latencyMs: 10,
      errorRate: 0.1,
      dropRate: 0.2,
      malformedRate: 0.3,
      rateLimitStorm: true,
    });
  });

  it.each([
    [['--port', 'x'], /--port "x"/],
    [['--port', '70000'], /--port/],
    [['--now', 'yesterday'], /--now/],
    [['--speed', '0'], /--speed/],
    [['--error-rate', '2'], /--error-rate/],
    [['--seed'], /--seed needs a value/],
    [['--bogus'], /Unknown option "--bogus"/],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseServiceArgs(argv as string[])).toThrow(message);
  });

  it('prints its address, serves, and exits 2 on a bad flag', async () => {
    const run = (args: string[]) =>
      spawn(process.execPath, ['bin/matchday.mjs', 'service', ...args], { cwd: process.cwd() });
    const child = run(['--port', '0', '--now', '2026-11-18T15:00:00Z', '--rate', '0']);
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    try {
      expect(line).toMatch(/^esports data service \(v3\) at http:\/\/127\.0\.0\.1:\d+\/v3$/);
      const url = line.split(' at ')[1]!;
      const answer = await fetch(`${url}/games`, { headers: { 'Service-Secret': 'matchday-local' } });
      expect(answer.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    const bad = run(['--speed', 'fast']);
    let err = '';
    bad.stderr.on('data', (chunk) => {
      err += chunk;
    });
    const code = await new Promise<number | null>((resolve) => bad.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/--speed "fast" is not valid/);
    expect(err).toMatch(/Usage: matchday service/);
  });
});
