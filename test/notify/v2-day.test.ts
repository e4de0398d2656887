/**
 * The notifier's simulated day on both interfaces: 24 simulated hours of one world, one
 * notifier reading it through a v3 client and another through a v2 client (its token renewed on the
 * simulated clock), ticked side by side. Each must deliver every reminder, live card, result and
 * digest the world makes due (world-expect.ts, as in notifier.test.ts) exactly once, within one
 * tick, and nothing else; and the two days must post the same notifications about the same series
 * at the same instants.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { createClient, type EsportsClient } from '../../src/client/client.ts';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier, type Notifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, postsCarrying, RecordingDelivery, uncachedClient } from './helpers.ts';
import { type Expected, expectedNotifications } from './world-expect.ts';

const SPAN = 24 * 3600_000;
// Five simulated minutes per tick: 288 ticks of two notifiers (a v2 tick costs more requests than a v3 one).
const TICK = 300_000;
const FROM = Date.parse('2025-06-04T00:00:00Z');
const PAIR = { id: 'notifier', secret: 'notifier-v2-secret' };
const APIS = ['v3', 'v2'] as const;
type Api = (typeof APIS)[number];

const TENANTS: [string, Settings][] = [
  [
    'discord:100',
    settingsSchema.parse({
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
    }),
  ],
];

interface Rig {
  client: EsportsClient;
  notifier: Notifier;
  ledger: SqliteLedger;
  delivery: RecordingDelivery;
}

const dir = mkdtempSync(join(tmpdir(), 'matchday-notify-v2-'));
let service: RunningService;
let clock: Clock;
let expected: Expected[];
const rigs = {} as Record<Api, Rig>;

function rig(api: Api): Rig {
  const client =
    api === 'v3'
      ? uncachedClient(service)
      : createClient({
          baseUrl: service.v2.url,
          // No limit at the service (rate 0) and the day runs in real seconds: no per-minute budget.
          v2: {
            clientId: PAIR.id,
            clientSecret: PAIR.secret,
            now: () => clock.nowMs(),
            perMinute: 100_000_000,
          },
          rate: { perSecond: 100_000, burst: 100_000 },
          ttl: { series: 0, matches: 0, live: 0, streams: 0, casters: 0, substages: 0 },
        });
  const tenants = new MemoryTenants();
  for (const [id, s] of TENANTS) tenants.set(id, s);
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
  return { client, notifier, ledger, delivery };
}

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0, v2Clients: [PAIR] });
  for (const api of APIS) rigs[api] = rig(api);
  expected = expectedNotifications(service.world, TENANTS, FROM, FROM + SPAN + 1);
  for (let t = FROM; t < FROM + SPAN + 1; t += TICK) {
    clock.set(new Date(t));
    await Promise.all(APIS.map((api) => rigs[api].notifier.tick()));
  }
  await Promise.all(APIS.map((api) => rigs[api].notifier.drain()));
}, 1_500_000);

afterAll(async () => {
  for (const api of APIS) {
    const r = rigs[api];
    await r?.notifier.stop();
    await r?.ledger.close();
    await r?.client.close();
  }
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const postsOf = (api: Api) => rigs[api].delivery.records.filter((x) => x.op === 'post');

describe('the notifier over 24 simulated hours, on v3 and on v2', () => {
  it('expects every kind of notification from the world', () => {
    // Tournament-end cards too when a tournament's last series ends within the day (none on this one).
    const kinds = expected.map((e) => e.kind).filter((k) => k !== 'tournament');
    expect([...new Set(kinds)].sort()).toEqual(['digest', 'live', 'reminder', 'result']);
    expect(expected.length).toBeGreaterThan(50);
  });

  it.each(APIS)(
    'on %s delivers every expected notification once, within one tick, none twice and nothing else',
    async (api) => {
      const { delivery, ledger } = rigs[api];
      const posts = postsOf(api);
      const missing: string[] = [];
      const late: string[] = [];
      const twice: string[] = [];
      for (const e of expected) {
        if (e.kind === 'result') {
          if ((await ledger.get(e.key))?.state !== 'sent') missing.push(e.key);
          continue;
        }
        // A reminder may go out in one message with others due that minute for its channel.
        const got = await postsCarrying(e.key, posts, ledger);
        if (got.length === 0) {
          missing.push(e.key);
          continue;
        }
        if (got.length > 1) twice.push(e.key);
        if (got[0]!.at < e.at || got[0]!.at > e.at + TICK) late.push(`${e.key} due ${e.at} at ${got[0]!.at}`);
      }
      expect(missing).toEqual([]);
      expect(late).toEqual([]);
      expect(twice).toEqual([]);
      // No post was even tried a second time (the recording platform would have returned the first).
      expect(delivery.deduped).toBe(0);
      const keys = new Set(expected.map((e) => e.key));
      expect(posts.filter((p) => !keys.has(p.key)).map((p) => p.key)).toEqual([]);
      expect(delivery.records.some((x) => x.op === 'edit')).toBe(true);
    },
  );

  it('posts the same notifications on v2 as on v3: same keys, same instants, same titles', () => {
    // The first line of each post is its card's title (the series' teams, the digest's day).
    const summary = (api: Api) =>
      postsOf(api)
        .map((p) => `${p.key} @${p.at} ${p.text.split('\n')[0]}`)
        .sort();
    const v3 = summary('v3');
    expect(v3.length).toBeGreaterThan(50);
    expect(summary('v2')).toEqual(v3);
  });

  it('renewed the v2 token on the simulated clock instead of meeting 401s (about one per 50 minutes)', () => {
    const tokens = rigs.v2.client.stats().tokenRequests ?? 0;
    // A token lives an hour and is renewed in its last 10 minutes: one per 50 to 60 minutes.
    expect(tokens).toBeGreaterThanOrEqual(Math.floor(SPAN / 3600_000));
    expect(tokens).toBeLessThanOrEqual(Math.ceil(SPAN / 3000_000) + 1);
  });
});
