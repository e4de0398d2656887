/**
 * The terminal renderer: a neutral `Reply` as lines of text, with ANSI colour when the terminal
 * supports it. Pure: no I/O, no clock reads (the caller passes `now` for relative times).
 *
 * Times show in the tenant's time zone; spoilers as a placeholder (a terminal cannot hide and
 * reveal); tables as compact aligned columns; data is stripped of control characters so a team
 * name can never move the cursor or clear the screen.
 */
import type { Card, Reply, Span, Table, Text, TimeStyle } from '../../bot/reply.ts';
import { zoneName } from '../../bot/time-format.ts';
import { type Translate, translator } from '../../i18n/i18n.ts';
import { localeInstant } from '../locale-time.ts';

interface TerminalRenderOptions {
  /** ANSI colour and emphasis (only on a TTY). */
  colour: boolean;
  /** IANA zone for times (the tenant's). */
  timezone: string;
  /** The reader's language (the tenant's): the renderer's own words and dates. Default English. */
  t?: Translate;
  /** The instant relative times count from. Default: the instants themselves are shown relative to real now. */
  now?: Date;
  /**
   * Columns to fit: lines are wrapped at word boundaries, none wider (but a link). Default 80;
   * `Infinity` for output that is no terminal (a file, a pipe): nothing is wrapped.
   */
  width?: number;
  /**
   * End a reply that shows clock times with the zone they are in ("Times in UTC."), once. Default
   * true; the chat's notifications leave it out (a stream of them would repeat it every time).
   */
  nameZone?: boolean;
}

/** The width when the terminal does not say (not a TTY, or no size). */
export const DEFAULT_WIDTH = 80;
/** Narrower than this, wrapping would leave a word per line: lines are cut to this instead. */
const MIN_WIDTH = 20;

/** The English placeholder of a spoiler (`platform.render.spoilerHidden` in the reader's language). */
export const SPOILER_PLACEHOLDER = '[spoiler hidden]';

const english = translator('en');

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

/** The widest label column of a card's fields (a longer label runs into its value). */
const FIELD_COLUMN = 30;

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI sequences start with ESC
const TOKENS = /(\u001b\[[0-9;]*m)|(\s+)|([^\s\u001b]+)/g;

/** Stands for a space inside a bracketed name while a line is wrapped: never a break. */
const BOUND_SPACE = '\uE000';
const CLOSERS: Record<string, string> = {
  '(': ')',
  '[': ']',
  '<': '>',
  '"': '"',
  '\u201c': '\u201d',
  '\u201e': '\u201c',
};
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI sequences start with ESC
const ENDS_IN_STYLE = /\u001b\[[0-9;]*m$/;

/**
 * Binds the words of each bracketed or quoted group that fits a line ("(SP, tier 1)", "[spoiler
 * hidden]", `"Dexdunwy (Golden Jackals, SP)"`) with `BOUND_SPACE`, so that wrapping never breaks inside it.
 */
function bindBrackets(line: string, width: number): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const close = CLOSERS[line[i]!];
    const before = line.slice(0, i);
    const starts = before === '' || /\s$/.test(before) || ENDS_IN_STYLE.test(before);
    const end = close && starts ? line.indexOf(close, i + 1) : -1;
    const group = end > i ? line.slice(i, end + 1) : '';
    if (group.includes(' ') && !group.slice(1, -1).includes(line[i]!) && visibleWidth(group) <= width) {
      out += group.replace(/ /g, BOUND_SPACE);
      i = end + 1;
    } else out += line[i++];
  }
  return out;
}

/** A link: never cut (a copied link must work), even when wider than the line. */
const isLink = (word: string) => /^<?[a-z][a-z0-9+.-]*:\/\//i.test(word);

/**
 * Wraps one line at word boundaries so that no line is wider than `width` columns: continuation
 * lines start with `indent` spaces; a word longer than a line is cut, except a link, which goes on
 * a line of its own, whole. A bracketed group that fits a line is never broken ("(SP, tier 1)").
 * ANSI styles open at a break are closed at the end of the line and opened again after the indent.
 */
export function wrapLine(line: string, width: number, indent = 0): string[] {
  if (visibleWidth(line) <= width) return [line];
  const bound = bindBrackets(line, width);
  return wrapWords(bound, width, indent).map((part) => part.replaceAll(BOUND_SPACE, ' '));
}

