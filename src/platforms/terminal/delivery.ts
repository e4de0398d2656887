/**
 * Notifications in the terminal: the notifier's posts and edits are printed in the chat, above the
 * prompt. Messages are numbered per run ("message 3"); their ids also name the run (`<run>.3`), so
 * a card posted before a restart is never mistaken for a new one. A terminal cannot edit what it printed, so an edit
 * prints, under the card's title marked as an update, only what changed since that message was last
 * shown (a live card would otherwise be reprinted whole every few seconds). An unknown id, e.g. from
 * before a restart, is printed whole: failing it would count as permanent and turn the subscription off.
 */
import { randomBytes } from 'node:crypto';
import type { Card, Reply } from '../../bot/reply.ts';
import {
  type ChannelTarget,
  claimLost,
  type Delivery,
  DeliveryError,
  type Posted,
  type PostOptions,
} from '../../notify/delivery.ts';
import { TERMINAL_TENANT_ID } from './chat.ts';

/** Where notifications are shown: the chat's `showReply`. */
export type ReplySink = (reply: Reply, header: string) => Promise<void> | void;

export class TerminalDelivery implements Delivery {
  readonly platform = 'terminal' as const;
  #sequence = 0;
  /** This run's prefix of message ids. */
  readonly #run = randomBytes(3).toString('hex');
  #sink: ReplySink | undefined;
  /** Notifications that arrive before a chat is attached are kept and shown once it is. */
  #pending: [Reply, string][] = [];
  /** What each message last showed, to print only the changes of an edit. */
  #shown = new Map<string, Reply>();

  constructor(sink?: ReplySink) {
    this.#sink = sink;
  }

  /** Attaches (or replaces) the chat that shows notifications; shows anything held so far. */
  async attach(sink: ReplySink): Promise<void> {
    this.#sink = sink;
    const pending = this.#pending;
    this.#pending = [];
    for (const [reply, header] of pending) await sink(reply, header);
  }

  async post(target: ChannelTarget, reply: Reply, key: string, options: PostOptions = {}): Promise<Posted> {
    this.#check(target);
    if (options.stillOurs && !(await options.stillOurs())) throw claimLost(key);
    const number = ++this.#sequence;
    const messageId = `${this.#run}.${number}`;
    this.#shown.set(messageId, reply);
    await this.#show(reply, `#${target.channelId} · message ${number}`);
    return { messageId };
  }

  async edit(target: ChannelTarget, messageId: string, reply: Reply): Promise<void> {
    this.#check(target);
    const before = this.#shown.get(messageId);
    this.#shown.set(messageId, reply);
    const changes = before ? changesOf(before, reply) : reply;
    if (changes.cards.length === 0) return;
    const name = messageId.startsWith(`${this.#run}.`)
      ? `message ${messageId.slice(this.#run.length + 1)}`
      : 'a message from before the restart';
    await this.#show(changes, `#${target.channelId} · ${name} (updated)`);
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

  async #show(reply: Reply, header: string): Promise<void> {
    if (this.#sink) await this.#sink(reply, header);
    else this.#pending.push([reply, header]);
  }
}

/** The parts of `after` that differ from `before`: per card, its title and only the changed parts. */
function changesOf(before: Reply, after: Reply): Reply {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const cards: Card[] = [];
  for (const [i, card] of after.cards.entries()) {
    const old = before.cards[i];
    if (!old || old.title !== card.title) {
      cards.push(card);
      continue;
    }
    const fields = (card.fields ?? []).filter(
      (field) =>
        !same(
          field,
          old.fields?.find((f) => f.name === field.name),
        ),
    );
    const changed: Card = { title: card.title, colour: card.colour, fields };
    if (!same(card.description, old.description)) changed.description = card.description;
    if (!same(card.table, old.table)) changed.table = card.table;
    if (card.footer !== old.footer) changed.footer = card.footer;
    if (fields.length > 0 || changed.description || changed.table || changed.footer) cards.push(changed);
  }
  return { ...after, content: same(after.content, before.content) ? undefined : after.content, cards };
}
