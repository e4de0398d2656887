/**
 * Matchday on Discord end to end: the real discord.js client, started by `startDiscord` on an app
 * from `createApp` (embedded local service, frozen clock, SQLite store), driven through the
 * loopback fake's gateway with INTERACTION_CREATE, answering over REST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../../commands/index.ts';
import { defineCommand } from '../../../src/bot/command.ts';
import { type Reply, replyText } from '../../../src/bot/reply.ts';
import type { CommandCall } from '../../../src/bot/runtime.ts';
import { renderReply } from '../../../src/platforms/discord/render.ts';
import { type InteractionInput, MEMBER_PERMISSIONS, PERMISSIONS } from '../../fakes/discord.ts';
import { CHANNELS, GUILD, type Rig, startRig } from './rig.ts';

const AT = new Date('2026-03-18T15:20:00.000Z');
const ADMIN = MEMBER_PERMISSIONS | PERMISSIONS.MANAGE_GUILD;
const FAN = { id: '700000000000000001', username: 'fan' };
const BOSS = { id: '700000000000000002', username: 'boss' };

/** Not a service command, but slow: the safety timer must defer it. */
const slowpoke = defineCommand({
  name: 'slowpoke',
  description: 'Answers after a while',
  async run() {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return { cards: [{ title: 'Finally' }] };
  },
});

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ at: AT, commands: [...commands, slowpoke], deferAfterMs: 700 });
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

/** What the runtime answers to the same call, rendered: the content the bot must have sent. */
async function expected(
  input: InteractionInput,
  isAdmin = false,
): Promise<{ reply: Reply; embeds: unknown[] }> {
  const call: CommandCall = {
    platform: 'discord',
    tenantKey: GUILD,
    user: { id: input.user?.id ?? FAN.id, name: input.user?.username ?? FAN.username, isAdmin },
    channel: { id: input.channelId ?? CHANNELS.general },
    command: input.command,
    ...(input.subcommand ? { subcommand: input.subcommand } : {}),
    args: input.options ?? {},
  };
  const reply = await rig.app.runtime.execute(call);
  return { reply, embeds: renderReply(reply)[0]!.embeds };
}

function pick(source: 'team' | 'tournament' | 'player', text = ''): string {
  const choice = rig.app.names.search(source, text, 5)[0];
  if (!choice) throw new Error(`the world has no ${source} to pick`);
  return String(choice.value);
}

