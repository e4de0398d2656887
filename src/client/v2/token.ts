/**
 * The v2 access token, as the client applies the rules of `service-v2.md` ("Authentication") and
 * the provider SDK's habit (`service-facts.md`, "v2"):
 *
 * - obtained once (concurrent first calls share one request) and reused for its hour;
 * - renewed when 10 minutes or less remain: one background request while the current token keeps
 *   serving, so calls never pile up at expiry (the service issues a new token only then);
 * - shared through the store (keyv) by every process on the same credential pair: a process reads
 *   the store before asking the service, and writes what it obtained;
 * - dropped when a GET answers 401 (`invalidate`), so the transport retries once with a fresh one;
 * - refused credentials fail at once with the service's reason, and keep failing for a minute
 *   without new requests (no retry loop on a wrong secret).
 */
import { createHash } from 'node:crypto';
import type Keyv from 'keyv';
import { UnauthorizedError, UnavailableError } from '../errors.ts';
import type { Logger } from '../logger.ts';

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
  #current: TokenRecord | undefined;
  #obtaining: Promise<TokenRecord> | undefined;
  #refused: { until: number; error: UnauthorizedError } | undefined;
  #renewAfter = 0;
  /** Token requests this process sent and got an answer to. */
  requests = 0;

  constructor(options: TokenKeeperOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    const pair = createHash('sha256').update(`${options.clientId}\0${options.clientSecret}`).digest('hex');
    this.#key = `v2-token ${options.serviceKey} ${pair}`;
  }

  /** A token valid now: the current one, or one obtained (once, shared by concurrent callers). */
  async token(timeoutMs: number): Promise<string> {
    const now = this.#now();
    const current = this.#current;
    if (current && current.expiresAt - EXPIRY_MARGIN_MS > now) {
      if (current.expiresAt - now <= RENEW_WHEN_LEFT_MS && now >= this.#renewAfter && !this.#obtaining) {
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

  #obtain(timeoutMs: number, previous: TokenRecord | undefined): Promise<TokenRecord> {
    this.#obtaining ??= this.#fetch(timeoutMs, previous).finally(() => {
      this.#obtaining = undefined;
    });
    return this.#obtaining;
  }

  async #fetch(timeoutMs: number, previous: TokenRecord | undefined): Promise<TokenRecord> {
    const now = this.#now();
    if (this.#refused && now < this.#refused.until) throw this.#refused.error;
    // Another process on the same pair may hold a newer token.
    const stored = await this.#read();
    if (
      stored &&
      stored.expiresAt - EXPIRY_MARGIN_MS > now &&
      (!previous || stored.expiresAt > previous.expiresAt) &&
      (stored.expiresAt - now > RENEW_WHEN_LEFT_MS || !previous)
    ) {
      this.#current = stored;
      return stored;
    }
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
    this.#current = record;
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
