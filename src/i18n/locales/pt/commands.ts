/**
 * What the commands (`commands/*.ts`) write: their replies, cards and refusals.
 * Portuguese (Brazil): the same keys as `../en/commands.ts`.
 */
import type { Messages } from '../en.ts';
export const commands: Messages['commands'] = {
  settings: {
    language: 'Idioma: {{name}}.',
  },
};
