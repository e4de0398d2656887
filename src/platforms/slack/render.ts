/**
 * The neutral reply as a Slack message: Block Kit blocks within Slack's limits, plus the fallback
 * `text` Slack shows in notifications. Pure: no network, no Bolt. The text inside the blocks (mrkdwn
 * from spans, escaping, cutting) comes from `mrkdwn.ts`.
 *
 * - Limits (https://docs.slack.dev/reference/block-kit/blocks): 50 blocks, section text 3000, header
 *   150, 10 fields of 2000. Long text is split over several sections; what still does not fit in 50
 *   blocks is left out with a note saying so. A message never comes back `invalid_blocks`.
 * - Every mrkdwn object is `verbatim` so Slack does not auto-parse names into mentions or channel
 *   links. Headers are `plain_text`, which Slack never parses.
 * - Slack has no spoiler markup: a spoiler is blanked out and its section gets a "Reveal" button whose
 *   click answers the clicker alone (`REVEAL_ACTION`, handled in `app.ts`).
 */
import type { types } from '@slack/bolt';
import { pageButtons } from '../../bot/pages.ts';
import type { Card, Field, Reply, Table, Text } from '../../bot/reply.ts';
import { type Translate, translator } from '../../i18n/i18n.ts';
import {
  cellText,
  escapeMrkdwn,
  httpUrl,
  mrkdwnUrl,
  renderSpans,
  type SpanOptions,
  truncateMrkdwn,
  truncatePlain,
} from './mrkdwn.ts';

/** Slack's Block Kit limits, as named constants. */
const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  imageUrl: 3000,
  altText: 2000,
  /** Our own cap for the notification fallback; Slack allows 40,000 but previews show a line or two. */
  fallbackText: 3000,
} as const;

/** Action ids of the reveal buttons start with this; the value holds the revealed mrkdwn. */
export const REVEAL_ACTION = 'matchday_reveal';
/** Action ids of link buttons start with this (Slack still sends a block action for them: ack it). */
export const LINK_ACTION = 'matchday_link';
/** The action id of the previous/next page buttons (`matchday_page_previous`, `matchday_page_next`). */
export const PAGE_ACTION_ID = 'matchday_page';

type SlackBlock = types.KnownBlock;

/** A message ready for `chat.postMessage`, `chat.update` or `respond()`. */
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
}

function hasSpoiler(text: Text): boolean {
  return text.some((span) => typeof span === 'object' && 'spoiler' in span);
}

/** A cell's width in a table's code block: a result ("Northern Griffins 1–0 Emerald Hornets") fits. */
const MAX_CELL = 50;

/** The table as monospace lines: a header row, a rule, then the rows; one string per line. */
function tableLines(
  table: Table,
  reveal: boolean,
  t: Translate,
): { lines: string[]; spoilerRows: Set<number> } {
  const cells = table.rows.map((row) =>
    row.map((cell) => truncatePlain(cellText(cell, reveal, t), MAX_CELL)),
  );
  const timed = (i: number) =>
    table.rows.some((row) =>
      (row[i] ?? []).some((span) => typeof span === 'object' && 'time' in span && span.style !== 'date'),
    );
  const headers = table.columns.map((column, i) =>
    truncatePlain(timed(i) ? `${column.header} (UTC)` : column.header, MAX_CELL),
  );
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...cells.map((row) => (row[i] ?? '').length)),
  );
  const pad = (value: string, i: number) =>
    table.columns[i]?.align === 'right' ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0);
  const line = (values: string[]) =>
    values
      .map((value, i) => pad(value, i))
      .join('  ')
      .trimEnd();
  // The advance line: a dotted rule under the teams that go through (a line of its own).
  const cutAt = table.cut ?? Number.POSITIVE_INFINITY;
  const spoilerRows = new Set<number>();
  table.rows.forEach((row, index) => {
    if (row.some(hasSpoiler)) spoilerRows.add(index + 2 + (index >= cutAt ? 1 : 0));
  });
  const rows = cells.map((row) => line(row));
  if (table.cut) rows.splice(table.cut, 0, widths.map((w) => '┄'.repeat(w)).join('┄┄'));
  return {
    lines: [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows],
    spoilerRows,
  };
}

