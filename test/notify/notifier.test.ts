import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier, type Notifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, postsCarrying, RecordingDelivery, uncachedClient } from './helpers.ts';
import { type Expected, expectedNotifications } from './world-expect.ts';

const DAY = 24 * 3600_000;
// Two simulated minutes per tick keeps the day to a few hundred ticks; "within one tick" is checked against it.
const TICK = 120_000;
const FROM = Date.parse('2025-06-04T00:00:00Z');

const dir = mkdtempSync(join(tmpdir(), 'matchday-notify-'));
let service: RunningService;
let clock: Clock;
const rigs: Rig[] = [];

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  for (const r of rigs) {
    await r.notifier.stop();
    await r.ledger.close();
  }
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = (): EsportsClient => uncachedClient(service);

function settings(over: Partial<Settings>): Settings {
  return settingsSchema.parse({ ...defaultSettings(), ...over });
}

interface Rig {
  notifier: Notifier;
  tenants: MemoryTenants;
  deliveries: Record<'discord' | 'slack' | 'terminal', RecordingDelivery>;
  ledger: SqliteLedger;
  client: EsportsClient;
}

function rig(name: string, tenantSettings: [string, Settings][]): Rig {
  const tenants = new MemoryTenants();
  for (const [id, s] of tenantSettings) tenants.set(id, s);
  const now = () => clock.nowMs();
  const deliveries = {
    discord: new RecordingDelivery('discord', now),
    slack: new RecordingDelivery('slack', now),
    terminal: new RecordingDelivery('terminal', now),
  };
  const ledger = new SqliteLedger(join(dir, `${name}.sqlite`));
  const c = client();
  const notifier = createNotifier({
    client: c,
    tenants,
    clock,
    ledger,
    deliveries,
    logger: memoryLogger() as never,
    editIntervalMs: 0,
  });
  const made = { notifier, tenants, deliveries, ledger, client: c };
  rigs.push(made);
  return made;
}

async function play(r: Rig, from: number, to: number, step = TICK): Promise<void> {
  for (let t = from; t < to; t += step) {
    clock.set(new Date(t));
    await r.notifier.tick();
  }
  await r.notifier.drain();
}

