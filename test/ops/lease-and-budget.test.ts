/**
 * The Redis parts of running many processes on one store, against a real redis-server: the notifier
 * lease (one holder, takeover after the holder's lease runs out, fencing tokens that only grow,
 * release at stop) and the shared rate budget (one bucket for every process on a secret, the last
 * token kept for interactive calls, a 429 pausing everyone, an unreachable Redis not stopping calls).
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WouldMissDeadlineError } from '../../src/client/rate-limiter.ts';
import { RedisBudget } from '../../src/client/redis-budget.ts';
import { NotifierLease } from '../../src/notify/leader.ts';
import { RedisLease } from '../../src/stores/lease-redis.ts';

const URL = process.env.REDIS_URL;
const quiet = { info: () => undefined, warn: () => undefined };

function until(test: () => boolean, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (test()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(poll);
        reject(new Error(`no ${what} within ${ms} ms`));
      }
    }, 20);
  });
}

describe.skipIf(!URL)(
  `notifier lease and shared budget on Redis${URL ? '' : ' (skipped: REDIS_URL is not set)'}`,
  () => {
    const redis = createClient({ url: URL });
    const prefix = `test:${process.pid}:${randomBytes(3).toString('hex')}:`;
    beforeAll(async () => {
      await redis.connect();
    });
    afterAll(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(keys);
      await redis.quit();
    });

    function lease(key: string, log: string[], name: string): NotifierLease {
      return new NotifierLease({
        lease: new RedisLease(URL!),
        key,
        ttlMs: 600,
        retryMs: 150,
        logger: quiet,
        lead: async (token) => {
          log.push(`${name} leads ${token}`);
        },
        resign: async () => {
          log.push(`${name} resigns`);
        },
      });
    }

    it('one holder at a time; a released lease passes on with a greater fencing token', async () => {
      const key = `${prefix}lease-a`;
      const log: string[] = [];
      const a = lease(key, log, 'a');
      const b = lease(key, log, 'b');
      await a.start();
      await b.start();
      expect(a.leading).toBe(true);
      expect(b.leading).toBe(false);
      const first = a.token;
      expect(first).toBeGreaterThan(0);
      // Renewals keep it with a: several retry intervals later b still stands by.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(a.leading).toBe(true);
      expect(b.leading).toBe(false);
      expect(log).toEqual([`a leads ${first}`]);

      await a.stop();
      expect(await redis.get(key)).toBeNull();
      await until(() => b.leading, 5000, 'takeover by b');
      expect(b.token).toBe(first + 1);
      expect(log).toEqual([`a leads ${first}`, 'a resigns', `b leads ${first + 1}`]);
      await b.stop();
    });

    it('takes over from a holder that died (its lease was never renewed) once the lease ran out', async () => {
      const key = `${prefix}lease-b`;
      await redis.set(`${key}:fence`, '41');
      await redis.set(key, 'dead-process|41', { expiration: { type: 'PX', value: 800 } });
      const log: string[] = [];
      const c = lease(key, log, 'c');
      await c.start();
      expect(c.leading).toBe(false);
      await until(() => c.leading, 5000, 'takeover by c');
      expect(c.token).toBe(42);
      expect(await redis.get(key)).toBe(`${c.owner}|42`);
      await c.stop();
    });

    it('a holder whose lease another process took stands down', async () => {
      const key = `${prefix}lease-c`;
      const log: string[] = [];
      const d = lease(key, log, 'd');
      await d.start();
      expect(d.leading).toBe(true);
      // Someone else holds it now (as after a long pause of d's process).
      await redis.set(key, 'other-process|99', { expiration: { type: 'PX', value: 60_000 } });
      await until(() => !d.leading, 5000, 'd standing down');
      expect(log.at(-1)).toBe('d resigns');
      await d.stop();
      // Stopping never deletes a lease that is not ours.
      expect(await redis.get(key)).toBe('other-process|99');
    });

    it('one bucket for every process on a secret: only its capacity is granted at once, however many ask', async () => {
      const plan = { key: `${prefix}budget-a`, perSecond: 0.001, capacity: 4 };
      const budgets = [0, 1, 2].map(() => new RedisBudget(URL!, plan, { prefix: '' }));
      const now = performance.now();
      const attempts = await Promise.allSettled(
        budgets.flatMap((budget) => [0, 1, 2, 3].map(() => budget.acquire('interactive', undefined, now))),
      );
      const granted = attempts.filter((a) => a.status === 'fulfilled').length;
      expect(granted).toBe(4);
      const refused = attempts.filter((a) => a.status === 'rejected');
      expect(refused).toHaveLength(8);
      expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(WouldMissDeadlineError);
      expect(budgets.reduce((sum, b) => sum + b.taken, 0)).toBe(4);
      expect(budgets.every((b) => b.unavailable === 0)).toBe(true);
      await Promise.all(budgets.map((b) => b.close()));
    });

    it('background calls leave the last token to interactive ones; a 429 pauses every process', async () => {
      const plan = { key: `${prefix}budget-b`, perSecond: 0.001, capacity: 3 };
      const [one, two] = [
        new RedisBudget(URL!, plan, { prefix: '' }),
        new RedisBudget(URL!, plan, { prefix: '' }),
      ];
      const now = () => performance.now();
      await one.acquire('background', undefined, now());
      await two.acquire('background', undefined, now());
      await expect(one.acquire('background', undefined, now())).rejects.toBeInstanceOf(
        WouldMissDeadlineError,
      );
      await two.acquire('interactive', undefined, now());
      await expect(one.acquire('interactive', undefined, now())).rejects.toBeInstanceOf(
        WouldMissDeadlineError,
      );

      const fresh = { key: `${prefix}budget-c`, perSecond: 1000, capacity: 5 };
      const [x, y] = [
        new RedisBudget(URL!, fresh, { prefix: '' }),
        new RedisBudget(URL!, fresh, { prefix: '' }),
      ];
      await x.acquire('interactive', undefined, now());
      x.pause(60_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(y.acquire('interactive', undefined, now() + 1000)).rejects.toThrow(/shared request slot/);
      await Promise.all([one, two, x, y].map((b) => b.close()));
    });

    it('an unreachable Redis does not stop calls: the local bucket alone paces them', async () => {
      const budget = new RedisBudget(
        'redis://127.0.0.1:1',
        { key: 'k', perSecond: 5, capacity: 4 },
        { timeoutMs: 100 },
      );
      await budget.acquire('interactive', undefined, performance.now());
      expect(budget.unavailable).toBe(1);
      expect(budget.taken).toBe(0);
      await budget.close();
    });
  },
);
