/**
 * Languages. Every reply, card and notification is written through a `Translate` for the tenant's
 * locale (`/settings language`): `t('settings.saved')`, `t('live.moreSeries', { count: 2 })`.
 *
 * The messages are in `locales/<code>.ts`. English (`en.ts`) is the source: its shape is the type
 * every other locale must have, so a key missing from Portuguese or German is a compile error, and
 * `test/i18n/locales.test.ts` checks the same at run time. Plurals follow i18next's suffixes
 * (`_one`, `_other`, …), chosen with the locale's `Intl.PluralRules`; values are interpolated as
 * `{{name}}`. Numbers and dates go through `Intl` in the same locale (`formatNumber`).
 */

import i18next from 'i18next';
import { de } from './locales/de.ts';
import { en } from './locales/en.ts';
import { pt } from './locales/pt.ts';

export const LOCALES = ['en', 'pt', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each locale's name in its own language, for `/settings language`. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', pt: 'Português', de: 'Deutsch' };

/** The BCP 47 tag `Intl` formats numbers and dates with in each locale. */
export const INTL_TAGS: Record<Locale, string> = { en: 'en-GB', pt: 'pt-BR', de: 'de-DE' };

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type WithoutPlural<K extends string> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;

/** Every key of a message tree, dotted, with plural forms folded into their base key. */
type Keys<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${WithoutPlural<K>}`
    : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type MessageKey = Keys<typeof en>;
export type MessageValues = Record<string, string | number>;
/**
 * Writes a message in one locale: `t('live.now', { game: 2 })`; `count` in `values` picks the plural
 * form. It also knows its locale, and writes numbers as that locale does (`t.number(20979)`).
 */
export interface Translate {
  (key: MessageKey, values?: MessageValues): string;
  readonly locale: Locale;
  number(n: number): string;
}

const instance = i18next.createInstance();
void instance.init({
  resources: { en: { translation: en }, pt: { translation: pt }, de: { translation: de } },
  lng: 'en',
  supportedLngs: [...LOCALES],
  fallbackLng: false,
  initAsync: false,
  // Replies are spans that each platform escapes itself; HTML escaping here would double it.
  interpolation: { escapeValue: false },
  returnNull: false,
  returnEmptyString: false,
});

const translators = new Map<Locale, Translate>();

/**
 * How many written messages each locale keeps. The same message with the same values is written
 * again and again (every live card, every reply about a popular team), and i18next's lookup,
 * plural and interpolation cost more than the reply around it; past this many the memo starts over.
 */
const MEMO_SIZE = 20_000;

/** The translator for `locale`; an unknown code gets English. */
export function translator(locale: string | undefined): Translate {
  const code = isLocale(locale) ? locale : 'en';
  let translate = translators.get(code);
  if (!translate) {
    const fixed = instance.getFixedT(code);
    const written = new Map<string, string>();
    const write = (key: MessageKey, values?: MessageValues): string => {
      const id = values === undefined ? key : `${key}\u0000${JSON.stringify(values)}`;
      let text = written.get(id);
      if (text === undefined) {
        text = fixed(key, values);
        if (written.size >= MEMO_SIZE) written.clear();
        written.set(id, text);
      }
      return text;
    };
    translate = Object.assign(write, { locale: code, number: (n: number) => formatNumber(code, n) });
    translators.set(code, translate);
  }
  return translate;
}

export function isLocale(code: string | undefined): code is Locale {
  return (LOCALES as readonly (string | undefined)[]).includes(code);
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** A number as people of `locale` write it (1,234 / 1.234), with one formatter per locale. */
export function formatNumber(locale: Locale, n: number): string {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(INTL_TAGS[locale]);
    numberFormats.set(locale, format);
  }
  return format.format(n);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** An amount of money as people of `locale` write it ($125,000 / 125.000 $ / $ 125.000), whole units. */
export function formatMoney(locale: Locale, amount: number, currency = 'USD'): string {
  const id = `${locale}|${currency}`;
  let format = moneyFormats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(INTL_TAGS[locale], {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      maximumFractionDigits: 0,
    });
    moneyFormats.set(id, format);
  }
  return format.format(amount);
}

const CURRENCIES: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP' };

/**
 * Money as the data writes it ("$125,000", the tournaments' `string_prize_pool`) in the reader's
 * way (125.000 $ beside 18.532 Zuschauer); text that is not a plain amount is left as it is.
 */
export function localMoney(locale: Locale, text: string): string {
  const match = /^\s*([$€£])\s?(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return text;
  const amount = Number(match[2]!.replaceAll(',', ''));
  if (match[3] && Number(match[3]) !== 0) return text;
  return formatMoney(locale, amount, CURRENCIES[match[1]!]);
}

/**
 * A message with values that are not plain text (a command to type, a time, a bold name): the
 * translation cut around them, so a renderer still writes each in its platform's idiom.
 * `spanned(t, 'cards.digest.more', { count: 3 }, { command: cmd('schedule page:2') })`
 * gives `['3 more: ', { command: 'schedule page:2' }]`.
 */
export function spanned<S>(
  t: Translate,
  key: MessageKey,
  values: MessageValues,
  parts: Record<string, S>,
): (string | S)[] {
  const marked = Object.fromEntries(Object.keys(parts).map((name) => [name, `\uE000${name}\uE000`]));
  const pieces = t(key, { ...values, ...marked }).split(/\uE000(\w+)\uE000/);
  return pieces.map((piece, i) => (i % 2 === 1 ? parts[piece]! : piece)).filter((piece) => piece !== '');
}

/** Every message of `locale` by its stored key (plural forms separate), for the coverage test. */
export function storedMessages(locale: Locale): Map<string, string> {
  const walk = (node: object, prefix: string): [string, string][] =>
    Object.entries(node).flatMap(([key, value]): [string, string][] =>
      typeof value === 'string' ? [[`${prefix}${key}`, value]] : walk(value as object, `${prefix}${key}.`),
    );
  return new Map(walk({ en, pt, de }[locale], ''));
}
