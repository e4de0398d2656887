/**
 * The neutral reply: what every command returns and every notification posts. It knows nothing of
 * Discord, Slack or terminals; each platform has one pure renderer that turns it into its own shape
 * (`src/platforms/<platform>/render.ts`) within that platform's limits.
 *
 * Text is a list of inline spans rather than a markup string, so that renderers can escape data
 * (a team called `<!channel>` or `@everyone` pings nobody), render times natively and hide spoilers
 * in each platform's idiom.
 */

import type { CommandRef, Message, Suggestion } from '../core/errors.ts';
import type { Translate } from '../i18n/i18n.ts';

/** One piece of inline text. */
export type Span =
  | string
  /** Plain text from data; renderers escape it. A bare string is the same. */
  | { text: string; bold?: boolean; italic?: boolean; code?: boolean }
  /** An instant, rendered natively: Discord `<t:unix:f>`, Slack `<!date^...>`, terminal local time. */
  | { time: Date; style: TimeStyle }
  /** Hidden until revealed: Discord `||...||`, Slack a reveal button, terminal a placeholder. */
  | { spoiler: Span[] }
  /** A link with a label. */
  | { link: string; label: string }
  /** A role mention; only roles named here may ever be pinged. */
  | { role: string }
  /** A command to type, without its slash; each platform writes it in its own syntax (see `CommandRef`). */
  | CommandRef;

/**
 * `full`: date and time; `relative`: "in 5 minutes"; `time`: time of day; `date`: date only.
 * Renderers map these to `<t:unix:f|R|t|D>`, `{date_short_pretty} {time}`/`{ago}`, and local text.
 */
export type TimeStyle = 'full' | 'relative' | 'time' | 'date';

/** A line of inline spans. */
export type Text = Span[];

export interface Field {
  name: string;
  value: Text;
  inline?: boolean;
}

/** A compact table: column headers and rows of cells; numeric columns are right-aligned. */
export interface Table {
  columns: { header: string; align?: 'left' | 'right' }[];
  rows: Text[][];
  /** A rule drawn under this many rows: a group's advance line (the teams above it go through). */
  cut?: number;
}

interface LinkButton {
  label: string;
  url: string;
}

/** Colours as 0xRRGGBB. */
export const COLOURS = {
  info: 0x5865f2,
  live: 0xe03e3e,
  upcoming: 0x3b82f6,
  finished: 0x6b7280,
  success: 0x22c55e,
  warning: 0xf59e0b,
  error: 0xef4444,
} as const;

export interface Card {
  title: string;
  url?: string;
  colour?: number;
  description?: Text[];
  fields?: Field[];
  table?: Table;
  footer?: string;
  /**
   * A picture to attach (PNG bytes), or the URL of one. `path`: where the terminal saved the PNG
   * (set by `src/platforms/terminal/images.ts`, shown instead of the bytes).
   */
  image?: { png: Uint8Array; name: string; alt: string; path?: string } | { url: string; alt: string };
  buttons?: LinkButton[];
}

/**
 * A long answer shown a page at a time (`/schedule` on a busy day): the command and options that
 * show another page, with `page:` added. Discord and Slack offer previous/next buttons that run it;
 * every platform's text says it as a command line too.
 */
export interface Pager {
  command: string;
  /** The options besides `page`, as the command accepts them verbatim. */
  args: Record<string, string | number>;
  /** 1-based. */
  page: number;
  pages: number;
  /** The count of pages is a lower bound (the service could not be read to the day's end). */
  atLeast?: boolean;
}

export interface Reply {
  /** Text above the cards, e.g. a role mention on a notification. */
  content?: Text;
  cards: Card[];
  /** Seen only by the user who asked (Discord ephemeral, Slack ephemeral response). */
  ephemeral?: boolean;
  /** True when some of the data came from cache after the service failed: renderers add a notice. */
  stale?: boolean;
  /** Roles that may be pinged by this reply; nothing else ever is. */
  mentionRoles?: string[];
  /** Present when the reply is one page of several. */
  pager?: Pager;
}

export const STALE_NOTICE = 'Data may be out of date: the esports data service is not answering right now.';

/** Flattens spans into plain text (no markup), for fallbacks, logs and tests. */
export function plainText(text: Text, reveal = false): string {
  return text
    .map((span) => {
      if (typeof span === 'string') return span;
      if ('text' in span) return span.text;
      if ('time' in span) return span.time.toISOString();
      if ('spoiler' in span) return reveal ? plainText(span.spoiler, true) : '[spoiler]';
      if ('link' in span) return span.label;
      if ('command' in span) return `/${span.command}`;
      return `@${span.role}`;
    })
    .join('');
}

/** Everything a reply says, as plain text (spoilers hidden unless `reveal`), for tests and fallbacks. */
export function replyText(reply: Reply, reveal = false): string {
  const lines: string[] = [];
  if (reply.content) lines.push(plainText(reply.content, reveal));
  for (const card of reply.cards) {
    lines.push(card.title);
    for (const line of card.description ?? []) lines.push(plainText(line, reveal));
    for (const field of card.fields ?? []) lines.push(`${field.name}: ${plainText(field.value, reveal)}`);
    if (card.table) {
      lines.push(card.table.columns.map((c) => c.header).join(' | '));
      for (const row of card.table.rows) lines.push(row.map((cell) => plainText(cell, reveal)).join(' | '));
    }
    if (card.footer) lines.push(card.footer);
  }
  return lines.join('\n');
}

/** A reply with one card holding a short message; for notices and errors. */
export function notice(
  title: string,
  message: Message,
  options: { colour?: number; ephemeral?: boolean } = {},
): Reply {
  return {
    cards: [{ title, colour: options.colour ?? COLOURS.info, description: [messageSpans(message)] }],
    ephemeral: options.ephemeral ?? false,
  };
}

/** A message (plain, or with commands in it) as a line of spans. */
export function messageSpans(message: Message | readonly Span[]): Text {
  return typeof message === 'string' ? [message] : [...message];
}

/**
 * The card every platform shows for a refusal or a failure, in the reader's language (`t`): the
 * message, and "Did you mean" with at most five suggestions: commands as commands, values as typed (one holding a comma is quoted
 * unless it quotes its own value, so the list still reads one by one).
 */
export function errorReply(
  t: Translate,
  title: string,
  message: Message | readonly Span[],
  options: { suggestions?: readonly Suggestion[]; colour?: number } = {},
): Reply {
  const card: Reply['cards'][number] = {
    title,
    colour: options.colour ?? COLOURS.warning,
    description: [messageSpans(message)],
  };
  const shown = (options.suggestions ?? []).slice(0, 5);
  if (shown.length > 0)
    card.fields = [
      {
        name: t('platform.didYouMean'),
        value: shown.flatMap((s, i): Span[] => [
          ...(i > 0 ? [', '] : []),
          typeof s !== 'string' ? { ...s } : s.includes(',') && !s.includes('"') ? `"${s}"` : s,
        ]),
      },
    ];
  return { cards: [card], ephemeral: true };
}
