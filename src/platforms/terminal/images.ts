/**
 * The terminal cannot show a picture: it saves each PNG of a reply in a folder (default
 * `./data/images`, beside the SQLite store) and the card names the file (`[image: ...]: <path>`),
 * under the text table as before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Reply } from '../../bot/reply.ts';

const DEFAULT_IMAGES_DIR = './data/images';

/** Writes the reply's PNGs into `dir` and returns the reply with each image's path set. Never throws. */
export function saveImages(reply: Reply, dir = DEFAULT_IMAGES_DIR): Reply {
  if (!reply.cards.some((c) => c.image && 'png' in c.image)) return reply;
  return {
    ...reply,
    cards: reply.cards.map((card) => {
      if (!card.image || !('png' in card.image)) return card;
      // Only a plain file name: the name comes from the command, never a path.
      const name = basename(card.image.name).replace(/[^\w.-]/g, '_') || 'image.png';
      const path = join(dir, name);
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path, card.image.png);
        return { ...card, image: { ...card.image, path } };
      } catch {
        // A read-only folder: the text table still answers; the card says the picture was not saved.
        return { ...card, image: { ...card.image, path: `(not saved: ${dir} is not writable)` } };
      }
    }),
  };
}
