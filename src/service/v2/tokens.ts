/**
 * OAuth client credentials for v2 (the v2 specification, "Authentication"): a token lives 1 hour; asked
 * again within its first 50 minutes, the same token comes back; a new one is issued only in the last
 * 10 minutes (the old one stays valid until its own expiry). Times are the world's clock, so tests
 * can jump it (reuse at 49 min, a new token at 51, expiry at 60).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_LIFETIME_MS = 60 * 60 * 1000;
/** A new token is issuable once this much of the current one's lifetime has passed. */
export const TOKEN_RENEWABLE_AFTER_MS = 50 * 60 * 1000;

export interface V2Credential {
  id: string;
  secret: string;
}

interface Issued {
  token: string;
  clientId: string;
  createdAt: number;
}

export type TokenCheck = { ok: true; clientId: string } | { ok: false; reason: 'invalid' | 'expired' };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class TokenStore {
  readonly #clients: V2Credential[];
  /** The latest token per client id. */
  readonly #latest = new Map<string, Issued>();
  readonly #byToken = new Map<string, Issued>();
  /** Token requests answered with a token (new or the same again). */
  issued = 0;
  /** Tokens created. */
  created = 0;

  constructor(clients: readonly V2Credential[]) {
    this.#clients = [...clients];
  }

  /** True when the pair is one of the accepted credentials. */
  accepts(id: string, secret: string): boolean {
    return this.#clients.some((c) => same(c.id, id) && same(c.secret, secret));
  }

  knows(id: string): boolean {
    return this.#clients.some((c) => c.id === id);
  }

  /** The token to hand out at `now`, and its remaining lifetime in seconds. */
  issue(clientId: string, now: number): { token: string; expiresIn: number } {
    this.issued++;
    let current = this.#latest.get(clientId);
    if (!current || now - current.createdAt >= TOKEN_RENEWABLE_AFTER_MS) {
      current = { token: randomBytes(24).toString('base64url'), clientId, createdAt: now };
      this.created++;
      this.#latest.set(clientId, current);
      this.#byToken.set(current.token, current);
      this.#sweep(now);
    }
    return {
      token: current.token,
      expiresIn: Math.ceil((current.createdAt + TOKEN_LIFETIME_MS - now) / 1000),
    };
  }

  check(token: string, now: number): TokenCheck {
    const found = this.#byToken.get(token);
    if (!found) return { ok: false, reason: 'invalid' };
    if (now >= found.createdAt + TOKEN_LIFETIME_MS) return { ok: false, reason: 'expired' };
    return { ok: true, clientId: found.clientId };
  }

  /** Forgets tokens expired for more than a day (an expired token still answers "expired" until then). */
  #sweep(now: number): void {
    for (const [token, issued] of this.#byToken)
      if (now - issued.createdAt > TOKEN_LIFETIME_MS + 24 * 60 * 60 * 1000) this.#byToken.delete(token);
  }
}
