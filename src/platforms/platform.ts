/**
 * What a chat platform adapter gives the process once started (src/platforms/discord and
 * src/platforms/slack; main.ts starts them): the `Delivery` the notifier posts through, and a way to
 * stop. The terminal chat is the process' own console: main.ts runs it with its `TerminalDelivery`.
 * Commands reach every adapter's users through `Runtime` (src/bot/runtime.ts).
 */
import type { Delivery } from '../notify/delivery.ts';

export interface ChatPlatform {
  /** Posts and edits notifications on this platform (the notifier's `deliveries[platform]`). */
  readonly delivery: Delivery;
  /** Disconnects; in-flight posts finish first. */
  stop(): Promise<void>;
}
