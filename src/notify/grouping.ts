/**
 * Reminders due in the same minute for one channel go out as one message, not a burst
 * (docs/notifications.md, "Grouped reminders"). The notifier claims every reminder's key in the ledger as
 * usual; the keys it won for one channel and minute are posted together, and each key is marked sent with
 * that one message, so exactly-once still holds per key (a key lost to another holder is simply not in the
 * message).
 */
import type { Reply } from '../bot/reply.ts';

/**
 * Series per grouped message: each reminder is one card of one or two embeds, so five stay within
 * Discord's 10 embeds and 6,000 characters per message (more due at once make a second message).
 */
export const MAX_REMINDERS_PER_MESSAGE = 5;

/** The tag that puts reminders in one message: the channel and the minute they are due. */
export function reminderBatch(channel: string, dueMs: number): string {
  return `${channel}@${Math.floor(dueMs / 60_000)}`;
}

/**
 * Splits items into groups of at most `MAX_REMINDERS_PER_MESSAGE` sharing a batch tag, in the order
 * each tag first appears (items without a tag stay alone).
 */
export function groupByBatch<T extends { batch?: string | undefined }>(items: readonly T[]): T[][] {
  const groups: T[][] = [];
  const open = new Map<string, T[]>();
  for (const item of items) {
    if (item.batch === undefined) {
      groups.push([item]);
      continue;
    }
    let group = open.get(item.batch);
    if (!group || group.length >= MAX_REMINDERS_PER_MESSAGE) {
      group = [];
      open.set(item.batch, group);
      groups.push(group);
    }
    group.push(item);
  }
  return groups;
}

/**
 * One message for several reminders of one channel: one line above the cards ("3 series start
 * soon", with the channel's role mentioned once), then each reminder's card in start order.
 */
export function combineReminders(replies: readonly Reply[]): Reply {
  if (replies.length === 1) return replies[0]!;
  const roles = [...new Set(replies.flatMap((r) => r.mentionRoles ?? []))];
  const headline = `${replies.length} series start soon`;
  return {
    content: roles.length > 0 ? [...roles.flatMap((role) => [{ role }, ' ']), headline] : [headline],
    cards: replies.flatMap((r) => r.cards),
    ...(roles.length > 0 ? { mentionRoles: roles } : {}),
    ...(replies.some((r) => r.stale) ? { stale: true } : {}),
  };
}
