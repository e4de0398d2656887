/**
 * What the shared card builders and the notifications write (`src/bot/format*.ts`, `src/notify/`).
 * English: the source of every key in this area; pt and de have the same shape.
 */
export const cards = {
  placeholder: '-',
};
