/**
 * One Matchday process of `bench/scale.ts`: the real app (`createApp`) on a shared Redis store and a
 * shared esports service, the notifier under the Redis lease (as `matchday start` runs it), and
 * users sending commands. Its notifications go to a recording delivery: every post is pushed to a
 * Redis list (so the bench counts duplicates across processes), every edit counted.
 *
 *   tsx bench/scale-worker.ts <redis-url> <service-url> <secret> <commands-per-second>
 *
 * Prints one JSON status line a second: pid, leading, lease token, commands answered and failed,
 * upstream requests (in all and per family) and 429s seen by this process' client.
 */
import { createClient as createRedis } from '@redis/client';
import { createApp, openNotifier } from '../src/app.ts';
import { createLogger } from '../src/bot/logger.ts';
import { loadConfig } from '../src/config.ts';
import type { ChannelTarget, Delivery, Posted } from '../src/notify/delivery.ts';
import { NotifierLease } from '../src/notify/leader.ts';
import { RedisLease } from '../src/stores/lease-redis.ts';

const [redisUrl, serviceUrl, secret, perSecondArg] = process.argv.slice(2);
const tenants = Number(process.env.SCALE_TENANTS ?? 20);
const config = loadConfig({
  STORE_URL: redisUrl,
  ESPORTS_API_URL: serviceUrl,
  ESPORTS_API_SECRET: secret,
  LOG_LEVEL: 'warn',
});
const logger = createLogger({ level: 'warn', secrets: new Set([secret!]) });
const redis = createRedis({ url: redisUrl });
await redis.connect();

let posted = 0;

/** Posts recorded in Redis (`bench:scale:posts`), edits counted (`bench:scale:edits`). */
class RecordingDelivery implements Delivery {
  readonly platform = 'discord' as const;
  async post(_target: ChannelTarget, _reply: unknown, key: string): Promise<Posted> {
    await redis.rPush('bench:scale:posts', key);
    // A Discord-like snowflake: digits only.
    return { messageId: `${Date.now()}${String(++posted).padStart(6, '0')}` };
  }
  async edit(): Promise<void> {
    await redis.incr('bench:scale:edits');
  }
}

// SCALE_FEED=poller (bench `--feed`): as `matchday start` opens it (src/main.ts), the feed polled by
// one process at a time (its lease), its snapshot and the name index shared through the store,
// filled in behind the start. Without it, commands ask the client (and its cache) directly.
const withFeed = process.env.SCALE_FEED === 'poller';
const app = await createApp(config, {
  logger,
  ...(withFeed ? { feed: 'poller' as const, warmInBackground: true } : {}),
});
let close: (() => Promise<void>) | undefined;
const lease = new NotifierLease({
  lease: new RedisLease(redisUrl!),
  logger,
  lead: async () => {
    close = (await openNotifier(app, { discord: new RecordingDelivery() })).close;
  },
  resign: async () => {
    await close?.();
    close = undefined;
  },
});
await lease.start();

// Users: commands as they arrive on Discord, spread over tenants and users (the per-user limit is 5/10 s).
const COMMANDS = [
  { command: 'series', args: { when: 'live' } },
  { command: 'series', args: { when: 'upcoming' } },
  { command: 'series', args: { when: 'recent' } },
  { command: 'help', args: {} },
];
let sent = 0;
let answered = 0;
let failed = 0;
/** User-facing failures by code: SERVICE_UNAVAILABLE includes a 429 that reached the caller; SERVICE_SLOW is the command deadline. */
const failures: Record<string, number> = {};
const perSecond = Number(perSecondArg ?? 2);
const users = setInterval(() => {
  const n = sent++;
  const call = COMMANDS[n % COMMANDS.length]!;
  void app.runtime
    .run({
      platform: 'discord',
      tenantKey: String(1000 + (n % tenants)),
      ...call,
      user: { id: `u${process.pid}-${n % 50}`, name: 'user', isAdmin: false },
      channel: { id: 'c1', name: 'general' },
    })
    .then((execution) => {
      answered++;
      // A user-facing failure (the service refused or timed out), not a mistake in the command.
      if (execution.outcome === 'error') {
        failed++;
        const code = execution.code ?? 'INTERNAL';
        failures[code] = (failures[code] ?? 0) + 1;
      }
    });
}, 1000 / perSecond);

const status = setInterval(() => {
  const stats = app.client.stats();
  process.stdout.write(
    `${JSON.stringify({
      pid: process.pid,
      leading: lease.leading,
      token: lease.token,
      sent,
      answered,
      failed,
      failures,
      upstream: stats.upstreamTotal,
      // Requests per family (series, matches, rosters...), every status together.
      upstreamByFamily: Object.fromEntries(
        Object.entries(stats.upstream).map(([family, byStatus]) => [
          family,
          Object.values(byStatus).reduce((sum, n) => sum + n, 0),
        ]),
      ),
      rateLimited: stats.rateLimited,
    })}\n`,
  );
}, 1000);

process.once('SIGTERM', async () => {
  clearInterval(users);
  clearInterval(status);
  app.runtime.closing = true;
  await lease.stop();
  await app.close();
  await redis.quit();
  process.exit(0);
});
