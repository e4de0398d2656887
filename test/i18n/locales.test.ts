/**
 * Languages: every locale has every message key English has, with the same `{{values}}`, and
 * `/settings language` stores the choice and answers in it (through the runtime, on the local service).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatMoney,
  formatNumber,
  LOCALES,
  localMoney,
  spanned,
  storedMessages,
  translator,
} from '../../src/i18n/i18n.ts';
import { call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('locales', () => {
  const english = storedMessages('en');

  it('English has keys, and every other locale has exactly the same keys', () => {
    expect(english.size).toBeGreaterThan(1);
    for (const locale of LOCALES) {
      expect([...storedMessages(locale).keys()].sort(), locale).toEqual([...english.keys()].sort());
    }
  });

  it('every message is translated, non-empty, with the same {{values}} as English', () => {
    for (const locale of LOCALES) {
      const messages = storedMessages(locale);
      for (const [key, source] of english) {
        const text = messages.get(key) ?? '';
        expect(text.trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(source));
      }
    }
  });

  it('plurals follow each language: one and other', () => {
    expect(translator('en')('common.series', { count: 1 })).toBe('1 series');
    expect(translator('pt')('common.series', { count: 1 })).toBe('1 série');
    expect(translator('pt')('common.series', { count: 2 })).toBe('2 séries');
    expect(translator('de')('common.series', { count: 0 })).toBe('0 Serien');
  });

  it('numbers go through Intl in the locale', () => {
    expect(formatNumber('en', 20979)).toBe('20,979');
    expect(formatNumber('de', 20979)).toBe('20.979');
    expect(formatNumber('pt', 20979)).toBe('20.979');
  });

  it("money goes through Intl in the locale (a no-break space between amount and sign), and the data's prize strings are rewritten so", () => {
    expect(formatMoney('en', 1500)).toBe('$1,500');
    expect(formatMoney('de', 1500)).toBe('1.500\u00a0$');
    expect(formatMoney('pt', 1500)).toBe('$\u00a01.500');
    expect(localMoney('de', '$125,000')).toBe('125.000\u00a0$');
    expect(localMoney('pt', '€50,000')).toBe('€\u00a050.000');
    expect(localMoney('en', '$125,000')).toBe('$125,000');
    // What is not a plain amount stays as the data wrote it.
    expect(localMoney('de', 'TBA')).toBe('TBA');
    expect(localMoney('de', '$125,000 + trophy')).toBe('$125,000 + trophy');
  });

  it('a message with a span value is cut around it, in each language', () => {
    const command = { command: 'help' };
    expect(spanned(translator('en'), 'common.seeAlso', {}, { command })).toEqual([
      'See ',
      command,
      ' for more.',
    ]);
    expect(spanned(translator('de'), 'common.seeAlso', {}, { command })).toEqual([
      'Mehr unter ',
      command,
      '.',
    ]);
  });

  it('an unknown locale code writes English', () => {
    expect(translator('xx')('common.series', { count: 2 })).toBe('2 series');
  });
});

describe('/settings language', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('stores the language, answers in it, and refuses a language Matchday does not have', async () => {
    const tenant = await tenantWith(stack);
    const german = await call(stack, 'settings', { code: 'de' }, { tenant, subcommand: 'language' });
    expect(german.outcome).toBe('ok');
    expect(german.text).toContain('Sprache: Deutsch.');
    expect((await stack.tenants.get(`terminal:${tenant}`)).language).toBe('de');
    const shown = await call(stack, 'settings', {}, { tenant, subcommand: 'show' });
    expect(shown.text).toContain('Deutsch');

    const klingon = await call(stack, 'settings', { code: 'tlh' }, { tenant, subcommand: 'language' });
    expect(klingon.outcome).not.toBe('ok');
    expect(klingon.text).toMatch(/en.*pt.*de/s);
    expect((await stack.tenants.get(`terminal:${tenant}`)).language).toBe('de');
  });
});
