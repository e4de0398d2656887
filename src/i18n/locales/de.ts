/** German: the same keys as `en.ts`, one file per area (`de/*.ts`). */

import { cards } from './de/cards.ts';
import { commands } from './de/commands.ts';
import { help } from './de/help.ts';
import { platform } from './de/platform.ts';
import type { Messages } from './en.ts';

export const de: Messages = {
  common: {
    series_one: '{{count}} Serie',
    series_other: '{{count}} Serien',
    seeAlso: 'Mehr unter {{command}}.',
  },
  commands,
  help,
  cards,
  platform,
};
