/**
 * The request pipeline against plain `node:http` servers on 127.0.0.1 (port 0): retries, deadlines,
 * 429 headers, redirects, body parsing, single flight and secret hygiene. Backoff bases are tiny
 * and limits high so nothing here waits long; no assertion is about elapsed time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { detailPathOf } from '../../src/client/cache-policy.ts';
import { type ClientOptions, createClient } from '../../src/client/client.ts';
import {
  BadRequestError,
  ClientClosedError,
  GoneError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  RedirectRefusedError,
  type ServiceError,
  stoppedByClose,
  TimeoutError,
  UnauthorizedError,
  UnavailableError,
} from '../../src/client/errors.ts';
import { retryHint } from '../../src/client/retry.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { captureLogger, json, startServer, type TestServer } from './helpers.ts';

const SECRET = 'sk-test-5f1c2e9a-very-secret';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const s = await startServer(handler);
  cleanups.push(() => s.close());
  return s;
}

function client(url: string, extra: Partial<ClientOptions> = {}): EsportsClient {
  const c = createClient({
    baseUrl: url,
    secret: SECRET,
    rate: { perSecond: 1000, burst: 100 },
    retry: { baseMs: 1, capMs: 5 },
    ...extra,
  });
  cleanups.push(() => c.close());
  return c;
}

const game = { id: 1, title: 'Dota 2', abbreviation: 'dota2' };

describe('request pipeline', () => {
  it('sends the secret only in the Service-Secret header and reads the JSON answer', async () => {
    const s = await server((_req, res) => json(res, 200, game));
    const answer = await client(s.url).games.get(1);
    expect(answer).toEqual(game);
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.url).toBe('/v3/games/1');
    expect(s.requests[0]!.headers['service-secret']).toBe(SECRET);
    expect(s.requests[0]!.url).not.toContain(SECRET);
  });

  it('sends list parameters and the id space as query parameters', async () => {
    const s = await server((_req, res) => json(res, 200, []));
    const c = client(s.url);
    await c.series.list({ filter: [['game.id', '=', 2]], order: 'start-asc', take: 10 });
    await c.series.get(7, { idSpace: 'oddsline' });
    const first = new URL(s.requests[0]!.url, s.origin);
    expect(first.pathname).toBe('/v3/series');
    expect(first.searchParams.get('filter')).toBe('game.id=2');
    expect(first.searchParams.get('order')).toBe('start-asc');
    expect(first.searchParams.get('take')).toBe('10');
    expect(new URL(s.requests[1]!.url, s.origin).searchParams.get('id_space')).toBe('oddsline');
    await expect(c.assets.get(1, { idSpace: 'oddsline' })).rejects.toThrow(/does not take an id space/);
    await expect(c.series.get(1, { idSpace: 'nope' as never })).rejects.toThrow(/not an id space/);
    expect(s.requests).toHaveLength(2);
  });

  it('retries a 5xx and then succeeds', async () => {
    const s = await server((_req, res, i) =>
      i < 2 ? json(res, 500, { msg: 'boom' }) : json(res, 200, game),
    );
    const c = client(s.url);
    expect(await c.games.get(1)).toEqual(game);
    expect(s.requests).toHaveLength(3);
    expect(c.stats().retries).toBe(2);
    expect(c.stats().upstream.games).toEqual({ '500': 2, '200': 1 });
  });

  it('stops after 3 attempts and reports the service msg', async () => {
    const s = await server((_req, res) => json(res, 503, { msg: 'Maintenance.' }));
    const error = await client(s.url)
      .games.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: 503, method: 'GET', path: '/games/1', msg: 'Maintenance.' });
    expect(s.requests).toHaveLength(3);
  });

  it('honours X-RateLimit-Reset on a 429, then succeeds', async () => {
    const s = await server((_req, res, i) =>
      i === 0 ? json(res, 429, undefined, { 'x-ratelimit-reset': '30' }) : json(res, 200, game),
    );
    const c = client(s.url);
    expect(await c.games.get(1)).toEqual(game);
    expect(s.requests).toHaveLength(2);
    expect(c.stats().rateLimited).toBe(1);
  });

  it('does not wait for a 429 hint longer than the deadline: fails fast with RateLimitedError', async () => {
    const s = await server((_req, res) =>
      json(res, 429, { msg: 'Too many.' }, { 'x-ratelimit-reset': '60000' }),
    );
    const error = await client(s.url)
      .games.get(1, { priority: 'interactive' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(60000);
    expect(s.requests).toHaveLength(1);
  });

  it('maps statuses to error classes without retrying them', async () => {
    const statuses: [number, unknown, new (...args: never[]) => ServiceError][] = [
      [400, { msg: 'Invalid id.' }, BadRequestError],
      [401, undefined, UnauthorizedError],
      [404, { msg: 'Not found.' }, NotFoundError],
      [410, { msg: 'Deleted.' }, GoneError],
    ];
    for (const [status, body, kind] of statuses) {
      const s = await server((_req, res) => json(res, status, body));
      const error = await client(s.url)
        .games.get(1)
        .catch((e: unknown) => e);
      expect(error, String(status)).toBeInstanceOf(kind);
      expect((error as ServiceError).status).toBe(status);
      expect(s.requests, String(status)).toHaveLength(1);
    }
  });

  it('reads error bodies whether {msg}, empty or not JSON', async () => {
    const bodies = [
      ['{"msg":"Invalid id."}', 'Invalid id.'],
      ['', 'no message (HTTP 404)'],
      [
        '<html><body>Not here</body></html>',
        'unreadable answer (HTTP 404): <html><body>Not here</body></html>',
      ],
    ] as const;
    for (const [body, msg] of bodies) {
      const s = await server((_req, res) => {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end(body);
      });
      const error = (await client(s.url)
        .games.get(1)
        .catch((e: unknown) => e)) as NotFoundError;
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.msg).toBe(msg);
    }
  });

  it('retries a 200 whose body is not JSON and then reports it as unavailable', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": 1, "tit');
    });
    const error = await client(s.url)
      .games.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).msg).toMatch(/not valid JSON/);
    expect(s.requests).toHaveLength(3);
  });

  it('refuses a redirect, and the redirect target never receives the secret', async () => {
    const target = await server((_req, res) => json(res, 200, game));
    const s = await server((_req, res) => {
      res.writeHead(302, { location: `${target.origin}/v3/games/1` });
      res.end();
    });
    const error = await client(s.url)
      .games.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect((error as ServiceError).status).toBe(302);
    expect(target.requests).toHaveLength(0);
  });

  it('times out at the deadline when the service never answers', async () => {
    const s = await server(() => {
      /* never answers */
    });
    const error = await client(s.url)
      .games.get(1, { deadlineMs: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).status).toBe(0);
  });

  it('fails a waiting call with ClientClosedError when the client closes, not a timeout', async () => {
    const s = await server(() => {
      /* never answers */
    });
    const c = client(s.url);
    const pending = c.games.get(1, { deadlineMs: 60_000 }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(s.requests).toHaveLength(1));
    await c.close();
    const error = await pending;
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(stoppedByClose(error)).toBe(true);
    const after = await c.games.get(2).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(ClientClosedError);
    expect(s.requests).toHaveLength(1);
    // A real timeout is a failure worth a warning.
    const late = await client(s.url)
      .games.get(3, { deadlineMs: 50 })
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(TimeoutError);
    expect(stoppedByClose(late)).toBe(false);
  });

  it('stops when the caller aborts', async () => {
    const s = await server(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const pending = client(s.url).games.get(1, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user went away')), 20);
    await expect(pending).rejects.toThrow('user went away');
  });

  it('turns a refused connection into a NetworkError after retrying', async () => {
    const s = await startServer(() => {});
    const url = s.url;
    await s.close();
    const c = client(url);
    const error = await c.games.get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(c.stats().retries).toBe(2);
  });

  it('makes one upstream request for 100 concurrent identical cold reads', async () => {
    const s = await server((_req, res) => {
      setTimeout(() => json(res, 200, [game]), 30);
    });
    const c = client(s.url);
    const answers = await Promise.all(Array.from({ length: 100 }, () => c.games.list({ take: 5 })));
    expect(answers.every((a) => a[0]?.id === 1)).toBe(true);
    expect(s.requests).toHaveLength(1);
    expect(c.stats().coalesced).toBe(99);
  });

  it('never puts the secret in a log line or an error message', async () => {
    const logger = captureLogger();
    const s = await server((req, res) =>
      req.url?.includes('/games/2') ? json(res, 404, { msg: 'nope' }) : json(res, 500, { msg: 'boom' }),
    );
    const c = client(s.url, { logger });
    const errors = await Promise.all([
      c.games.get(1).catch((e: unknown) => e),
      c.games.get(2).catch((e: unknown) => e),
    ]);
    expect(logger.lines.length).toBeGreaterThan(0);
    const everything =
      JSON.stringify(logger.lines) + errors.map((e) => `${(e as Error).message} ${(e as Error).stack}`);
    expect(everything).not.toContain(SECRET);
  });
});

