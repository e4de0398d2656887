/**
 * Spans (`src/bot/reply.ts`) as Discord markdown within a character budget: text from data escaped
 * so it shows as written and pings nobody, times as native `<t:unix:f>` tags, spoilers as
 * `||spoiler||`, links only to http(s). A cut never breaks markup and ends on a whole word.
 * Pure; `render.ts` builds messages from it.
 */
import type { Span, Text, TimeStyle } from '../../bot/reply.ts';

/** A zero-width space: breaks a mention or tag apart, and stands in for an empty title or field. */
export const ZWSP = '\u200b';
const ELLIPSIS = '…';
const TIME_CODES: Record<TimeStyle, string> = { full: 'f', relative: 'R', time: 't', date: 'D' };
/** A Discord id (a role to mention). */
export const SNOWFLAKE = /^\d{15,21}$/;

/**
 * Escapes text from data: markdown, mentions, channel links, custom emoji and timestamp syntax.
 * Discord renders a backslash before any punctuation as that punctuation, so over-escaping is
 * harmless; one linear pass (discord.js' `escapeMarkdown` is quadratic on long text).
 */
export function escapeText(text: string): string {
  return text
    .replace(/[\\*_~`|[\]]/g, '\\$&')
    .replace(/(^|\n)([ \t]*)([#>]|[-+](?=\s))/g, '$1$2\\$3')
    .replace(/(^|\n)([ \t]*\d+)\.(?=\s)/g, '$1$2\\.')
    .replace(/@(everyone|here)/gi, `@${ZWSP}$1`)
    .replace(/<(?=[@#:/]|a:|t:|id:|sound:)/g, `<${ZWSP}`);
}

/** A Discord timestamp tag, which each reader's client shows in their own zone and language. */
function timeTag(time: Date, style: TimeStyle): string {
  const ms = time.getTime();
  if (!Number.isFinite(ms)) return 'an unknown time';
  return `<t:${Math.floor(ms / 1000)}:${TIME_CODES[style]}>`;
}

/** An http(s) URL with parentheses escaped for markdown links; undefined for anything else. */
export function safeUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    return parsed.toString().replace(/\(/g, '%28').replace(/\)/g, '%29');
  } catch {
    return undefined;
  }
}

/** A command as Discord users type it: `/series live`, in code style. */
function commandSpan(span: { command: string }): Span {
  return { text: `/${span.command}`, code: true };
}

function renderSpan(span: Span): string {
  if (typeof span === 'string') return escapeText(span);
  if ('command' in span) return renderSpan(commandSpan(span));
  if ('text' in span) {
    if (span.text === '') return '';
    if (span.code) return `\`${span.text.replace(/`/g, 'ˋ')}\``;
    let out = escapeText(span.text);
    if (span.italic) out = `*${out}*`;
    if (span.bold) out = `**${out}**`;
    return out;
  }
  if ('time' in span) return timeTag(span.time, span.style);
  if ('spoiler' in span) {
    const inner = renderText(span.spoiler, Number.POSITIVE_INFINITY);
    return inner === '' ? '' : `||${inner}||`;
  }
  if ('link' in span) {
    const url = safeUrl(span.link);
    const label = escapeText(span.label);
    return url ? `[${label}](${url})` : label;
  }
  return SNOWFLAKE.test(span.role) ? `<@&${span.role}>` : `@${escapeText(span.role)}`;
}

/** Cuts a span so that its rendering fits in `room`, never inside markup (a cut spoiler stays hidden). */
function shrinkSpan(span: Span, room: number): string {
  if (room <= 0) return '';
  if (typeof span === 'object' && 'command' in span) return shrinkSpan(commandSpan(span), room);
  if (typeof span === 'string' || 'text' in span) {
    // Rendering never shortens text, so no more than `room` characters can fit.
    const chars = Array.from(typeof span === 'string' ? span : span.text).slice(0, room);
    const render = (n: number) =>
      renderSpan(
        typeof span === 'string' ? chars.slice(0, n).join('') : { ...span, text: chars.slice(0, n).join('') },
      );
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (render(mid).length <= room) lo = mid;
      else hi = mid - 1;
    }
    // End on a whole word (the same rule as `wordEnd`): back to the space before a cut word.
    const all = Array.from(typeof span === 'string' ? span : span.text);
    if (lo < all.length && /\S/.test(all[lo]!) && /\S/.test(all[lo - 1] ?? '')) {
      const space = chars
        .slice(0, lo)
        .join('')
        .search(/\s\S*$/);
      if (space > lo / 2) lo = Array.from(chars.slice(0, lo).join('').slice(0, space).trimEnd()).length;
    }
    return lo > 0 ? render(lo) : '';
  }
  if ('spoiler' in span) {
    const inner = renderText(span.spoiler, room - 4);
    return inner === '' ? '' : `||${inner}||`;
  }
  if ('link' in span) return shrinkSpan(span.label, room);
  return '';
}

/** Renders spans within `budget` characters, ending in an ellipsis when something was cut. */
export function renderText(text: Text, budget: number): string {
  let out = '';
  for (const span of text) {
    const rendered = renderSpan(span);
    if (out.length + rendered.length <= budget) {
      out += rendered;
      continue;
    }
    // No room left even for the ellipsis: what fits is already complete markup.
    if (out.length >= budget) return out;
    return out + shrinkSpan(span, budget - out.length - 1) + ELLIPSIS;
  }
  return out;
}

/** Plain text (footers and field names render no markdown) cut to `max`. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const char of text) {
    if (out.length + char.length > max - 1) break;
    out += char;
  }
  return wordEnd(out, text) + ELLIPSIS;
}

/**
 * A cut text ending on a whole word: when the cut falls inside a word, back to the space before it
 * (unless that would drop most of the text, as with one very long word). Hints stay readable.
 */
export function wordEnd(cut: string, whole: string): string {
  if (whole.length > cut.length && /\S/.test(whole[cut.length]!) && /\S$/.test(cut)) {
    const space = cut.search(/\s\S*$/);
    if (space > cut.length / 2) return cut.slice(0, space).trimEnd();
  }
  return cut.trimEnd();
}
