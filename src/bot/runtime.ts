/**
 * The command runtime: every platform turns its input into a `CommandCall` and hands it here. The
 * runtime finds the command, checks admin rights, validates and coerces the arguments against the
 * command's declaration, limits each user's pace, builds the context and runs the command. Errors
 * become replies in one place (`#failed`), by their audience (src/core/errors.ts): a short notice
 * for the user's own mistakes and outages, a configuration notice, or an apology for a bug (logged
 * with its context). `execute` never throws.
 */

import { ServiceError } from '../client/errors.ts';
import type { EsportsClient } from '../client/types.ts';
import type { Clock } from '../core/clock.ts';
import { cmd, MatchdayError, messageText, UserError } from '../core/errors.ts';
import { formatTenantId, type Platform } from '../core/tenant-id.ts';
import { type Translate, translator } from '../i18n/i18n.ts';
import { createReads, type Picture } from '../reads/reads.ts';
import { validateArgs } from './args.ts';
import {
  adminRefusal,
  commandOf,
  type Execution,
  type Outcome,
  refused,
  runCommand,
  SLOW,
  SlidingWindowLimiter,
  tooFast,
  tooSlow,
  withCommands,
  withinDeadline,
  withNotes,
} from './call-checks.ts';
import type { AutocompleteSource, Choice } from './choice.ts';
import type { AnyCommand, ChannelCalendars, CommandCall, CommandContext, Tenant } from './command.ts';
import { storeCause, userMessage } from './error-words.ts';
import type { Logger } from './logger.ts';
import type { NameIndex } from './names.ts';
import { COLOURS, errorReply, messageSpans, type Reply } from './reply.ts';
import { defaultSettings, type Settings } from './settings.ts';
import type { ProcessStatus } from './status.ts';
import { StoreError } from './store-backend.ts';
import type { TenantStore } from './tenants.ts';
import { optionsOf } from './text-args.ts';
import { searchTimeZones } from './time-zones.ts';

import { type UserStore, userKeyOf } from './users.ts';

export type { CommandCall } from './command.ts';

/** The data client: each call gets its own view (`forCaller`), which says whether it served stale data; `stats` tells how many requests wait for the budget. */
export type DataClient = Pick<EsportsClient, 'forCaller'> & Partial<Pick<EsportsClient, 'stats'>>;

export interface RateLimit {
  count: number;
  windowMs: number;
  /** The time source for the limit (real time by default: it paces people, not the simulated world). */
  now?: () => number;
}

export interface RuntimeDeps {
  commands: AnyCommand[];
  client: DataClient;
  /** The name index: autocomplete here, name resolution in the commands (`ctx.names`). */
  names: NameIndex;
  /** The process's picture of the window (the feed), when it runs one: the read model answers from it first. */
  picture?: Picture;
  tenants: TenantStore;
  /** Personal profiles (`/me`); absent: `/me` says personal follows are not available. */
  users?: UserStore;
  /** The public URL of a calendar token, when a calendar endpoint runs. */
  calendarUrl?: (token: string) => string;
  clock: Clock;
  logger: Logger;
  perUserLimit?: RateLimit;
  /** The most one command may take before the user is told the data service is slow. Default 10 s. */
  commandDeadlineMs?: number;
  /** Called after a command saved a tenant's settings (the notifier reloads its subscriptions). */
  onSettingsSaved?: (tenantId: string) => void;
  /** Called after every call with the command's name (`unknown` if none), its outcome and real ms (metrics). */
  onExecuted?: (command: string, outcome: Outcome, ms: number) => void;
  /** This process's state for `/status`. */
  status?: () => ProcessStatus;
}

/** An interactive call's budget for the data service (a user is waiting; platforms allow 3 s). */
export const INTERACTIVE_DEADLINE_MS = 2000;
/**
 * An interactive call's budget while the process is warming up (start-up): long enough to
 * wait out the service's 1 s Retry-After and a queue of the feed's requests, within the command's
 * whole deadline. The platforms have been told the answer is coming (Discord defers at once, Slack
 * acks first).
 */
