/**
 * Redis outages against the settings store and the Redis ledger, on a
 * redis-server of the bench's own (a free loopback port). For each outage: Redis shuts down
 * (saving its data), stays down for the outage, then starts again with its data. Meanwhile a
 * command-like reader asks the settings store every 200 ms, and the ledger claims a key every 200 ms.
 * A last run kills Redis (no persistence: every key lost) and measures the restore from the mirror.
 *
 * Through the outages with data kept a real notifier runs on that Redis (its tenants from the Redis
 * settings store, the Redis ledger), against the local service on a simulated clock (one simulated
 * minute per 200 ms tick), posting to a platform that does not deduplicate: it must post nothing
 * while Redis is down, post again soon after Redis is back (goal: within 10 s), and post no key twice.
 *
 *   npm run bench:store-outage            10 s and 60 s outages, and a data loss
 *   npm run bench:store-outage -- --quick 10 s outage and a data loss (about 20 s)
 *
 * Figures: the slowest answer while Redis is down (a command must hear "unavailable" within 2 s),
 * how long after Redis is back the store, the ledger and the notifier's posts resume (goal: within
 * 10 s), the notifier's duplicates, and how many tenants were restored after the data loss. The last
 * line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../src/bot/logger.ts';
import { channelSubscriptionSchema } from '../src/bot/settings.ts';
import { openTenantStore, StoreError } from '../src/bot/tenants.ts';
import { Clock } from '../src/core/clock.ts';
import { createNotifier } from '../src/notify/notifier.ts';
import { RedisLedger } from '../src/notify/redis-ledger.ts';
import { startService } from '../src/service/index.ts';
import { OwnRedis } from '../test/bot/redis-server.ts';
import { RecordingDelivery, uncachedClient } from '../test/notify/helpers.ts';

const quick = process.argv.includes('--quick');
const OUTAGES_S = quick ? [10] : [10, 60];
const TENANTS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(join(tmpdir(), 'matchday-outage-bench-'));
const redis = await OwnRedis.start(dir);
const logger = createLogger({ level: 'silent' });
const store = await openTenantStore(
  { kind: 'redis', url: redis.url },
  { logger, mirrorPath: join(dir, 'mirror.sqlite') },
);
const ledger = new RedisLedger(redis.url, { prefix: 'bench:ledger:' });
// The first 20 tenants have a channel that receives every kind of notification.
const NOTIFIED = 20;
for (let i = 0; i < TENANTS; i++)
  await store.update(`discord:${i}`, (s) => ({
    ...s,
    follows: [i],
    tiers: [1, 2],
    channels:
      i < NOTIFIED
        ? [
            channelSubscriptionSchema.parse({
              id: `c${i}`,
              kinds: ['reminders', 'live', 'results', 'digest'],
            }),
          ]
        : [],
  }));

// The notifier: its own ledger client (as in a real process), ticking while the bench runs.
const clock = new Clock({ start: new Date(Date.parse('2025-06-04T06:00:00Z')), frozen: true });
const service = await startService({ port: 0, seed: 23, clock, rate: 0 });
const delivery = new RecordingDelivery('discord', () => clock.nowMs());
delivery.dedupe = 'history';
const notifierLedger = new RedisLedger(redis.url, { prefix: 'bench:notify:', leaseMs: 2000 });
const client = uncachedClient(service);
const notifier = createNotifier({
  client,
  tenants: store,
  clock,
  ledger: notifierLedger,
  deliveries: { discord: delivery },
  logger,
  editIntervalMs: 0,
  tenantsRefreshMs: 60_000,
});
/** Real instants (performance.now) of every post, taken as the platform accepts it (not at the tick's end). */
const postTimes: number[] = [];
delivery.afterPost = () => postTimes.push(performance.now());
let notifying = true;
const ticking = (async () => {
  while (notifying) {
    clock.set(new Date(clock.nowMs() + 60_000));
    await notifier.tick();
    await sleep(200);
  }
})();

interface Outage {
  outage_s: number;
  data_lost: boolean;
  store_calls_during: number;
  store_unavailable_answers: number;
  store_slowest_answer_ms: number;
  ledger_calls_during: number;
  store_resumed_after_ms: number;
  ledger_resumed_after_ms: number;
  tenants_after: number;
  settings_intact: boolean;
  /** Notifier posts while Redis was down (should be 0), and how long after Redis was back it posted again. */
  notifier_posts_during?: number;
  notifier_resumed_after_ms?: number;
}

