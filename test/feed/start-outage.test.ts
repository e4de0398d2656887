/**
 * A service that fails at start-up: the feed starts with nothing read (still filling, so the
 * notifier waits rather than post a digest of an empty schedule) and keeps polling; once the service
 * answers again the feed fills. Against the local service over HTTP, with its fault switch answering
 * every request 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { createFeed } from '../../src/feed/feed.ts';
import { type RunningService, startService } from '../../src/service/index.ts';

const AT = Date.parse('2026-03-18T15:20:00.000Z');
let service: RunningService;
let client: EsportsClient;

beforeAll(async () => {
  const clock = new Clock({ start: new Date(AT), frozen: true });
  service = await startService({ port: 0, seed: 42, clock, rate: 0 });
  client = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 10_000, burst: 10_000 },
    ttl: { series: 0, matches: 0, live: 0, streams: 0, substages: 0, casters: 0 },
  });
});
afterAll(async () => {
  await client.close();
  await service.close();
});

async function until(test: () => boolean, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!test()) {
    if (Date.now() - started > ms) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the feed when the service is down at start-up', () => {
  it('starts with nothing read, keeps polling, and fills once the service answers', async () => {
    const clock = service.clock;
    const background = client.forCaller({ priority: 'background', deadlineMs: 500 });
    const feed = createFeed({
      client: background,
      clock,
      horizonMs: 3 * 3600_000,
      pastMs: 3600_000,
      tickMs: 200,
    });
    try {
      service.faults.errorRate = 1;
      await feed.start();
      expect(feed.ready).toBe(false);
      expect(feed.filling).toBe(true);
      expect(feed.sizes().series).toBe(0);
      // Still down a few ticks later: nothing read, nothing invented.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(feed.ready).toBe(false);

      service.faults.errorRate = 0;
      await until(() => feed.ready && !feed.filling, 30_000, 'feed filled after the outage');
      // What the window holds, read after the outage (the first scan found the afternoon's series).
      expect(feed.sizes().series).toBeGreaterThan(0);
    } finally {
      service.faults.errorRate = 0;
      await feed.stop();
    }
  }, 60_000);
});
