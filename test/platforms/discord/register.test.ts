import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../../commands/index.ts';
import { defineCommand } from '../../../src/bot/command.ts';
import { CommandDeclarationError, run, toDiscordCommands } from '../../../src/platforms/discord/register.ts';
import { commandProblems } from '../../fakes/discord/validate.ts';
import { FakeDiscord } from '../../fakes/discord.ts';

const noop = async () => ({ cards: [] });

describe('toDiscordCommands', () => {
  it('maps every command of commands/ to JSON Discord accepts', () => {
    const json = toDiscordCommands(commands);
    expect(commandProblems(json)).toEqual([]);
    expect(json.map((c) => c.name)).toEqual(commands.map((c) => c.name));
    for (const [i, command] of commands.entries()) {
      expect(json[i]!.contexts).toEqual([0]);
      expect(json[i]!.dm_permission).toBe(false);
      expect(json[i]!.default_member_permissions).toBe(command.adminOnly ? '32' : undefined);
    }
    expect(commands.some((c) => c.adminOnly)).toBe(true);
  });

  it('maps types, choices, bounds, autocomplete and channel types, with required options first', () => {
    const [json] = toDiscordCommands([
      defineCommand({
        name: 'demo',
        description: 'x'.repeat(150),
        options: {
          game: { type: 'string', description: 'Game', autocomplete: 'game', max: 50 },
          when: {
            type: 'string',
            description: 'When',
            choices: [{ name: 'Upcoming', value: 'upcoming' }],
            required: true,
          },
          limit: { type: 'integer', description: 'How many', min: 1, max: 25 },
          ratio: { type: 'number', description: 'Ratio', min: 0.5 },
          flag: { type: 'boolean', description: 'Flag' },
          where: { type: 'channel', description: 'Channel' },
          ping: { type: 'role', description: 'Role' },
        },
        run: noop,
      }),
    ]);
    expect(json!.description).toHaveLength(100);
    expect(json!.default_member_permissions).toBeUndefined();
    expect(json!.options).toEqual([
      {
        type: 3,
        name: 'when',
        description: 'When',
        required: true,
        choices: [{ name: 'Upcoming', value: 'upcoming' }],
      },
      { type: 3, name: 'game', description: 'Game', required: false, autocomplete: true, max_length: 50 },
      { type: 4, name: 'limit', description: 'How many', required: false, min_value: 1, max_value: 25 },
      { type: 10, name: 'ratio', description: 'Ratio', required: false, min_value: 0.5 },
      { type: 5, name: 'flag', description: 'Flag', required: false },
      { type: 7, name: 'where', description: 'Channel', required: false, channel_types: [0, 5] },
      { type: 8, name: 'ping', description: 'Role', required: false },
    ]);
  });

  it('maps subcommands with their own options, and admin-only to Manage Server', () => {
    const [json] = toDiscordCommands([
      defineCommand({
        name: 'admin',
        description: 'Admin',
        adminOnly: true,
        subcommands: {
          show: { description: 'Show', run: noop },
          set: {
            description: 'Set',
            options: { value: { type: 'integer', description: 'Value', required: true, min: 0 } },
            run: noop,
          },
        },
      }),
    ]);
    expect(json!.default_member_permissions).toBe('32');
    expect(json!.options).toEqual([
      { type: 1, name: 'show', description: 'Show', options: [] },
      {
        type: 1,
        name: 'set',
        description: 'Set',
        options: [{ type: 4, name: 'value', description: 'Value', required: true, min_value: 0 }],
      },
    ]);
  });

  it('refuses a name Discord would refuse, saying which', () => {
    const bad = defineCommand({ name: 'Bad Name', description: 'x', run: noop });
    expect(() => toDiscordCommands([bad])).toThrow(CommandDeclarationError);
    expect(() => toDiscordCommands([bad])).toThrow(/Bad Name/);
  });
});

describe('matchday register', () => {
  let fake: FakeDiscord;
  const guildId = '100000000000000001';
  const lines: string[] = [];
  const io = (env: Record<string, string>) => ({
    env,
    out: (t: string) => void lines.push(`out:${t}`),
    err: (t: string) => void lines.push(`err:${t}`),
  });

  beforeAll(async () => {
    fake = await FakeDiscord.start({
      guilds: [{ id: guildId, name: 'Hub', channels: [{ id: '200000000000000001', name: 'general' }] }],
    });
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => {
    lines.length = 0;
    process.exitCode = undefined;
  });

  const env = () => ({ DISCORD_TOKEN: fake.token, DISCORD_APP_ID: fake.appId, DISCORD_API_URL: fake.apiUrl });

  it('registers every command in one guild', async () => {
    await run(['--guild', guildId], io(env()));
    expect(process.exitCode).toBeUndefined();
    expect(fake.commands.get(guildId)?.map((c) => c.name)).toEqual(commands.map((c) => c.name));
    expect(lines.join('')).toContain(`Registered ${commands.length} commands guild ${guildId}`);
    expect(fake.requestsTo('PUT', `/applications/${fake.appId}/guilds/${guildId}/commands`)).toHaveLength(1);
  });

  it('registers globally, finding the application id when DISCORD_APP_ID is not set', async () => {
    await run([], io({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl }));
    expect(process.exitCode).toBeUndefined();
    expect(fake.commands.get('global')).toHaveLength(commands.length);
    expect(lines.join('')).toContain('globally');
  });

  it('says clearly when the token is refused, without repeating it', async () => {
    const token = 'definitely-wrong-token-0123456789';
    await run([], io({ ...env(), DISCORD_TOKEN: token }));
    expect(process.exitCode).toBe(1);
    expect(lines.join('')).toMatch(/refused DISCORD_TOKEN/);
    expect(lines.join('')).not.toContain(token);
  });

  it('says to invite the bot first when it is not in the guild', async () => {
    await run(['--guild', '100000000000000999'], io(env()));
    expect(process.exitCode).toBe(1);
    expect(lines.join('')).toMatch(/Invite the bot/);
  });

  it('refuses a malformed --guild before any request', async () => {
    const before = fake.requests.length;
    await run(['--guild', 'my-server'], io(env()));
    expect(process.exitCode).toBe(2);
    expect(lines.join('')).toMatch(/--guild needs a server id/);
    expect(fake.requests.length).toBe(before);
  });

  it('names the missing variable when DISCORD_TOKEN is not set', async () => {
    await run([], io({}));
    expect(process.exitCode).toBe(1);
    expect(lines.join('')).toMatch(/DISCORD_TOKEN/);
  });
});
