/**
 * Notifications on Discord end to end: a simulated stretch of a day on the embedded service, the
 * real notifier ticking, and every reminder, live card and result going through DiscordDelivery and
 * discord.js to the loopback fake. What should arrive is computed from the service's world directly
 * (`test/notify/world-expect.ts`); each notification is found in the fake by its nonce.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings, settingsSchema } from '../../../src/bot/settings.ts';
import { createClient } from '../../../src/client/client.ts';
import { createNotifier, type Notifier } from '../../../src/notify/notifier.ts';
import { SqliteLedger } from '../../../src/notify/sqlite-ledger.ts';
import { nonceFor } from '../../../src/platforms/discord/render.ts';
import { MEMBER_PERMISSIONS, PERMISSIONS } from '../../fakes/discord.ts';
import { type Expected, expectedNotifications } from '../../notify/world-expect.ts';
import { CHANNELS, GUILD, type Rig, ROLE, startRig } from './rig.ts';

const FROM = Date.parse('2025-06-04T06:00:00Z');
const SPAN = 4 * 3600_000;
const TICK = 240_000;
const TENANT = `discord:${GUILD}`;

let rig: Rig;
let notifier: Notifier;
let ledger: SqliteLedger;
let expected: Expected[];

const settings: Settings = settingsSchema.parse({
  ...defaultSettings(),
  games: [1],
  tiers: [1, 2],
  reminderLeads: [60, 10],
  channels: [
    { id: CHANNELS.matches, name: 'matches', kinds: ['reminders', 'live'], role: ROLE },
    { id: CHANNELS.results, name: 'results', kinds: ['results'] },
    // Subscribed while it was allowed; Matchday has since lost Send Messages there.
    { id: CHANNELS.locked, name: 'read-only', kinds: ['reminders'] },
  ],
});

beforeAll(async () => {
  rig = await startRig({ at: new Date(FROM), seed: 11 });
  await rig.app.tenants.save(TENANT, settings);
  const service = rig.app.service!;
  // The notifier's own client without a cache: the cache runs on real time, the world on the frozen clock.
  const client = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 100_000, burst: 100_000 },
    ttl: { series: 0, matches: 0, live: 0, streams: 0 },
  });
  ledger = new SqliteLedger(join(rig.dir, 'ledger.sqlite'));
  notifier = createNotifier({
    client,
    tenants: rig.app.tenants,
    clock: rig.clock,
    ledger,
    deliveries: { discord: rig.bot.delivery },
    logger: rig.app.logger,
    editIntervalMs: 0,
  });
  rig.app.notifier = notifier;
  // Discord pushes back on the first post to #results (429, waited out) and fails the second one
  // after creating it (500; discord.js does not retry here, so the notifier retries with the same key).
  // A result stays due for hours and is never superseded, so the notifier's retry is certain to come;
  // a reminder could legitimately be superseded by a shorter lead before its retry.
  const posts = `/channels/${CHANNELS.results}/messages`;
  rig.fake.fail({ method: 'POST', path: posts, status: 429, retryAfter: 0.2 });
  rig.fake.fail({ method: 'POST', path: posts, status: 500, afterEffect: true });
  // Ticks run at FROM, FROM + TICK, ... up to the last one before FROM + SPAN: what falls due after it is not expected yet.
  const lastTick = FROM + Math.floor((SPAN - 1) / TICK) * TICK;
  expected = expectedNotifications(service.world, [[TENANT, settings]], FROM, lastTick + 1);
  for (let t = FROM; t < FROM + SPAN; t += TICK) {
    rig.clock.set(new Date(t));
    await notifier.tick();
  }
  await notifier.drain();
  await client.close();
}, 120_000);

afterAll(async () => {
  await notifier?.stop();
  await ledger?.close();
  await rig?.close();
});

const channelOf = (key: string) => key.split(':').at(-1)!;
const byNonce = (channel: string, key: string) =>
  rig.fake.messages(channel).filter((m) => m.nonce === nonceFor(key));

describe('notifications on Discord over four simulated hours', () => {
  it('has reminders, live cards and results to deliver (not vacuous)', () => {
    const kinds = (channel: string) =>
      new Set(expected.filter((e) => channelOf(e.key) === channel).map((e) => e.kind));
    // In a channel with live cards, the result freezes the live card (an edit), so it is expected there too.
    expect([...kinds(CHANNELS.matches)].sort()).toEqual(['live', 'reminder', 'result']);
    expect([...kinds(CHANNELS.results)]).toEqual(['result']);
    expect(expected.filter((e) => channelOf(e.key) === CHANNELS.locked).length).toBeGreaterThan(0);
  });

  it('posts every reminder and live card exactly once, in its own channel', () => {
    const missing: string[] = [];
    for (const e of expected.filter((x) => channelOf(x.key) === CHANNELS.matches && x.kind !== 'result')) {
      const found = byNonce(CHANNELS.matches, e.key);
      if (found.length !== 1) missing.push(`${e.key}: ${found.length}`);
      for (const other of [CHANNELS.results, CHANNELS.general]) expect(byNonce(other, e.key)).toEqual([]);
    }
    expect(missing).toEqual([]);
    // Nothing else: every message in the channel belongs to an expected notification.
    const nonces = new Set(expected.map((e) => nonceFor(e.key)));
    expect(rig.fake.messages(CHANNELS.matches).filter((m) => !nonces.has(m.nonce ?? ''))).toEqual([]);
  });

  it('waited out the 429 and recovered from the 500-after-creation without a duplicate', () => {
    const posts = rig.fake.requestsTo('POST', `/channels/${CHANNELS.results}/messages`);
    // discord.js waited out the 429 and retried; the retry was created but answered 500; the
    // notifier retried later with the same key, hence the same nonce, and got that message back.
    expect(posts.slice(0, 2).map((r) => r.status)).toEqual([429, 500]);
    const nonce = posts[0]!.body.nonce;
    expect(posts[1]!.body.nonce).toBe(nonce);
    const later = posts.slice(2).filter((r) => r.body.nonce === nonce);
    expect(later.map((r) => r.status)).toEqual([200]);
    expect(rig.fake.messages(CHANNELS.results).filter((m) => m.nonce === nonce)).toHaveLength(1);
    expect(notifier.stats.transientFailures).toBeGreaterThanOrEqual(1);
  });

  it('edits live cards in place rather than reposting them', () => {
    const live = expected.filter((e) => e.kind === 'live');
    const cards = live.map((e) => byNonce(CHANNELS.matches, e.key)[0]!);
    expect(cards.every(Boolean)).toBe(true);
    expect(cards.some((m) => m.edits > 0)).toBe(true);
    const patches = rig.fake.requests.filter(
      (r) => r.method === 'PATCH' && r.path.startsWith(`/channels/${CHANNELS.matches}/messages/`),
    );
    const ids = new Set(cards.map((m) => m.id));
    expect(patches.length).toBeGreaterThan(0);
    for (const patch of patches) expect(ids.has(patch.path.split('/').at(-1)!)).toBe(true);
    expect(patches.every((p) => p.status === 200)).toBe(true);
  });

  it('delivers every result: posted in the results channel, frozen into the live card in the live channel', async () => {
    const results = expected.filter((e) => e.kind === 'result');
    for (const e of results) expect((await ledger.get(e.key))?.state, e.key).toBe('sent');
    for (const e of results.filter((x) => channelOf(x.key) === CHANNELS.matches)) {
      expect(byNonce(CHANNELS.matches, e.key)).toEqual([]);
      expect((await ledger.get(e.key))?.messageId).toBeDefined();
    }
    expect(rig.fake.messages(CHANNELS.results).length).toBeGreaterThan(0);
    for (const message of rig.fake.messages(CHANNELS.results)) {
      expect(results.some((e) => nonceFor(e.key) === message.nonce)).toBe(true);
    }
  });

  it('pings the subscribed role and nothing else, never everyone', () => {
    const posts = rig.fake.requests.filter(
      (r) => /^\/channels\/\d+\/messages/.test(r.path) && r.method !== 'GET',
    );
    expect(posts.length).toBeGreaterThan(10);
    for (const post of posts) {
      expect(post.body.allowed_mentions.parse).toEqual([]);
      expect(post.body.allowed_mentions.roles.every((role: string) => role === ROLE)).toBe(true);
    }
    const all = rig.fake.allMessages();
    expect(all.some((m) => m.pinged.roles.includes(ROLE))).toBe(true);
    for (const m of all) {
      expect(m.pinged.everyone).toBe(false);
      expect(m.pinged.users).toEqual([]);
      expect(m.pinged.roles.every((role) => role === ROLE && m.channel_id === CHANNELS.matches)).toBe(true);
    }
  });

  it('disables a subscription whose channel refuses Matchday (50013), stops posting there, and tells the admins once', async () => {
    const attempts = rig.fake.requestsTo('POST', `/channels/${CHANNELS.locked}/messages`);
    const due = expected.filter((e) => channelOf(e.key) === CHANNELS.locked);
    expect(due.length).toBeGreaterThan(5);
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.every((r) => r.status === 403)).toBe(true);
    // Only what was already under way when the first 403 came back; nothing after the disabling.
    expect(attempts.length).toBeLessThan(due.length);
    expect(rig.fake.messages(CHANNELS.locked)).toEqual([]);
    const stored = await rig.app.tenants.get(TENANT);
    const locked = stored.channels.find((c) => c.id === CHANNELS.locked)!;
    expect(locked.disabled?.reason).toMatch(/MISSING_PERMISSIONS/);
    expect(stored.channels.find((c) => c.id === CHANNELS.matches)!.disabled).toBeUndefined();
    expect(stored.adminNotices.length).toBeGreaterThan(0);
    // The next admin command shows the notice, once.
    const admin = MEMBER_PERMISSIONS | PERMISSIONS.MANAGE_GUILD;
    const first = await rig.fake.answer({
      command: 'settings',
      subcommand: 'show',
      user: { id: '700000000000000009', username: 'boss' },
      permissions: admin,
    });
    expect(JSON.stringify(first.message!.embeds)).toMatch(/For admins/);
    const second = await rig.fake.answer({
      command: 'settings',
      subcommand: 'show',
      user: { id: '700000000000000009', username: 'boss' },
      permissions: admin,
    });
    expect(JSON.stringify(second.message!.embeds)).not.toMatch(/For admins/);
  });

  it('raised no unhandled rejection and logged no token', () => {
    expect(rig.rejections).toEqual([]);
    expect(rig.logs.join('\n')).not.toContain(rig.fake.token);
  });
});
