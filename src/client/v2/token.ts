/**
 * The v2 access token, as the client applies the rules of the v2 specification ("Authentication") and
 * the provider SDK's habit:
 *
 * - obtained once (concurrent first calls share one request) and reused for its hour;
 * - renewed when 10 minutes or less remain: one background request while the current token keeps
 *   serving, so calls never pile up at expiry (the service issues a new token only then);
 * - shared through the store (keyv) by every process on the same credential pair: a process reads
 *   the store before asking the service, and writes what it obtained;
 * - asked for once at a time: within a process one request in flight per service and pair (every
 *   client of the process on that pair waits for it), and across processes a short lock in the
 *   store (`TokenLock`): the process that takes it asks, the others wait for its token to appear in
 *   the store and read it (a store that fails or is slow leaves each process to ask on its own);
 * - dropped when a GET answers 401 (`invalidate`), so the transport retries once with a fresh one;
 * - refused credentials fail at once with the service's reason, and keep failing for a minute
 *   without new requests (no retry loop on a wrong secret).
 */
import { createHash } from 'node:crypto';
import type Keyv from 'keyv';
import { UnauthorizedError, UnavailableError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { TokenLock } from './token-store.ts';

/** Renew when this little lifetime remains (the service issues new tokens only then). */
export const RENEW_WHEN_LEFT_MS = 10 * 60 * 1000;
/** A token this close to its expiry is not used any more: the next call waits for a new one. */
const EXPIRY_MARGIN_MS = 5000;
/** After refused credentials, calls fail at once for this long. */
const REFUSED_FOR_MS = 60_000;
/** After a failed background renewal, the next attempt waits this long. */
const RENEW_RETRY_MS = 30_000;
/** Longest wait for one store operation. */
const STORE_TIMEOUT_MS = 250;
/** The lock outlives the token request it guards by this much (the request's own timeout first). */
const LOCK_SLACK_MS = 1000;
/** How often a process waiting on another's token request looks in the store. */
const LOCK_POLL_MS = 50;

/**
 * The token request in flight in this process, per service and pair: every client of the process
 * on the pair (the bot's, the notifier's...) waits for the same one.
 */
const inFlight = new Map<string, Promise<TokenRecord>>();

export interface TokenRecord {
  token: string;
  /** Epoch ms. */
  expiresAt: number;
}

export interface TokenAnswer {
  status: number;
  body: string;
}

export interface TokenKeeperOptions {
  clientId: string;
  clientSecret: string;
  /** Identifies the service in the store key (origin and path). */
  serviceKey: string;
  store: Keyv | undefined;
  /** The lock that lets one process at a time ask (`openTokenLock`); none: no cross-process lock. */
  lock?: TokenLock;
  /** POSTs the form to `/oauth/access_token`. */
  post: (form: string, timeoutMs: number) => Promise<TokenAnswer>;
  logger: Logger;
  /** Epoch ms; tests move it. */
  now?: () => number;
}

export class TokenKeeper {
  readonly #o: TokenKeeperOptions;
  readonly #now: () => number;
  readonly #key: string;
  readonly #lockName: string;
  #current: TokenRecord | undefined;
  #refused: { until: number; error: UnauthorizedError } | undefined;
  #renewAfter = 0;
  /** Token requests this process sent and got an answer to. */
  requests = 0;

  constructor(options: TokenKeeperOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    const pair = createHash('sha256').update(`${options.clientId}\0${options.clientSecret}`).digest('hex');
    this.#key = `v2-token ${options.serviceKey} ${pair}`;
    this.#lockName = createHash('sha256').update(this.#key).digest('hex').slice(0, 32);
  }

  /** A token valid now: the current one, or one obtained (once, shared by concurrent callers). */
  async token(timeoutMs: number): Promise<string> {
    const now = this.#now();
    const current = this.#current;
    if (current && current.expiresAt - EXPIRY_MARGIN_MS > now) {
      if (
        current.expiresAt - now <= RENEW_WHEN_LEFT_MS &&
        now >= this.#renewAfter &&
        !inFlight.has(this.#key)
      ) {
        this.#obtain(timeoutMs, current).catch((error: unknown) => {
          this.#renewAfter = this.#now() + RENEW_RETRY_MS;
          this.#o.logger.warn(
            { err: (error as Error).message },
            'v2 token renewal failed; the current token serves on',
          );
        });
      }
      return current.token;
    }
    return (await this.#obtain(timeoutMs, current)).token;
  }

  /** A GET was refused with `token`: forget it (here and in the store) so the next call gets another. */
  async invalidate(token: string): Promise<void> {
    if (this.#current?.token === token) this.#current = undefined;
    const stored = await this.#read();
    if (stored?.token === token) await this.#guard(this.#o.store?.delete(this.#key));
  }

  /** The request in flight in this process for the pair, or a new one; its token becomes ours. */
  async #obtain(timeoutMs: number, previous: TokenRecord | undefined): Promise<TokenRecord> {
    let flight = inFlight.get(this.#key);
    if (!flight) {
      const mine = this.#fetch(timeoutMs, previous).finally(() => {
        if (inFlight.get(this.#key) === mine) inFlight.delete(this.#key);
      });
      inFlight.set(this.#key, mine);
      flight = mine;
    }
    const record = await flight;
    this.#current = record;
    return record;
  }

  /**
   * A token from the store if another process wrote a usable one, else from the service, asked by
   * the one process that holds the lock while the others wait for its token in the store.
   */
  async #fetch(timeoutMs: number, previous: TokenRecord | undefined): Promise<TokenRecord> {
    if (this.#refused && this.#now() < this.#refused.until) throw this.#refused.error;
    // Another process on the same pair may hold a newer token.
    const stored = await this.#stored(previous);
    if (stored) return stored;
    const lock = this.#o.lock;
    if (!lock) return this.#ask(timeoutMs);
    const until = performance.now() + timeoutMs;
    for (;;) {
      const taken = await this.#guard(lock.take(this.#lockName, timeoutMs + LOCK_SLACK_MS));
      // The store cannot lock now (down or slow): this process asks on its own.
      if (taken === undefined) return this.#ask(Math.max(1, until - performance.now()));
      if (taken) {
        try {
          // The holder before us may have stored its token just now.
          return (await this.#stored(previous)) ?? (await this.#ask(Math.max(1, until - performance.now())));
        } finally {
          await this.#guard(lock.release(this.#lockName));
        }
      }
      // Another process is asking: its token appears in the store.
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      const theirs = await this.#stored(previous);
      if (theirs) return theirs;
      if (performance.now() >= until)
        throw new UnavailableError({
          status: 0,
          method: 'POST',
          path: '/oauth/access_token',
          msg: 'another process on this v2 client pair is obtaining the token and has not stored it in time',
        });
    }
  }

  /** A token in the store this process may use instead of `previous` (newer, and not due for renewal). */
  async #stored(previous: TokenRecord | undefined): Promise<TokenRecord | undefined> {
    const now = this.#now();
    const stored = await this.#read();
    if (
      stored &&
      stored.expiresAt - EXPIRY_MARGIN_MS > now &&
      (!previous || stored.expiresAt > previous.expiresAt) &&
      (stored.expiresAt - now > RENEW_WHEN_LEFT_MS || !previous)
    )
      return stored;
    return undefined;
  }

  /** Asks the service (POST /oauth/access_token) and stores what it answers. */
  async #ask(timeoutMs: number): Promise<TokenRecord> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.#o.clientId,
      client_secret: this.#o.clientSecret,
    }).toString();
    const answer = await this.#o.post(form, timeoutMs);
    this.requests++; // counted once answered: a request that never left is not one
    const body = parse(answer.body);
    const path = '/oauth/access_token';
    if (answer.status === 401 || answer.status === 400) {
      const reason =
        typeof body?.error_description === 'string' ? body.error_description : `HTTP ${answer.status}`;
      const error = new UnauthorizedError({
        status: answer.status,
        method: 'POST',
        path,
        msg: `the v2 client credentials were refused (${reason}); check the client id and secret`,
      });
      this.#refused = { until: this.#now() + REFUSED_FOR_MS, error };
      throw error;
    }
    const token = body?.access_token;
    const expiresIn = body?.expires_in;
    if (answer.status !== 200 || typeof token !== 'string' || typeof expiresIn !== 'number') {
      throw new UnavailableError({
        status: answer.status,
        method: 'POST',
        path,
        msg: `no token in the answer (HTTP ${answer.status})`,
      });
    }
    const record = { token, expiresAt: this.#now() + expiresIn * 1000 };
    await this.#guard(this.#o.store?.set(this.#key, record, Math.max(1000, record.expiresAt - this.#now())));
    return record;
  }

  async #read(): Promise<TokenRecord | undefined> {
    const value = (await this.#guard(this.#o.store?.get(this.#key))) as TokenRecord | undefined;
    return value && typeof value.token === 'string' && typeof value.expiresAt === 'number'
      ? value
      : undefined;
  }

  /** A store that fails or hangs never fails a call: the token is then this process's own. */
  async #guard<T>(operation: Promise<T> | undefined): Promise<T | undefined> {
    if (!operation) return undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        operation,
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), STORE_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      this.#o.logger.warn({ err: (error as Error).message }, 'token store failed; using this process only');
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
