/**
 * The loopback fake, driven by Slack's own WebClient and SocketModeClient: if these pass, the fake
 * speaks the wire formats the real libraries expect.
 */
import { SocketModeClient } from '@slack/socket-mode';
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSlack } from '../../fakes/slack.ts';

describe('FakeSlack', () => {
  let fake: FakeSlack;
  let client: WebClient;

  beforeEach(async () => {
    fake = await FakeSlack.start({
      users: [{ id: 'U1', name: 'ana', isAdmin: true }],
      channels: [
        { id: 'C1', name: 'general' },
        { id: 'C2', name: 'outside', isMember: false },
      ],
    });
    client = new WebClient(fake.botToken, {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('answers auth.test and users.info for the bot token and refuses other tokens', async () => {
    const auth = await client.auth.test();
    expect(auth.team_id).toBe(fake.teamId);
    const info = await client.users.info({ user: 'U1' });
    expect(info.user?.is_admin).toBe(true);
    const stranger = new WebClient('xoxb-wrong', { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    await expect(stranger.auth.test()).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
  });

  it('posts, updates and records channel messages, keeping the earlier versions', async () => {
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'one' });
    await client.chat.update({ channel: 'C1', ts: posted.ts!, text: 'two' });
    expect(fake.messagesIn('C1')).toHaveLength(1);
    expect(fake.messagesIn('C1')[0]).toMatchObject({ text: 'two', history: [{ text: 'one' }] });
  });

  it('refuses posts to channels the bot is not in, unknown channels and over-long blocks', async () => {
    await expect(client.chat.postMessage({ channel: 'C2', text: 'x' })).rejects.toMatchObject({
      data: { error: 'not_in_channel' },
    });
    await expect(client.chat.postMessage({ channel: 'C9', text: 'x' })).rejects.toMatchObject({
      data: { error: 'channel_not_found' },
    });
    const blocks = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x', blocks })).rejects.toMatchObject({
      data: { error: 'invalid_blocks' },
    });
    expect(fake.messages).toHaveLength(0);
  });

  it('scripts a 429 with Retry-After, then answers normally', async () => {
    fake.fail('chat.postMessage', { retryAfter: 2 });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      retryAfter: 2,
    });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).resolves.toMatchObject({ ok: true });
    expect(fake.callsOf('chat.postMessage').map((call) => call.status)).toEqual([429, 200]);
  });

  it('takes at most five posts per response_url', async () => {
    const { id, url } = fake.newResponseUrl();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await fetch(url, { method: 'POST', body: JSON.stringify({ text: `n${i}` }) });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    expect(fake.responsesTo(id)).toHaveLength(6);
  });

  it('opens a Socket Mode connection with the app token, says hello and receives acks', async () => {
    const socket = new SocketModeClient({
      appToken: fake.appToken,
      clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
      autoReconnectEnabled: false,
    });
    socket.on('slash_commands', async ({ ack }: { ack: (body: object) => Promise<void> }) => {
      await ack({ text: 'got it' });
    });
    await socket.start();
    expect(fake.socketConnected).toBe(true);
    const { payload } = fake.slashCommandPayload({ text: 'help', userId: 'U1', channelId: 'C1' });
    await expect(fake.sendEnvelope('slash_commands', payload)).resolves.toEqual({ text: 'got it' });
    await socket.disconnect();
    expect(fake.callsOf('apps.connections.open')[0]?.token).toBe(fake.appToken);
  });
});
