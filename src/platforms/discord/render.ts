/**
 * The neutral reply (`src/bot/reply.ts`) as Discord messages: embeds, link buttons, an attachment,
 * native `<t:unix:f>` times and `||spoiler||` markup, always within Discord's limits (the API answers
 * 400 to anything over them, and a 400 loses the answer). Text from data is escaped so that a team
 * called `@everyone`, `**x**` or `<@&1>` shows as written and pings nobody, and every message says
 * `allowed_mentions: { parse: [], roles: <the reply's mentionRoles> }`.
 *
 * Spans become markdown in `render-text.ts`. Pure: no network, no discord.js client. Limits from
 * https://discord.com/developers/docs/resources/message#embed-object-embed-limits.
 */
import { createHash } from 'node:crypto';
import type {
  APIActionRowComponent,
  APIButtonComponent,
  APIButtonComponentWithURL,
  APIEmbed,
  APIEmbedField,
  InteractionEditReplyOptions,
  InteractionReplyOptions,
} from 'discord.js';
import { ButtonStyle, ComponentType, MessageFlags } from 'discord.js';
import { pageButtons } from '../../bot/pages.ts';
import type { Card, Reply, Table, Text } from '../../bot/reply.ts';
import { type Translate, translator } from '../../i18n/i18n.ts';
import { cut, escapeText, renderText, SNOWFLAKE, safeUrl, ZWSP } from './render-text.ts';

/** Discord's limits, named. Lengths are counted in UTF-16 units, which never undercounts Discord's characters. */
const DISCORD_LIMITS = {
  content: 2000,
  embedsPerMessage: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  embedTotal: 6000,
  actionRows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  attachmentDescription: 1024,
  nonce: 25,
} as const;

/** A row of buttons: links, and the previous/next page buttons of a paged reply. */
type LinkRow = APIActionRowComponent<APIButtonComponent>;

/** One Discord message, in the API's own field names. */
export interface DiscordMessage {
  content?: string;
  embeds: APIEmbed[];
  components: LinkRow[];
  allowed_mentions: { parse: []; roles: string[] };
  files: { name: string; data: Buffer; description?: string }[];
  /** 64 (ephemeral) when only the asking user may see it. */
  flags?: number;
}

interface RenderOptions {
  /**
   * Everything in one message (notifications, whose one message is edited in place): what does
   * not fit is shortened with a note instead of spilling into further messages.
   */
  single?: boolean;
  /** The reader's language (the tenant's): the renderer's own words. Default English. */
  t?: Translate;
}

const english = translator('en');

function isPlainCell(cell: Text): boolean {
  return cell.every((span) => typeof span === 'string' || ('text' in span && !span.code));
}

/**
 * A table as description lines. Plain tables become an aligned code block (monospace is the only
 * way to align columns in Discord); a table with times, spoilers, links or roles keeps them native,
 * one row per line, because markup does not work inside code blocks.
 */