export const WARMING_DEADLINE_MS = 6000;
/** Requests waiting for the budget in this process above which a warming command no longer waits longer. */
const WARMING_QUEUE_LIMIT = 8;
/** How long one command may run in all (several requests, each with its own deadline) before the user hears why. */
const COMMAND_DEADLINE_MS = 10_000;
/** Discord's autocomplete limits, the tightest of the platforms. */
const AUTOCOMPLETE_LIMIT = 25;
const CHOICE_NAME_MAX = 100;

/**
 * The code a call's outcome carries (metrics, `ask`, benches). The data service's own failures fold
 * into the two codes callers count; every other error keeps its own.
 */
function executionCode(error: MatchdayError): string {
  if (error instanceof ServiceError && error.audience === 'outage') return 'SERVICE_UNAVAILABLE';
  if (error instanceof ServiceError && error.audience === 'configuration') return 'SERVICE_SECRET_REFUSED';
  return error.code;
}

export class Runtime {
  readonly commands: AnyCommand[];
  readonly #deps: RuntimeDeps;
  readonly #limiter: SlidingWindowLimiter;
  readonly #byName: Map<string, AnyCommand>;
  /** Each tenant's language as last read: for the answers given before (or without) reading it. */
  readonly #lastLocale = new Map<string, string>();
  /** Set at shutdown: new calls are answered with a short notice instead of run. */
  closing = false;

  constructor(deps: RuntimeDeps) {
    this.#deps = deps;
    this.commands = deps.commands;
    this.#byName = new Map(deps.commands.map((c) => [c.name, c]));
    const limit = deps.perUserLimit ?? { count: 5, windowMs: 10_000 };
    this.#limiter = new SlidingWindowLimiter(limit.count, limit.windowMs, limit.now);
  }

  find(name: string): AnyCommand | undefined {
    return this.#byName.get(name.replace(/^\//, '').toLowerCase());
  }

  /** Runs a call and returns the reply to show. Never throws. */
  async execute(call: CommandCall): Promise<Reply> {
    return (await this.run(call)).reply;
  }

  /** Like `execute`, with how the call ended. Never throws. */
  async run(call: CommandCall): Promise<Execution> {
    if (!this.#deps.onExecuted) return this.#run(call);
    const started = performance.now();
    const execution = await this.#run(call);
    this.#deps.onExecuted(
      this.find(call.command)?.name ?? 'unknown',
      execution.outcome,
      performance.now() - started,
    );
    return execution;
  }

