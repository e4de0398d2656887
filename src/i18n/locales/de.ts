/** German. Same keys as `en.ts`. */
import type { Messages } from './en.ts';

export const de: Messages = {
  settings: {
    language: 'Sprache: {{name}}.',
    languageOption: 'Sprache für Antworten, Karten und Benachrichtigungen',
  },
  common: {
    series_one: '{{count}} Serie',
    series_other: '{{count}} Serien',
  },
};