let keyCounter = 0;
async function outage(seconds: number, dataLost: boolean): Promise<Outage> {
  await redis.stop({ keepData: !dataLost });
  const down = performance.now();
  const downUntil = Date.now() + seconds * 1000;
  let calls = 0;
  let unavailable = 0;
  let slowest = 0;
  let ledgerCalls = 0;
  while (Date.now() < downUntil) {
    const started = performance.now();
    try {
      await store.get('discord:1');
    } catch (error) {
      if (error instanceof StoreError) unavailable++;
    }
    slowest = Math.max(slowest, performance.now() - started);
    calls++;
    await ledger.claim(`k${++keyCounter}`).catch(() => undefined);
    ledgerCalls++;
    await sleep(200);
  }
  await redis.restart();
  const back = performance.now();
  let storeBack = 0;
  let ledgerBack = 0;
  while (!storeBack || !ledgerBack) {
    if (
      !storeBack &&
      (await store.list().then(
        () => true,
        () => false,
      ))
    )
      storeBack = performance.now() - back;
    if (
      !ledgerBack &&
      (await ledger.claim(`k${++keyCounter}`).then(
        () => true,
        () => false,
      ))
    )
      ledgerBack = performance.now() - back;
    if (performance.now() - back > 60_000) break;
    await sleep(50);
  }
  // The notifier's first post after Redis came back (waited for up to 60 s).
  let resumed: number | undefined;
  while (notifying && performance.now() - back < 60_000) {
    resumed = postTimes.find((t) => t > back);
    if (resumed !== undefined) break;
    await sleep(50);
  }
  const ids = await store.list();
  const sample = await store.get('discord:42');
  return {
    outage_s: seconds,
    data_lost: dataLost,
    store_calls_during: calls,
    store_unavailable_answers: unavailable,
    store_slowest_answer_ms: Math.round(slowest),
    ledger_calls_during: ledgerCalls,
    store_resumed_after_ms: Math.round(storeBack),
    ledger_resumed_after_ms: Math.round(ledgerBack),
    tenants_after: ids.length,
    settings_intact: ids.length === TENANTS && sample.follows.join() === '42',
    ...(notifying
      ? {
          notifier_posts_during: postTimes.filter((t) => t > down && t < back).length,
          notifier_resumed_after_ms: resumed === undefined ? -1 : Math.round(resumed - back),
        }
      : {}),
  };
}

const results: Outage[] = [];
// A few ticks first, so the notifier has posted before the first outage.
await sleep(3000);
for (const seconds of OUTAGES_S) {
  results.push(await outage(seconds, false));
  await sleep(3000);
}
// Stopped before the data loss: a ledger that lost its keys may post again (docs/operations.md,
// "The settings store").
notifying = false;
await ticking;
await notifier.stop();
const counts = new Map<string, number>();
for (const p of delivery.posts()) counts.set(p.key, (counts.get(p.key) ?? 0) + 1);
const notifierPosts = delivery.posts().length;
const duplicates = [...counts.values()].reduce((n, c) => n + c - 1, 0);
await notifierLedger.close();
await client.close();
await service.close();
results.push(await outage(2, true));
for (const r of results) {
  process.stdout.write(
    `${r.data_lost ? 'data lost ' : 'outage    '} ${String(r.outage_s).padStart(3)} s: ${r.store_unavailable_answers}/${r.store_calls_during} calls answered "unavailable", slowest ${r.store_slowest_answer_ms} ms; store back ${r.store_resumed_after_ms} ms, ledger back ${r.ledger_resumed_after_ms} ms after Redis${r.notifier_resumed_after_ms !== undefined ? `, notifier posting again ${r.notifier_resumed_after_ms} ms after Redis (${r.notifier_posts_during} posts while down)` : ''}; ${r.tenants_after}/${TENANTS} tenants, settings ${r.settings_intact ? 'intact' : 'NOT intact'}\n`,
  );
}
await store.close();
await ledger.close();
await redis.stop();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({
    bench: 'store-outage',
    tenants: TENANTS,
    outages: results,
    slowest_unavailable_answer_ms: Math.max(...results.map((r) => r.store_slowest_answer_ms)),
    max_resume_ms: Math.max(...results.flatMap((r) => [r.store_resumed_after_ms, r.ledger_resumed_after_ms])),
    notifier_posts: notifierPosts,
    notifier_duplicates: duplicates,
    notifier_max_resume_ms: Math.max(...results.map((r) => r.notifier_resumed_after_ms ?? 0)),
    all_intact: results.every((r) => r.settings_intact),
  })}\n`,
);
