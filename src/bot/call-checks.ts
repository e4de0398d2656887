/**
 * The runtime's checks on a call before a command runs, and the pieces around the run: each user's
 * pace, the command and subcommand named, admin rights, the command's deadline, and the notes a
 * command adds above its reply. The runtime (runtime.ts) applies them in this order.
 */
import { type CommandRef, cmd, commandList, type Message, messageText, UserError } from '../core/errors.ts';
import type { Platform } from '../core/tenant-id.ts';
import { type MessageKey, spanned, type Translate } from '../i18n/i18n.ts';
import type { AnyCommand, CommandCall, CommandContext, SubcommandsCommand } from './command.ts';
import { COLOURS, errorReply, type Reply } from './reply.ts';

import { closest } from './text-args.ts';

/** How a call ended; `ask` turns it into an exit code and platforms into metrics. */
export type Outcome = 'ok' | 'user-error' | 'forbidden' | 'rate-limited' | 'error';

export interface Execution {
  reply: Reply;
  /** The reader's language (the tenant's): the platform renders the reply's own words in it. */
  t: Translate;
  outcome: Outcome;
  /** The UserError code, for outcomes other than 'ok'. */
  code?: string;
  /** The message the user sees, for outcomes other than 'ok'. */
  message?: string;
  /** What the reply offers instead (close names, commands): each is accepted as typed. */
  suggestions?: string[];
}

/** A call that ends without running its command: the message as an error card with `title`. */
export function refused(
  t: Translate,
  outcome: Outcome,
  code: string,
  title: string,
  message: Message,
  colour?: number,
): Execution {
  return {
    outcome,
    code,
    t,
    message: messageText(message),
    reply: errorReply(t, title, message, colour === undefined ? {} : { colour }),
  };
}

/** A sliding-window limit per key: at most `count` events in any `windowMs`. */
export class SlidingWindowLimiter {
  readonly #hits = new Map<string, number[]>();
  constructor(
    readonly count: number,
    readonly windowMs: number,
    readonly now: () => number = Date.now,
  ) {}