function wrapWords(line: string, width: number, indent: number): string[] {
  const pad = ' '.repeat(Math.max(0, Math.min(indent, width - MIN_WIDTH / 2)));
  const lines: string[] = [];
  // The line's own leading spaces stay on its first line (a wrapped "  data ..." keeps its indent).
  let current = /^ */.exec(line)?.[0] ?? '';
  let used = current.length;
  let empty = true; // nothing but the indent on the current line yet
  let open = ''; // the style in force (the SGR sequences since the last reset)
  let space = '';
  const newLine = () => {
    lines.push(open ? `${current}${RESET}` : current);
    current = pad + open;
    used = pad.length;
    empty = true;
    space = '';
  };
  for (const [, sgr, gap, word] of line.matchAll(TOKENS)) {
    if (sgr) {
      current += sgr;
      open = sgr === RESET ? '' : open + sgr;
      continue;
    }
    if (gap) {
      // Gaps on either side of a style change are one gap (a padded bold label, then its spaces).
      space += gap;
      continue;
    }
    let rest = [...(word ?? '')];
    while (rest.length > 0) {
      const lead = empty ? '' : space;
      if (used + lead.length + rest.length <= width) {
        current += lead + rest.join('');
        used += lead.length + rest.length;
        rest = [];
      } else if (!empty && pad.length + rest.length <= width) {
        newLine();
      } else if (rest.length <= width) {
        // A long word (a link) that fits a line without the indent: a line of its own, not cut.
        if (!empty) newLine();
        current = open;
        used = 0;
        continue;
      } else if (isLink(rest.join(''))) {
        // A link wider than a line: alone on its line, whole, wider than the rest.
        if (!empty) newLine();
        current = open + rest.join('');
        used = rest.length;
        rest = [];
      } else {
        // Longer than a whole line: cut it where the line ends.
        const take = Math.max(1, width - used - lead.length);
        current += lead + rest.slice(0, take).join('');
        rest = rest.slice(take);
        newLine();
        continue;
      }
      empty = false;
      space = '';
    }
  }
  if (!empty || lines.length === 0) lines.push(open ? `${current}${RESET}` : current);
  return lines;
}

/** One line cut to `width` columns with an ellipsis (ANSI styles kept and closed). */
export function clipLine(line: string, width: number): string {
  if (visibleWidth(line) <= width) return line;
  let out = '';
  let used = 0;
  for (const [, sgr, space, word] of line.matchAll(TOKENS)) {
    if (sgr) {
      out += sgr;
      continue;
    }
    for (const char of space ?? word ?? '') {
      if (used >= width - 1) return `${out}…${RESET.repeat(out.includes(ESC) ? 1 : 0)}`;
      out += char;
      used++;
    }
  }
  return out;
}

function style(options: TerminalRenderOptions, codes: string, text: string): string {
  return options.colour && text !== '' ? `${ESC}${codes}m${text}${RESET}` : text;
}

function rgb(colour: number): string {
  return `38;2;${(colour >> 16) & 0xff};${(colour >> 8) & 0xff};${colour & 0xff}`;
}

/**
 * An instant in the tenant's zone and language, without the zone: English in the house style
 * (`src/bot/time-format.ts`), other languages through `Intl` (`../locale-time.ts`).
 */
export function formatTime(
  time: Date,
  timeStyle: TimeStyle,
  zone: string,
  now?: Date,
  t: Translate = english,
): string {
  return localeInstant(time, timeStyle, zone, t, now);
}

