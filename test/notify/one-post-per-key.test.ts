/**
 * One claim, one post. Settings that list one channel twice (an import, a hand-written document, or
 * a store restored from a stale mirror: how `bench:scale` came to count 10 posts per key) give the
 * notifier two subscriptions with the same ledger keys. The claim is won once per key; the notifier
 * must post once per key too, on the SQLite ledger and on the Redis ledger (a real redis-server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import type { Ledger } from '../../src/notify/ledger.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-one-post-'));
let service: RunningService;
let clock: Clock;

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const channel = { id: '2000', name: 'matches', kinds: [...NOTIFICATION_KINDS] };

/** Plays two and a half hours around a tier-1 series' start; returns every post per tenant. */
async function run(ledger: Ledger) {
  const plan = service.world
    .window(FROM + 2 * 3600_000)
    .series.filter(
      (p) =>
        p.tier === 1 &&
        p.start >= FROM + 2 * 3600_000 &&
        p.postponedFrom === null &&
        p.deletedAt === null &&
        p.forfeit < 0 &&
        p.end - p.start < 2 * 3600_000,
    )
    .sort((a, b) => a.start - b.start)[0];
  if (!plan) throw new Error('the seeded world has no such series; pick another seed');
  const tenants = new MemoryTenants();
  // The same channel twice in one tenant's settings; a second tenant lists it once (the control).
  tenants.set('discord:1', { tiers: [1], channels: [{ ...channel }, { ...channel }] as never });
  tenants.set('discord:2', { tiers: [1], channels: [{ ...channel }] as never });
  const discord = new RecordingDelivery('discord', () => clock.nowMs());
  // Like Slack (no nonce): a post repeated with the same key is a second message in the channel.
  discord.dedupe = 'history';
  const notifier = createNotifier({
    client: uncachedClient(service),
    tenants,
    clock,
    ledger,
    deliveries: { discord },
    logger: memoryLogger() as never,
    editIntervalMs: 0,
  });
  for (let t = plan.start - 20 * 60_000; t < plan.end + 10 * 60_000; t += 5 * 60_000) {
    clock.set(new Date(t));
    await notifier.tick();
  }
  await notifier.drain();
  await notifier.stop();
  await ledger.close();
  const posts = (tenant: string) => discord.posts().filter((p) => p.tenantId === tenant);
  return { twice: posts('discord:1'), once: posts('discord:2') };
}

function check({ twice, once }: Awaited<ReturnType<typeof run>>): void {
  // Not vacuous: reminders, a live card and results went out to the channel listed twice.
  const kinds = new Set(twice.map((p) => p.key.split(':')[0]));
  expect(kinds).toContain('reminder');
  expect(kinds).toContain('live');
  const perKey = new Map<string, number>();
  for (const p of twice) perKey.set(p.key, (perKey.get(p.key) ?? 0) + 1);
  const repeated = [...perKey].filter(([, n]) => n > 1);
  expect(repeated, `keys posted more than once: ${repeated.slice(0, 3).join(', ')}`).toEqual([]);
  expect(twice.length).toBe(perKey.size);
  // Listing the channel twice changes nothing: the same notifications as a channel listed once.
  const strip = (key: string) => key.replace(/:discord:\d+:2000$/, '');
  expect(twice.map((p) => strip(p.key)).sort()).toEqual(once.map((p) => strip(p.key)).sort());
}

describe('a channel listed twice in one tenant’s settings', () => {
  it('gets each notification once on the SQLite ledger', async () => {
    check(await run(new SqliteLedger(join(dir, 'ledger.sqlite'))));
  }, 60_000);

  it.skipIf(!process.env.REDIS_URL)(
    `gets each notification once on the Redis ledger${process.env.REDIS_URL ? '' : ' (skipped: REDIS_URL is not set)'}`,
    async () => {
      check(await run(new RedisLedger(process.env.REDIS_URL ?? '', { prefix: `test:${process.pid}:once:` })));
    },
    60_000,
  );
});
