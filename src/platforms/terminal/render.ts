/**
 * The terminal renderer: a neutral `Reply` as lines of text, with ANSI colour when the terminal
 * supports it. Pure: no I/O, no clock reads (the caller passes `now` for relative times).
 *
 * Times show in the tenant's time zone; spoilers as a placeholder (a terminal cannot hide and
 * reveal); tables as compact aligned columns; data is stripped of control characters so a team
 * name can never move the cursor or clear the screen.
 */
import { DateTime } from 'luxon';
import type { Card, Span, Table, Text, TimeStyle } from '../../bot/reply.ts';
import { type Reply, STALE_NOTICE } from '../../bot/reply.ts';

export interface TerminalRenderOptions {
  /** ANSI colour and emphasis (only on a TTY). */
  colour: boolean;
  /** IANA zone for times (the tenant's). */
  timezone: string;
  /** The instant relative times count from. Default: the instants themselves are shown relative to real now. */
  now?: Date;
}

export const SPOILER_PLACEHOLDER = '[spoiler hidden]';

const ESC = '\u001b[';
const RESET = `${ESC}0m`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI sequences start with ESC
const ANSI = /\u001b\[[0-9;]*m/g;

/** Data text made safe for a terminal: no escape sequences, no control characters, one line. */
export function clean(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').replace(CONTROL, '');
}

/** The visible width of a string (ANSI sequences excluded; one column per code point). */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

function style(options: TerminalRenderOptions, codes: string, text: string): string {
  return options.colour && text !== '' ? `${ESC}${codes}m${text}${RESET}` : text;
}

function rgb(colour: number): string {
  return `38;2;${(colour >> 16) & 0xff};${(colour >> 8) & 0xff};${colour & 0xff}`;
}

/** An instant in the tenant's zone, in the style the reply asked for. */
export function formatTime(time: Date, timeStyle: TimeStyle, zone: string, now?: Date): string {
  const dt = DateTime.fromJSDate(time, { zone });
  if (!dt.isValid) return time.toISOString();
  switch (timeStyle) {
    case 'relative':
      return (
        dt.toRelative({ base: now ? DateTime.fromJSDate(now, { zone }) : DateTime.now().setZone(zone) }) ??
        dt.toISO()!
      );
    case 'time':
      return dt.toFormat('HH:mm');
    case 'date':
      return dt.toFormat('ccc d LLL yyyy');
    default:
      return dt.toFormat('ccc d LLL yyyy, HH:mm ZZZZ');
  }
}

function renderSpan(span: Span, options: TerminalRenderOptions): string {
  if (typeof span === 'string') return clean(span);
  if ('text' in span) {
    let out = clean(span.text);
    if (span.code) out = style(options, '36', out);
    if (span.italic) out = style(options, '3', out);
    if (span.bold) out = style(options, '1', out);
    return out;
  }
  if ('time' in span)
    return style(options, '36', formatTime(span.time, span.style, options.timezone, options.now));
  if ('spoiler' in span) return style(options, '2', SPOILER_PLACEHOLDER);
  if ('link' in span) {
    const label = clean(span.label);
    const url = clean(span.link);
    return label === url || label === ''
      ? style(options, '4', url)
      : `${label} ${style(options, '2', `<${url}>`)}`;
  }
  return style(options, '35', `@${clean(span.role)}`);
}

/** One line of spans. */
export function renderText(text: Text, options: TerminalRenderOptions): string {
  return text.map((span) => renderSpan(span, options)).join('');
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const gap = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return align === 'right' ? gap + text : text + gap;
}

/** A compact table: headers, a rule, aligned rows; two spaces between columns. */
export function renderTable(table: Table, options: TerminalRenderOptions): string[] {
  const cells = table.rows.map((row) => table.columns.map((_, i) => renderText(row[i] ?? [], options)));
  const widths = table.columns.map((column, i) =>
    Math.max(visibleWidth(clean(column.header)), ...cells.map((row) => visibleWidth(row[i]!))),
  );
  const align = (i: number) => table.columns[i]?.align ?? 'left';
  const line = (row: string[]) =>
    row
      .map((cell, i) => pad(cell, widths[i]!, align(i)))
      .join('  ')
      .trimEnd();
  const header = line(table.columns.map((c) => style(options, '1', clean(c.header))));
  const rule = style(options, '2', widths.map((w) => '─'.repeat(w)).join('  '));
  return [header, rule, ...cells.map(line)];
}

function renderCard(card: Card, options: TerminalRenderOptions): string[] {
  const bar = card.colour !== undefined ? style(options, rgb(card.colour), '▌') : '▌';
  const lines: string[] = [];
  let title = style(options, '1', clean(card.title));
  if (card.url) title += ` ${style(options, '2', `<${clean(card.url)}>`)}`;
  lines.push(title);
  for (const line of card.description ?? []) lines.push(renderText(line, options));
  if (card.fields?.length) {
    const width = Math.max(...card.fields.map((f) => visibleWidth(clean(f.name))));
    for (const field of card.fields) {
      lines.push(
        `${style(options, '1', pad(clean(field.name), width, 'left'))}  ${renderText(field.value, options)}`,
      );
    }
  }
  if (card.table) lines.push(...renderTable(card.table, options));
  if (card.image) {
    const where = 'url' in card.image ? ` <${clean(card.image.url)}>` : ` (${clean(card.image.name)})`;
    lines.push(style(options, '2', `[image: ${clean(card.image.alt)}]${where}`));
  }
  for (const button of card.buttons ?? [])
    lines.push(`→ ${clean(button.label)} ${style(options, '2', `<${clean(button.url)}>`)}`);
  if (card.footer) lines.push(style(options, '2', clean(card.footer)));
  return lines.map((line) => `${bar} ${line}`);
}

/** Renders a whole reply as terminal text (no trailing newline). */
export function renderReply(reply: Reply, options: TerminalRenderOptions): string {
  const blocks: string[] = [];
  if (reply.content?.length) blocks.push(renderText(reply.content, options));
  for (const card of reply.cards) blocks.push(renderCard(card, options).join('\n'));
  if (reply.stale) blocks.push(style(options, '33', `⚠ ${STALE_NOTICE}`));
  return blocks.join('\n\n');
}
