/**
 * What the shared card builders and the notifications write (`src/bot/format*.ts`, `src/notify/`).
 * Portuguese (Brazil): the same keys as `../en/cards.ts`.
 */
import type { Messages } from '../en.ts';
export const cards: Messages['cards'] = {
  placeholder: '-',
};
