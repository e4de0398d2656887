/**
 * One error model for the whole bot. Every failure Matchday expects is a `MatchdayError` with a
 * stable `code` (for logs, metrics and `ask`'s exit status) and an `audience` that decides what
 * happens to it:
 *
 * | audience        | who can act on it       | what the person in chat reads          | logged as |
 * | --------------- | ----------------------- | -------------------------------------- | --------- |
 * | `user`          | the person who asked    | `userMessage`, with suggestions        | nothing   |
 * | `outage`        | nobody: wait            | `userMessage` ("... try again shortly") | warning   |
 * | `configuration` | whoever runs Matchday   | "a configuration problem, tell an admin" | error     |
 * | `bug`           | a developer             | a short apology                        | error     |
 *
 * Anything that is not a `MatchdayError` is a bug. The runtime sorts errors with `instanceof` and
 * this field only (no names, no regular expressions), and `errorReply` (src/bot/reply.ts) is the
 * one card every platform shows for them.
 */

export type Audience = 'user' | 'outage' | 'configuration' | 'bug';

export class MatchdayError extends Error {
  override name = 'MatchdayError';
  readonly code: string;
  readonly audience: Audience;

  constructor(code: string, audience: Audience, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.audience = audience;
  }

  /** What a person in chat is told. Written for people: no paths, URLs or secrets. */
  get userMessage(): string {
    return this.message;
  }
}

/**
 * A command someone can type, without its slash: `{ command: 'settings spoilers' }`. Each platform
 * writes it in its own syntax (Discord and the terminal `/settings spoilers`, Slack
 * `/matchday settings spoilers`), so no text ever names a command in another platform's form.
 */
export interface CommandRef {
  command: string;
}

/** A message for people: plain text, or text with commands in it. */
export type Message = string | readonly (string | CommandRef)[];

/** A suggestion: a value to type in place of the one given, or a whole command. */
export type Suggestion = string | CommandRef;

/** A command reference (see `CommandRef`); `cmd('series live')`. */
export function cmd(command: string): CommandRef {
  return { command: command.replace(/^\//, '') };
}

/** Commands named in a list (`/a, /b, /c`), each written by the platform. */
export function commandList(names: readonly string[]): (string | CommandRef)[] {
  return names.flatMap((n, i) => [...(i > 0 ? [', '] : []), cmd(n)]);
}

/** The message as one plain string, commands written `/like this` (for logs, `ask` and tests). */
export function messageText(message: Message | Suggestion): string {
  if (typeof message === 'string') return message;
  if ('command' in message) return `/${message.command}`;
  return message.map((part) => (typeof part === 'string' ? part : `/${part.command}`)).join('');
}

/** An expected refusal of what the user asked: they see `message`; nothing is logged as a bug. */
export class UserError extends MatchdayError {
  override name = 'UserError';
  /** The message as written, with its commands for each platform to write in its own syntax. */
  readonly rich: Message;
  constructor(
    code: string,
    message: Message,
    /** Suggestions to show with the message (close matches of a name, or commands to type). */
    readonly suggestions: readonly Suggestion[] = [],
  ) {
    super(code, 'user', messageText(message));
    this.rich = message;
  }
}