  /** Records an event for `key` if allowed; otherwise returns the milliseconds until one would be. */
  take(key: string): { ok: true } | { ok: false; retryInMs: number } {
    const now = this.now();
    const recent = (this.#hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.count) {
      this.#hits.set(key, recent);
      return { ok: false, retryInMs: this.windowMs - (now - recent[0]!) };
    }
    recent.push(now);
    this.#hits.set(key, recent);
    if (this.#hits.size > 10_000) this.#prune(now);
    return { ok: true };
  }

  #prune(now: number): void {
    for (const [key, hits] of this.#hits)
      if (hits.every((t) => now - t >= this.windowMs)) this.#hits.delete(key);
  }
}

/** The refusal for a user over their pace, saying how long to wait. */
export function tooFast(retryInMs: number, t: Translate): Execution {
  const seconds = Math.max(1, Math.ceil(retryInMs / 1000));
  const message = t('platform.runtime.tooFast', { count: seconds });
  return refused(t, 'rate-limited', 'RATE_LIMITED', t('platform.titles.easy'), message);
}

/**
 * A translated message with commands in it: `{{command}}` one command, `{{list}}` a list of them;
 * each stays a command span for the platform to write.
 */
export function withCommands(
  t: Translate,
  key: MessageKey,
  values: Record<string, string | number>,
  parts: { command?: CommandRef; list?: readonly (string | CommandRef)[] },
): (string | CommandRef)[] {
  const spans: Record<string, readonly (string | CommandRef)[]> = {};
  if (parts.command) spans.command = [parts.command];
  if (parts.list) spans.list = parts.list;
  return spanned(t, key, values, spans).flatMap((part) => (typeof part === 'string' ? [part] : part));
}

/**
 * The command and subcommand a call names (lower-cased). Throws a `UserError` offering the closest
 * names for an unknown command, a missing or unknown subcommand, or a subcommand given to a command
 * without any.
 */
export function commandOf(
  find: (name: string) => AnyCommand | undefined,
  commands: readonly AnyCommand[],
  call: Pick<CommandCall, 'command' | 'subcommand'>,
  t: Translate,
): { command: AnyCommand; subcommand?: string } {
  const command = find(call.command);
  if (!command) {
    const names = commands.map((c) => c.name);
    throw new UserError(
      'UNKNOWN_COMMAND',
      withCommands(
        t,
        'platform.checks.unknownCommand',
        { name: String(call.command).slice(0, 40) },
        { list: commandList(names) },
      ),
      closest(String(call.command), names).map((n) => cmd(n)),
    );
  }
  if (!command.subcommands) {
    if (call.subcommand)
      throw new UserError(
        'UNKNOWN_SUBCOMMAND',
        withCommands(
          t,
          'platform.checks.noSubcommands',
          { given: call.subcommand.slice(0, 40) },
          { command: cmd(command.name) },
        ),
      );
    return { command };
  }
  return { command, subcommand: subcommandOf(command, call.subcommand, t) };
}

/**
 * The subcommand `given` names (lower-cased), one `command` declares; else a `UserError` offering
 * the closest (or all of them when none was given).
 */
function subcommandOf(command: SubcommandsCommand, given: string | undefined, t: Translate): string {
  const subs = Object.keys(command.subcommands);
  const subcommand = given?.toLowerCase();
  if (!subcommand || !Object.hasOwn(command.subcommands, subcommand)) {
    throw new UserError(
      subcommand ? 'UNKNOWN_SUBCOMMAND' : 'MISSING_SUBCOMMAND',
      withCommands(
        t,
        subcommand ? 'platform.checks.unknownSubcommand' : 'platform.checks.missingSubcommand',
        { given: subcommand?.slice(0, 40) ?? '', list: subs.join(', ') },
        { command: cmd(command.name) },
      ),
      (subcommand ? closest(subcommand, subs) : subs).map((s) => cmd(`${command.name} ${s}`)),
    );
  }
  return subcommand;
}

/** The refusal of an admin-only command to someone who is not an admin, or undefined. */
const ADMIN_ONLY: Record<Platform, MessageKey> = {
  discord: 'platform.checks.adminOnlyDiscord',
  slack: 'platform.checks.adminOnlySlack',
  terminal: 'platform.checks.adminOnlyTerminal',
};

const ONLY_ADMINS: Record<Platform, MessageKey> = {
  discord: 'platform.checks.onlyAdminsDiscord',
  slack: 'platform.checks.onlyAdminsSlack',
  terminal: 'platform.checks.onlyAdminsTerminal',
};

export function adminRefusal(
  command: AnyCommand,
  call: Pick<CommandCall, 'platform' | 'user'>,
  t: Translate,
): Execution | undefined {
  if (!command.adminOnly || call.user.isAdmin) return undefined;
  const message = withCommands(t, ADMIN_ONLY[call.platform], {}, { command: cmd(command.name) });
  return refused(t, 'forbidden', 'ADMIN_ONLY', t('platform.titles.adminsOnly'), message);
}

/**
 * Runs the command, or the subcommand its context names, with that subcommand's own `run`. An
 * admin-only command or subcommand refuses anyone else first, saying what only admins may do: for a
 * subcommand this is the runtime's only check; for a command it holds when it is called directly.
 */
export async function runCommand(command: AnyCommand, context: CommandContext<never>): Promise<Reply> {
  if (!command.subcommands) {
    if (command.adminOnly) refuseNonAdmin(command, context);
    return command.run(context);
  }
  const declared = command.subcommands[subcommandOf(command, context.subcommand, context.t)]!;
  if (command.adminOnly || declared.adminOnly) refuseNonAdmin(command, context);
  return declared.run(context);
}

function refuseNonAdmin(command: AnyCommand, { user, tenant, t }: CommandContext<never>): void {
  if (user.isAdmin) return;
  // The command's own words for what only admins may do are English (its declaration): other
  // languages name the command instead.
  if (command.adminAction && t.locale === 'en')
    throw new UserError(
      'ADMIN_ONLY',
      `Only admins of ${tenantPlace(tenant.platform)} can ${command.adminAction}.`,
    );
  throw new UserError(
    'ADMIN_ONLY',
    withCommands(t, ONLY_ADMINS[tenant.platform], {}, { command: cmd(command.name) }),
  );
}

/** Where a tenant's admins are, in English (`adminAction` sentences). */
function tenantPlace(platform: Platform): string {
  if (platform === 'discord') return 'this server';
  return platform === 'slack' ? 'this workspace' : 'this chat';
}

/** The answer when a command ran past its deadline: the data service is slow. */
export function tooSlow(deadlineMs: number, t: Translate): Execution {
  const seconds = Math.round(deadlineMs / 1000);
  const message = t('platform.runtime.tooSlow', { count: seconds });
  return refused(t, 'error', 'SERVICE_SLOW', t('platform.titles.sorry'), message, COLOURS.error);
}

export const SLOW = Symbol('slow');

/** The command's result, or SLOW once `ms` passed (the command goes on; its requests have their own deadlines). */
export async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | typeof SLOW> {
  let timer: NodeJS.Timeout | undefined;
  // A failure after the deadline has no one to tell: keep it from becoming an unhandled rejection.
  work.catch(() => undefined);
  try {
    return await Promise.race([
      work,
      new Promise<typeof SLOW>((resolve) => {
        timer = setTimeout(() => resolve(SLOW), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A command's notes ("No team is called ...; showing ...") in italics above its reply's content. */
export function withNotes(reply: Reply, notes: readonly string[]): Reply {
  if (notes.length === 0) return reply;
  return {
    ...reply,
    content: [
      ...notes.flatMap((note, i) =>
        i > 0 ? ['\n', { text: note, italic: true }] : [{ text: note, italic: true }],
      ),
      ...(reply.content?.length ? ['\n', ...reply.content] : []),
    ],
  };
}
