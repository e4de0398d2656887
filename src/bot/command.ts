/**
 * What a command is: one file in `commands/` that declares its options and returns a neutral reply.
 * Argument types derive from the declaration, so `args.limit` is a `number | undefined` exactly when
 * the `limit` option is an optional integer. Platform adapters read the same declaration to register
 * slash commands (Discord), parse `/matchday` text (Slack) and complete input (terminal).
 */
import type { ScopedEsportsClient } from '../client/types.ts';
import type { Platform } from '../core/tenant-id.ts';
import type { Translate } from '../i18n/i18n.ts';
import type { Reads } from '../reads/reads.ts';
import type { AutocompleteSource, Choice } from './choice.ts';
import type { NameIndex } from './names.ts';
import type { Reply } from './reply.ts';
import type { Settings } from './settings.ts';
import type { ProcessStatus } from './status.ts';
import type { Profile } from './users.ts';

export type OptionType = 'string' | 'integer' | 'number' | 'boolean' | 'channel' | 'role';

export interface OptionDef {
  type: OptionType;
  description: string;
  required?: boolean;
  choices?: readonly Choice[];
  /** Numbers: inclusive bounds. Strings: length bounds. */
  min?: number;
  max?: number;
  autocomplete?: AutocompleteSource;
  /**
   * Typed without its name (terminal, Slack), a bare word that cannot be this option goes on to the
   * next option instead (`/series 1234`: no `when`, so the series). Only where that reads naturally.
   */
  skippable?: boolean;
  /**
   * Typed without its name, only an id (digits) or two sides of "vs" (`/series Iron Pilots vs Nova
   * Krakens`, all the bare words) are taken as this option; by name, any text.
   */
  bareSeries?: boolean;
  /**
   * Typed without its name, bare words are taken as this option only when this accepts them
   * (`/me quiet 22:30 – 7:00`: a range for `from`, not "22:30 –" and "7:00"); when no reading of
   * the bare words fits, all of them go to the first such option, whose command says what is
   * wrong with them. By name, any text.
   */
  bareFits?: (value: string) => boolean;
}

export type OptionsDef = Record<string, OptionDef>;

/** The value of an option type (distributes, so any `OptionType` gives `string | number | boolean`). */
type TypeValue<T extends OptionType> = T extends 'integer' | 'number'
  ? number
  : T extends 'boolean'
    ? boolean
    : string;

/** An option's value: the union of its choices' values where it declares choices, else its type's. */
type ValueOf<D extends OptionDef> = D['choices'] extends readonly Choice<infer V>[]
  ? V
  : TypeValue<D['type']>;

/** The parsed arguments of an options declaration. */
export type ArgsOf<O extends OptionsDef | undefined> = O extends OptionsDef
  ? { [K in keyof O as O[K]['required'] extends true ? K : never]: ValueOf<O[K]> } & {
      [K in keyof O as O[K]['required'] extends true ? never : K]?: ValueOf<O[K]>;
    }
  : Record<string, never>;

export interface Tenant {
  /** `<platform>:<guild or workspace id>`; the store's namespace. */
  id: string;
  platform: Platform;
  settings: Settings;
}

export interface CommandUser {
  id: string;
  name: string;
  /** From the verified payload: Manage Server on Discord, admin or owner on Slack; true in the terminal. */
  isAdmin: boolean;
}

export interface CommandChannel {
  id: string;
  name?: string;
}

/**
 * What a platform can tell a command about a channel before it is chosen for notifications
 * (Discord: view, send, embed links). Absent where the platform has nothing to check.
 */
export interface ChannelCheck {
  check(channelId: string): Promise<{ ok: true; name?: string } | { ok: false; missing: string[] }>;
  /** Discord: may Matchday make the server's scheduled events (Manage Events)? Absent elsewhere. */
  events?(): Promise<{ ok: true } | { ok: false; missing: string[] }>;
  /** Discord: may Matchday start threads in a channel and post in them? Absent elsewhere. */
  threads?(channelId: string): Promise<{ ok: true } | { ok: false; missing: string[] }>;
}

/** One call of a command, as a platform hands it to the runtime (src/bot/runtime.ts). */
export interface CommandCall {
  platform: Platform;
  /** The guild or workspace key; the runtime makes the tenant id (`formatTenantId`). */
  tenantKey: string;
  user: CommandUser;
  channel: CommandChannel;
  command: string;
  subcommand?: string;
  /** Raw: strings from text platforms, typed values from Discord. */
  args: Record<string, unknown>;
  channels?: ChannelCheck;
}

