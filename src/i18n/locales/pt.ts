/** Portuguese (Brazil). Same keys as `en.ts`. */
import type { Messages } from './en.ts';

export const pt: Messages = {
  settings: {
    language: 'Idioma: {{name}}.',
    languageOption: 'Idioma das respostas, cartões e notificações',
  },
  common: {
    series_one: '{{count}} série',
    series_other: '{{count}} séries',
  },
};
