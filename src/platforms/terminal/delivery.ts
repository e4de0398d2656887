/**
 * Notifications in the terminal: the notifier's posts and edits are printed in the chat, above the
 * prompt. Message ids are sequence numbers. A terminal cannot edit what it printed, so an edit
 * reprints the card marked as an update (an unknown id, e.g. from before a restart, is reprinted
 * too: failing it would count as permanent and turn the subscription off).
 */
import type { Reply } from '../../bot/reply.ts';
import { type ChannelTarget, type Delivery, DeliveryError, type Posted } from '../../notify/delivery.ts';
import { TERMINAL_TENANT_ID } from './chat.ts';

/** Where notifications are shown: the chat's `showReply`. */
export type ReplySink = (reply: Reply, header: string) => Promise<void> | void;

export class TerminalDelivery implements Delivery {
  readonly platform = 'terminal' as const;
  #sequence = 0;
  #sink: ReplySink | undefined;
  /** Notifications that arrive before a chat is attached are kept and shown once it is. */
  #pending: [Reply, string][] = [];

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

  async post(target: ChannelTarget, reply: Reply, _key: string): Promise<Posted> {
    this.#check(target);
    const messageId = String(++this.#sequence);
    await this.#show(reply, `#${target.channelId} · message ${messageId}`);
    return { messageId };
  }

  async edit(target: ChannelTarget, messageId: string, reply: Reply): Promise<void> {
    this.#check(target);
    await this.#show(reply, `#${target.channelId} · message ${messageId} (updated)`);
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
