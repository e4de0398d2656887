/**
 * Notifications in the terminal: the notifier's posts and edits are printed in the chat, above the
 * prompt. Messages are numbered per run ("message 3"); their ids also name the run (`<run>.3`), so
 * a card posted before a restart is never mistaken for a new one.
 *
 * A terminal cannot edit what it printed, and a live card is edited every few seconds (game clock,
 * in-game score, viewers), so an edit is shown only when something a fan follows changed: the
 * series score or state, the map being played, a map's result (`fanView`). It is shown as one short
 * line naming what changed: a map that ended (with its result, also in the final line) is a line of
 * its own that stays; any other change is rewritten in place while it is the last thing printed.
 * An unknown id, e.g. from before a restart, is printed whole: failing it would count as permanent
 * and turn the subscription off.
 *
 * In the terminal the channel and the person's DMs are the same screen: a DM that shows what a
 * channel message already shows (the same reminder or live card), or the reverse, is one line
 * naming that message, and its updates that repeat the other's are not printed again.
 */
import { randomBytes } from 'node:crypto';
import type { Card, Reply, Text } from '../../bot/reply.ts';
import { TERMINAL_TENANT_ID } from '../../core/tenant-id.ts';
import {
  type ChannelTarget,
  claimCheck,
  type Delivery,
  type Posted,
  type PostOptions,
} from '../../notify/delivery.ts';
import { DeliveryError } from '../../notify/delivery-error.ts';
import { TERMINAL_CHANNEL } from './chat.ts';

/**
 * Where notifications are shown: the chat's `showReply`. An update of a message comes as a one-line
 * reply with `update.replaces` naming that message, so the chat may rewrite its last such line.
 */
type ReplySink = (reply: Reply, header: string, update?: { replaces: string }) => Promise<void> | void;

export class TerminalDelivery implements Delivery {
  readonly platform = 'terminal' as const;
  #sequence = 0;
  /** This run's prefix of message ids. */
  readonly #run = randomBytes(3).toString('hex');
  #sink: ReplySink | undefined;
  /** Notifications that arrive before a chat is attached are kept and shown once it is. */
  #pending: [Reply, string, { replaces: string }?][] = [];
  /** What each message last showed, to print only what a fan cares about of an edit. */
  #shown = new Map<string, Reply>();
  /** The latest message showing each fan view (`repliedView`), with its number and place. */
  #byView = new Map<string, { messageId: string; number: number; place: string; dm: boolean }>();
  /** A DM and the channel message it repeats, both ways. */
  #twin = new Map<string, string>();
  /** The last update line printed (or skipped) per message, to skip its twin's same line. */
  #lastLine = new Map<string, string>();

  constructor(sink?: ReplySink) {
    this.#sink = sink;
  }

  /** Attaches (or replaces) the chat that shows notifications; shows anything held so far. */
  async attach(sink: ReplySink): Promise<void> {
    this.#sink = sink;
    const pending = this.#pending;
    this.#pending = [];
    for (const [reply, header, update] of pending) await sink(reply, header, update);
  }

  async post(target: ChannelTarget, reply: Reply, key: string, options: PostOptions = {}): Promise<Posted> {
    this.#check(target);
    await claimCheck(key, options)?.();
    const number = ++this.#sequence;
    const messageId = `${this.#run}.${number}`;
    this.#shown.set(messageId, reply);
    const place = placeOf(target);
    const dm = isDmTarget(target);
    const view = repliedView(reply);
    const same = this.#byView.get(view);
    this.#remember(view, { messageId, number, place, dm });
    if (same && same.dm !== dm && reply.cards.length > 0) {
      // The same card on the same screen: one line naming the message that shows it.
      this.#twin.set(messageId, same.messageId);
      this.#twin.set(same.messageId, messageId);
      const title = reply.cards[0]!.title;
      const line: Text = [
        `${dm ? 'Also sent to you: message' : 'Same as message'} ${same.number} (${same.place}) · `,
        { text: title, bold: true },
      ];
      // One line under the message's name, as an update is shown.
      await this.#show({ content: line, cards: [] }, `${place} · message ${number}`, { replaces: messageId });
      return { messageId };
    }
    await this.#show(reply, `${place} · message ${number}`);
    return { messageId };
  }

  /** Remembers the latest message per fan view, the oldest forgotten past `MAX_VIEWS`. */
  #remember(view: string, entry: { messageId: string; number: number; place: string; dm: boolean }): void {
    this.#byView.delete(view);
    this.#byView.set(view, entry);
    if (this.#byView.size > MAX_VIEWS) this.#byView.delete(this.#byView.keys().next().value!);
  }

