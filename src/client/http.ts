/**
 * The bottom of the pipeline: one undici Pool with keep-alive to the service's origin. The secret
 * travels only in the `Service-Secret` header (spec, "Authentication": the header is preferred,
 * query strings end up in proxy logs). A Pool is bound to one origin and never follows redirects,
 * so the secret cannot be carried to another host; a 3xx comes back as an answer and the pipeline
 * refuses it.
 */
import type { Pool } from 'undici';

/**
 * An undici Pool created at the first request: a process that never reaches the service (`matchday
 * ask "/help"`, or a command the feed answers) does not load undici at all (about a sixth of `ask`'s
 * start-up).
 */
export class LazyPool {
  readonly #origin: string;
  readonly #options: Pool.Options;
  #pool: Promise<Pool> | undefined;

  constructor(origin: string, options: Pool.Options) {
    this.#origin = origin;
    this.#options = options;
  }

  get(): Promise<Pool> {
    this.#pool ??= import('undici').then(({ Pool }) => new Pool(this.#origin, this.#options));
    return this.#pool;
  }

  async close(): Promise<void> {
    if (this.#pool) await (await this.#pool).close();
  }
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The parsed answer, when the transport already read it (v2: the body with the service's clock). */
  value?: unknown;
}

/** What the pipeline needs from a transport (v3 `Transport`, v2 `V2Transport`). */
export interface HttpTransport {
  get(pathAndQuery: string, signal: AbortSignal, timeoutMs: number): Promise<HttpAnswer>;
  close(): Promise<void>;
}

interface TransportOptions {
  /** Parallel connections to the service. Default 8 (the rate limit, not sockets, is the bottleneck). */
  connections?: number;
  keepAliveMs?: number;
  userAgent?: string;
}

/** Thrown when the request's own time limit (headers or body) passed. */
export class TransportTimeoutError extends Error {
  override name = 'TransportTimeoutError';
}

export class Transport {
  readonly #pool: LazyPool;
  readonly #prefix: string;
  readonly #headers: Record<string, string>;

  constructor(baseUrl: URL, secret: string, options: TransportOptions = {}) {
    this.#pool = new LazyPool(baseUrl.origin, {
      connections: options.connections ?? 8,
      keepAliveTimeout: options.keepAliveMs ?? 30_000,
      // undici's own defaults are 300 s; every call passes its remaining budget instead.
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    this.#prefix = baseUrl.pathname.replace(/\/+$/, '');
    this.#headers = {
      'service-secret': secret,
      accept: 'application/json',
      'user-agent': options.userAgent ?? 'matchday-client',
    };
  }

  /** One GET. `timeoutMs` bounds waiting for headers and for the body; `signal` aborts it. */
  async get(pathAndQuery: string, signal: AbortSignal, timeoutMs: number): Promise<HttpAnswer> {
    const limit = Math.max(1, Math.ceil(timeoutMs));
    try {
      const answer = await (await this.#pool.get()).request({
        path: this.#prefix + pathAndQuery,
        method: 'GET',
        headers: this.#headers,
        signal,
        headersTimeout: limit,
        bodyTimeout: limit,
      });
      const body = await answer.body.text();
      return { status: answer.statusCode, headers: answer.headers, body };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
        throw new TransportTimeoutError(`no answer within ${limit} ms`, { cause: error });
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}
