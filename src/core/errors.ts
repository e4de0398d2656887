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

/** An expected refusal of what the user asked: they see `message`; nothing is logged as a bug. */
export class UserError extends MatchdayError {
  override name = 'UserError';
  constructor(
    code: string,
    message: string,
    /** Suggestions to show with the message (e.g. close matches of a name). */
    readonly suggestions: string[] = [],
  ) {
    super(code, 'user', message);
  }
}