function tableBlocks(table: Table, budget: number): string[] {
  if (table.rows.every((row) => row.every(isPlainCell))) {
    const cells = [
      table.columns.map((c) => c.header),
      ...table.rows.map((row) => row.map((cell) => plain(cell))),
    ].map((row) => row.map((cell) => cell.replace(/`/g, 'ˋ').replace(/\s+/g, ' ')));
    const widths = table.columns.map((_, i) =>
      Math.max(...cells.map((row) => Array.from(row[i] ?? '').length)),
    );
    const lines = cells.map((row) =>
      table.columns
        .map((column, i) => {
          const cell = row[i] ?? '';
          const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - Array.from(cell).length));
          return column.align === 'right' ? pad + cell : cell + pad;
        })
        .join('  ')
        .trimEnd(),
    );
    // The advance line: a dotted rule under the teams that go through.
    if (table.cut) lines.splice(table.cut + 1, 0, widths.map((w) => '┄'.repeat(w)).join('┄┄'));
    const header = lines[0] ?? '';
    const blocks: string[] = [];
    let current: string[] = [];
    const close = (rows: string[]) => `\`\`\`\n${rows.join('\n')}\n\`\`\``;
    for (const line of lines.slice(1)) {
      const row = cut(line, budget - 8 - header.length - 1);
      if (current.length > 0 && close([header, ...current, row]).length > budget) {
        blocks.push(close([header, ...current]));
        current = [];
      }
      current.push(row);
    }
    blocks.push(close([header, ...current]));
    return blocks;
  }
  const header = table.columns.map((c) => `**${escapeText(c.header)}**`).join(' · ');
  const rows = table.rows.map((row) =>
    renderText(
      row.flatMap((cell, i) => (i === 0 ? cell : [' · ', ...cell])),
      budget,
    ),
  );
  if (table.cut) rows.splice(table.cut, 0, '┄┄┄┄┄┄');
  return [cut(header, budget), ...rows];
}

function plain(cell: Text): string {
  return cell.map((span) => (typeof span === 'string' ? span : 'text' in span ? span.text : '')).join('');
}

/** Joins lines into chunks of at most `max` characters, never splitting a line. */
function chunkLines(lines: string[], max: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of lines) {
    const next = current === '' ? line : `${current}\n${line}`;
    if (next.length <= max) {
      current = next;
      continue;
    }
    if (current !== '') chunks.push(current);
    current = line.length <= max ? line : cut(line, max);
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

function embedSize(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

function fileName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  return /\.png$/i.test(cleaned) ? cleaned : `${cleaned || 'image'}.png`;
}

/** A card as one or more embeds (continuations carry the colour but not the title), plus its file. */
function cardEmbeds(card: Card): { embeds: APIEmbed[]; file?: DiscordMessage['files'][number] } {
  const colour = card.colour;
  const base = (): APIEmbed => (colour === undefined ? {} : { color: colour });
  const lines = (card.description ?? []).map((line) => renderText(line, DISCORD_LIMITS.embedDescription));
  if (card.table) lines.push(...tableBlocks(card.table, DISCORD_LIMITS.embedDescription));
  const descriptions = chunkLines(lines, DISCORD_LIMITS.embedDescription);
  const footer = card.footer ? cut(card.footer, DISCORD_LIMITS.footer) : undefined;

  const first: APIEmbed = { ...base(), title: renderText([card.title], DISCORD_LIMITS.embedTitle) || ZWSP };
  const url = card.url ? safeUrl(card.url) : undefined;
  if (url) first.url = url;
  let file: DiscordMessage['files'][number] | undefined;
  if (card.image && 'png' in card.image) {
    const name = fileName(card.image.name);
    file = {
      name,
      data: Buffer.from(card.image.png),
      description: cut(card.image.alt, DISCORD_LIMITS.attachmentDescription),
    };
    first.image = { url: `attachment://${name}` };
  } else if (card.image) {
    const imageUrl = safeUrl(card.image.url);
    if (imageUrl) first.image = { url: imageUrl };
  }
  const embeds: APIEmbed[] = [first];
  descriptions.forEach((description, i) => {
    if (i === 0) first.description = description;
    else embeds.push({ ...base(), description });
  });

  // Fields go after the description, in as many embeds as the 25-field and 6000-character limits need.
  const room = DISCORD_LIMITS.embedTotal - (footer?.length ?? 0);
  for (const field of card.fields ?? []) {
    const rendered: APIEmbedField = {
      name: renderText([field.name], DISCORD_LIMITS.fieldName) || ZWSP,
      value: renderText(field.value, DISCORD_LIMITS.fieldValue) || ZWSP,
    };
    if (field.inline) rendered.inline = true;
    let last = embeds[embeds.length - 1]!;
    const fields = last.fields ?? [];
    if (
      fields.length >= DISCORD_LIMITS.embedFields ||
      embedSize(last) + rendered.name.length + rendered.value.length > room
    ) {
      last = base();
      embeds.push(last);
    }
    last.fields = [...(last.fields ?? []), rendered];
  }
  if (footer) embeds[embeds.length - 1]!.footer = { text: footer };
  return file ? { embeds, file } : { embeds };
}

function buttonRows(reply: Reply, t: Translate): LinkRow[] {
  const buttons: APIButtonComponentWithURL[] = [];
  for (const card of reply.cards) {
    for (const button of card.buttons ?? []) {
      const url = safeUrl(button.url);
      if (!url || buttons.some((b) => b.url === url)) continue;
      buttons.push({
        type: ComponentType.Button,
        style: ButtonStyle.Link,
        label: cut(button.label, DISCORD_LIMITS.buttonLabel) || t('platform.render.open'),
        url,
      });
    }
  }
  const rows: LinkRow[] = [];
  // A paged reply: previous/next first; a click runs the page's command line (`bot.ts`).
  const pages = reply.pager ? pageButtons(reply.pager, t) : [];
  if (pages.length > 0)
    rows.push({
      type: ComponentType.ActionRow,
      components: pages.map((b) => ({
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: b.label,
        custom_id: b.action,
      })),
    });
  for (
    let i = 0;
    i < buttons.length && rows.length < DISCORD_LIMITS.actionRows;
    i += DISCORD_LIMITS.buttonsPerRow
  ) {
    rows.push({
      type: ComponentType.ActionRow,
      components: buttons.slice(i, i + DISCORD_LIMITS.buttonsPerRow),
    });
  }
  return rows;
}

/**
 * Renders a reply as Discord messages: usually one; several when the cards exceed one message's
 * 10 embeds or 6000 characters (unless `single`). The first carries the content; the last carries
 * the link buttons.
 */
export function renderReply(reply: Reply, options: RenderOptions = {}): DiscordMessage[] {
  const roles = [...new Set(reply.mentionRoles ?? [])].filter((role) => SNOWFLAKE.test(role)).slice(0, 100);
  const flags = reply.ephemeral ? MessageFlags.Ephemeral : undefined;
  const make = (): DiscordMessage => ({
    embeds: [],
    components: [],
    allowed_mentions: { parse: [], roles },
    files: [],
    ...(flags ? { flags } : {}),
  });

  const t = options.t ?? english;
  const notice = reply.stale ? `-# ⚠️ ${t('platform.render.stale')}` : '';
  const contentBudget = DISCORD_LIMITS.content - (notice ? notice.length + 1 : 0);
  const content = [reply.content ? renderText(reply.content, contentBudget) : '', notice]
    .filter(Boolean)
    .join('\n');

  const messages: DiscordMessage[] = [make()];
  if (content) messages[0]!.content = content;
  let dropped = 0;
  for (const card of reply.cards) {
    const { embeds, file } = cardEmbeds(card);
    for (const embed of embeds) {
      let message = messages[messages.length - 1]!;
      const used = message.embeds.reduce((n, e) => n + embedSize(e), 0);
      if (
        message.embeds.length >= DISCORD_LIMITS.embedsPerMessage ||
        used + embedSize(embed) > DISCORD_LIMITS.embedTotal
      ) {
        if (options.single) {
          dropped += 1;
          continue;
        }
        message = make();
        messages.push(message);
      }
      message.embeds.push(embed);
      if (
        file &&
        embed.image?.url === `attachment://${file.name}` &&
        !message.files.some((f) => f.name === file.name)
      ) {
        message.files.push(file);
      }
    }
  }
  const last = messages[messages.length - 1]!;
  if (dropped > 0) {
    const note = `-# ${t('platform.render.moreParts', { count: dropped })}`;
    last.content = last.content ? cut(`${last.content}\n${note}`, DISCORD_LIMITS.content) : note;
  }
  last.components = buttonRows(reply, t);
  for (const message of messages) {
    if (!message.content && message.embeds.length === 0 && message.components.length === 0)
      message.content = t('platform.render.nothing');
  }
  return messages;
}

/**
 * A deterministic nonce of at most 25 characters for a notification's ledger key: a retried post
 * with the same key (and `enforce_nonce`) returns the first message instead of creating another.
 */
export function nonceFor(key: string, part = 0): string {
  const digest = createHash('sha256').update(`${key}#${part}`).digest('base64url');
  return digest.slice(0, DISCORD_LIMITS.nonce);
}

/** The JSON body and files for `POST`/`PATCH /channels/{id}/messages` through `client.rest`. */
export function restBody(
  message: DiscordMessage,
  options: { nonce?: string; edit?: boolean } = {},
): { body: Record<string, unknown>; files: { name: string; data: Buffer }[] } {
  const body: Record<string, unknown> = {
    content: message.content ?? (options.edit ? '' : undefined),
    embeds: message.embeds,
    components: message.components,
    allowed_mentions: message.allowed_mentions,
    attachments: message.files.map((file, id) => ({
      id,
      filename: file.name,
      description: file.description,
    })),
  };
  if (message.flags !== undefined && !options.edit) body.flags = message.flags;
  if (options.nonce) {
    body.nonce = options.nonce;
    body.enforce_nonce = true;
  }
  return { body, files: message.files.map((file) => ({ name: file.name, data: file.data })) };
}

function baseOptions(message: DiscordMessage) {
  return {
    content: message.content ?? '',
    embeds: message.embeds,
    components: message.components,
    allowedMentions: { parse: [], roles: message.allowed_mentions.roles },
    files: message.files.map((file) => ({
      attachment: file.data,
      name: file.name,
      ...(file.description ? { description: file.description } : {}),
    })),
  };
}

/** The options discord.js takes for `interaction.reply` and `followUp`. */
export function interactionOptions(message: DiscordMessage): InteractionReplyOptions {
  return {
    ...baseOptions(message),
    ...(message.flags !== undefined ? { flags: MessageFlags.Ephemeral } : {}),
  };
}

/** The options for `interaction.editReply` (visibility was fixed when the reply was deferred). */
export function editOptions(message: DiscordMessage): InteractionEditReplyOptions {
  return baseOptions(message);
}