/** Builds blocks while counting action ids, so every id in one message is unique. */
class BlockBuilder {
  #actions = 0;
  /** The reader's language: the buttons' words. */
  constructor(readonly t: Translate) {}

  section(mrkdwn: string, revealed?: string): types.SectionBlock {
    const block: types.SectionBlock = {
      type: 'section',
      text: { type: 'mrkdwn', text: truncateMrkdwn(mrkdwn, SLACK_LIMITS.sectionText) || ' ', verbatim: true },
    };
    if (revealed !== undefined) block.accessory = this.revealButton(revealed);
    return block;
  }

  revealButton(revealed: string): types.Button {
    this.#actions += 1;
    return {
      type: 'button',
      action_id: `${REVEAL_ACTION}_${this.#actions}`,
      text: { type: 'plain_text', text: this.t('platform.render.reveal'), emoji: true },
      value: truncateMrkdwn(revealed, SLACK_LIMITS.buttonValue),
    };
  }

  linkButton(label: string, url: string): types.Button {
    this.#actions += 1;
    return {
      type: 'button',
      action_id: `${LINK_ACTION}_${this.#actions}`,
      text: {
        type: 'plain_text',
        text: truncatePlain(label, SLACK_LIMITS.buttonText) || this.t('platform.render.open'),
        emoji: true,
      },
      url,
    };
  }
}

/** Packs lines into chunks of at most `max` characters (joined by newlines); an over-long line is cut. */
function pack(lines: string[], max: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const raw of lines) {
    const line = truncateMrkdwn(raw, max);
    if (current === '') current = line;
    else if (current.length + 1 + line.length <= max) current += `\n${line}`;
    else {
      chunks.push(current);
      current = line;
    }
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

function descriptionBlocks(lines: Text[], builder: BlockBuilder, options: SpanOptions): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  // Lines without spoilers pack together; a line with one gets its own section and Reveal button.
  let plain: string[] = [];
  const flush = () => {
    for (const chunk of pack(plain, SLACK_LIMITS.sectionText)) blocks.push(builder.section(chunk));
    plain = [];
  };
  for (const line of lines) {
    const masked = renderSpans(line, options);
    if (!masked.spoiler) {
      plain.push(masked.mrkdwn === '' ? ' ' : masked.mrkdwn);
      continue;
    }
    flush();
    const revealed = renderSpans(line, { ...options, reveal: true }).mrkdwn;
    blocks.push(builder.section(masked.mrkdwn, revealed));
  }
  flush();
  return blocks;
}

function fieldText(field: Field, options: SpanOptions, max: number): { text: string; revealed?: string } {
  const name = `*${escapeMrkdwn(field.name.trim() || ' ')}*`;
  const value = renderSpans(field.value, options);
  const text = truncateMrkdwn(`${name}\n${value.mrkdwn || ' '}`, max);
  if (!value.spoiler) return { text };
  const revealed = renderSpans(field.value, { ...options, reveal: true }).mrkdwn;
  return { text, revealed: `${name}\n${revealed}` };
}

