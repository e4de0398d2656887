/**
 * SlackDelivery against the loopback fake over real HTTP, with a virtual clock for pacing and
 * rate-limit pauses (the waits are recorded, not slept).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/bot/reply.ts';
import { translator } from '../../../src/i18n/i18n.ts';
import type { ChannelTarget } from '../../../src/notify/delivery.ts';
import { DeliveryError } from '../../../src/notify/delivery-error.ts';
import { createDeliveryClient, SlackDelivery } from '../../../src/platforms/slack/delivery.ts';
import { FakeSlack } from '../../fakes/slack.ts';

const reply = (title: string, line = 'Starts soon'): Reply => ({ cards: [{ title, description: [[line]] }] });

describe('SlackDelivery', () => {
  let fake: FakeSlack;
  let now: number;
  let sleeps: number[];
  let delivery: SlackDelivery;
  const target = (channelId: string, tenantId = 'slack:T0MATCHDAY'): ChannelTarget => ({
    platform: 'slack',
    tenantId,
    channelId,
  });

  beforeEach(async () => {
    fake = await FakeSlack.start({
      channels: [
        { id: 'C1', name: 'matches' },
        { id: 'C2', name: 'results' },
        { id: 'C3', name: 'private', isMember: false },
        { id: 'C4', name: 'old', isArchived: true },
      ],
    });
    now = 1_000_000;
    sleeps = [];
    delivery = new SlackDelivery({
      client: createDeliveryClient(fake.botToken, { apiUrl: fake.apiUrl }),
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('posts a rendered message and returns its ts as the message id', async () => {
    const posted = await delivery.post(target('C1'), reply('Reminder: A vs B'), 'reminder:1:15:slack:C1');
    const [message] = fake.messagesIn('C1');
    expect(posted.messageId).toBe(message?.ts);
    expect(message?.blocks?.[0]).toMatchObject({ type: 'header', text: { text: 'Reminder: A vs B' } });
    expect(message?.text).toContain('Reminder: A vs B');
    const call = fake.callsOf('chat.postMessage')[0];
    expect(call?.params).toMatchObject({ channel: 'C1', unfurl_links: 'false' });
  });

  it("writes Slack's own words (the reveal button) in the channel's language, English without one", async () => {
    const spoiler: Reply = { cards: [{ title: 'Result', description: [[{ spoiler: ['A 2–1 B'] }]] }] };
    await delivery.post({ ...target('C1'), t: translator('pt') }, spoiler, 'result:pt');
    await delivery.post(target('C2'), spoiler, 'result:en');
    const [pt] = fake.messagesIn('C1');
    const [en] = fake.messagesIn('C2');
    expect(JSON.stringify(pt?.blocks)).toContain('Revelar');
    expect(JSON.stringify(pt?.blocks)).not.toContain('Reveal');
    expect(JSON.stringify(en?.blocks)).toContain('Reveal');
  });

  it('edits a live card in place with chat.update instead of posting again', async () => {
    const { messageId } = await delivery.post(target('C1'), reply('Live', '0-0'), 'live:1');
    await delivery.edit(target('C1'), messageId, reply('Live', '1-0'));
    await delivery.edit(target('C1'), messageId, reply('Live', '2-0'));
    expect(fake.callsOf('chat.postMessage')).toHaveLength(1);
    expect(fake.callsOf('chat.update')).toHaveLength(2);
    const [message] = fake.messagesIn('C1');
    expect(fake.messagesIn('C1')).toHaveLength(1);
    expect(JSON.stringify(message?.blocks)).toContain('2-0');
    expect(message?.history).toHaveLength(2);
  });

  it.each([
    ['C3', 'NOT_IN_CHANNEL', 'not_in_channel'],
    ['C9', 'UNKNOWN_CHANNEL', 'channel_not_found'],
    ['C4', 'CHANNEL_ARCHIVED', 'is_archived'],
  ])('fails permanently in channel %s with %s', async (channel, code, slackCode) => {
    const error = await delivery.post(target(channel), reply('x'), 'k').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ kind: 'permanent', code });
    expect((error as Error).message).toContain(slackCode);
    expect((error as Error).message).not.toContain(fake.botToken);
    expect(fake.messages).toHaveLength(0);
  });

  it('fails sends queued for a dead channel at once, without asking Slack again, for a while', async () => {
    const results = await Promise.allSettled([
      delivery.post(target('C3'), reply('a'), 'k1'),
      delivery.post(target('C3'), reply('b'), 'k2'),
      delivery.edit(target('C3'), '1.2', reply('c')),
    ]);
    for (const result of results)
      expect(result).toMatchObject({
        status: 'rejected',
        reason: { kind: 'permanent', code: 'NOT_IN_CHANNEL' },
      });
    expect(fake.callsOf('chat.postMessage')).toHaveLength(1);
    expect(fake.callsOf('chat.update')).toHaveLength(0);
    // Once the bot is invited and the memory has lapsed, the channel works again.
    fake.channels.set('C3', { id: 'C3', name: 'private' });
    now += 60_001;
    await expect(delivery.post(target('C3'), reply('d'), 'k3')).resolves.toMatchObject({
      messageId: expect.any(String),
    });
  });

  it('fails only that edit (transient) when the message was deleted, so the channel stays subscribed', async () => {
    const error = await delivery.edit(target('C1'), '123.456', reply('x')).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transient', code: 'UNKNOWN_MESSAGE' });
  });

  it('waits out a 429 for the Retry-After time, then delivers', async () => {
    fake.fail('chat.postMessage', { retryAfter: 3 });
    const posted = await delivery.post(target('C1'), reply('after the limit'), 'k');
    expect(posted.messageId).toBeTruthy();
    expect(fake.callsOf('chat.postMessage').map((call) => call.status)).toEqual([429, 200]);
    expect(sleeps).toEqual([3000]);
    expect(delivery.rateLimited).toBe(1);
  });

  it('pauses the whole workspace after a 429, but not other workspaces', async () => {
    fake.fail('chat.postMessage', { retryAfter: 2, channel: 'C1' });
    await delivery.post(target('C1'), reply('a'), 'k1');
    const pausedAt = now;
    // Same workspace, other channel: its first post waits for nothing more (the pause is over)...
    await delivery.post(target('C2'), reply('b'), 'k2');
    expect(sleeps).toEqual([2000]);
    // ...but a 429 seen in one channel delays another channel of that workspace.
    fake.fail('chat.postMessage', { retryAfter: 5, channel: 'C1' });
    const first = delivery.post(target('C1'), reply('c'), 'k3');
    await first;
    const before = sleeps.length;
    await delivery.post(target('C2'), reply('d'), 'k4');
    expect(sleeps.length).toBeGreaterThanOrEqual(before);
    expect(now).toBeGreaterThanOrEqual(pausedAt + 5000);
    // Another workspace is not paused by this one's 429s.
    const other = new SlackDelivery({
      client: createDeliveryClient(fake.botToken, { apiUrl: fake.apiUrl }),
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    const sleepsBefore = sleeps.length;
    fake.fail('chat.postMessage', { retryAfter: 4, channel: 'C1' });
    await delivery.post(target('C1'), reply('e'), 'k5');
    const mark = sleeps.length;
    await other.post(target('C2', 'slack:T0OTHER'), reply('f'), 'k6');
    expect(sleeps.length).toBe(mark);
    expect(sleeps.length).toBeGreaterThan(sleepsBefore);
  });

  it('does not wait inline for a very long Retry-After: fails as transient with the wait', async () => {
    fake.fail('chat.postMessage', { retryAfter: 120 });
    const error = await delivery.post(target('C1'), reply('x'), 'k').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transient', code: 'RATE_LIMITED', retryAfterMs: 120_000 });
    expect(sleeps).toEqual([]);
  });

  it('gives up after repeated 429s with a transient error', async () => {
    fake.fail('chat.postMessage', { retryAfter: 1, times: 10 });
    const error = await delivery.post(target('C1'), reply('x'), 'k').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transient', code: 'RATE_LIMITED' });
    expect(fake.callsOf('chat.postMessage')).toHaveLength(4);
  });

  it('sends at most one message per second per channel, in order, without holding up other channels', async () => {
    await Promise.all([
      delivery.post(target('C1'), reply('one'), 'k1'),
      delivery.post(target('C1'), reply('two'), 'k2'),
      delivery.post(target('C1'), reply('three'), 'k3'),
    ]);
    expect(sleeps).toEqual([1000, 1000]);
    expect(fake.messagesIn('C1').map((m) => (m.blocks![0] as { text: { text: string } }).text.text)).toEqual([
      'one',
      'two',
      'three',
    ]);
    sleeps = [];
    await delivery.post(target('C2'), reply('elsewhere'), 'k4');
    expect(sleeps).toEqual([]);
  });

  it('treats server errors and unreachable Slack as transient', async () => {
    fake.fail('chat.postMessage', { error: 'internal_error' });
    await expect(delivery.post(target('C1'), reply('x'), 'k')).rejects.toMatchObject({
      kind: 'transient',
      code: 'SLACK_ERROR',
    });
    const unreachable = new SlackDelivery({
      client: createDeliveryClient(fake.botToken, { apiUrl: 'http://127.0.0.1:1/api/' }),
    });
    await expect(unreachable.post(target('C1'), reply('x'), 'k')).rejects.toMatchObject({
      kind: 'transient',
      code: 'NETWORK_ERROR',
    });
  });

  it('escapes names from data so a notification pings nobody', async () => {
    await delivery.post(target('C1'), reply('<!channel> vs @here', '<!everyone> <@U1>'), 'k');
    const params = fake.callsOf('chat.postMessage')[0]?.params ?? {};
    // The header is plain_text (never parsed); everything Slack parses must be escaped.
    const parsed = (JSON.parse(String(params.blocks)) as { type: string }[]).filter(
      (block) => block.type !== 'header',
    );
    const raw = JSON.stringify([params.text, parsed]);
    expect(raw).not.toMatch(/<!channel>|<!everyone>|<@U1>|(?<!\u2060)@here/);
    expect(raw).toContain('&lt;!everyone&gt;');
    expect(String(params.text)).toContain('&lt;!channel&gt;');
  });

  it('carries the ledger key in the message metadata of every post', async () => {
    await delivery.post(target('C1'), reply('Result'), 'result:7:over:slack:T0MATCHDAY:C1');
    expect(fake.messagesIn('C1')[0]?.metadata).toEqual({
      event_type: 'matchday_notification',
      event_payload: { key: 'result:7:over:slack:T0MATCHDAY:C1' },
    });
  });

  it('reconciles a post whose mark was lost: finds it in the channel history by its key instead of posting again', async () => {
    const key = 'live:8:card:slack:T0MATCHDAY:C1';
    const first = await delivery.post(target('C1'), reply('Live', '0-0'), key);
    await delivery.post(target('C1'), reply('Other'), 'reminder:9:15:slack:T0MATCHDAY:C1');
    const again = await delivery.post(target('C1'), reply('Live', '0-0'), key, { reconcile: true });
    expect(again.messageId).toBe(first.messageId);
    expect(fake.messagesIn('C1')).toHaveLength(2);
    expect(fake.callsOf('conversations.history')[0]?.params).toMatchObject({
      channel: 'C1',
      include_all_metadata: 'true',
    });
    // A key that is not in the history is posted (once), and without `reconcile` nothing is looked up.
    const fresh = await delivery.post(target('C1'), reply('New'), 'result:10:over:slack:T0MATCHDAY:C1', {
      reconcile: true,
    });
    expect(fake.messagesIn('C1').map((m) => m.ts)).toContain(fresh.messageId);
    expect(fake.messagesIn('C1')).toHaveLength(3);
    expect(fake.callsOf('conversations.history')).toHaveLength(2);
  });

  it('does not post when the claim was taken over during a rate-limit wait (checked after the wait)', async () => {
    fake.fail('chat.postMessage', { retryAfter: 30, channel: 'C1' });
    let checks = 0;
    const error = await delivery
      .post(target('C1'), reply('Late'), 'reminder:11:15:slack:T0MATCHDAY:C1', {
        stillOurs: () => ++checks < 3,
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transient', code: 'CLAIM_LOST' });
    // Checked before the first try, before the wait (still ours) and after it (taken over).
    expect(checks).toBe(3);
    expect(sleeps).toContain(30_000);
    expect(fake.messagesIn('C1')).toHaveLength(0);
  });

  it('gives a queued post up before its pacing wait once the claim is not ours (a stop), instead of waiting its turn', async () => {
    await delivery.post(target('C1'), reply('First'), 'reminder:12:15:slack:T0MATCHDAY:C1');
    let checks = 0;
    const error = await delivery
      .post(target('C1'), reply('Queued'), 'reminder:13:15:slack:T0MATCHDAY:C1', {
        stillOurs: () => {
          checks++;
          return false;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'transient', code: 'CLAIM_LOST' });
    expect(checks).toBe(1);
    expect(sleeps).toEqual([]);
    expect(fake.messagesIn('C1')).toHaveLength(1);
    // Still ours: the same queued post waits its turn (one second after the first) and goes out.
    const posted = await delivery.post(target('C1'), reply('Queued'), 'reminder:13:15:slack:T0MATCHDAY:C1', {
      stillOurs: () => true,
    });
    expect(sleeps).toEqual([1000]);
    expect(fake.messagesIn('C1').map((m) => m.ts)).toContain(posted.messageId);
  });
});
