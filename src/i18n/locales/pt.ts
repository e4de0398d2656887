/** Portuguese (Brazil): the same keys as `en.ts`, one file per area (`pt/*.ts`). */
import type { Messages } from './en.ts';
import { cards } from './pt/cards.ts';
import { commands } from './pt/commands.ts';
import { help } from './pt/help.ts';
import { platform } from './pt/platform.ts';

export const pt: Messages = {
  common: {
    series_one: '{{count}} série',
    series_other: '{{count}} séries',
    seeAlso: 'Veja {{command}} para mais.',
  },
  commands,
  help,
  cards,
  platform,
};