function renderSpan(span: Span, options: TerminalRenderOptions): string {
  if (typeof span === 'string') return clean(span);
  if ('command' in span) return style(options, '36', `/${clean(span.command)}`);
  if ('text' in span) {
    let out = clean(span.text);
    if (span.code) out = style(options, '36', out);
    if (span.italic) out = style(options, '3', out);
    if (span.bold) out = style(options, '1', out);
    return out;
  }
  if ('time' in span)
    return style(options, '36', formatTime(span.time, span.style, options.timezone, options.now, options.t));
  if ('spoiler' in span) return style(options, '2', (options.t ?? english)('platform.render.spoilerHidden'));
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
function renderTable(table: Table, options: TerminalRenderOptions): string[] {
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
  const rows = cells.map(line);
  // The advance line: a dotted rule under the teams that go through.
  if (table.cut) rows.splice(table.cut, 0, style(options, '2', widths.map((w) => '┄'.repeat(w)).join('┄┄')));
  return [header, rule, ...rows];
}

function renderCard(card: Card, options: TerminalRenderOptions): string[] {
  const bar = card.colour !== undefined ? style(options, rgb(card.colour), '▌') : '▌';
  // Each line is [text, indent of its continuation lines].
  const lines: [string, number][] = [];
  const push = (line: string, indent = 2) => lines.push([line, indent]);
  let title = style(options, '1', clean(card.title));
  if (card.url) title += ` ${style(options, '2', `<${clean(card.url)}>`)}`;
  push(title);
  for (const line of card.description ?? []) push(renderText(line, options));
  if (card.fields?.length) {
    // The label column: as wide as the labels up to FIELD_COLUMN; a longer one runs into its value.
    const widths = card.fields.map((f) => visibleWidth(clean(f.name)));
    const width = Math.max(0, ...widths.filter((w) => w <= FIELD_COLUMN)) || FIELD_COLUMN;
    for (const field of card.fields) {
      const name = clean(field.name);
      // Continuation lines start under the value's first column, after a label that overflows too.
      push(
        `${style(options, '1', pad(name, width, 'left'))}  ${renderText(field.value, options)}`,
        Math.max(width, visibleWidth(name)) + 2,
      );
    }
  }
  if (card.table) for (const row of renderTable(card.table, options)) push(row);
  if (card.image) {
    const where =
      'url' in card.image
        ? ` <${clean(card.image.url)}>`
        : card.image.path
          ? `: ${clean(card.image.path)}`
          : ` (${clean(card.image.name)})`;
    const image = (options.t ?? english)('platform.render.image');
    push(style(options, '2', `[${image}: ${clean(card.image.alt)}]${where}`));
  }
  for (const button of card.buttons ?? [])
    push(`→ ${clean(button.label)} ${style(options, '2', `<${clean(button.url)}>`)}`);
  if (card.footer) push(style(options, '2', clean(card.footer)));
  // The bar and its space take 2 columns of the width.
  const room = Math.max(MIN_WIDTH, (options.width ?? DEFAULT_WIDTH) - 2);
  return lines.flatMap(([line, indent]) => wrapLine(line, room, indent).map((part) => `${bar} ${part}`));
}

/** Renders a whole reply as terminal text (no trailing newline). */
export function renderReply(reply: Reply, options: TerminalRenderOptions): string {
  const width = Math.max(MIN_WIDTH, options.width ?? DEFAULT_WIDTH);
  const t = options.t ?? english;
  const blocks: string[] = [];
  if (reply.content?.length) blocks.push(wrapLine(renderText(reply.content, options), width).join('\n'));
  for (const card of reply.cards) blocks.push(renderCard(card, options).join('\n'));
  if (reply.stale)
    blocks.push(wrapLine(style(options, '33', `⚠ ${t('platform.render.stale')}`), width, 2).join('\n'));
  // Clock times are shown without their zone: the reply names it once, unless it already does.
  const zone = zoneName(options.timezone);
  if (options.nameZone !== false && hasClockTime(reply) && !blocks.some((b) => b.includes(`(${zone})`)))
    blocks.push(style(options, '2', t('platform.render.timesIn', { zone })));
  return blocks.join('\n\n');
}

/** Does the reply show a time of day (a date and time, or a time)? Relative times and dates need no zone. */
function hasClockTime(reply: Reply): boolean {
  const inText = (text: Text | undefined): boolean =>
    (text ?? []).some(
      (span) =>
        typeof span === 'object' &&
        (('time' in span && (span.style === 'full' || span.style === 'time')) ||
          ('spoiler' in span && inText(span.spoiler))),
    );
  if (inText(reply.content)) return true;
  return reply.cards.some(
    (card) =>
      (card.description ?? []).some(inText) ||
      (card.fields ?? []).some((f) => inText(f.value)) ||
      (card.table?.rows ?? []).some((row) => row.some(inText)),
  );
}