function fieldBlocks(fields: Field[], builder: BlockBuilder, options: SpanOptions): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  let group: Field[] = [];
  const flush = () => {
    if (group.length === 0) return;
    const rendered = group.map((field) => fieldText(field, options, SLACK_LIMITS.fieldText));
    const revealed = rendered.filter((r) => r.revealed !== undefined).map((r) => r.revealed);
    const block: types.SectionBlock = {
      type: 'section',
      fields: rendered.map((r) => ({ type: 'mrkdwn', text: r.text, verbatim: true })),
    };
    if (revealed.length > 0) block.accessory = builder.revealButton(revealed.join('\n'));
    blocks.push(block);
    group = [];
  };
  for (const field of fields) {
    if (field.inline === false) {
      flush();
      const rendered = fieldText(field, options, SLACK_LIMITS.sectionText);
      blocks.push(builder.section(rendered.text, rendered.revealed));
      continue;
    }
    group.push(field);
    if (group.length === SLACK_LIMITS.sectionFields) flush();
  }
  flush();
  return blocks;
}

function tableBlocks(table: Table, builder: BlockBuilder): SlackBlock[] {
  const masked = tableLines(table, false, builder.t);
  const revealed = masked.spoilerRows.size > 0 ? tableLines(table, true, builder.t) : undefined;
  const fence = (lines: string[]) => `\`\`\`\n${lines.map(escapeMrkdwn).join('\n')}\n\`\`\``;
  // Each section holds the header and as many rows as fit (with the fences) in 3000 characters.
  const budget = SLACK_LIMITS.sectionText - 8;
  const blocks: SlackBlock[] = [];
  const [head = '', rule = ''] = masked.lines;
  let start = 2;
  while (start < masked.lines.length || blocks.length === 0) {
    const chunk = [head, rule];
    const rowIndexes: number[] = [];
    let size = escapeMrkdwn(head).length + escapeMrkdwn(rule).length + 1;
    while (start < masked.lines.length) {
      const line = masked.lines[start] ?? '';
      const cost = escapeMrkdwn(line).length + 1;
      if (size + cost > budget && rowIndexes.length > 0) break;
      chunk.push(line);
      rowIndexes.push(start);
      size += cost;
      start += 1;
    }
    const spoilerIndexes = rowIndexes.filter((i) => masked.spoilerRows.has(i));
    const reveal =
      revealed && spoilerIndexes.length > 0
        ? fence([head, rule, ...spoilerIndexes.map((i) => revealed.lines[i] ?? '')])
        : undefined;
    blocks.push(builder.section(fence(chunk), reveal));
  }
  return blocks;
}

function cardBlocks(card: Card, builder: BlockBuilder, options: SpanOptions): SlackBlock[] {
  const blocks: SlackBlock[] = [];
  // Header text is plain_text, which Slack never parses for mentions or links.
  blocks.push({
    type: 'header',
    text: {
      type: 'plain_text',
      text: truncatePlain(card.title.trim() || ' ', SLACK_LIMITS.headerText),
      emoji: true,
    },
  });
  if (card.description?.length) blocks.push(...descriptionBlocks(card.description, builder, options));
  if (card.fields?.length) blocks.push(...fieldBlocks(card.fields, builder, options));
  if (card.table) blocks.push(...tableBlocks(card.table, builder));
  if (card.image) {
    if ('url' in card.image) {
      const url = httpUrl(card.image.url);
      if (url && url.length <= SLACK_LIMITS.imageUrl) {
        blocks.push({
          type: 'image',
          image_url: url,
          alt_text: truncatePlain(card.image.alt || 'image', SLACK_LIMITS.altText),
        });
      }
    } else {
      // Attached pictures need a file upload, which a response_url cannot carry: say what it shows.
      blocks.push({
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: truncateMrkdwn(`🖼 ${escapeMrkdwn(card.image.alt || card.image.name)}`, 3000),
            verbatim: true,
          },
        ],
      });
    }
  }
  const buttons = (card.buttons ?? []).flatMap((button) => {
    const url = httpUrl(button.url);
    return url && url.length <= SLACK_LIMITS.buttonUrl ? [builder.linkButton(button.label, url)] : [];
  });
  for (let i = 0; i < buttons.length; i += SLACK_LIMITS.actionsElements) {
    blocks.push({ type: 'actions', elements: buttons.slice(i, i + SLACK_LIMITS.actionsElements) });
  }
  const context: string[] = [];
  if (card.footer?.trim()) context.push(escapeMrkdwn(card.footer));
  const url = card.url ? mrkdwnUrl(card.url) : undefined;
  if (url) context.push(`<${url}|Open on the web>`);
  if (context.length > 0) {
    blocks.push({
      type: 'context',
      elements: context.map((text) => ({
        type: 'mrkdwn' as const,
        text: truncateMrkdwn(text, SLACK_LIMITS.contextText),
        verbatim: true,
      })),
    });
  }
  return blocks;
}

