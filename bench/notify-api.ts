/**
 * The notifier's upstream cost on v3 and on v2 over the same simulated window: the world
 * of `test/notify/v2-day.test.ts` (seed 11, its one tenant, five simulated minutes per tick), read
 * once by a notifier on a v3 client and once by a notifier on a v2 client, each against a fresh
 * local service. Prints the requests each service answered (the v2 count includes the token
 * requests), their ratio, the v2 requests by path, and whether both posted the same notifications
 * (same keys at the same instants with the same titles).
 *
 *   npm run bench:notify -- --api v2 --quick    2 simulated hours (about a minute of wall time)
 *   npm run bench:notify -- --api v2            24 simulated hours
 *   --hours H                                   simulated hours
 *
 * The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings, type Settings, settingsSchema } from '../src/bot/settings.ts';
import { createClient, type EsportsClient } from '../src/client/client.ts';
import type { Logger } from '../src/client/logger.ts';
import { Clock } from '../src/core/clock.ts';
import { createNotifier } from '../src/notify/notifier.ts';
import { SqliteLedger } from '../src/notify/sqlite-ledger.ts';
import { startService } from '../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery } from '../test/notify/helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const TICK = 300_000;
const SEED = 11;
const PAIR = { id: 'bench', secret: 'bench-v2-secret' };

/** The tenant of `test/notify/v2-day.test.ts` (the notifier's reads do not depend on tenants). */
const TENANT: Settings = settingsSchema.parse({
  ...defaultSettings(),
  games: [1],
  tiers: [1, 2],
  reminderLeads: [60, 10],
  timezone: 'UTC',
  digestTime: '01:00',
  channels: [
    {
      id: 'd-all',
      games: [],
      tiers: [],
      teams: [],
      kinds: ['reminders', 'live', 'results', 'digest'],
      leads: [],
    },
  ],
});

interface Day {
  requests: number;
  tokenRequests: number;
  posts: string[];
  byPath: Record<string, number>;
  seconds: number;
}

/** Counts upstream answers by path (ids folded to `{id}`), from the pipeline's debug line. */
function pathCounter(byPath: Record<string, number>): Logger {
  const ignore = () => {};
  return {
    debug: (obj, msg) => {
      if (msg !== 'upstream answer') return;
      // The path with ids folded, and the names of its parameters (not their values).
      const [path = '?', query = ''] = String((obj as { path?: string }).path ?? '?').split('?');
      const names = [...new URLSearchParams(query).keys()].filter((n) => n !== 'page').sort();
      const key = `${path.replace(/\/\d+/g, '/{id}')}${names.length ? `?${names.join('&')}` : ''}`;
      byPath[key] = (byPath[key] ?? 0) + 1;
    },
    info: ignore,
    warn: ignore,
    error: ignore,
  };
}

async function day(api: 'v3' | 'v2', span: number, dir: string): Promise<Day> {
  const clock = new Clock({ start: new Date(FROM), frozen: true });
  const service = await startService({ port: 0, seed: SEED, clock, rate: 0, v2Clients: [PAIR] });
  const byPath: Record<string, number> = {};
  const common = {
    rate: { perSecond: 100_000, burst: 100_000 },
    // The client's cache runs on real time; a simulated minute passes in milliseconds here.
    ttl: { series: 0, matches: 0, live: 0, streams: 0, casters: 0 },
    logger: pathCounter(byPath),
  };
  const client: EsportsClient =
    api === 'v3'
      ? createClient({ baseUrl: service.url, secret: service.secret, ...common })
      : createClient({
          baseUrl: service.v2.url,
          v2: {
            clientId: PAIR.id,
            clientSecret: PAIR.secret,
            now: () => clock.nowMs(),
            perMinute: 100_000_000,
          },
          ...common,
        });
  const tenants = new MemoryTenants();
  tenants.set('discord:100', TENANT);
  const now = () => clock.nowMs();
  const delivery = new RecordingDelivery('discord', now);
  const ledger = new SqliteLedger(join(dir, `${api}.sqlite`));
  const notifier = createNotifier({
    client,
    tenants,
    clock,
    ledger,
    deliveries: {
      discord: delivery,
      slack: new RecordingDelivery('slack', now),
      terminal: new RecordingDelivery('terminal', now),
    },
    logger: memoryLogger() as never,
    editIntervalMs: 0,
  });
  const started = performance.now();
  const before = service.requests;
  for (let t = FROM; t <= FROM + span; t += TICK) {
    clock.set(new Date(t));
    await notifier.tick();
  }
  await notifier.drain();
  const requests = service.requests - before;
  const posts = delivery.records
    .filter((r) => r.op === 'post')
    .map((p) => `${p.key} @${p.at} ${p.text.split('\n')[0]}`)
    .sort();
  await notifier.stop();
  await ledger.close();
  await client.close();
  await service.close();
  return {
    requests,
    tokenRequests: service.v2.tokenRequests,
    posts,
    byPath,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

export async function apiBench(argv: string[]): Promise<void> {
  const hoursArg = argv.indexOf('--hours');
  const hours = hoursArg > 0 ? Number(argv[hoursArg + 1]) : argv.includes('--quick') ? 2 : 24;
  const span = hours * 3600_000;
  const dir = mkdtempSync(join(tmpdir(), 'matchday-bench-notify-api-'));
  try {
    console.log(
      `notify bench, v3 and v2: ${hours} simulated hours, one tick per ${TICK / 1000} s, seed ${SEED}`,
    );
    const v3 = await day('v3', span, dir);
    console.log(`v3: ${v3.requests} requests, ${v3.posts.length} posts, ${v3.seconds} s`);
    const v2 = await day('v2', span, dir);
    console.log(
      `v2: ${v2.requests} requests (${v2.tokenRequests} for tokens), ${v2.posts.length} posts, ${v2.seconds} s`,
    );
    const ratio = Math.round((v2.requests / Math.max(1, v3.requests)) * 100) / 100;
    const same = JSON.stringify(v2.posts) === JSON.stringify(v3.posts);
    const onlyV3 = v3.posts.filter((p) => !v2.posts.includes(p));
    const onlyV2 = v2.posts.filter((p) => !v3.posts.includes(p));
    console.log(`ratio v2/v3: ${ratio} (goal <= 1.5); same posts: ${same}`);
    for (const p of onlyV3.slice(0, 5)) console.log(`  only on v3: ${p}`);
    for (const p of onlyV2.slice(0, 5)) console.log(`  only on v2: ${p}`);
    const top = (byPath: Record<string, number>) =>
      Object.fromEntries(Object.entries(byPath).sort((a, b) => b[1] - a[1]));
    console.log(`v3 by path: ${JSON.stringify(top(v3.byPath))}`);
    console.log(`v2 by path: ${JSON.stringify(top(v2.byPath))}`);
    console.log(
      JSON.stringify({
        simulated_hours: hours,
        tick_s: TICK / 1000,
        v3_requests: v3.requests,
        v2_requests: v2.requests,
        v2_token_requests: v2.tokenRequests,
        ratio_v2_v3: ratio,
        v3_posts: v3.posts.length,
        v2_posts: v2.posts.length,
        same_posts: same,
        v3_wall_s: v3.seconds,
        v2_wall_s: v2.seconds,
        v2_by_path: top(v2.byPath),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
