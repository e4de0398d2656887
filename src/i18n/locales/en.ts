/**
 * English: the source of every message key, in one file per area (`en/*.ts`); each area is owned by
 * the code that reads it. Other locales have this shape (`Messages`).
 */
import { cards } from './en/cards.ts';
import { commands } from './en/commands.ts';
import { help } from './en/help.ts';
import { platform } from './en/platform.ts';

export const en = {
  common: {
    series_one: '{{count}} series',
    series_other: '{{count}} series',
    seeAlso: 'See {{command}} for more.',
  },
  commands,
  help,
  cards,
  platform,
};

/** The shape every locale has: the same keys as English, each a string. */
export type Messages = DeepStrings<typeof en>;
type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
