/**
 * `matchday register [--guild <id>]`: registers every command of `commands/` as Discord slash
 * commands over REST, globally or in one guild (a guild's commands appear at once, which suits a
 * test server). One bulk overwrite: commands removed from `commands/` disappear from Discord too.
 *
 * Every command is guild-only (`contexts: [0]`): a tenant is a server, and a DM has none.
 * Admin-only commands carry `default_member_permissions` = Manage Server, so Discord hides them
 * from other members; the bot re-checks the member's permissions on every call anyway.
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  ChannelType,
  DiscordAPIError,
  InteractionContextType,
  PermissionFlagsBits,
  REST,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  Routes,
} from 'discord.js';
import type { AnyCommand, OptionDef, OptionsDef, OptionType } from '../../bot/command.ts';
import { ConfigError, loadConfig } from '../../config.ts';

type CommandJson = RESTPostAPIChatInputApplicationCommandsJSONBody;
type OptionJson = NonNullable<CommandJson['options']>[number];

const OPTION_TYPES: Record<OptionType, ApplicationCommandOptionType> = {
  string: ApplicationCommandOptionType.String,
  integer: ApplicationCommandOptionType.Integer,
  number: ApplicationCommandOptionType.Number,
  boolean: ApplicationCommandOptionType.Boolean,
  channel: ApplicationCommandOptionType.Channel,
  role: ApplicationCommandOptionType.Role,
};

/** Manage Server (0x20), as the decimal string Discord expects. */
export const MANAGE_GUILD = PermissionFlagsBits.ManageGuild.toString();

const NAME = /^[-_a-z0-9]{1,32}$/;
const DESCRIPTION_MAX = 100;

/** A declaration that Discord would refuse; says which and why, before any request is made. */
export class CommandDeclarationError extends Error {
  override name = 'CommandDeclarationError';
}

function checkName(name: string, where: string): string {
  if (!NAME.test(name)) {
    throw new CommandDeclarationError(
      `${where}: "${name}" is not a valid Discord name (1-32 characters: lower-case letters, digits, - and _).`,
    );
  }
  return name;
}

function description(text: string): string {
  const trimmed = text.trim() || '-';
  return trimmed.length <= DESCRIPTION_MAX ? trimmed : `${trimmed.slice(0, DESCRIPTION_MAX - 1)}…`;
}

function optionJson(name: string, def: OptionDef, where: string): OptionJson {
  const option: Record<string, unknown> = {
    type: OPTION_TYPES[def.type],
    name: checkName(name, where),
    description: description(def.description),
    required: def.required === true,
  };
  if (def.choices && def.choices.length > 0) {
    if (def.choices.length > 25)
      throw new CommandDeclarationError(
        `${where}: ${name} has ${def.choices.length} choices; Discord allows 25 (use autocomplete).`,
      );
    option.choices = def.choices.map((choice) => ({
      name: description(choice.name),
      value: def.type === 'string' ? String(choice.value) : Number(choice.value),
    }));
  } else if (def.autocomplete && (def.type === 'string' || def.type === 'integer' || def.type === 'number')) {
    option.autocomplete = true;
  }
  if (def.type === 'integer' || def.type === 'number') {
    if (def.min !== undefined) option.min_value = def.min;
    if (def.max !== undefined) option.max_value = def.max;
  }
  if (def.type === 'string') {
    if (def.min !== undefined) option.min_length = Math.max(0, Math.min(6000, def.min));
    if (def.max !== undefined) option.max_length = Math.max(1, Math.min(6000, def.max));
  }
  // Notifications go to text and announcement channels; others cannot hold them.
  if (def.type === 'channel') option.channel_types = [ChannelType.GuildText, ChannelType.GuildAnnouncement];
  return option as unknown as OptionJson;
}

/** Options in declaration order, except that Discord requires the required ones first. */
function optionsJson(options: OptionsDef | undefined, where: string): OptionJson[] {
  const entries = Object.entries(options ?? {});
  if (entries.length > 25)
    throw new CommandDeclarationError(`${where}: ${entries.length} options; Discord allows 25.`);
  const json = entries.map(([name, def]) => optionJson(name, def, where));
  return [
    ...json.filter((o) => (o as { required?: boolean }).required),
    ...json.filter((o) => !(o as { required?: boolean }).required),
  ];
}

/** Maps the command declarations to Discord's application command JSON (pure). */
export function toDiscordCommands(commands: readonly AnyCommand[]): CommandJson[] {
  return commands.map((command) => {
    const where = `/${command.name}`;
    const json: CommandJson = {
      type: ApplicationCommandType.ChatInput,
      name: checkName(command.name, where),
      description: description(command.description),
      contexts: [InteractionContextType.Guild],
      integration_types: [ApplicationIntegrationType.GuildInstall],
      // Deprecated by `contexts`, still honoured by older clients.
      dm_permission: false,
    };
    if (command.adminOnly) json.default_member_permissions = MANAGE_GUILD;
    if (command.subcommands) {
      const subs = Object.entries(command.subcommands);
      if (subs.length > 25)
        throw new CommandDeclarationError(`${where}: ${subs.length} subcommands; Discord allows 25.`);
      json.options = subs.map(([name, sub]) => ({
        type: ApplicationCommandOptionType.Subcommand,
        name: checkName(name, where),
        description: description(sub.description),
        options: optionsJson(sub.options, `${where} ${name}`) as never,
      }));
    } else {
      const options = optionsJson(command.options as OptionsDef | undefined, where);
      if (options.length > 0) json.options = options;
    }
    return json;
  });
}

