/**
 * A Discord scheduled event deleted by hand stays deleted (src/notify/scheduled-events.ts): the real
 * notifier on a SQLite ledger file and on Redis, discord.js' REST client against the fake Discord's
 * scheduled events, and a discord.js gateway session with the GuildScheduledEvents intent and the
 * bot's own listener (src/platforms/discord/server-lifecycle.ts). An event an admin deletes is not
 * made again after the 10-minute relist, after a new notifier on the same store, after its deletion
 * came by the gateway or as 10070 on an edit. The negatives: an event Matchday removed itself (team
 * unfollowed) is made again when the team is followed again, one it cancelled itself (series
 * deleted) is not taken for a deletion by hand, and a series it never made an event for (followed
 * later) gets its event.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, GatewayIntentBits, REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import type { Ledger } from '../../src/notify/ledger.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { eventKeys, seriesOfEvent } from '../../src/notify/scheduled-events.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { DiscordDelivery } from '../../src/platforms/discord/delivery.ts';
import { listenForServerChanges } from '../../src/platforms/discord/server-lifecycle.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { FakeDiscord } from '../fakes/discord.ts';
import { MemoryTenants, memoryLogger, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const MIN = 60_000;
const SQLITE_GUILD = '100000000000000031';
const REDIS_GUILD = '100000000000000032';
const dir = mkdtempSync(join(tmpdir(), 'matchday-events-deleted-'));
let service: RunningService;
let clock: Clock;
let fake: FakeDiscord;
const gateways: Client[] = [];

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
  fake = await FakeDiscord.start({
    now: () => clock.nowMs(),
    guilds: [SQLITE_GUILD, REDIS_GUILD].map((id, i) => ({
      id,
      name: `Hub ${i}`,
      channels: [{ id: `20000000000000003${i + 1}`, name: 'matches' }],
      botPermissions: ['MANAGE_EVENTS' as const],
    })),
  });
});
afterAll(async () => {
  for (const client of gateways) await client.destroy();
  await fake?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

function teamsOf(plan: SeriesPlan): number[] {
  return plan.rosters.map((r) => service.world.catalog.rosters.find((x) => x.id === r)!.team.id);
}

/**
 * The series of the run, their teams pairwise apart (following one never follows another): A (deleted
 * by hand, found by the relist), B (unfollowed and followed again), C (deleted by hand, told by the
 * gateway), D (followed late), E (deleted by hand just before it goes live: 10070 on the edit) and X
 * (deleted in the data: cancelled by Matchday).
 */
function pick() {
  const w = service.world;
  const plans = w
    .window(FROM)
    .series.filter(
      (p) =>
        p.start > FROM + 2 * 60 * MIN &&
        p.start < FROM + 20 * 60 * MIN &&
        p.rosters.length === 2 &&
        w.knownRosters(p, FROM).length === 2,
    )
    .sort((a, b) => a.start - b.start);
  const plain = (p: SeriesPlan) => p.postponedFrom === null && p.postponedAt === null && p.deletedAt === null;
  const taken = new Set<number>();
  // Every series in the window of a team taken: no other series of it is followed by accident.
  const busy = (p: SeriesPlan) =>
    teamsOf(p).some((t) => taken.has(t)) ||
    plans.some((o) => o !== p && teamsOf(o).some((t) => teamsOf(p).includes(t)) && !plain(o));
  const take = (found: SeriesPlan | undefined, what: string): SeriesPlan => {
    if (!found) throw new Error(`no series for ${what} in the world`);
    for (const t of teamsOf(found)) taken.add(t);
    return found;
  };
  const X = take(
    plans.find(
      (p) => p.deletedAt !== null && p.deletedAt > FROM + 45 * MIN && p.deletedAt + 40 * MIN < p.start,
    ),
    'X',
  );
  const free = (p: SeriesPlan) => plain(p) && !busy(p);
  const E = take(
    plans.find((p) => free(p) && p.start > X.deletedAt! + 60 * MIN && p.forfeit < 0),
    'E',
  );
  const A = take(plans.find(free), 'A');
  const B = take(plans.find(free), 'B');
  const C = take(plans.find(free), 'C');
  const D = take(plans.find(free), 'D');
  return { A, B, C, D, E, X };
}

