/**
 * No single request can freeze the service (and so the bot that embeds it).
 * The `~=` matcher is a linear glob match (work counted, not timed), every list parameter has a
 * bound answered with a 400 that names it, odd request targets are 400s, and the embedded
 * service's secret is random per start and can be refused in the query string.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service/index.ts';
import { compileWildcard, LIMITS, type OrderKey, sortItems, wildcardMatch } from '../../src/service/query.ts';
import { Rng } from '../../src/service/random.ts';
import { get, start } from './helpers.ts';

let running: RunningService[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.close()));
  running = [];
});
async function service(options: Parameters<typeof start>[0] = {}) {
  const s = await start(options);
  running.push(s);
  return s;
}

/** The reference semantics of `~=` for short inputs: a regular expression (fine for tiny inputs). */
function reference(pattern: string, text: string): boolean {
  const body = [...pattern]
    .map((ch) => (ch === '*' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'is').test(text);
}

describe('the ~= wildcard matcher', () => {
  it('matches * (any run), _ (one character), case-insensitively, over the whole text', () => {
    expect(wildcardMatch('nova*', 'Nova Krakens')).toBe(true);
    expect(wildcardMatch('*krakens', 'Nova Krakens')).toBe(true);
    expect(wildcardMatch('n_va*', 'Nova Krakens')).toBe(true);
    expect(wildcardMatch('*a*e*', 'Nova Krakens')).toBe(true);
    expect(wildcardMatch('nova', 'Nova Krakens')).toBe(false);
    expect(wildcardMatch('n_a*', 'Nova Krakens')).toBe(false);
    expect(wildcardMatch('*x*', 'Nova Krakens')).toBe(false);
    expect(wildcardMatch('*', '')).toBe(true);
    expect(wildcardMatch('_', '')).toBe(false);
    expect(wildcardMatch('a.b', 'aXb')).toBe(false);
  });

  it('agrees with the regular-expression reading on every short pattern and text', () => {
    const alphabet = ['a', 'b', '*', '_'];
    const patterns: string[] = [''];
    for (let len = 1; len <= 4; len++) {
      for (const p of patterns.filter((x) => x.length === len - 1)) {
        for (const ch of alphabet) patterns.push(p + ch);
      }
    }
    const texts = ['', 'a', 'b', 'ab', 'ba', 'aab', 'abab', 'bbba', 'aaaa'];
    let checked = 0;
    for (const p of patterns) {
      for (const t of texts) {
        expect(wildcardMatch(p, t), `${p} ~ ${t}`).toBe(reference(p, t));
        checked++;
      }
    }
    expect(checked).toBe(341 * texts.length);
  });

  it('does work linear in the text on the worst patterns (no backtracking blow-up)', () => {
    // 13 stars made the old regular expression run for 13.5 s on a long name; here the work is
    // counted in steps: at most (pattern + 1) per text character, and doubling the text at most
    // doubles the work.
    const worst = `${'*a'.repeat(13)}*b`;
    for (const pattern of [worst, '*_*_*_*_*_*_*_*_*_*_*_*_*b', `${'a*'.repeat(20)}c`]) {
      const work = (n: number) => {
        const steps = { count: 0 };
        expect(wildcardMatch(pattern, 'a'.repeat(n), steps)).toBe(false);
        return steps.count;
      };
      const small = work(1000);
      const big = work(2000);
      expect(small).toBeGreaterThan(0);
      expect(big).toBeLessThanOrEqual((pattern.length + 1) * 2000);
      expect(big / small).toBeLessThan(2.1);
    }
  });
});

describe('the compiled matcher and the page sort the service uses', () => {
  it('the compiled ~= matcher answers as wildcardMatch on every short pattern and text', () => {
    const alphabet = ['a', 'B', '*', '_'];
    const patterns: string[] = [''];
    for (let len = 1; len <= 5; len++)
      for (const p of patterns.filter((x) => x.length === len - 1))
        for (const ch of alphabet) patterns.push(p + ch);
    const texts = ['', 'a', 'b', 'ab', 'Ba', 'aab', 'abab', 'bbba', 'aaaa', 'abba', 'bab', 'ÄbA'];
    let agreed = 0;
    for (const p of patterns) {
      const matches = compileWildcard(p);
      for (const t of texts) {
        expect(matches(t), `${p} ~ ${t}`).toBe(wildcardMatch(p, t));
        agreed++;
      }
    }
    expect(agreed).toBe(1365 * texts.length);
    // Pieces found in order, not overlapping the anchored ends.
    expect(compileWildcard('ab*ba')('aba')).toBe(false);
    expect(compileWildcard('*nova*kra*')('Nova Krakens')).toBe(true);
    expect(compileWildcard('*kra*nova*')('Nova Krakens')).toBe(false);
  });

  it('keeps only a page (skip + take) of a sort, the same items in the same order as a full sort', () => {
    const rng = new Rng('page-sort');
    const pick = <T>(xs: T[]) => xs[Math.floor(rng.next() * xs.length)]!;
    const records = Array.from({ length: 400 }, (_, i) => ({
      id: 1000 - i,
      tier: pick([1, 2, 3, null]),
      start: pick(['2026-01-01T10:00:00Z', '2026-01-01T12:00:00Z', '2026-01-02T10:00:00Z']),
      tags: pick([[], ['x'], ['y', 'x']]),
      team: { name: pick(['b', 'a', 'c']) },
    }));
    const orders: OrderKey[][] = [
      [{ path: 'tier', desc: false }],
      [
        { path: 'start', desc: true },
        { path: 'tier', desc: false },
      ],
      [
        { path: 'tags', desc: false },
        { path: 'team.name', desc: true },
        { path: 'tier', desc: true },
      ],
    ];
    for (const order of orders)
      for (const limit of [0, 1, 7, 25, 49, 400]) {
        const full = sortItems([...records], order).slice(0, limit);
        expect(
          sortItems([...records], order, limit).slice(0, limit),
          `${JSON.stringify(order)} ${limit}`,
        ).toEqual(full);
      }
  });
});

describe('bounds on one request', () => {
  it('answers the worst wildcard and sort requests (200) and refuses what is beyond the bounds (400)', async () => {
    const s = await service();
    const worst = `${'*a'.repeat(13)}*b`;
    const wild = await get(s, `/teams?filter=name~=${encodeURIComponent(worst)}`);
    expect(wild.status).toBe(200);
    expect(wild.body).toEqual([]);
    const sorted = await get(s, '/series?order=start-desc,tier-asc,best_of-desc,id-asc&take=5');
    expect(sorted.status).toBe(200);
    expect(sorted.body).toHaveLength(5);

    const tooLong = await get(s, `/teams?filter=name~=${'a'.repeat(LIMITS.patternLength + 1)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toBe(
      `Invalid filter parameter: the ~= pattern for name is ${LIMITS.patternLength + 1} characters long; at most ${LIMITS.patternLength} are allowed.`,
    );
    const conditions = Array.from({ length: LIMITS.conditions + 1 }, () => 'game.id!=9').join(',');
    const many = await get(s, `/teams?filter=${conditions}`);
    expect(many.status).toBe(400);
    expect(many.body.msg).toMatch(/33 conditions; at most 32 are allowed/);
    const set = Array.from({ length: LIMITS.setItems + 1 }, (_, i) => i).join(',');
    const bigSet = await get(s, `/teams?filter=id<={${set}}`);
    expect(bigSet.status).toBe(400);
    expect(bigSet.body.msg).toMatch(/the set for id has 1001 values; at most 1000 are allowed/);
    const longFilter = await get(s, `/teams?filter=name=${'x'.repeat(LIMITS.filterLength)}`);
    expect(longFilter.status).toBe(400);
    expect(longFilter.body.msg).toMatch(/at most 6000 are allowed/);

    const keys = [
      'id',
      'start',
      'end',
      'tier',
      'best_of',
      'lifecycle',
      'resource_version',
      'game.id',
      'phase',
    ];
    const manyKeys = await get(s, `/series?order=${keys.map((k) => `${k}-asc`).join(',')}`);
    expect(manyKeys.status).toBe(400);
    expect(manyKeys.body.msg).toMatch(/at most 8 keys are allowed/);
    // 1,400 sort keys cost 1.9 s of CPU before: now refused before any sorting.
    const hugeOrder = await get(s, `/series?order=${Array(1400).fill('start-asc').join(',')}`);
    expect(hugeOrder.status).toBe(400);
    const twice = await get(s, '/series?order=start-asc,start-desc');
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('Invalid order parameter: "start" is named twice; name each field once.');

    const longUrl = await get(s, `/teams?x=${'y'.repeat(9000)}`);
    expect(longUrl.status).toBe(400);
    expect(longUrl.body.msg).toMatch(/^The request target is 9012 characters long; at most 8192 are allowed/);
    // Within the bounds everything still answers.
    const fine = await get(s, `/teams?filter=id<={${set.split(',').slice(0, 1000).join(',')}}&take=3`);
    expect(fine.status).toBe(200);
  });

  it('answers an odd request target such as //[ with a 400, not a 500', async () => {
    const s = await service();
    const port = Number(new URL(s.url).port);
    const raw = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nService-Secret: ${s.secret}\r\nConnection: close\r\n\r\n`,
          );
        });
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    for (const target of ['//[', '//example.com/v3/games', 'http://127.0.0.1/v3/games']) {
      const answer = await raw(target);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.split('\r\n\r\n')[1]!).msg).toMatch(
        /^Invalid request target ".*": use a path under \/v3/,
      );
    }
    // The secret in a query is never echoed in such a message.
    const withSecret = await raw(`//x?secret=${s.secret}`);
    expect(withSecret).toMatch(/^HTTP\/1\.1 400 /);
    expect(withSecret.split('\r\n\r\n')[1]).not.toContain(s.secret);
  });
});

describe('the secret', () => {
  it('is random per start unless given, and can be refused in the query string', async () => {
    const a = await service({ secret: undefined });
    const b = await service({ secret: undefined });
    expect(a.secret).not.toBe(b.secret);
    expect(a.secret.length).toBeGreaterThanOrEqual(32);
    expect((await get(a, '/games', { secret: 'matchday-local' })).status).toBe(401);
    expect((await get(a, '/games', { secret: b.secret })).status).toBe(401);
    expect((await get(a, '/games')).status).toBe(200);
    // By default the spec's query parameter works too.
    const inQuery = await get(a, `/games?secret=${a.secret}`, { secret: null });
    expect(inQuery.status).toBe(200);

    // The embedded service (npm start) takes it only in the header.
    const embedded = await service({ querySecret: false });
    const refused = await get(embedded, `/games?secret=${embedded.secret}`, { secret: null });
    expect(refused.status).toBe(401);
    expect(refused.body.msg).toBe(
      'This service takes the secret only in the Service-Secret header, not in the query string.',
    );
    expect(refused.text).not.toContain(embedded.secret);
    expect((await get(embedded, '/games')).status).toBe(200);
  });
});
