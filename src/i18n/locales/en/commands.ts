/**
 * What the commands (`commands/*.ts`) write: their replies, cards and refusals.
 * English: the source of every key in this area; pt and de have the same shape.
 */
export const commands = {
  settings: {
    language: 'Language: {{name}}.',
  },
};
