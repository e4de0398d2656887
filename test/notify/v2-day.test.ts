/**
 * The notifier's simulated day on the v2 interface (issue 11): three simulated hours through a v2
 * client (token renewed on the simulated clock), with the same world-computed expectations as the
 * v3 day in notifier.test.ts: every expected reminder, live card, result and digest exactly once,
 * within one tick, and nothing else.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { createClient, type EsportsClient } from '../../src/client/client.ts';
import { createNotifier, type Notifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { Clock } from '../../src/service/clock.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery } from './helpers.ts';
import { type Expected, expectedNotifications } from './world-expect.ts';

const SPAN = 3 * 3600_000;
const TICK = 120_000;
const FROM = Date.parse('2025-06-04T00:00:00Z');
const PAIR = { id: 'notifier', secret: 'notifier-v2-secret' };

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

const dir = mkdtempSync(join(tmpdir(), 'matchday-notify-v2-'));
let service: RunningService;
let clock: Clock;
let client: EsportsClient;
let notifier: Notifier;
let ledger: SqliteLedger;
let delivery: RecordingDelivery;
let expected: Expected[];

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0, v2Clients: [PAIR] });
  client = createClient({
    baseUrl: service.v2.url,
    // The service has no limit here (rate 0) and the simulated day runs in real seconds: no per-minute budget either.
    v2: { clientId: PAIR.id, clientSecret: PAIR.secret, now: () => clock.nowMs(), perMinute: 100_000_000 },
    rate: { perSecond: 100_000, burst: 100_000 },
    ttl: { series: 0, matches: 0, live: 0, streams: 0 },
  });
  const tenants = new MemoryTenants();
  for (const [id, s] of TENANTS) tenants.set(id, s);
  const now = () => clock.nowMs();
  delivery = new RecordingDelivery('discord', now);
  ledger = new SqliteLedger(join(dir, 'v2.sqlite'));
  notifier = createNotifier({
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
  expected = expectedNotifications(service.world, TENANTS, FROM, FROM + SPAN + 1);
  for (let t = FROM; t < FROM + SPAN + 1; t += TICK) {
    clock.set(new Date(t));
    await notifier.tick();
  }
  await notifier.drain();
}, 240_000);

afterAll(async () => {
  await notifier?.stop();
  await ledger?.close();
  await client?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('notifier on v2: three simulated hours', () => {
  it('delivers every expected notification of every kind exactly once, within one tick, and nothing else', async () => {
    expect([...new Set(expected.map((e) => e.kind))].sort()).toEqual([
      'digest',
      'live',
      'reminder',
      'result',
    ]);
    const posts = delivery.records.filter((x) => x.op === 'post');
    const missing: string[] = [];
    const late: string[] = [];
    for (const e of expected) {
      if (e.kind === 'result') {
        if ((await ledger.get(e.key))?.state !== 'sent') missing.push(e.key);
        continue;
      }
      const got = posts.filter((p) => p.key === e.key);
      if (got.length === 0) {
        missing.push(e.key);
        continue;
      }
      expect(got).toHaveLength(1);
      if (got[0]!.at < e.at || got[0]!.at > e.at + TICK) late.push(`${e.key} due ${e.at} at ${got[0]!.at}`);
    }
    expect(missing).toEqual([]);
    expect(late).toEqual([]);
    const keys = new Set(expected.map((e) => e.key));
    expect(posts.filter((p) => !keys.has(p.key)).map((p) => p.key)).toEqual([]);
    expect(delivery.records.some((x) => x.op === 'edit')).toBe(true);
  });

  it('renewed its token on the simulated clock instead of meeting 401s (about one per 50 minutes)', () => {
    const tokens = client.stats().tokenRequests ?? 0;
    expect(tokens).toBeGreaterThanOrEqual(3);
    expect(tokens).toBeLessThanOrEqual(5);
  });
});
