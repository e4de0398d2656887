/**
 * Slack's text format: the neutral reply's spans as mrkdwn (and as plain text for table cells),
 * escaped and cut safely. Pure: no network, no Bolt. `render.ts` builds the blocks around this text.
 *
 * - Text from data is escaped (`&`, `<`, `>`, https://docs.slack.dev/messaging/formatting-message-text#escaping)
 *   so a team called `<!channel>` pings nobody; `@here`-like words get a word joiner as well.
 * - Times are `<!date^unix^{token}|fallback>`, shown in each reader's own time zone.
 * - Slack has no spoiler markup: a spoiler is blanked out (`SPOILER_MASK`) unless revealed.
 */
import type { Span, Text, TimeStyle } from '../../bot/reply.ts';
import type { Translate } from '../../i18n/i18n.ts';
import { localeInstant } from '../locale-time.ts';

/** The one slash command of the Slack app (see slack-manifest.yml); every Matchday command is its first word. */
export const SLASH_COMMAND = '/matchday';

/** A command as Slack users type it: `series live` is `/matchday series live`. */
function slackCommand(command: string): string {
  return `${SLASH_COMMAND} ${command}`;
}

/** What a spoiler looks like until revealed: fixed width, so its length gives nothing away. */
export const SPOILER_MASK = '▒▒▒▒▒';

/**
 * Escapes text from data for mrkdwn: `&`, `<`, `>` become entities, so nothing in a name can form a
 * mention, link or `<!channel>`; `@here`, `@channel` and `@everyone` get an invisible word joiner so no
 * client or `link_names` setting can turn them into a ping either.
 */
export function escapeMrkdwn(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/@(here|channel|everyone)\b/gi, '@\u2060$1');
}

/** Cuts mrkdwn to at most `max` characters without breaking a `<...>` sequence or an `&...;` entity. */
export function truncateMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  const open = cut.lastIndexOf('<');
  if (open > cut.lastIndexOf('>')) cut = cut.slice(0, open);
  const amp = cut.lastIndexOf('&');
  if (amp > cut.lastIndexOf(';') && cut.length - amp < 8) cut = cut.slice(0, amp);
  return `${wordEnd(cut, text)}…`;
}

/** Cuts plain text (headers, button labels, table cells) to at most `max` characters, on a whole word. */
export function truncatePlain(text: string, max: number): string {
  return text.length <= max ? text : `${wordEnd(text.slice(0, max - 1), text)}…`;
}

/**
 * A cut text ending on a whole word: when the cut falls inside a word, back to the space before it
 * (unless that would drop most of the text, as with one very long word). Hints stay readable.
 */
function wordEnd(cut: string, whole: string): string {
  if (whole.length > cut.length && /\S/.test(whole[cut.length]!) && /\S$/.test(cut)) {
    const space = cut.search(/\s\S*$/);
    if (space > cut.length / 2) return cut.slice(0, space).trimEnd();
  }
  return cut.trimEnd();
}

const DATE_TOKENS: Record<TimeStyle, string> = {
  full: '{date_short_pretty} {time}',
  relative: '{ago}',
  time: '{time}',
  date: '{date_short_pretty}',
};

/**
 * The fallback Slack shows where it cannot localise a date (old clients, notifications): the house
 * style (`src/bot/time-format.ts`) in UTC, the zone named since nothing else names it there.
 */
function timeFallback(time: Date, style: TimeStyle, t: Translate): string {
  if (!Number.isFinite(time.getTime())) return t('platform.render.unknownTime');
  // A relative fallback would go stale in the message: the instant itself instead.
  const text = localeInstant(time, style === 'relative' ? 'full' : style, 'UTC', t);
  return style === 'date' ? text : `${text} UTC`;
}

/** The URL normalised, when it is http(s); anything else (javascript:, slack:, junk) is refused. */
export function httpUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** An http(s) URL fit for mrkdwn's `<url|label>`: `|` and `>` would end it; `&` must be an entity. */
export function mrkdwnUrl(url: string): string | undefined {
  return httpUrl(url)
    ?.replaceAll('|', '%7C')
    .replaceAll('<', '%3C')
    .replaceAll('>', '%3E')
    .replaceAll('&', '&amp;');
}

/** Only Slack user group ids (S...) can be mentioned, and only those the reply names in `mentionRoles`. */
const USER_GROUP = /^S[A-Z0-9]{2,20}$/;

/** `reveal` shows spoilers instead of the mask; `mentionRoles` are the user groups the reply may ping. */
export interface SpanOptions {
  reveal: boolean;
  mentionRoles: ReadonlySet<string>;
  /** The reader's language (the tenant's): date fallbacks are written in it. */
  t: Translate;
}

/** Renders a line of spans as mrkdwn; `spoiler` says whether anything was masked. */
export function renderSpans(text: Text, options: SpanOptions): { mrkdwn: string; spoiler: boolean } {
  let spoiler = false;
  const render = (spans: readonly Span[]): string =>
    spans
      .map((span): string => {
        if (typeof span === 'string') return escapeMrkdwn(span);
        if ('command' in span) return `\`${escapeMrkdwn(slackCommand(span.command)).replaceAll('`', 'ˋ')}\``;
        if ('text' in span) {
          const escaped = escapeMrkdwn(span.text);
          // Markers must hug the text (`*bold*`, not `* bold *`): keep surrounding spaces outside.
          const match = /^(\s*)(.*?)(\s*)$/s.exec(escaped);
          const [, lead = '', core = '', trail = ''] = match ?? [];
          if (core === '') return escaped;
          let styled = core;
          if (span.code) styled = `\`${styled.replaceAll('`', 'ˋ')}\``;
          if (span.italic) styled = `_${styled}_`;
          if (span.bold) styled = `*${styled}*`;
          return `${lead}${styled}${trail}`;
        }
        if ('time' in span) {
          const unix = Math.floor(span.time.getTime() / 1000);
          if (!Number.isFinite(unix)) return options.t('platform.render.unknownTime');
          return `<!date^${unix}^${DATE_TOKENS[span.style]}|${timeFallback(span.time, span.style, options.t)}>`;
        }
        if ('spoiler' in span) {
          spoiler = true;
          return options.reveal ? render(span.spoiler) : SPOILER_MASK;
        }
        if ('link' in span) {
          const url = mrkdwnUrl(span.link);
          const label = escapeMrkdwn(span.label).replaceAll('|', '¦');
          return url ? `<${url}|${label}>` : label;
        }
        if (options.mentionRoles.has(span.role) && USER_GROUP.test(span.role))
          return `<!subteam^${span.role}>`;
        return escapeMrkdwn(`@${span.role}`);
      })
      .join('');
  const mrkdwn = render(text);
  return { mrkdwn, spoiler };
}

/** A span as plain characters for a monospace table cell (no markup works inside code blocks). */
export function cellText(cell: Text, reveal: boolean, t: Translate): string {
  return cell
    .map((span): string => {
      if (typeof span === 'string') return span;
      if ('text' in span) return span.text;
      if ('command' in span) return slackCommand(span.command);
      // In a table the column's header names the zone once (`tableLines`).
      if ('time' in span)
        return localeInstant(span.time, span.style === 'relative' ? 'full' : span.style, 'UTC', t);
      if ('spoiler' in span) return reveal ? cellText(span.spoiler, true, t) : SPOILER_MASK;
      if ('link' in span) return span.label;
      return `@${span.role}`;
    })
    .join('')
    .replace(/[\r\n\t]+/g, ' ');
}