const TENANTS: [string, Settings][] = [
  [
    'discord:100',
    settings({
      games: [1],
      tiers: [1, 2],
      reminderLeads: [60, 10],
      timezone: 'Europe/Berlin',
      digestTime: '09:00',
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
  [
    'slack:T200',
    settings({
      games: [],
      tiers: [1],
      reminderLeads: [15],
      timezone: 'America/New_York',
      digestTime: '07:30',
      spoilers: 'spoiler',
      channels: [
        { id: 'C-remind', games: [], tiers: [], teams: [], kinds: ['reminders', 'digest'], leads: [] },
        { id: 'C-live', games: [2], tiers: [1, 2, 3], teams: [], kinds: ['live', 'results'], leads: [] },
      ],
    }),
  ],
  [
    'terminal:local',
    settings({
      games: [3],
      tiers: [1],
      spoilers: 'hide',
      digestWhenEmpty: 'skip',
      timezone: 'Asia/Tokyo',
      digestTime: '18:00',
      channels: [
        {
          id: 'main',
          games: [],
          tiers: [],
          teams: [],
          kinds: ['reminders', 'results', 'digest'],
          leads: [30],
        },
      ],
    }),
  ],
];

function allPosts(r: Rig) {
  return Object.values(r.deliveries).flatMap((d) => d.records);
}

describe('notifier: a simulated day with several tenants', () => {
  let r: Rig;
  let expected: Expected[];
  beforeAll(async () => {
    r = rig('day', TENANTS);
    // The last tick is at the end of the day itself, so what falls due in the final interval (a
    // series ending at 23:58:40) is sent within the span the expectation covers.
    expected = expectedNotifications(service.world, TENANTS, FROM, FROM + DAY + 1);
    await play(r, FROM, FROM + DAY + 1);
  }, 120_000);

  it('has something to deliver of every kind (the check is not vacuous)', () => {
    // Tournament-end cards too when a tournament's last series ends within the day (none on this one).
    const kinds = new Set(expected.map((e) => e.kind).filter((k) => k !== 'tournament'));
    expect([...kinds].sort()).toEqual(['digest', 'live', 'reminder', 'result']);
    expect(expected.length).toBeGreaterThan(20);
  });

  it('delivers every expected notification exactly once, to its channel, within one tick', async () => {
    const records = allPosts(r);
    const posts = records.filter((x) => x.op === 'post');
    const byKey = new Map<string, typeof posts>();
    for (const p of posts) byKey.set(p.key, [...(byKey.get(p.key) ?? []), p]);
    const missing: string[] = [];
    const late: string[] = [];
    for (const e of expected) {
      if (e.kind === 'result') {
        // A result freezes the live card (an edit) or is posted: the ledger holds it either way.
        const entry = await r.ledger.get(e.key);
        if (entry?.state !== 'sent') missing.push(e.key);
        continue;
      }
      // A reminder may go out in one message with others due that minute for its channel.
      const got = byKey.get(e.key) ?? (await postsCarrying(e.key, posts, r.ledger));
      if (got.length === 0) {
        missing.push(e.key);
        continue;
      }
      expect(got).toHaveLength(1);
      const [tenant, channel] = [got[0]!.tenantId, got[0]!.channelId];
      expect(e.key.endsWith(`:${tenant.split(':')[1]}:${channel}`)).toBe(true);
      if (got[0]!.at < e.at || got[0]!.at > e.at + TICK) late.push(`${e.key} due ${e.at} at ${got[0]!.at}`);
    }
    expect(missing).toEqual([]);
    expect(late).toEqual([]);
  });

  it('sends nothing that was not expected, and never posts a key twice', () => {
    const keys = new Set(expected.map((e) => e.key));
    const posts = allPosts(r).filter((x) => x.op === 'post');
    const unexpected = posts.filter((p) => !keys.has(p.key)).map((p) => p.key);
    expect(unexpected).toEqual([]);
    expect(new Set(posts.map((p) => p.key)).size).toBe(posts.length);
    for (const d of Object.values(r.deliveries)) expect(d.deduped).toBe(0);
  });

  it('edits live cards in place instead of posting new ones', () => {
    const edits = allPosts(r).filter((x) => x.op === 'edit');
    const cardIds = new Set(
      allPosts(r)
        .filter((x) => x.op === 'post' && x.key.startsWith('live:'))
        .map((x) => x.messageId),
    );
    expect(edits.length).toBeGreaterThan(cardIds.size);
    for (const e of edits) expect(cardIds.has(e.messageId)).toBe(true);
    // The current map is named ("Harbor"), not numbered.
    const mapNames = service.world.catalog.games.flatMap((g) => g.maps.map((m) => m.name));
    expect(mapNames.length).toBeGreaterThan(0);
    expect(edits.some((e) => mapNames.some((name) => e.text.includes(name)))).toBe(true);
  });
});

describe('notifier: spoiler policies on results', () => {
  it('shows, wraps or withholds the final result per the tenant policy', async () => {
    const r = rigs[0]!;
    const finals = (tenant: string) =>
      allPosts(r).filter((x) => x.tenantId === tenant && /Final ·|Result ·/.test(x.text));
    const show = finals('discord:100');
    const spoiler = finals('slack:T200');
    const hide = finals('terminal:local');
    expect(show.length).toBeGreaterThan(0);
    expect(spoiler.length).toBeGreaterThan(0);
    expect(hide.length).toBeGreaterThan(0);
    const score = /\d+–\d+/;
    // show: the score in the clear.
    for (const x of show) expect(x.text).toMatch(score);
    // spoiler: hidden until revealed, and the revealed text holds the verdict.
    for (const x of spoiler) {
      expect(x.text).toContain('[spoiler]');
      expect(x.revealed).toMatch(/win/);
    }
    // hide: withheld even when revealed.
    for (const x of hide) {
      expect(x.revealed).toContain('result hidden');
      expect(x.revealed).not.toMatch(/ wins?\b/);
    }
  });
});
