/**
 * Pictures on Slack (src/render/standings-image.ts): a reply's PNGs (standings, brackets) are uploaded to the
 * channel with the files API after the answer itself, through the Web API's `files.uploadV2`
 * (`files.getUploadURLExternal`, the upload, `files.completeUploadExternal`; scope `files:write`).
 * Only for answers meant for the channel: an ephemeral answer's picture would be seen by everyone.
 */
import type { App } from '@slack/bolt';
import type { Logger } from '../../bot/logger.ts';
import type { Reply } from '../../bot/reply.ts';

type WebClient = App['client'];

/** Uploads each PNG of a public reply to the channel; failures are logged (the text answer stands). */
export async function uploadImages(
  client: WebClient,
  channelId: string,
  reply: Reply,
  logger: Pick<Logger, 'warn'>,
): Promise<number> {
  if (reply.ephemeral) return 0;
  let uploaded = 0;
  for (const card of reply.cards) {
    if (!card.image || !('png' in card.image)) continue;
    try {
      await client.files.uploadV2({
        channel_id: channelId,
        file: Buffer.from(card.image.png),
        filename: card.image.name,
        title: card.title,
        alt_text: card.image.alt,
      });
      uploaded++;
    } catch (error) {
      // not_in_channel (Matchday was not invited), a missing files:write scope, a rate limit: the
      // answer already went out as text.
      logger.warn({ err: (error as Error).message, channel: channelId }, 'slack image upload failed');
    }
  }
  return uploaded;
}