describe.each([
  ['a SQLite ledger file', SQLITE_GUILD, false],
  ['Redis', REDIS_GUILD, true],
] as const)('a scheduled event deleted by hand, on %s', (_name, guild, redis) => {
  it.skipIf(redis && !process.env.REDIS_URL)(
    'is never made again: relist, restart, gateway, 10070; Matchday’s own closings are not taken for it',
    async () => {
      const tenants = new MemoryTenants();
      const prefix = `matchday:test-events-deleted:${Date.now()}:`;
      const channel = `20000000000000003${guild === SQLITE_GUILD ? 1 : 2}`;
      const openLedger = (): Ledger =>
        redis
          ? new RedisLedger(process.env.REDIS_URL!, { prefix })
          : new SqliteLedger(join(dir, `${guild}.sqlite`));
      const notifier = () => {
        const ledger = openLedger();
        const client = uncachedClient(service);
        const rest = new REST({ api: fake.apiUrl, retries: 0, timeout: 2000 }).setToken(fake.token);
        const logger = memoryLogger();
        const n = createNotifier({
          client,
          tenants,
          clock,
          ledger,
          deliveries: { discord: new DiscordDelivery({ rest }) },
          logger: logger as never,
        });
        return {
          n,
          ledger,
          logger,
          async at(ms: number) {
            clock.set(new Date(ms));
            await n.tick();
            await n.drain();
          },
          async close() {
            await n.stop();
            await ledger.close();
            await client.close();
          },
        };
      };
      const { A, B, C, D, E, X } = pick();
      const follow = (plans: SeriesPlan[]) => {
        tenants.set(`discord:${guild}`, {
          follows: plans.flatMap(teamsOf),
          channels: [{ id: channel, games: [], tiers: [], teams: [], kinds: [], leads: [], events: true }],
        });
      };
      const eventsOf = (plan: SeriesPlan) =>
        fake.scheduledEvents
          .all(guild)
          .filter((e) => seriesOfEvent({ description: e.description ?? '' }) === plan.id);
      const made = (plan: SeriesPlan) => eventsOf(plan).length;
      const record = async (ledger: Ledger, plan: SeriesPlan) => {
        const keys = eventKeys(guild, plan.id);
        return { made: await ledger.get(keys.made), deleted: await ledger.get(keys.deleted) };
      };

      follow([A, B, C, E, X]);
      let run = notifier();
      await run.at(FROM);
      for (const plan of [A, B, C, E, X]) expect(eventsOf(plan).map((e) => e.statuses)).toEqual([[1]]);
      expect(made(D)).toBe(0);
      const eventA = eventsOf(A)[0]!;
      expect((await record(run.ledger, A)).made).toMatchObject({ state: 'sent', messageId: eventA.id });

      // A is deleted by hand (no gateway session yet): within the listing's 10 minutes nothing is made,
      // and the relist finds it missing, records it, and does not make it again.
      fake.scheduledEvents.deleteByHand(guild, eventA.id);
      await run.at(FROM + MIN);
      await run.at(FROM + 11 * MIN);
      await run.at(FROM + 12 * MIN);
      expect(made(A)).toBe(0);
      expect((await record(run.ledger, A)).deleted?.reason).toMatch(/deleted by hand.*missing from/);

      // B unfollowed: Matchday removes its event itself; that is recorded as its own doing, not a deletion by hand.
      follow([A, C, E, X]);
      run.n.invalidate();
      await run.at(FROM + 13 * MIN);
      expect(made(B)).toBe(0);
      const b = await record(run.ledger, B);
      expect(b.made).toMatchObject({ state: 'failed' });
      expect(b.made?.reason).toMatch(/closed by Matchday: removed/);
      expect(b.deleted).toBeUndefined();

      // A new process on the same store: A still not made; B and D (never made before) followed: both made.
      await run.close();
      run = notifier();
      follow([A, B, C, D, E, X]);
      await run.at(FROM + 14 * MIN);
      await run.at(FROM + 25 * MIN);
      expect(made(A)).toBe(0);
      expect(eventsOf(B).map((e) => e.statuses)).toEqual([[1]]);
      expect(eventsOf(D).map((e) => e.statuses)).toEqual([[1]]);
      expect((await record(run.ledger, D)).deleted).toBeUndefined();

      // C deleted by hand while a gateway session with the bot's listener runs: recorded at once, by
      // the packet (before any relist), and not made again.
      const gateway = new Client({
        intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildScheduledEvents],
        rest: { api: fake.apiUrl, retries: 0, timeout: 2000 },
      });
      gateways.push(gateway);
      const current = run;
      const app = {
        tenants,
        get notifier() {
          return current.n;
        },
      };
      listenForServerChanges(gateway, app as never, memoryLogger() as never);
      await gateway.login(fake.token);
      await fake.waitFor(() => gateway.isReady(), 10_000, 'the gateway session');
      fake.scheduledEvents.deleteByHand(guild, eventsOf(C)[0]!.id);
      await fake.waitFor(
        () =>
          run.logger.lines.some(
            (l) => l.msg?.includes('deleted by hand') && (l.obj as { series?: number }).series === C.id,
          ),
        5000,
        'the deletion of C to be recorded',
      );
      expect((await record(run.ledger, C)).deleted?.reason).toMatch(/GUILD_SCHEDULED_EVENT_DELETE/);
      // Matchday's own delete (B unfollowed again) also comes by the gateway: not a deletion by hand.
      follow([A, C, D, E, X]);
      run.n.invalidate();
      await run.at(FROM + 26 * MIN);
      expect(made(B)).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await record(run.ledger, B)).deleted).toBeUndefined();
      follow([A, B, C, D, E, X]);
      run.n.invalidate();
      await run.at(FROM + 37 * MIN);
      expect(made(A)).toBe(0);
      expect(made(C)).toBe(0);
      expect(made(B)).toBe(1);

      // X deleted in the data: Matchday cancels its event; it leaves the list, and is no deletion by hand.
      await run.at(X.deletedAt! + 31 * MIN);
      await run.at(X.deletedAt! + 32 * MIN);
      expect(
        fake.scheduledEvents
          .all(guild)
          .filter((e) => seriesOfEvent({ description: e.description ?? '' }) === X.id)
          .map((e) => e.statuses),
      ).toEqual([[1, 4]]);
      await run.at(X.deletedAt! + 45 * MIN);
      const x = await record(run.ledger, X);
      expect(x.made?.reason).toMatch(/closed by Matchday: cancelled/);
      expect(x.deleted).toBeUndefined();

      // E deleted by hand between a listing and its going live: the edit to active answers 10070.
      await run.at(E.start - 5 * MIN);
      const lists = fake.requestsTo('GET', `/guilds/${guild}/scheduled-events`).length;
      const eventE = eventsOf(E)[0]!;
      // Removed without the gateway hearing it (as if the session were away), so only the edit can tell.
      await gateway.destroy();
      fake.scheduledEvents.deleteByHand(guild, eventE.id);
      await run.at(E.start + MIN);
      expect(fake.requestsTo('GET', `/guilds/${guild}/scheduled-events`).length).toBe(lists);
      const patched = fake.requestsTo('PATCH', `/guilds/${guild}/scheduled-events/${eventE.id}`);
      expect(patched.at(-1)?.status).toBe(404);
      expect((await record(run.ledger, E)).deleted?.reason).toMatch(/10070/);

      // Through all of it: A, C and E made once each, never again; nobody else's record says deleted.
      for (const plan of [A, C, E])
        expect(
          fake
            .requestsTo('POST', `/guilds/${guild}/scheduled-events`)
            .filter(
              (r) =>
                r.status === 200 &&
                seriesOfEvent({ description: (r.body as { description?: string }).description ?? '' }) ===
                  plan.id,
            ),
        ).toHaveLength(1);
      for (const plan of [B, D, X]) expect((await record(run.ledger, plan)).deleted).toBeUndefined();
      tenants.set(`discord:${guild}`, { follows: [] });
      await run.close();
    },
  );
});