/** The fallback `text`: what notifications and screen readers show. Escaped like everything else. */
function fallbackText(reply: Reply, options: SpanOptions): string {
  const parts: string[] = [];
  if (reply.content?.length) parts.push(renderSpans(reply.content, options).mrkdwn);
  for (const card of reply.cards) {
    const first = card.description?.[0];
    const line = first ? renderSpans(first, options).mrkdwn : '';
    parts.push(line ? `${escapeMrkdwn(card.title)}: ${line}` : escapeMrkdwn(card.title));
  }
  const text = parts.join('\n').trim();
  return truncateMrkdwn(text || 'Matchday', SLACK_LIMITS.fallbackText);
}

const english = translator('en');

/**
 * Renders a neutral reply as a Slack message within Block Kit limits. Blocks that do not fit in 50 are
 * left out, whole, and a closing note says how many; cards are separated by dividers.
 */
export function renderReply(reply: Reply, { t = english }: { t?: Translate } = {}): SlackMessage {
  const options: SpanOptions = { reveal: false, mentionRoles: new Set(reply.mentionRoles ?? []), t };
  const builder = new BlockBuilder(t);
  const groups: SlackBlock[][] = [];
  if (reply.content?.length) {
    const content = descriptionBlocks([reply.content], builder, options);
    if (content.length > 0) groups.push(content);
  }
  reply.cards.forEach((card, index) => {
    const blocks = cardBlocks(card, builder, options);
    if (index > 0 || groups.length > 0) blocks.unshift({ type: 'divider' });
    groups.push(blocks);
  });
  const tail: SlackBlock[] = [];
  // A paged reply: previous/next buttons, always kept; a click runs the page's command line (`app.ts`).
  const pages = reply.pager ? pageButtons(reply.pager, t) : [];
  if (pages.length > 0)
    tail.push({
      type: 'actions',
      elements: pages.map(
        (b): types.Button => ({
          type: 'button',
          action_id: `${PAGE_ACTION_ID}_${b.previous ? 'previous' : 'next'}`,
          text: { type: 'plain_text', text: b.label, emoji: true },
          value: b.action,
        }),
      ),
    });
  if (reply.stale)
    tail.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `:warning: ${t('platform.render.stale')}`, verbatim: true }],
    });

  const all = groups.flat();
  const room = SLACK_LIMITS.blocks - tail.length;
  let blocks: SlackBlock[];
  if (all.length <= room) blocks = all;
  else {
    // Keep the first blocks (one for the note); drop a trailing divider so the cut looks deliberate.
    blocks = all.slice(0, room - 1);
    while (blocks.at(-1)?.type === 'divider') blocks.pop();
    const left = all.length - blocks.length;
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `_${t('platform.render.shortened', { count: left })}_`,
          verbatim: true,
        },
      ],
    });
  }
  if (blocks.length === 0 && tail.length === 0) blocks.push(builder.section(fallbackText(reply, options)));
  return { text: fallbackText(reply, options), blocks: [...blocks, ...tail] };
}

/** The message a Reveal click answers with, to the clicker alone: the revealed mrkdwn from the button. */
export function revealMessage(revealed: string): SlackMessage {
  const text = truncateMrkdwn(revealed || ' ', SLACK_LIMITS.sectionText);
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text, verbatim: true } }] };
}
