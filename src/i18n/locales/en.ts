/**
 * English: the source of every message key. Other locales have this shape (`Messages`). Group keys
 * by where they are read: `settings.*` by /settings, `live.*` by the live card, and so on.
 */
export const en = {
  settings: {
    language: 'Language: {{name}}.',
    languageOption: 'Language of replies, cards and notifications',
  },
  common: {
    series_one: '{{count}} series',
    series_other: '{{count}} series',
  },
};

/** The shape every locale has: the same keys as English, each a string. */
export type Messages = DeepStrings<typeof en>;
type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
