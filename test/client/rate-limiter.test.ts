/**
 * The token bucket with an injected clock: ordering, shedding and adaptation are checked by
 * stepping time, not by measuring it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueueFullError } from '../../src/client/errors.ts';
import { RateLimiter, type Ticket, WouldMissDeadlineError } from '../../src/client/rate-limiter.ts';

afterEach(() => {
  vi.useRealTimers();
});

function limiter(perSecond: number, burst: number, queueLimit = 100, reserve = 0, headroom = 0) {
  vi.useFakeTimers();
  let now = 0;
  const l = new RateLimiter({ perSecond, burst, queueLimit, reserve, headroom, now: () => now });
  const advance = async (ms: number) => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };
  return { l, advance };
}

const bg = (): Ticket => ({ priority: 'background' });
const ia = (): Ticket => ({ priority: 'interactive' });

describe('RateLimiter', () => {
  it('hands out the burst at once, then one token per 1/rate', async () => {
    const { l, advance } = limiter(10, 2);
    const served: number[] = [];
    for (let i = 0; i < 4; i++) void l.acquire(bg()).then(() => served.push(i));
    await advance(0);
    expect(served).toEqual([0, 1]);
    await advance(100);
    expect(served).toEqual([0, 1, 2]);
    await advance(100);
    expect(served).toEqual([0, 1, 2, 3]);
  });

  it('serves an interactive call queued behind 50 background ones first', async () => {
    const { l, advance } = limiter(10, 1);
    const order: string[] = [];
    await l.acquire(bg());
    for (let i = 0; i < 50; i++) void l.acquire(bg()).then(() => order.push(`bg${i}`));
    void l.acquire(ia()).then(() => order.push('user'));
    expect(l.queueLength).toBe(51);
    await advance(100);
    expect(order).toEqual(['user']);
    await advance(100);
    expect(order).toEqual(['user', 'bg0']);
  });

  it('sheds background work first when the queue is full', async () => {
    const { l } = limiter(1, 1, 3);
    await l.acquire(bg());
    const results: string[] = [];
    const track = (name: string, p: Promise<number>) =>
      p.then(
        () => results.push(`${name}:ok`),
        (e: unknown) => results.push(`${name}:${e instanceof QueueFullError ? 'shed' : 'error'}`),
      );
    void track('b1', l.acquire(bg()));
    void track('b2', l.acquire(bg()));
    void track('i1', l.acquire(ia()));
    // full: a new interactive call displaces the newest background one
    void track('i2', l.acquire(ia()));
    // full of (b1, i1, i2): a new background call is refused
    void track('b3', l.acquire(bg()));
    await Promise.resolve();
    await Promise.resolve();
    expect(results.sort()).toEqual(['b2:shed', 'b3:shed']);
    expect(l.queueLength).toBe(3);
  });

  it('refuses at once a call whose expected wait ends after its deadline', async () => {
    const { l } = limiter(10, 1);
    await l.acquire(bg());
    for (let i = 0; i < 30; i++) void l.acquire(bg()).catch(() => {});
    // 30 background calls ahead: a background call would wait about 3.1 s, an interactive one 100 ms
    await expect(l.acquire(bg(), undefined, 2000)).rejects.toBeInstanceOf(WouldMissDeadlineError);
    expect(l.expectedWaitMs('interactive')).toBe(100);
    const user = l.acquire(ia(), undefined, 2000);
    expect(l.queueLength).toBe(31);
    l.close(new Error('closed'));
    await expect(user).rejects.toThrow('closed');
  });

  it('removes a waiter whose signal aborts', async () => {
    const { l } = limiter(1, 1);
    await l.acquire(bg());
    const controller = new AbortController();
    const pending = l.acquire(bg(), controller.signal);
    expect(l.queueLength).toBe(1);
    controller.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
    expect(l.queueLength).toBe(0);
  });

  it('slows down when the service announces a smaller budget, never speeds up', () => {
    const { l } = limiter(5, 5);
    l.observe({ 'x-ratelimit-limit': '2', 'x-ratelimit-burst': '3', 'x-ratelimit-remaining': '1' });
    expect(l.perSecond).toBe(2);
    expect(l.burst).toBe(3);
    l.observe({ 'x-ratelimit-limit': '50', 'x-ratelimit-burst': '50' });
    expect(l.perSecond).toBe(2);
    expect(l.burst).toBe(3);
  });

  it('keeps a reserve of the service burst for jitter: burst 5 hands out 4 at once', async () => {
    const { l, advance } = limiter(10, 5, 100, 1);
    let served = 0;
    for (let i = 0; i < 6; i++) void l.acquire(bg()).then(() => served++);
    await advance(0);
    expect(served).toBe(4);
    expect(l.burst).toBe(5);
    await advance(100);
    expect(served).toBe(5);
  });

  it('keeps headroom for users: background work leaves 2 tokens, which a command then takes at once', async () => {
    const { l, advance } = limiter(10, 5, 100, 0, 2);
    const order: string[] = [];
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) waits.push(l.acquire(bg()).then(() => order.push(`bg${i}`)));
    await advance(0);
    // A bucket of 5 with 2 kept: background work gets 3 at once, then waits with 2 in the bucket.
    expect(order).toEqual(['bg0', 'bg1', 'bg2']);
    expect(l.available()).toBe(2);
    expect(l.queueLength).toBe(7);
    // Two commands arrive while the poller queues: both are served now, not after a refill.
    await expect(l.acquire(ia())).resolves.toBe(0);
    await expect(l.acquire(ia())).resolves.toBe(0);
    expect(l.available()).toBe(0);
    // Background resumes only once the bucket is back above the headroom: 3 tokens, 300 ms.
    await advance(200);
    expect(order).toHaveLength(3);
    await advance(100);
    expect(order).toEqual(['bg0', 'bg1', 'bg2', 'bg3']);
    // Its long-run rate is the bucket's: one more per 100 ms.
    await advance(100);
    expect(order).toHaveLength(5);
    // The wait it expects counts the headroom; a command's does not.
    expect(l.expectedWaitMs('interactive')).toBe(0);
    expect(l.expectedWaitMs('background')).toBeGreaterThan(l.expectedWaitMs('interactive'));
    // Closing fails the five background calls still waiting; the five served are not touched.
    l.close(new Error('closed'));
    const settled = await Promise.allSettled(waits);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(5);
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(refused.map((s) => (s.reason as Error).message)).toEqual(Array(5).fill('closed'));
  });

  it('keeps no headroom in a bucket of one: background work still runs', async () => {
    const { l, advance } = limiter(10, 1, 100, 0, 2);
    let served = 0;
    for (let i = 0; i < 3; i++) void l.acquire(bg()).then(() => served++);
    await advance(0);
    expect(served).toBe(1);
    await advance(100);
    expect(served).toBe(2);
    await advance(100);
    expect(served).toBe(3);
  });

  it('takes Remaining into account: another process may have spent the budget', async () => {
    const { l, advance } = limiter(10, 5);
    l.observe({ 'x-ratelimit-remaining': '0' });
    let served = false;
    void l.acquire(bg()).then(() => {
      served = true;
    });
    await advance(0);
    expect(served).toBe(false);
    await advance(100);
    expect(served).toBe(true);
  });

  it('allows for the refill since the request was sent when reading Remaining', async () => {
    const { l, advance } = limiter(10, 5);
    await advance(1000);
    // sent 300 ms ago, the service said 0 left: it has refilled up to 3 tokens since
    l.observe({ 'x-ratelimit-remaining': '0' }, -300 + 1000);
    let served = 0;
    for (let i = 0; i < 5; i++) void l.acquire(bg()).then(() => served++);
    await advance(0);
    expect(served).toBe(3);
  });

  it('counts requests sent later and still on the wire when reading Remaining', async () => {
    const { l, advance } = limiter(10, 5);
    const a = l.sent();
    await advance(1);
    l.sent();
    await advance(1);
    l.sent();
    // the answer to the first says 3 left; the two sent after it are not in that count yet
    l.observe({ 'x-ratelimit-remaining': '3' }, a);
    let served = 0;
    for (let i = 0; i < 5; i++) void l.acquire(bg()).then(() => served++);
    await advance(0);
    expect(served).toBe(1);
  });

  it('pauses every caller after a 429 until the reset', async () => {
    const { l, advance } = limiter(100, 5);
    l.pause(500);
    let served = false;
    void l.acquire(ia()).then(() => {
      served = true;
    });
    await advance(490);
    expect(served).toBe(false);
    await advance(20);
    expect(served).toBe(true);
  });
});