describe('retryHint', () => {
  it('reads X-RateLimit-Reset on a 429, Retry-After above 120 as milliseconds, and takes the longer of both', () => {
    expect(retryHint({ status: 429, headers: { 'x-ratelimit-reset': '250' } })).toBe(250);
    expect(retryHint({ status: 429, headers: { 'x-ratelimit-reset': '250', 'retry-after': '1' } })).toBe(
      1000,
    );
    expect(retryHint({ status: 429, headers: { 'x-ratelimit-reset': '0', 'retry-after': '1' } })).toBe(1000);
    expect(retryHint({ status: 429, headers: { 'x-ratelimit-reset': '1500', 'retry-after': '1000' } })).toBe(
      1500,
    );
    expect(retryHint({ status: 429, headers: { 'retry-after': '2' } })).toBe(2000);
    expect(retryHint({ status: 429, headers: { 'retry-after': '1000' } })).toBe(1000);
    expect(retryHint({ status: 503, headers: { 'retry-after': '3' } })).toBe(3000);
    expect(retryHint({ status: 500, headers: { 'x-ratelimit-reset': '250' } })).toBeUndefined();
    expect(retryHint({ status: 429, headers: {} })).toBeUndefined();
  });
});

describe('detailPathOf', () => {
  it('names the /x/{id} endpoint whose records a listing holds', () => {
    expect(detailPathOf('/teams')).toBe('/teams');
    expect(detailPathOf('/tournaments/3/series')).toBe('/series');
    expect(detailPathOf('/maps/layouts')).toBe('/maps/layouts');
    expect(detailPathOf('/platforms')).toBe('/platforms');
    expect(detailPathOf('/socialmedia/platforms')).toBeUndefined();
    expect(detailPathOf('/id_spaces/1/series')).toBeUndefined();
    expect(detailPathOf('/teams/4')).toBeUndefined();
    expect(detailPathOf('/languages')).toBeUndefined();
  });
});