  async #run(call: CommandCall): Promise<Execution> {
    const tenantId = formatTenantId(call.platform, call.tenantKey);
    if (this.closing) {
      const t = this.#lastTranslator(tenantId);
      return refused(
        t,
        'error',
        'SHUTTING_DOWN',
        t('platform.titles.restarting'),
        t('platform.runtime.restarting'),
      );
    }
    const context = {
      command: call.command,
      subcommand: call.subcommand,
      tenant: tenantId,
      user: call.user.id,
    };
    // The terminal is the operator's own console (and scripts pipe commands into it): not paced.
    const pace = call.platform === 'terminal' ? undefined : this.#limiter.take(`${tenantId}/${call.user.id}`);
    if (pace && !pace.ok) return tooFast(pace.retryInMs, this.#lastTranslator(tenantId));
    // Every refusal from here on is in the tenant's language: its settings are read first, and a
    // store failure waits until a command that needs them (#tenantOf).
    const stored = await this.#settingsOf(tenantId);
    const t = translator('settings' in stored ? stored.settings.language : this.#lastLocale.get(tenantId));
    try {
      const { command, subcommand } = commandOf((name) => this.find(name), this.commands, call, t);
      const forbidden = adminRefusal(command, call, t);
      if (forbidden) return forbidden;
      const usage = cmd(`${command.name}${subcommand ? ` ${subcommand}` : ''}`);
      const args = validateArgs(usage, optionsOf(command, subcommand), call.args ?? {}, t, (source) =>
        this.autocomplete(source, '')
          .map((choice) => choice.name)
          .filter((name) => !name.includes('"') && !name.endsWith('…')),
      );
      const { tenant, storeNotice } = this.#tenantOf(tenantId, call.platform, command, stored, context, t);
      const data = this.#deps.client.forCaller({ priority: 'interactive', deadlineMs: this.#deadlineMs() });
      const notes: string[] = [];
      // Before the name index is loaded (a new store), the games every card names: one request.
      if (command.usesService && !this.#deps.names.loaded)
        await this.#deps.names.ensureGames(data).catch(() => undefined);
      const commandContext = this.#contextOf(call, tenant, { args, notes, data, subcommand, t });
      // The declaration typed `args` for the command author; here they are checked values of that shape.
      const deadlineMs = this.#deps.commandDeadlineMs ?? COMMAND_DEADLINE_MS;
      const result = await withinDeadline(
        runCommand(command, commandContext as CommandContext<never>),
        deadlineMs,
      );
      if (result === SLOW) {
        this.#deps.logger.warn({ ...context, deadlineMs }, 'command too slow');
        return tooSlow(deadlineMs, t);
      }
      const reply: Reply = withNotes({ ...result, cards: [...result.cards] }, notes);
      if (reply.ephemeral === undefined && command.ephemeral !== undefined)
        reply.ephemeral = command.ephemeral;
      if (data.servedStale) reply.stale = true;
      if (storeNotice)
        reply.cards.push({
          title: t('platform.titles.defaultSettings'),
          colour: COLOURS.warning,
          description: [[storeNotice]],
        });
      if (call.user.isAdmin) await this.#deliverAdminNotices(tenantId, reply, t);
      // A person's own notices (DM reminders paused) are for their eyes only: private answers only.
      if (this.#deps.users && reply.ephemeral)
        await this.#deliverPersonalNotices(this.#deps.users, call, reply, t);
      return { outcome: 'ok', reply, t };
    } catch (error) {
      return this.#failed(error, call, context, t);
    }
  }

  /** The tenant's stored settings, or the store's failure (never throws). */
  async #settingsOf(tenantId: string): Promise<{ settings: Settings } | { error: unknown }> {
    try {
      const settings = await this.#deps.tenants.get(tenantId);
      this.#lastLocale.set(tenantId, settings.language);
      return { settings };
    } catch (error) {
      return { error };
    }
  }

  /**
   * The tenant's language as last read, for the answers given without reading the settings (over
   * pace, shutting down); English before any read.
   */
  #lastTranslator(tenantId: string): Translate {
    return translator(this.#lastLocale.get(tenantId));
  }

  /**
   * The tenant with its stored settings. When the store is away, a command that only formats with
   * the settings (/series, /team) still answers, with default settings and a notice saying so.
   */
  #tenantOf(
    tenantId: string,
    platform: Platform,
    command: AnyCommand,
    stored: { settings: Settings } | { error: unknown },
    context: Record<string, unknown>,
    t: Translate,
  ): { tenant: Tenant; storeNotice?: string } {
    if ('settings' in stored) return { tenant: { id: tenantId, platform, settings: stored.settings } };
    const { error } = stored;
    if (!(error instanceof StoreError) || command.adminOnly || command.usesSettings) throw error;
    this.#deps.logger.warn(
      { err: error, ...context },
      'settings unavailable; answering with default settings',
    );
    const problem = t('platform.errors.storeNow', { cause: storeCause(error, t) });
    const storeNotice = t('platform.runtime.storeDefaults', { problem });
    return { tenant: { id: tenantId, platform, settings: defaultSettings() }, storeNotice };
  }

