/**
 * DiscordDelivery through discord.js' real REST client against the loopback fake: nonces, edits in
 * place, 429s, 5xx after the fact, permanent errors, and pacing (with an injected clock).
 */
import { REST } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COLOURS, type Reply } from '../../../src/bot/reply.ts';
import type { ChannelTarget } from '../../../src/notify/delivery.ts';
import { DeliveryError } from '../../../src/notify/delivery-error.ts';
import { DiscordDelivery } from '../../../src/platforms/discord/delivery.ts';
import { FakeDiscord } from '../../fakes/discord.ts';

const GUILD = '100000000000000001';
const OPEN = '200000000000000001';
const NO_SEND = '200000000000000002';
const NO_VIEW = '200000000000000003';
const OTHER = '200000000000000004';
const ROLE = '300000000000000001';

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await FakeDiscord.start({
    guilds: [
      {
        id: GUILD,
        name: 'Hub',
        roles: [{ id: ROLE, name: 'fans' }],
        channels: [
          { id: OPEN, name: 'matches' },
          { id: NO_SEND, name: 'read-only', denyBot: ['SEND_MESSAGES'] },
          { id: NO_VIEW, name: 'staff', denyBot: ['VIEW_CHANNEL'] },
          { id: OTHER, name: 'other' },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  fake.clearFailures();
});

const target = (channelId: string): ChannelTarget => ({
  platform: 'discord',
  tenantId: `discord:${GUILD}`,
  channelId,
});
const rest = (options: { retries?: number; rejectOver?: number } = {}) =>
  new REST({
    api: fake.apiUrl,
    retries: options.retries ?? 0,
    timeout: 2000,
    ...(options.rejectOver !== undefined
      ? { rejectOnRateLimit: (d) => d.retryAfter > options.rejectOver! }
      : {}),
  }).setToken(fake.token);

let n = 0;
const key = () => `reminder:series-${++n}:15:discord:${OPEN}`;
const reply = (title: string, extra: Partial<Reply> = {}): Reply => ({
  content: [{ role: ROLE }, ' starts soon, @everyone'],
  mentionRoles: [ROLE],
  cards: [
    { title, colour: COLOURS.upcoming, description: [['Team @here vs ', { text: 'Other', bold: true }]] },
  ],
  ...extra,
});

describe('DiscordDelivery', () => {
  it('posts one message with the nonce, pinging only the subscribed role', async () => {
    const delivery = new DiscordDelivery({ rest: rest() });
    const before = fake.messages(OPEN).length;
    const posted = await delivery.post(target(OPEN), reply('G2 vs FNC'), key());
    const messages = fake.messages(OPEN);
    expect(messages).toHaveLength(before + 1);
    const message = messages.at(-1)!;
    expect(message.id).toBe(posted.messageId);
    expect(message.embeds[0].title).toBe('G2 vs FNC');
    expect(message.nonce).toMatch(/^[A-Za-z0-9_-]{1,25}$/);
    expect(message.pinged).toEqual({ everyone: false, roles: [ROLE], users: [] });
    const request = fake.requestsTo('POST', `/channels/${OPEN}/messages`).at(-1)!;
    expect(request.body.enforce_nonce).toBe(true);
    expect(request.body.allowed_mentions).toEqual({ parse: [], roles: [ROLE] });
  });

  it('returns the first message when the same key is posted again (no duplicate)', async () => {
    const delivery = new DiscordDelivery({ rest: rest() });
    const k = key();
    const before = fake.messages(OPEN).length;
    const first = await delivery.post(target(OPEN), reply('Once'), k);
    const second = await delivery.post(target(OPEN), reply('Once'), k);
    expect(second.messageId).toBe(first.messageId);
    expect(fake.messages(OPEN)).toHaveLength(before + 1);
  });

  it('does not post at all when the claim is no longer ours, and a reconcile post of a posted key returns the first message', async () => {
    const delivery = new DiscordDelivery({ rest: rest() });
    const k = key();
    const before = fake.messages(OPEN).length;
    const error = await delivery
      .post(target(OPEN), reply('Taken'), k, { stillOurs: () => false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transient', code: 'CLAIM_LOST' });
    expect(fake.messages(OPEN)).toHaveLength(before);
    const first = await delivery.post(target(OPEN), reply('Once'), k, { stillOurs: () => true });
    const again = await delivery.post(target(OPEN), reply('Once'), k, { reconcile: true });
    expect(again.messageId).toBe(first.messageId);
    expect(fake.messages(OPEN)).toHaveLength(before + 1);
  });

  it('waits out a 429 with retry_after and posts once', async () => {
    const delivery = new DiscordDelivery({ rest: rest() });
    const path = `/channels/${OPEN}/messages`;
    const seen = fake.requestsTo('POST', path).length;
    const before = fake.messages(OPEN).length;
    fake.fail({ method: 'POST', path, status: 429, retryAfter: 0.1 });
    await delivery.post(target(OPEN), reply('Rate limited'), key());
    expect(
      fake
        .requestsTo('POST', path)
        .slice(seen)
        .map((r) => r.status),
    ).toEqual([429, 200]);
    expect(fake.messages(OPEN)).toHaveLength(before + 1);
  });

  it('hands back a long rate limit as transient with retryAfterMs instead of blocking', async () => {
    const delivery = new DiscordDelivery({ rest: rest({ rejectOver: 5000 }) });
    fake.fail({ method: 'POST', path: `/channels/${OTHER}/messages`, status: 429, retryAfter: 60 });
    const error = await delivery.post(target(OTHER), reply('Later'), key()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'transient', code: 'RATE_LIMITED' });
    expect((error as DeliveryError).retryAfterMs).toBeGreaterThanOrEqual(60_000);
  });

  it('a 500 after the message was created, retried by discord.js, leaves one message', async () => {
    const delivery = new DiscordDelivery({ rest: rest({ retries: 1 }) });
    const path = `/channels/${OPEN}/messages`;
    const seen = fake.requestsTo('POST', path).length;
    const before = fake.messages(OPEN).length;
    fake.fail({ method: 'POST', path, status: 500, afterEffect: true });
    const posted = await delivery.post(target(OPEN), reply('Retried'), key());
    expect(
      fake
        .requestsTo('POST', path)
        .slice(seen)
        .map((r) => r.status),
    ).toEqual([500, 200]);
    expect(fake.messages(OPEN)).toHaveLength(before + 1);
    expect(fake.messages(OPEN).at(-1)!.id).toBe(posted.messageId);
  });

  it('a 500 after creation, failed as transient, then retried by the notifier with the same key: one message', async () => {
    const delivery = new DiscordDelivery({ rest: rest({ retries: 0 }) });
    const path = `/channels/${OPEN}/messages`;
    const before = fake.messages(OPEN).length;
    const k = key();
    fake.fail({ method: 'POST', path, status: 500, afterEffect: true });
    await expect(delivery.post(target(OPEN), reply('Later retry'), k)).rejects.toMatchObject({
      kind: 'transient',
      code: 'DISCORD_HTTP_ERROR',
    });
    const posted = await delivery.post(target(OPEN), reply('Later retry'), k);
    expect(fake.messages(OPEN)).toHaveLength(before + 1);
    expect(fake.messages(OPEN).at(-1)!.id).toBe(posted.messageId);
  });

  it('edits a message in place', async () => {
    const delivery = new DiscordDelivery({ rest: rest() });
    const posted = await delivery.post(target(OPEN), reply('Live 0-0'), key());
    const count = fake.messages(OPEN).length;
    await delivery.edit(target(OPEN), posted.messageId, reply('Live 1-0'));
    await delivery.edit(target(OPEN), posted.messageId, reply('Live 2-0'));
    expect(fake.messages(OPEN)).toHaveLength(count);
    const message = fake.messages(OPEN).find((m) => m.id === posted.messageId)!;
    expect(message.embeds[0].title).toBe('Live 2-0');
    expect(message.edits).toBe(2);
    expect(message.pinged.everyone).toBe(false);
  });

  it("an edit of a deleted message is transient (UNKNOWN_MESSAGE), not the channel's fault", async () => {
    const delivery = new DiscordDelivery({ rest: rest() });
    await expect(delivery.edit(target(OPEN), '999999999999999999', reply('x'))).rejects.toMatchObject({
      kind: 'transient',
      code: 'UNKNOWN_MESSAGE',
    });
  });

  it.each([
    [NO_SEND, 'MISSING_PERMISSIONS', /50013/],
    [NO_VIEW, 'MISSING_ACCESS', /50001/],
    ['299999999999999999', 'UNKNOWN_CHANNEL', /10003/],
  ])('a post to %s fails permanently with %s', async (channel, code, text) => {
    const delivery = new DiscordDelivery({ rest: rest() });
    const error = await delivery.post(target(channel), reply('Nope'), key()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', code });
    expect((error as Error).message).toMatch(text);
    expect((error as Error).message).not.toContain(fake.token);
  });

  it('a plain 500 without retries is transient', async () => {
    const delivery = new DiscordDelivery({ rest: rest() });
    fake.fail({ method: 'POST', path: `/channels/${OTHER}/messages`, status: 500 });
    await expect(delivery.post(target(OTHER), reply('x'), key())).rejects.toMatchObject({
      kind: 'transient',
    });
  });

  it('paces each channel to 5 messages per 5 s, without holding other channels back', async () => {
    let now = 1_000_000;
    const sleeps: number[] = [];
    const delivery = new DiscordDelivery({
      rest: rest(),
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
      global: { count: 1000, windowMs: 1000 },
    });
    const posts = Array.from({ length: 7 }, (_, i) =>
      delivery.post(target(OTHER), reply(`Paced ${i}`), key()),
    );
    await Promise.all(posts);
    expect(sleeps).toEqual([5000]);
    const other = await delivery.post(target(OPEN), reply('Elsewhere'), key());
    expect(other.messageId).toBeTruthy();
    expect(sleeps).toEqual([5000]);
    expect(delivery.pacedMs).toBe(5000);
    // In order per channel: the fake received them in the order they were queued.
    const titles = fake
      .messages(OTHER)
      .map((m) => m.embeds[0]?.title)
      .filter((t) => t?.startsWith('Paced'));
    expect(titles).toEqual(Array.from({ length: 7 }, (_, i) => `Paced ${i}`));
  });

  it('gives queued posts up before their pacing wait once their claims are not ours (a stop), instead of waiting their turn', async () => {
    let now = 3_000_000;
    const sleeps: number[] = [];
    const delivery = new DiscordDelivery({
      rest: rest(),
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
      global: { count: 1000, windowMs: 1000 },
    });
    // The first five fit the channel's window; the claims are given back after them.
    let checks = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 7 }, (_, i) =>
        delivery.post(target(OTHER), reply(`Stopping ${i}`), key(), { stillOurs: () => ++checks <= 5 }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([...Array(5).fill('fulfilled'), 'rejected', 'rejected']);
    for (const r of results.slice(5))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'CLAIM_LOST' });
    expect(sleeps).toEqual([]);
    expect(delivery.pacedMs).toBe(0);
    const titles = fake
      .messages(OTHER)
      .map((m) => m.embeds[0]?.title)
      .filter((t) => t?.startsWith('Stopping'));
    expect(titles).toEqual(Array.from({ length: 5 }, (_, i) => `Stopping ${i}`));
  });

  it('paces globally across channels', async () => {
    let now = 5_000_000;
    const sleeps: number[] = [];
    const delivery = new DiscordDelivery({
      rest: rest(),
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
      global: { count: 2, windowMs: 1000 },
    });
    await Promise.all([OPEN, OTHER, OPEN].map((c) => delivery.post(target(c), reply('Global'), key())));
    expect(sleeps).toEqual([1000]);
  });
});
