import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.ts';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'matchday-digest-'));
let service: RunningService;
const clock = new Clock({ start: new Date('2025-03-29T00:00:00Z'), frozen: true });

beforeAll(async () => {
  service = await startService({ port: 0, seed: 5, clock, rate: 0 });
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const TICK = 10 * 60_000;

/** Plays [from, to) with digest-only channels at times that exist once, never, and twice on DST days. */
async function digestsAround(name: string, zone: string, from: string, to: string) {
  const tenants = new MemoryTenants();
  const times = ['02:30', '09:00', '23:30'];
  tenants.set('slack:T1', {
    timezone: zone,
    digestTime: '02:30',
    games: [1],
    tiers: [1],
    channels: [{ id: 'early', games: [], tiers: [], teams: [], kinds: ['digest'], leads: [] }],
  });
  tenants.set('slack:T2', {
    timezone: zone,
    digestTime: '09:00',
    games: [1, 2],
    tiers: [1],
    channels: [{ id: 'morning', games: [], tiers: [], teams: [], kinds: ['digest'], leads: [] }],
  });
  tenants.set('slack:T3', {
    timezone: zone,
    digestTime: '23:30',
    games: [3],
    tiers: [1],
    digestWhenEmpty: 'say',
    channels: [{ id: 'late', games: [], tiers: [], teams: [], kinds: ['digest'], leads: [] }],
  });
  const slack = new RecordingDelivery('slack', () => clock.nowMs());
  const ledger = new SqliteLedger(join(dir, `${name}.sqlite`));
  const notifier = createNotifier({
    client: createClient({
      baseUrl: service.url,
      secret: service.secret,
      rate: { perSecond: 1e5, burst: 1e5 },
      ttl: { series: 0, matches: 0, live: 0 },
    }),
    tenants,
    clock,
    ledger,
    deliveries: { slack },
    logger: memoryLogger() as never,
  });
  for (let t = Date.parse(from); t < Date.parse(to); t += TICK) {
    clock.set(new Date(t));
    await notifier.tick();
  }
  await notifier.stop();
  await ledger.close();
  return { posts: slack.posts(), times };
}

function localDates(from: string, to: string, zone: string): string[] {
  const out: string[] = [];
  let d = DateTime.fromISO(from, { zone }).startOf('day');
  while (d.toMillis() < Date.parse(to)) {
    out.push(d.toISODate()!);
    d = d.plus({ days: 1 });
  }
  return out;
}

for (const [zone, spring, fall] of [
  ['Europe/Berlin', '2025-03-30', '2025-10-26'],
  ['America/New_York', '2025-03-09', '2025-11-02'],
] as const) {
  describe(`daily digests in ${zone}`, () => {
    for (const [label, day] of [
      ['spring-forward', spring],
      ['fall-back', fall],
    ] as const) {
      it(`arrive once per channel and local day on the ${label} day, at their local time`, async () => {
        const start = DateTime.fromISO(day, { zone }).minus({ hours: 2 });
        const end = DateTime.fromISO(day, { zone }).plus({ days: 1, hours: 2 });
        const { posts } = await digestsAround(
          `${zone}-${label}`.replace(/\W/g, '-'),
          zone,
          start.toISO()!,
          end.toISO()!,
        );
        const byChannelDate = new Map<string, number>();
        for (const p of posts) {
          const date = p.key.split(':')[1]!;
          byChannelDate.set(`${p.channelId}@${date}`, (byChannelDate.get(`${p.channelId}@${date}`) ?? 0) + 1);
        }
        // The DST day itself is covered for every channel, exactly once.
        for (const channel of ['early', 'morning', 'late'])
          expect(byChannelDate.get(`${channel}@${day}`)).toBe(1);
        for (const count of byChannelDate.values()) expect(count).toBe(1);
        for (const p of posts) {
          const local = DateTime.fromMillis(p.at, { zone });
          const [date] = [p.key.split(':')[1]!];
          expect(localDates(start.toISO()!, end.toISO()!, zone)).toContain(date);
          // Sent within one tick of the slot as luxon resolves it in the zone.
          const hhmm = p.channelId === 'early' ? '02:30' : p.channelId === 'morning' ? '09:00' : '23:30';
          const [h, m] = hhmm.split(':').map(Number) as [number, number];
          const slot = DateTime.fromISO(date, { zone }).set({ hour: h, minute: m }).toMillis();
          expect(p.at - slot).toBeGreaterThanOrEqual(0);
          expect(p.at - slot).toBeLessThan(TICK);
          expect(local.toISODate()).toBe(date);
        }
      });
    }
  });
}
