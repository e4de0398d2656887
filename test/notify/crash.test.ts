/**
 * The crash loop of `npm run bench:notify -- --crash` at CI scale: a child notifier with paced posting
 * on a platform that does not deduplicate, SIGKILLed right after a post (before its mark) and at
 * random, restarted with the same instance identity. Nothing may be posted twice or lost, in
 * channels or in people's DMs (sent through the real Discord and Slack deliveries to the
 * loopback fakes, which count what arrived; a kill may come right after a DM).
 */
import { describe, expect, it } from 'vitest';
import { crashRun } from './crash-run.ts';

describe('notifier: SIGKILLed again and again while posting at a platform’s pace', () => {
  it('right after a post (SQLite ledger): no duplicate, nothing lost, DMs included', async () => {
    const result = await crashRun({
      ledger: 'sqlite',
      mode: 'after-post',
      kills: 3,
      hours: 1,
      tickMs: 120_000,
      postDelayMs: 20,
      dms: true,
    });
    expect(result.kills).toBe(3);
    expect(result.expected).toBeGreaterThan(10);
    expect(result.examples).toEqual({ duplicates: [], lost: [] });
    expect(result).toMatchObject({ duplicates: 0, lost: 0, unexpected: 0 });
    // The DMs: reminders, live cards and results of the people's teams, each arrived once.
    expect(result.dms!.expected).toBeGreaterThan(3);
    expect(result.dms).toMatchObject({ duplicates: 0, lost: 0 });
    expect(result.dms!.posts).toBeGreaterThan(0);
  }, 170_000);

  it.skipIf(!process.env.REDIS_URL)(
    'at random moments (Redis ledger): no duplicate, nothing lost',
    async () => {
      const result = await crashRun({
        ledger: { redisUrl: process.env.REDIS_URL ?? '' },
        mode: 'random',
        kills: 2,
        hours: 1,
        tickMs: 120_000,
        postDelayMs: 20,
        dms: true,
      });
      expect(result.kills).toBe(2);
      expect(result.examples).toEqual({ duplicates: [], lost: [] });
      expect(result).toMatchObject({ duplicates: 0, lost: 0, unexpected: 0 });
      expect(result.dms!.expected).toBeGreaterThan(3);
      expect(result.dms).toMatchObject({ duplicates: 0, lost: 0 });
    },
    170_000,
  );
});
