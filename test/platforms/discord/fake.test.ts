/**
 * The loopback fake itself, driven by the real discord.js client: if these pass, the end-to-end
 * tests of the bot exercise discord.js for real.
 */
import { Client, Events, GatewayIntentBits, MessageFlags, Routes } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../fakes/discord.ts';

const guilds = [
  {
    id: '100000000000000001',
    name: 'Esports Hub',
    channels: [
      { id: '200000000000000001', name: 'general' },
      { id: '200000000000000002', name: 'locked', denyBot: ['SEND_MESSAGES' as const] },
    ],
  },
];

let fake: FakeDiscord | undefined;
let client: Client | undefined;

afterEach(async () => {
  if (client) await Promise.race([client.destroy(), new Promise((r) => setTimeout(r, 1000))]);
  client = undefined;
  await fake?.close();
  fake = undefined;
});

async function connect(intents: number[] = [GatewayIntentBits.Guilds]): Promise<Client> {
  fake = await FakeDiscord.start({ guilds });
  client = new Client({ intents, rest: { api: fake.apiUrl, retries: 0, timeout: 2000 } });
  const ready = new Promise<void>((resolve) => client!.once(Events.ClientReady, () => resolve()));
  await client.login(fake.token);
  await ready;
  return client;
}

describe('FakeDiscord with the real discord.js client', () => {
  it('brings the client to ready with the seeded guild and channels in cache', async () => {
    const c = await connect();
    expect(c.user?.id).toBe(fake!.botId);
    expect(c.application?.id).toBe(fake!.appId);
    expect(
      c.guilds.cache
        .get(guilds[0]!.id)
        ?.channels.cache.map((ch) => ch.name)
        .sort(),
    ).toEqual(['general', 'locked']);
    expect(fake!.identifies[0].token).toBe('[redacted]');
    expect(JSON.stringify(fake!.frames)).not.toContain(fake!.token);
  });

  it('refuses privileged intents like Discord does (close 4014)', async () => {
    fake = await FakeDiscord.start({ guilds });
    const c = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.MessageContent],
      rest: { api: fake.apiUrl, retries: 0 },
    });
    await expect(c.login(fake.token)).rejects.toThrow(/intent/i);
    await c.destroy();
  });

  it('answers an interaction, then records the reply with its ephemeral flag', async () => {
    const c = await connect();
    c.on(Events.InteractionCreate, async (interaction) => {
      if (interaction.isChatInputCommand()) {
        await interaction.reply({
          content: `hi ${interaction.options.getString('name')}`,
          flags: MessageFlags.Ephemeral,
        });
      }
    });
    const result = await fake!.answer({ command: 'hello', options: { name: 'Ann' } });
    expect(result.callbackTypes).toEqual([4]);
    expect(result.message?.content).toBe('hi Ann');
    expect(result.ephemeral).toBe(true);
  });

  it('supports defer then editReply, and refuses a second acknowledgement', async () => {
    const c = await connect();
    const errors: unknown[] = [];
    c.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      await interaction.editReply({ content: 'done' });
      try {
        await c.rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
          body: { type: 4, data: { content: 'again' } },
          auth: false,
        });
      } catch (error) {
        errors.push(error);
      }
    });
    const result = await fake!.answer({ command: 'slow' });
    expect(result.callbackTypes).toEqual([5]);
    expect(result.message?.content).toBe('done');
    await fake!.waitFor(() => errors.length > 0);
    expect(String((errors[0] as Error).message)).toMatch(/already been acknowledged/);
  });

  it('answers autocomplete with choices and rejects more than 25', async () => {
    const c = await connect();
    c.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isAutocomplete()) return;
      const focused = interaction.options.getFocused();
      const count = focused === 'many' ? 26 : 2;
      await interaction
        .respond(Array.from({ length: count }, (_, i) => ({ name: `${focused}${i}`, value: `${i}` })))
        .catch(() => {});
    });
    const ok = await fake!.answer({ command: 'team', options: { name: 'fn' }, focused: 'name' });
    expect(ok.choices).toEqual([
      { name: 'fn0', value: '0' },
      { name: 'fn1', value: '1' },
    ]);
    const id = fake!.sendInteraction({ command: 'team', options: { name: 'many' }, focused: 'name' });
    await fake!.waitFor(() => fake!.requests.some((r) => r.path.includes(`/interactions/${id}/`)));
    expect(fake!.interactionResult(id).choices).toBeUndefined();
    expect(fake!.requests.find((r) => r.path.includes(`/interactions/${id}/`))?.status).toBe(400);
  });

  it('dedupes a post with the same nonce and enforce_nonce', async () => {
    const c = await connect();
    const channel = guilds[0]!.channels[0]!.id;
    const body = { content: 'one', nonce: 'md-abc', enforce_nonce: true, allowed_mentions: { parse: [] } };
    const first = (await c.rest.post(Routes.channelMessages(channel), { body })) as { id: string };
    const second = (await c.rest.post(Routes.channelMessages(channel), { body })) as { id: string };
    expect(second.id).toBe(first.id);
    expect(fake!.messages(channel)).toHaveLength(1);
    await c.rest.post(Routes.channelMessages(channel), { body: { ...body, nonce: 'md-other' } });
    expect(fake!.messages(channel)).toHaveLength(2);
  });

  it('waits out a scripted 429 and creates the message once', async () => {
    const c = await connect();
    const channel = guilds[0]!.channels[0]!.id;
    fake!.fail({ method: 'POST', path: `/channels/${channel}/messages`, status: 429, retryAfter: 0.05 });
    await c.rest.post(Routes.channelMessages(channel), {
      body: { content: 'x', allowed_mentions: { parse: [] } },
    });
    expect(fake!.requestsTo('POST', `/channels/${channel}/messages`).map((r) => r.status)).toEqual([
      429, 200,
    ]);
    expect(fake!.messages(channel)).toHaveLength(1);
  });

  it('creates the message before a scripted 500 (afterEffect)', async () => {
    const c = await connect();
    const channel = guilds[0]!.channels[0]!.id;
    fake!.fail({ method: 'POST', path: `/channels/${channel}/messages`, status: 500, afterEffect: true });
    await expect(c.rest.post(Routes.channelMessages(channel), { body: { content: 'x' } })).rejects.toThrow();
    expect(fake!.messages(channel)).toHaveLength(1);
  });

  it('answers 403 50013 in a channel where the bot cannot send, 404 10003 for an unknown one', async () => {
    const c = await connect();
    await expect(
      c.rest.post(Routes.channelMessages('200000000000000002'), { body: { content: 'x' } }),
    ).rejects.toMatchObject({ code: 50013, status: 403 });
    await expect(
      c.rest.post(Routes.channelMessages('299999999999999999'), { body: { content: 'x' } }),
    ).rejects.toMatchObject({ code: 10003, status: 404 });
  });

  it('answers 400 where Discord would: content over 2000, too many fields, an empty message', async () => {
    const c = await connect();
    const channel = guilds[0]!.channels[0]!.id;
    await expect(
      c.rest.post(Routes.channelMessages(channel), { body: { content: 'x'.repeat(2001) } }),
    ).rejects.toMatchObject({ code: 50035 });
    const fields = Array.from({ length: 26 }, (_, i) => ({ name: `n${i}`, value: 'v' }));
    await expect(
      c.rest.post(Routes.channelMessages(channel), { body: { embeds: [{ title: 't', fields }] } }),
    ).rejects.toMatchObject({ code: 50035 });
    await expect(
      c.rest.post(Routes.channelMessages(channel), { body: { content: '' } }),
    ).rejects.toMatchObject({ code: 50035 });
    expect(fake!.messages(channel)).toHaveLength(0);
  });

  it('records who a message would ping: everything without allowed_mentions, nothing with parse []', async () => {
    const c = await connect();
    const channel = guilds[0]!.channels[0]!.id;
    await c.rest.post(Routes.channelMessages(channel), { body: { content: '@everyone <@&5>' } });
    await c.rest.post(Routes.channelMessages(channel), {
      body: { content: '@everyone <@&5>', allowed_mentions: { parse: [] } },
    });
    await c.rest.post(Routes.channelMessages(channel), {
      body: { content: '@everyone <@&5> <@&6>', allowed_mentions: { parse: [], roles: ['6'] } },
    });
    expect(fake!.messages(channel).map((m) => m.pinged)).toEqual([
      { everyone: true, roles: ['5'], users: [] },
      { everyone: false, roles: [], users: [] },
      { everyone: false, roles: ['6'], users: [] },
    ]);
  });

  it('dispatches GUILD_DELETE and CHANNEL_DELETE to the client', async () => {
    const c = await connect();
    const seen: string[] = [];
    c.on(Events.ChannelDelete, (channel) => void seen.push(`channel:${channel.id}`));
    c.on(Events.GuildDelete, (guild) => void seen.push(`guild:${guild.id}`));
    fake!.deleteChannel('200000000000000002');
    await fake!.waitFor(() => seen.length === 1);
    fake!.removeGuild(guilds[0]!.id);
    await fake!.waitFor(() => seen.length === 2, 2000);
    expect(seen).toEqual(['channel:200000000000000002', `guild:${guilds[0]!.id}`]);
  });
});