  /**
   * A command's budget for the data service. Just after start (the feed has not read the live
   * listing, or the name index is still loading), the shared budget is busy warming up and every
   * command needs the service: its request waits for its turn (interactive requests go first)
   * instead of failing at 2 s. Once warm, the 2 s budget sheds what an overloaded budget cannot
   * serve in time. Only while the queue is short: under a crowd, waiting commands would starve the
   * warm-up itself (the name index and the feed read at background priority) and it would never end.
   */
  #deadlineMs(): number {
    const { picture, names, client } = this.#deps;
    const warming =
      picture !== undefined &&
      (!picture.ready || !names.loaded) &&
      (client.stats?.().queueLength ?? 0) < WARMING_QUEUE_LIMIT;
    return warming ? WARMING_DEADLINE_MS : INTERACTIVE_DEADLINE_MS;
  }

  /** What the command sees: its checked arguments, the tenant, the caller, data, names and stores. */
  #contextOf(
    call: CommandCall,
    tenant: Tenant,
    parts: Pick<CommandContext<Record<string, unknown>>, 'args' | 'notes' | 'data' | 'subcommand' | 't'>,
  ): CommandContext<Record<string, unknown>> {
    const { picture, status, users, names, clock, tenants } = this.#deps;
    return {
      ...parts,
      commands: this.commands,
      tenant,
      user: call.user,
      channel: call.channel,
      now: clock.now(),
      names,
      reads: createReads(parts.data, picture),
      ...(call.channels ? { channels: call.channels } : {}),
      ...(status ? { status } : {}),
      ...(users ? { profile: this.#profileOf(users, call) } : {}),
      ...(users ? { channelCalendars: this.#calendarsOf(users, tenant.id) } : {}),
      updateSettings: async (change) => {
        tenant.settings = await tenants.update(tenant.id, change);
        this.#deps.onSettingsSaved?.(tenant.id);
        return tenant.settings;
      },
    };
  }

  /**
   * The one place an error becomes what the user reads, sorted by its audience
   * (src/core/errors.ts): the user's own mistake, an outage, a configuration problem, or a bug.
   */
  #failed(error: unknown, call: CommandCall, context: Record<string, unknown>, t: Translate): Execution {
    const { logger } = this.#deps;
    const found = typeof call.command === 'string' ? this.find(call.command) : undefined;
    if (!(error instanceof MatchdayError) || error.audience === 'bug') {
      logger.error({ err: error, ...context }, 'command failed');
      const message = found
        ? withCommands(t, 'platform.runtime.bug', {}, { command: cmd(found.name) })
        : t('platform.runtime.bugUnknown');
      return {
        outcome: 'error',
        code: 'INTERNAL',
        message: messageText(message),
        reply: errorReply(t, t('platform.titles.sorry'), message),
        t,
      };
    }
    const code = executionCode(error);
    switch (error.audience) {
      case 'user': {
        const suggestions = error instanceof UserError ? error.suggestions : [];
        const title = t(found ? 'platform.titles.notQuite' : 'platform.titles.unknownCommand');
        const message = error instanceof UserError ? error.rich : userMessage(error, t);
        return {
          outcome: 'user-error',
          code,
          message: messageText(message),
          ...(suggestions.length > 0 ? { suggestions: suggestions.map(messageText) } : {}),
          reply: errorReply(t, title, message, { suggestions }),
          t,
        };
      }
      case 'outage': {
        logger.warn({ err: error, ...context }, 'a dependency is unavailable during a command');
        const message = userMessage(error, t);
        return {
          outcome: 'error',
          code,
          message,
          reply: errorReply(t, t('platform.titles.sorry'), message, { colour: COLOURS.error }),
          t,
        };
      }
      case 'configuration': {
        // Not the user's fault and not a passing outage: the deployment is misconfigured.
        logger.error(
          { err: error, ...context },
          'the esports data service refused the service secret (ESPORTS_API_SECRET): a configuration problem',
        );
        const message = t(call.user.isAdmin ? 'platform.runtime.configAdmin' : 'platform.runtime.configUser');
        return {
          outcome: 'error',
          code,
          message,
          reply: errorReply(t, t('platform.titles.configuration'), message, { colour: COLOURS.error }),
          t,
        };
      }
    }
  }

  /** The caller's own profile: every method is bound to the caller's key, never another's. */
  #profileOf(users: UserStore, call: CommandCall): NonNullable<CommandContext<unknown>['profile']> {
    const key = userKeyOf(call.platform, call.tenantKey, call.user.id);
    const base = this.#deps.calendarUrl;
    return {
      get: () => users.get(key),
      update: (change) => users.update(key, change),
      calendarToken: (renew) => users.calendarToken(key, renew),
      calendarUrl: (token) => base?.(token),
    };
  }

  /** The tenant's channel calendars: bound to the caller's tenant. */
  #calendarsOf(users: UserStore, tenantId: string): ChannelCalendars {
    const base = this.#deps.calendarUrl;
    return {
      token: (channelId, renew) => users.channelCalendarToken(tenantId, channelId, renew),
      url: (token) => base?.(token),
    };
  }

  /** Shows the caller's pending notices once (appended to a private answer), then removes them. */
  async #deliverPersonalNotices(
    users: UserStore,
    call: CommandCall,
    reply: Reply,
    t: Translate,
  ): Promise<void> {
    const key = userKeyOf(call.platform, call.tenantKey, call.user.id);
    try {
      const shown = (await users.get(key)).notices;
      if (shown.length === 0) return;
      reply.cards.push({
        title: t('platform.titles.forYou'),
        colour: COLOURS.warning,
        description: shown.map(messageSpans),
      });
      const seen = new Set(shown.map(messageText));
      await users.update(key, (latest) => ({
        ...latest,
        notices: latest.notices.filter((n) => !seen.has(messageText(n))),
      }));
    } catch (error) {
      this.#deps.logger.warn({ err: error }, 'could not deliver personal notices');
    }
  }

  /** Shows pending admin notices once: appended to this reply, then removed from the settings. */
  async #deliverAdminNotices(tenantId: string, reply: Reply, t: Translate): Promise<void> {
    const { tenants, logger } = this.#deps;
    try {
      const settings = await tenants.get(tenantId);
      if (settings.adminNotices.length === 0) return;
      const shown = settings.adminNotices;
      reply.cards.push({
        title: t('platform.titles.forAdmins'),
        colour: COLOURS.warning,
        description: shown.map(messageSpans),
      });
      // Only the notices shown are removed: a notice added meanwhile is kept for next time.
      const seen = new Set(shown.map(messageText));
      await tenants.update(tenantId, (latest) => ({
        ...latest,
        adminNotices: latest.adminNotices.filter((n) => !seen.has(messageText(n))),
      }));
    } catch (error) {
      logger.warn({ err: error, tenant: tenantId }, 'could not deliver admin notices');
    }
  }

  /** Choices for a partly typed name, from the cached index; never waits on the service. */
  autocomplete(source: AutocompleteSource, text: string): Choice[] {
    let choices: Choice[] = [];
    try {
      // Time zones come from the runtime's own list: they work before (and without) the index.
      choices =
        source === 'timezone'
          ? searchTimeZones(text, AUTOCOMPLETE_LIMIT)
          : (this.#deps.names.search(source, text, AUTOCOMPLETE_LIMIT) ?? []);
    } catch (error) {
      this.#deps.logger.warn({ err: error, source }, 'autocomplete failed');
    }
    return choices.slice(0, AUTOCOMPLETE_LIMIT).map((c) => ({
      name: c.name.length > CHOICE_NAME_MAX ? `${c.name.slice(0, CHOICE_NAME_MAX - 1)}…` : c.name,
      value: c.value,
    }));
  }
}