export interface CommandRuntimeServices {
  /** The commands this runtime serves (`/help` lists them). */
  commands: readonly AnyCommand[];
  /** The data client scoped to this call (interactive priority, 2 s deadline). */
  data: ScopedEsportsClient;
  /** Fuzzy name resolution over teams, tournaments, games (the autocomplete index). */
  names: NameIndex;
  /**
   * Applies `change` to the tenant's latest stored settings, atomically: a concurrent change by
   * another admin is kept, and `change` runs again on the newer settings (so it must only compute,
   * never post or ask the service). Throwing `UserError` in it stores nothing. Resolves with what
   * was stored, only once the store accepted it.
   */
  updateSettings(change: (current: Settings) => Settings): Promise<Settings>;
  /**
   * The read model (src/reads/reads.ts): series, casters, stages, live matches and summaries, each
   * answered whole, from the process's picture when it holds the answer, else from the service.
   */
  reads: Reads;
  channels?: ChannelCheck;
  /** The caller's personal profile (src/bot/users.ts), when the process has a profile store. */
  profile?: ProfileAccess;
  /** This tenant's channel calendars (`/settings calendar`), when the process has a profile store. */
  channelCalendars?: ChannelCalendars;
  /** What `/status` says about this process (version, feed age, upstream budget), when it runs one. */
  status?: () => ProcessStatus;
}

/** Calendar tokens of this tenant's notification channels; never another tenant's. */
export interface ChannelCalendars {
  /** The channel's calendar token (a new one when `renew`: the old URL stops working). */
  token(channelId: string, renew?: boolean): Promise<string>;
  /** The calendar URL for a token; undefined when this Matchday serves no calendars. */
  url(token: string): string | undefined;
}

/** The calling person's own profile: stored per user, never another user's. */
export interface ProfileAccess {
  get(): Promise<Profile>;
  /** Applied atomically to the latest stored profile, like `updateSettings`. */
  update(change: (current: Profile) => Profile): Promise<Profile>;
  /** The person's calendar token (a new one when `renew`: the old URL stops working). */
  calendarToken(renew?: boolean): Promise<string>;
  /** The calendar URL for a token; undefined when this Matchday serves no calendars. */
  calendarUrl(token: string): string | undefined;
}

export interface CommandContext<A> extends CommandRuntimeServices {
  args: A;
  /** The chosen subcommand, for commands declared with subcommands (its `run` is the one running). */
  subcommand?: string;
  tenant: Tenant;
  user: CommandUser;
  channel: CommandChannel;
  /** The shared clock's current instant. */
  now: Date;
  /** Writes a message in the tenant's language (`/settings language`). */
  t: Translate;
  /**
   * Lines the runtime shows above the reply, e.g. that a mistyped name was taken as the one it
   * was closest to. Commands (and the name index, through them) add to it.
   */
  notes?: string[];
}

/** What every command declares beside its options or subcommands. */
interface CommandTraits {
  name: string;
  description: string;
  /** Only admins may run it: the runtime refuses anyone else before the command runs. */
  adminOnly?: boolean;
  /**
   * What only admins may do here, for the refusal of an admin-only command or subcommand
   * ("Only admins of this server can <adminAction>."); else the refusal names the command.
   */
  adminAction?: string;
  /**
   * True when the command is about the settings themselves (like /follow): when the store is
   * unavailable it answers with the store's error. Others (and admin-only commands are always about
   * settings) run with default settings and a notice instead.
   */
  usesSettings?: boolean;
  /** True when the answer needs the data service (platforms defer the first answer). */
  usesService?: boolean;
  /** Whether the reply is for everyone in the channel (default) or just the user. */
  ephemeral?: boolean;
}

/** A command without subcommands: its options, and the `run` that answers it. */
export interface OptionsCommand<O extends OptionsDef | undefined = OptionsDef | undefined>
  extends CommandTraits {
  options?: O;
  subcommands?: undefined;
  // A method (not a function property), so any command is an `AnyCommand` with the defaults.
  run(context: CommandContext<ArgsOf<O>>): Promise<Reply>;
}

/** One subcommand: its own options and its own `run`, which receives them typed. */
export interface SubcommandDef<O extends OptionsDef | undefined = OptionsDef | undefined> {
  description: string;
  options?: O;
  /** Only admins may run this subcommand (the others of its command are for everyone). */
  adminOnly?: boolean;
  run(context: CommandContext<ArgsOf<O>>): Promise<Reply>;
}

/** A command with subcommands: each answers with its own `run`; the command has none. */
export interface SubcommandsCommand extends CommandTraits {
  options?: undefined;
  subcommands: Record<string, SubcommandDef>;
  run?: undefined;
}

/** A command of any shape, as the runtime and the platforms list them. */
export type AnyCommand = OptionsCommand | SubcommandsCommand;

/** Declares a command; the identity function exists so that `args` is typed from the declaration. */
export function defineCommand<const O extends OptionsDef | undefined = undefined>(
  definition: OptionsCommand<O>,
): OptionsCommand<O>;
export function defineCommand(definition: SubcommandsCommand): SubcommandsCommand;
export function defineCommand(definition: AnyCommand): AnyCommand {
  return definition;
}

/**
 * Declares a subcommand, so that its `run` receives `args` typed from its own options (choices as
 * the union of their values).
 */
export function defineSubcommand<const O extends OptionsDef | undefined = undefined>(
  definition: SubcommandDef<O>,
): SubcommandDef<O> {
  return definition;
}