interface RegisterOptions {
  token: string;
  /** The application id; fetched from `/applications/@me` when absent. */
  appId?: string;
  /** Discord's API base, e.g. `https://discord.com/api` (the default) or a test fake. */
  apiUrl?: string;
  /** Register in this guild only (instant); otherwise globally. */
  guildId?: string;
  commands: readonly AnyCommand[];
}

/** Registers the commands with one bulk overwrite and returns the names Discord stored. */
export async function registerCommands(
  options: RegisterOptions,
): Promise<{ names: string[]; scope: string; appId: string }> {
  const body = toDiscordCommands(options.commands);
  const rest = new REST({
    ...(options.apiUrl ? { api: options.apiUrl } : {}),
    retries: 1,
    timeout: 15_000,
  }).setToken(options.token);
  const appId = options.appId ?? ((await rest.get(Routes.currentApplication())) as { id: string }).id;
  const route = options.guildId
    ? Routes.applicationGuildCommands(appId, options.guildId)
    : Routes.applicationCommands(appId);
  const stored = (await rest.put(route, { body })) as { name: string }[];
  return {
    names: stored.map((c) => c.name),
    scope: options.guildId ? `guild ${options.guildId}` : 'globally',
    appId,
  };
}

function explain(error: unknown, guildId: string | undefined): string {
  if (error instanceof DiscordAPIError || (error as { status?: number })?.status !== undefined) {
    const { status, code } = error as { status: number; code: number | string };
    if (status === 401)
      return 'Discord refused DISCORD_TOKEN (401). Copy the bot token again from the developer portal (Bot > Reset Token).';
    if (code === 50001 || status === 403)
      return guildId
        ? `Discord says Matchday has no access to guild ${guildId}. Invite the bot to that server first (see the README's invite link), then run this again.`
        : 'Discord refused the registration (403). Check that DISCORD_APP_ID belongs to the bot token.';
    if (code === 50035) return `Discord refused the command declarations: ${(error as Error).message}`;
    return `Discord answered ${status}${code ? ` (code ${code})` : ''}: ${(error as Error).message}`;
  }
  if (error instanceof CommandDeclarationError) return error.message;
  return `Could not reach Discord: ${(error as Error)?.message ?? String(error)}`;
}

const USAGE =
  'Usage: matchday register [--guild <server id>]\n  Registers the slash commands globally, or in one server (appear at once).\n';

/**
 * The CLI entry (`npx matchday register [--guild <id>]`). Reads DISCORD_TOKEN, DISCORD_APP_ID and
 * DISCORD_API_URL through the config; prints a one-line result or a clear error (exit code 1).
 */
export async function run(
  argv: string[],
  io: {
    env?: Record<string, string | undefined>;
    out?: (text: string) => void;
    err?: (text: string) => void;
  } = {},
): Promise<void> {
  const out = io.out ?? ((text: string) => void process.stdout.write(text));
  const err = io.err ?? ((text: string) => void process.stderr.write(text));
  let guildId: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      out(USAGE);
      return;
    }
    if (arg === '--guild' || arg?.startsWith('--guild=')) {
      const value = arg === '--guild' ? argv[++i] : arg.slice('--guild='.length);
      if (!value || !/^\d{15,21}$/.test(value)) {
        err(
          `--guild needs a server id (a number such as 123456789012345678; right-click the server > Copy Server ID), got "${value ?? ''}".\n${USAGE}`,
        );
        process.exitCode = 2;
        return;
      }
      guildId = value;
      continue;
    }
    err(`Unknown argument "${arg}".\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  try {
    const config = loadConfig(io.env);
    if (!config.discord)
      throw new ConfigError('DISCORD_TOKEN', 'must be set to register commands with Discord');
    const { commands } = await import('../../../commands/index.ts');
    const result = await registerCommands({
      token: config.discord.token,
      ...(config.discord.appId ? { appId: config.discord.appId } : {}),
      ...(config.discord.apiUrl ? { apiUrl: config.discord.apiUrl } : {}),
      ...(guildId ? { guildId } : {}),
      commands,
    });
    out(
      `Registered ${result.names.length} commands ${result.scope}: ${result.names.map((n) => `/${n}`).join(', ')}\n`,
    );
  } catch (error) {
    err(`${error instanceof ConfigError ? error.message : explain(error, guildId)}\n`);
    process.exitCode = 1;
  }
}
