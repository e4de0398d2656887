/**
 * `fetchWithRetry` against a fake transport and a limiter on a fake clock: what the limiter is told
 * about requests on the wire. No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/client/errors.ts';
import { Flight } from '../../src/client/flight.ts';
import type { HttpTransport } from '../../src/client/http.ts';
import { RateLimiter } from '../../src/client/rate-limiter.ts';
import { type FetchEnv, fetchWithRetry } from '../../src/client/retry.ts';
import { captureLogger } from './helpers.ts';

function envOf(limiter: RateLimiter, transport: HttpTransport): FetchEnv {
  return {
    retry: { attempts: 1, baseMs: 1, capMs: 1 },
    limiter,
    transport,
    logger: captureLogger(),
    random: () => 0,
    path: '/games',
    count: () => undefined,
    counted: () => undefined,
    timeout: (cause) => new TimeoutError({ status: 0, method: 'GET', path: '/games', msg: 'late', cause }),
  };
}

describe('fetchWithRetry and the limiter', () => {
  it('does not mark a request as on the wire when its deadline passed before it was sent', async () => {
    let t = 1000;
    const limiter = new RateLimiter({ perSecond: 5, burst: 5, queueLimit: 10, now: () => t });
    const sends: string[] = [];
    const transport: HttpTransport = {
      get: async (path) => {
        sends.push(path);
        throw new Error('not expected');
      },
      close: async () => undefined,
    };
    // A request already on the wire, whose answer comes last.
    const earlier = limiter.sent();
    t = 1001;
    // A call whose deadline passed while it waited for its token: it fails without being sent.
    const late = new Flight('interactive', performance.now() - 1);
    await expect(fetchWithRetry(late, '/games', envOf(limiter, transport))).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(sends).toEqual([]);
    // The earlier request's answer says 3 remain: nothing was sent after it, so 3 less the reserve
    // (1), plus the 1 ms refill, is what the bucket may hold. A leftover mark of the late call
    // would count as one more request sent after it (1.005).
    limiter.observe({ 'x-ratelimit-remaining': '3' }, earlier);
    expect(limiter.available()).toBeCloseTo(2.005, 6);
  });
});