describe('Matchday on Discord (end to end)', () => {
  it('connects with the Guilds and GuildScheduledEvents intents only and becomes ready', () => {
    expect(rig.bot.client.isReady()).toBe(true);
    expect(rig.bot.client.user?.id).toBe(rig.fake.botId);
    expect(rig.fake.identifies).toHaveLength(1);
    expect(rig.fake.identifies[0].intents).toBe(1 | (1 << 16));
    expect(rig.fake.commands.get(GUILD)?.map((c) => c.name)).toContain('settings');
  });

  it('answers every command through INTERACTION_CREATE with the content the runtime produces', async () => {
    // Players load on first use; loaded here so autocomplete has one to pick.
    await rig.app.names.ensurePlayers();
    const cases: InteractionInput[] = [
      { command: 'series' },
      { command: 'series', options: { when: 'recent', limit: 3 } },
      { command: 'live' },
      { command: 'schedule' },
      { command: 'team', options: { team: pick('team') } },
      { command: 'player', options: { player: pick('player') } },
      { command: 'standings', options: { tournament: pick('tournament') } },
      { command: 'casters' },
      { command: 'tournament', options: { tournament: pick('tournament') } },
      { command: 'follow', subcommand: 'list' },
      { command: 'me', subcommand: 'list' },
      { command: 'help' },
      { command: 'help', options: { command: 'series' } },
    ];
    const seen = new Set<string>();
    for (const input of cases) {
      const result = await rig.fake.answer({ ...input, user: FAN });
      const want = await expected(input);
      seen.add(input.command);
      expect(result.message, `/${input.command}`).toBeDefined();
      expect(result.message!.embeds, `/${input.command}`).toEqual(want.embeds);
      expect(result.ephemeral, `/${input.command}`).toBe(want.reply.ephemeral === true);
      expect(replyText(want.reply).length).toBeGreaterThan(0);
    }
    const admin = await rig.fake.answer({
      command: 'settings',
      subcommand: 'show',
      user: BOSS,
      permissions: ADMIN,
    });
    seen.add('settings');
    expect(admin.ephemeral).toBe(true);
    expect(admin.message!.embeds[0].title).toMatch(/settings/i);
    const status = await rig.fake.answer({ command: 'status', user: BOSS, permissions: ADMIN });
    seen.add('status');
    expect(status.ephemeral).toBe(true);
    expect(status.message!.embeds[0].title).toMatch(/Matchday status/);
    expect([...seen].sort()).toEqual(commands.map((c) => c.name).sort());
  });

  it('defers commands that use the service, then edits the answer in, even when the service is slow', async () => {
    const service = rig.app.service!;
    service.faults.latencyMs = 700;
    try {
      const result = await rig.fake.answer(
        { command: 'series', options: { when: 'upcoming', limit: 7 }, user: FAN },
        10_000,
      );
      expect(result.callbackTypes).toEqual([5]);
      expect(result.message!.embeds.length).toBeGreaterThan(0);
      expect(result.message!.flags & 128).toBe(0); // no longer "thinking"
    } finally {
      service.faults.latencyMs = 0;
    }
    const want = await expected({ command: 'series', options: { when: 'upcoming', limit: 7 } });
    const last = rig.fake
      .allMessages()
      .filter((m) => m.viaInteraction)
      .at(-1)!;
    expect(last.embeds).toEqual(want.embeds);
  });

  it('answers a quick command directly, and defers a slow one on the safety timer', async () => {
    const quick = await rig.fake.answer({ command: 'help', user: FAN });
    expect(quick.callbackTypes).toEqual([4]);
    const slow = await rig.fake.answer({ command: 'slowpoke', user: FAN });
    expect(slow.callbackTypes).toEqual([5]);
    expect(slow.message!.embeds[0].title).toBe('Finally');
  });

  it('answers autocomplete from the name index without asking the service', async () => {
    const before = rig.app.service!.requests;
    const result = await rig.fake.answer({
      command: 'team',
      options: { team: 'a' },
      focused: 'team',
      user: FAN,
    });
    expect(rig.app.service!.requests).toBe(before);
    expect(result.callbackTypes).toEqual([8]);
    expect(result.choices!.length).toBeGreaterThan(0);
    expect(result.choices!.length).toBeLessThanOrEqual(25);
    for (const choice of result.choices!) expect(choice.name.length).toBeLessThanOrEqual(100);
    expect(result.choices).toEqual(
      rig.app.runtime.autocomplete('team', 'a').map((c) => ({ name: c.name, value: String(c.value) })),
    );
  });

  it('answers autocomplete inside a subcommand (time zones) and an option without a source with nothing', async () => {
    const zones = await rig.fake.answer({
      command: 'settings',
      subcommand: 'timezone',
      options: { zone: 'berl' },
      focused: 'zone',
      user: BOSS,
      permissions: ADMIN,
    });
    expect(zones.choices?.map((c) => c.value)).toContain('Europe/Berlin');
    const none = await rig.fake.answer({
      command: 'help',
      options: { command: 'se' },
      focused: 'command',
      user: FAN,
    });
    expect(none.choices).toEqual([]);
  });

  it('refuses an admin command from a member without Manage Server, whatever the registration says', async () => {
    const before = await rig.app.tenants.get(`discord:${GUILD}`);
    const result = await rig.fake.answer({
      command: 'settings',
      subcommand: 'tiers',
      options: { tiers: '1' },
      user: FAN,
    });
    expect(result.ephemeral).toBe(true);
    expect(JSON.stringify(result.message!.embeds)).toMatch(/Manage Server/);
    expect((await rig.app.tenants.get(`discord:${GUILD}`)).tiers).toEqual(before.tiers);
    const allowed = await rig.fake.answer({
      command: 'settings',
      subcommand: 'tiers',
      options: { tiers: '1,2,3' },
      user: BOSS,
      permissions: ADMIN,
    });
    expect(JSON.stringify(allowed.message!.embeds)).not.toMatch(/Manage Server/);
    expect((await rig.app.tenants.get(`discord:${GUILD}`)).tiers).toEqual([1, 2, 3]);
  });

  it('makes user errors ephemeral, replacing a public deferral', async () => {
    const result = await rig.fake.answer({
      command: 'team',
      options: { team: 'zzzz-no-such-team-qqqq' },
      user: FAN,
    });
    expect(result.callbackTypes).toEqual([5]);
    expect(result.deletedOriginal).toBe(true);
    expect(result.ephemeral).toBe(true);
    expect(result.message!.embeds[0].title).toBe('Not quite');
  });

  it('checks that Matchday can view, send and embed in a channel before subscribing it', async () => {
    const add = (channel: string) =>
      rig.fake.answer({
        command: 'settings',
        subcommand: 'channel-add',
        options: { channel },
        user: BOSS,
        permissions: ADMIN,
      });
    const locked = await add(CHANNELS.locked);
    expect(JSON.stringify(locked.message!.embeds)).toMatch(/Send Messages/);
    const noEmbeds = await add(CHANNELS.noEmbeds);
    expect(JSON.stringify(noEmbeds.message!.embeds)).toMatch(/Embed Links/);
    expect(JSON.stringify(noEmbeds.message!.embeds)).not.toMatch(/Send Messages/);
    const hidden = await add(CHANNELS.hidden);
    expect(JSON.stringify(hidden.message!.embeds)).toMatch(/View Channel/);
    let settings = await rig.app.tenants.get(`discord:${GUILD}`);
    expect(settings.channels.map((c) => c.id)).toEqual([]);
    const ok = await add(CHANNELS.doomed);
    expect(JSON.stringify(ok.message!.embeds)).not.toMatch(/missing/);
    settings = await rig.app.tenants.get(`discord:${GUILD}`);
    expect(settings.channels.map((c) => [c.id, c.name])).toEqual([[CHANNELS.doomed, 'to-be-deleted']]);
  });

  it('turns scheduled events on only when Matchday has Manage Events, and says which permission is missing', async () => {
    const events = (enabled: boolean) =>
      rig.fake.answer({
        command: 'settings',
        subcommand: 'events',
        options: { channel: CHANNELS.doomed, enabled },
        user: BOSS,
        permissions: ADMIN,
      });
    const refused = await events(true);
    expect(refused.ephemeral).toBe(true);
    expect(JSON.stringify(refused.message!.embeds)).toMatch(/missing Manage Events/);
    const channel = async () =>
      (await rig.app.tenants.get(`discord:${GUILD}`)).channels.find((c) => c.id === CHANNELS.doomed);
    expect((await channel())?.events).toBeUndefined();
    rig.fake.grantBot(GUILD, ['MANAGE_EVENTS']);
    await expect
      .poll(() => rig.bot.client.guilds.cache.get(GUILD)?.members.me?.permissions.has('ManageEvents'), {
        timeout: 3000,
      })
      .toBe(true);
    const on = await events(true);
    expect(JSON.stringify(on.message!.embeds)).toMatch(/Scheduled events from #to-be-deleted: on/);
    expect((await channel())?.events).toBe(true);
    const off = await events(false);
    expect(JSON.stringify(off.message!.embeds)).toMatch(/Scheduled events from #to-be-deleted: off/);
    expect((await channel())?.events).toBeUndefined();
    rig.fake.grantBot(GUILD, []);
  });

  it('turns threads on only when Matchday may start threads and post in them, and says what is missing', async () => {
    const threads = (enabled: boolean) =>
      rig.fake.answer({
        command: 'settings',
        subcommand: 'threads',
        options: { channel: CHANNELS.doomed, enabled },
        user: BOSS,
        permissions: ADMIN,
      });
    const channel = async () =>
      (await rig.app.tenants.get(`discord:${GUILD}`)).channels.find((c) => c.id === CHANNELS.doomed);
    const botMay = (flag: 'SendMessagesInThreads' | 'CreatePublicThreads') => {
      const guild = rig.bot.client.guilds.cache.get(GUILD)!;
      return guild.channels.cache.get(CHANNELS.doomed)?.permissionsFor(guild.members.me!)?.has(flag);
    };
    rig.fake.denyBotAndTell(CHANNELS.doomed, ['SEND_MESSAGES_IN_THREADS']);
    await expect.poll(() => botMay('SendMessagesInThreads'), { timeout: 3000 }).toBe(false);
    const refused = await threads(true);
    expect(refused.ephemeral).toBe(true);
    const said = JSON.stringify(refused.message!.embeds);
    expect(said).toMatch(/cannot use threads in that channel: it is missing Send Messages in Threads\./);
    expect(said).toMatch(/Edit Channel > Permissions/);
    expect(said).not.toMatch(/Create Public Threads/);
    expect((await channel())?.threads).toBeUndefined();

    rig.fake.denyBotAndTell(CHANNELS.doomed, []);
    await expect.poll(() => botMay('SendMessagesInThreads'), { timeout: 3000 }).toBe(true);
    expect(botMay('CreatePublicThreads')).toBe(true);
    const on = await threads(true);
    expect(JSON.stringify(on.message!.embeds)).toMatch(/Threads in #to-be-deleted: on/);
    expect((await channel())?.threads).toBe(true);
    // Turning them off needs no permission check.
    rig.fake.denyBotAndTell(CHANNELS.doomed, ['CREATE_PUBLIC_THREADS', 'SEND_MESSAGES_IN_THREADS']);
    await expect.poll(() => botMay('CreatePublicThreads'), { timeout: 3000 }).toBe(false);
    const off = await threads(false);
    expect(JSON.stringify(off.message!.embeds)).toMatch(/Threads in #to-be-deleted: off/);
    expect((await channel())?.threads).toBeUndefined();
    rig.fake.denyBotAndTell(CHANNELS.doomed, []);
  });

  it("refuses another server's channel, even one the bot can post in", async () => {
    const foreign = '200000000000000099';
    rig.fake.addGuild({
      id: '100000000000000099',
      name: 'Other server',
      channels: [{ id: foreign, name: 'elsewhere' }],
    });
    await expect
      .poll(() => rig.bot.client.guilds.cache.has('100000000000000099'), { timeout: 3000 })
      .toBe(true);
    const before = (await rig.app.tenants.get(`discord:${GUILD}`)).channels.map((c) => c.id);
    const refused = await rig.fake.answer({
      command: 'settings',
      subcommand: 'channel-add',
      options: { channel: foreign },
      user: BOSS,
      permissions: ADMIN,
    });
    expect(JSON.stringify(refused.message!.embeds)).toMatch(/cannot post in that channel/);
    const after = (await rig.app.tenants.get(`discord:${GUILD}`)).channels.map((c) => c.id);
    expect(after).toEqual(before);
    expect(after).not.toContain(foreign);
    expect(await rig.app.tenants.list()).not.toContain('discord:100000000000000099');
  });

  it('drops the subscription of a deleted channel', async () => {
    rig.fake.deleteChannel(CHANNELS.doomed);
    await expect
      .poll(async () => (await rig.app.tenants.get(`discord:${GUILD}`)).channels.map((c) => c.id), {
        timeout: 3000,
      })
      .toEqual([]);
  });

  it('answers every interaction even when its first answer fails', async () => {
    rig.fake.fail({ method: 'POST', path: /^\/interactions\/\d+\/[^/]+\/callback$/, status: 500 });
    const result = await rig.fake.answer({ command: 'help', user: FAN });
    expect(result.callbackTypes).toEqual([4]);
    expect(result.ephemeral).toBe(true);
    expect(result.message!.embeds[0].title).toBe('Sorry');
  });

  it('answers a command sent from a DM with a pointer to servers', async () => {
    const result = await rig.fake.answer({
      command: 'help',
      dm: true,
      channelId: '400000000000000001',
      user: FAN,
    });
    expect(result.ephemeral).toBe(true);
    expect(result.message!.embeds[0].description).toMatch(/servers/);
  });

  it("writes the pointer to servers in the reader's Discord language (German client), English for others", async () => {
    const dm = { command: 'help', dm: true, channelId: '400000000000000001', user: FAN };
    const german = await rig.fake.answer({ ...dm, locale: 'de' });
    expect(german.message!.embeds[0].description).toMatch(/funktioniert in Servern/);
    expect(german.message!.embeds[0].description).not.toMatch(/works in servers/);
    const french = await rig.fake.answer({ ...dm, locale: 'fr' });
    expect(french.message!.embeds[0].description).toMatch(/works in servers/);
  });

  it('never lets an interaction answer ping anyone', () => {
    const answers = rig.fake.requests.filter(
      (r) => /\/callback$/.test(r.path) || /^\/webhooks\//.test(r.path),
    );
    expect(answers.length).toBeGreaterThan(10);
    for (const message of rig.fake.allMessages()) {
      expect(message.pinged.everyone).toBe(false);
      expect(message.pinged.roles).toEqual([]);
    }
    for (const request of answers) {
      const body = request.body?.data ?? request.body;
      if (
        request.method === 'DELETE' ||
        body === undefined ||
        request.body?.type === 5 ||
        request.body?.type === 8
      )
        continue;
      expect(body.allowed_mentions?.parse, request.path.replace(/[^/]{30,}/, '[token]')).toEqual([]);
    }
  });

  it('keeps the bot token and interaction tokens out of the logs, and raises no unhandled rejection', () => {
    const logs = rig.logs.join('\n');
    expect(rig.logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(rig.fake.token);
    expect(logs).not.toMatch(/itoken-/);
    expect(rig.rejections).toEqual([]);
  });

  it("purges the server's data when Matchday leaves it", async () => {
    expect(await rig.app.tenants.list()).toContain(`discord:${GUILD}`);
    rig.fake.removeGuild(GUILD);
    await expect
      .poll(async () => rig.app.tenants.list(), { timeout: 3000 })
      .not.toContain(`discord:${GUILD}`);
  });
});