  async edit(target: ChannelTarget, messageId: string, reply: Reply): Promise<void> {
    this.#check(target);
    const before = this.#shown.get(messageId);
    this.#shown.set(messageId, reply);
    if (!before) {
      await this.#show(reply, `${placeOf(target)} · a message from before the restart (updated)`);
      return;
    }
    const posted = this.#byView.get(repliedView(before));
    if (posted?.messageId === messageId) this.#remember(repliedView(reply), posted);
    const update = updateLine(before, reply);
    if (!update) return;
    const { line, mapEnded } = update;
    // Its twin (the channel message a DM repeats, or the reverse) printed this very line already.
    const said = JSON.stringify(line);
    const twin = this.#twin.get(messageId);
    const repeated = twin !== undefined && this.#lastLine.get(twin) === said;
    this.#lastLine.set(messageId, said);
    if (repeated) return;
    // Short, so the line has room for what changed: the channel is named unless it is the chat's own.
    const channel = target.channelId === TERMINAL_CHANNEL.id ? '' : `${placeOf(target)} `;
    const name = `${channel}↻ message ${messageId.slice(this.#run.length + 1)}`;
    // A map's result stays on the screen; a change of the game being played rewrites the last line.
    await this.#show({ content: line, cards: [] }, name, mapEnded ? undefined : { replaces: messageId });
  }

  #check(target: ChannelTarget): void {
    if (target.platform !== 'terminal' || target.tenantId !== TERMINAL_TENANT_ID) {
      throw new DeliveryError(
        'permanent',
        'UNKNOWN_CHANNEL',
        `The terminal only shows ${TERMINAL_TENANT_ID}, not ${target.tenantId}.`,
      );
    }
  }

  async #show(reply: Reply, header: string, update?: { replaces: string }): Promise<void> {
    if (this.#sink) await this.#sink(reply, header, update);
    else this.#pending.push([reply, header, update]);
  }
}

/** The field of a card that names the game being played ("Now: game 3 · Citadel"). */
const isNow = (name: string) => /^now\b/i.test(name);
/** A field holding one map's (game's) result ("Game 2 · Vineyard"). */
const isGame = (name: string) => /^(game|map)\s+\d+/i.test(name);

/**
 * What a fan follows on a card: its title, description (series score or result, state), footer
 * ("Final"), which game is being played on which map, and each finished map's result. Not the game
 * clock, in-game score, economy, streams or viewers: those change every few seconds.
 */
function fanView(card: Card): string {
  return JSON.stringify([
    card.title,
    card.description ?? [],
    card.footer ?? '',
    (card.fields ?? []).flatMap((f): unknown[] =>
      isNow(f.name) ? [f.name] : isGame(f.name) ? [[f.name, f.value]] : [],
    ),
  ]);
}

/**
 * One line saying what a fan cares about that changed between two versions of a message, or
 * undefined when nothing did. When the description changed (the series score, "Final: ..."), that
 * line says it all (it names the teams), with the game now played; otherwise the card's title, the
 * maps newly finished and the game now played.
 */
function updateLine(before: Reply, after: Reply): { line: Text; mapEnded: boolean } | undefined {
  const parts: Text[] = [];
  let mapEnded = false;
  for (const [i, card] of after.cards.entries()) {
    const old = before.cards[i];
    if (old && fanView(old) === fanView(card)) continue;
    const oldLines = new Set((old?.description ?? []).map((line) => JSON.stringify(line)));
    const changed: Text[] = (card.description ?? []).filter((line) => !oldLines.has(JSON.stringify(line)));
    // Each map that ended since (its result), also beside a new series score or the final result.
    const maps: Text[] = [];
    for (const field of card.fields ?? []) {
      if (!isGame(field.name)) continue;
      const was = old?.fields?.find((f) => f.name === field.name);
      if (!was || JSON.stringify(was.value) !== JSON.stringify(field.value))
        maps.push([`${field.name}: `, ...field.value]);
    }
    if (maps.length > 0) mapEnded = true;
    if (changed.length === 0) changed.push([card.title]);
    changed.push(...maps);
    // The game now played, by its name only (its in-game score changes every few seconds).
    const oldNames = new Set((old?.fields ?? []).map((f) => f.name));
    for (const field of card.fields ?? [])
      if (isNow(field.name) && !oldNames.has(field.name)) changed.push([field.name]);
    parts.push(changed.flatMap((line, j) => (j === 0 ? line : [' · ', ...line])));
  }
  if (parts.length === 0) return undefined;
  return { line: parts.flatMap((part, j) => (j === 0 ? part : [' | ', ...part])), mapEnded };
}

/** Fan views remembered to find a DM that repeats a channel message. */
const MAX_VIEWS = 200;

/** What a reply shows a fan, every card's `fanView`: equal for a DM and the channel card it repeats. */
function repliedView(reply: Reply): string {
  return JSON.stringify([reply.content ?? [], reply.cards.map(fanView)]);
}

/** Is this the person's own DMs (`dm:<id>`)? */
function isDmTarget(target: ChannelTarget): boolean {
  return target.channelId.startsWith('dm:');
}

/** Where a post goes, as the header names it: "#terminal", or "your DMs" for the person's own (`dm:<id>`). */
function placeOf(target: ChannelTarget): string {
  return isDmTarget(target) ? 'your DMs' : `#${target.channelId}`;
}
