/**
 * The v2 transport: what the pipeline's `Transport` does for v3 (one undici Pool, redirects never
 * followed), plus what v2 asks of every request (the v2 specification, "Authentication", "Limits"):
 *
 * - the access token in the `access_token` query parameter (from `TokenKeeper`);
 * - a 401 drops that token and the request is sent once more with a fresh one;
 * - a per-minute budget below the service's (the per-second one is the pipeline's limiter), as a
 *   sliding minute, so no fixed minute of the service ever sees more;
 * - `name[]` parameters: the resources write `games[]=1,2`, sent as `games[]=1&games[]=2`;
 * - answers: JSON bodies parsed here and returned as `{ at, body }`, `at` being the service's clock
 *   from the `Date` header (what "live" means is decided against it); the v2 error body
 *   `{error, error_code, error_description}` becomes the `{msg}` the pipeline reads.
 */
import type Keyv from 'keyv';
import { type HttpAnswer, LazyPool, TransportTimeoutError } from '../http.ts';
import type { Logger } from '../logger.ts';
import { TokenKeeper } from './token.ts';
import type { TokenLock } from './token-store.ts';

/** A v2 answer as the pipeline caches it. */
export interface V2Answer {
  /** The service's clock when it answered (epoch ms). */
  at: number;
  body: unknown;
}

export interface V2TransportOptions {
  baseUrl: URL;
  clientId: string;
  clientSecret: string;
  /** Where the token is shared between processes (the client's cache store). */
  store: Keyv | undefined;
  /** The lock beside it that lets one process at a time ask for a token (`openTokenLock`). */
  lock?: TokenLock;
  /** Requests per minute this client may send (the service allows 300). Default 300. */
  perMinute?: number;
  connections?: number;
  logger: Logger;
  now?: () => number;
}

/** Requests per minute kept unused for the token request and a 401 retry. */
const MINUTE_RESERVE = 2;

export class V2Transport {
  readonly tokens: TokenKeeper;
  readonly #pool: LazyPool;
  readonly #prefix: string;
  readonly #perMinute: number;
  /** Send times (performance.now) within the last minute. */
  readonly #sent: number[] = [];

  constructor(options: V2TransportOptions) {
    this.#pool = new LazyPool(options.baseUrl.origin, {
      connections: options.connections ?? 8,
      keepAliveTimeout: 30_000,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    this.#prefix = options.baseUrl.pathname.replace(/\/+$/, '');
    this.#perMinute = Math.max(1, (options.perMinute ?? 300) - MINUTE_RESERVE);
    this.tokens = new TokenKeeper({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      serviceKey: options.baseUrl.origin + this.#prefix,
      store: options.store,
      ...(options.lock ? { lock: options.lock } : {}),
      logger: options.logger,
      now: options.now,
      post: async (form, timeoutMs) => {
        await this.#minute(performance.now() + timeoutMs);
        const answer = await this.#request('/oauth/access_token', 'POST', undefined, timeoutMs, form);
        return { status: answer.status, body: answer.body };
      },
    });
  }

  /** One GET of a v2 path (query in the pipeline's canonical form). */
  async get(pathAndQuery: string, signal: AbortSignal, timeoutMs: number): Promise<HttpAnswer> {
    const deadline = performance.now() + timeoutMs;
    const target = expandArrays(pathAndQuery);
    let token = await this.tokens.token(timeoutMs);
    let answer = await this.#send(target, token, signal, deadline);
    if (answer.status === 401) {
      // Expired or no longer known (a restarted service): one more try with a fresh token.
      await this.tokens.invalidate(token);
      token = await this.tokens.token(Math.max(1, deadline - performance.now()));
      answer = await this.#send(target, token, signal, deadline);
    }
    return convert(answer);
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  async #send(target: string, token: string, signal: AbortSignal, deadline: number): Promise<HttpAnswer> {
    await this.#minute(deadline, signal);
    const sep = target.includes('?') ? '&' : '?';
    return this.#request(
      `${target}${sep}access_token=${encodeURIComponent(token)}`,
      'GET',
      signal,
      deadline - performance.now(),
    );
  }

  /** Waits for room in the sliding minute; past the deadline it gives up like a timeout. */
  async #minute(deadline: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = performance.now();
      while (this.#sent.length > 0 && this.#sent[0]! <= now - 60_000) this.#sent.shift();
      if (this.#sent.length < this.#perMinute) {
        this.#sent.push(now);
        return;
      }
      const wait = this.#sent[0]! + 60_000 - now + 1;
      if (now + wait >= deadline)
        throw new TransportTimeoutError('the per-minute budget is spent until after the deadline');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, wait);
        signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    }
  }

  async #request(
    path: string,
    method: 'GET' | 'POST',
    signal: AbortSignal | undefined,
    timeoutMs: number,
    form?: string,
  ): Promise<HttpAnswer> {
    const limit = Math.max(1, Math.ceil(timeoutMs));
    try {
      const answer = await (await this.#pool.get()).request({
        path: this.#prefix + path,
        method,
        headers: {
          accept: 'application/json',
          'user-agent': 'matchday-client',
          ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        body: form,
        signal,
        headersTimeout: limit,
        bodyTimeout: limit,
      });
      return { status: answer.statusCode, headers: answer.headers, body: await answer.body.text() };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
        throw new TransportTimeoutError(`no answer within ${limit} ms`, { cause: error });
      throw error;
    }
  }
}

/** `games%5B%5D=1%2C2` -> `games%5B%5D=1&games%5B%5D=2`. */
export function expandArrays(pathAndQuery: string): string {
  const at = pathAndQuery.indexOf('?');
  if (at < 0) return pathAndQuery;
  const params = new URLSearchParams(pathAndQuery.slice(at + 1));
  const out = new URLSearchParams();
  for (const [key, value] of params) {
    if (key.endsWith('[]')) for (const item of value.split(',')) out.append(key, item);
    else out.append(key, value);
  }
  return `${pathAndQuery.slice(0, at)}?${out.toString()}`;
}

function convert(answer: HttpAnswer): HttpAnswer {
  const date = answer.headers.date;
  const at = Date.parse(Array.isArray(date) ? date[0]! : (date ?? ''));
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return answer; // not JSON: the pipeline reports it
  }
  if (answer.status === 200)
    return { ...answer, value: { at: Number.isNaN(at) ? Date.now() : at, body: parsed } };
  const description = (parsed as { error_description?: unknown } | null)?.error_description;
  return typeof description === 'string' ? { ...answer, body: JSON.stringify({ msg: description }) } : answer;
}
