/**
 * The typed command line's refusals (src/bot/text-args.ts) in the tenant's language: the parser is
 * given the tenant's translator by the terminal chat and Slack, which read it before parsing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import { messageText, UserError } from '../../src/core/errors.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { platform as en } from '../../src/i18n/locales/en/platform.ts';
import type { ResponsePost } from '../fakes/slack.ts';
import { type Rig, startRig, USERS } from '../platforms/slack/harness.ts';

/** The refusal `line` gets, as plain text (commands written `/like this`). */
function refusal(line: string, locale: string): string {
  try {
    parseCommandText(line, commands, translator(locale));
  } catch (error) {
    if (error instanceof UserError) return messageText(error.rich);
    throw error;
  }
  throw new Error(`expected a refusal of ${line}`);
}

/** The words of the English message (its template, values left out) that a translation must not keep. */
function englishWords(key: keyof typeof en.parse): string[] {
  return en.parse[key]
    .replace(/\{\{\w+\}\}|\w+:"[^"]*"/g, ' ')
    .split(/[^A-Za-z]+/)
    .filter((word) => word.length > 3);
}

const CASES = {
  'an unknown command': ['/seires live', 'unknownCommand'],
  'a missing subcommand': ['/settings', 'missingSubcommand'],
  'a duplicate option': ['/team team:a team:b', 'duplicateOption'],
} as const;

const EXPECTED = {
  pt: {
    'an unknown command': ['Não existe o comando "seires"', '/series'],
    'a missing subcommand': ['/settings precisa de um destes:', 'Por exemplo: /settings show.'],
    'a duplicate option': ['team: aparece duas vezes'],
  },
  de: {
    'an unknown command': ['Einen Befehl „seires“ gibt es nicht', '/series'],
    'a missing subcommand': ['/settings braucht eines davon:', 'Zum Beispiel: /settings show.'],
    'a duplicate option': ['team: kommt zweimal vor'],
  },
} as const;

describe.each(['pt', 'de'] as const)('parse refusals in %s', (locale) => {
  for (const [name, [line, key]] of Object.entries(CASES) as [
    keyof typeof CASES,
    (typeof CASES)[keyof typeof CASES],
  ][]) {
    it(`refuses ${name} in the language, with no English words and no raw key`, () => {
      const text = refusal(line, locale);
      for (const expected of EXPECTED[locale][name]) expect(text).toContain(expected);
      const words = englishWords(key);
      expect(words.length).toBeGreaterThanOrEqual(2);
      for (const word of words) expect(text).not.toMatch(new RegExp(`\\b${word}\\b`));
      expect(text).not.toMatch(/platform\.|\{\{/);
    });
  }

  it('refuses an unclosed quote, an unknown option and leftover values in the language', () => {
    for (const line of ['/team team:"Team Spirit', '/series live gmae:cs2', '/status x y'])
      expect(refusal(line, locale)).not.toBe(refusal(line, 'en'));
  });
});

describe('parse refusals in English', () => {
  it('are the ones with no translator given', () => {
    expect(refusal('/seires', 'en')).toMatch(/^There is no command "seires"\. Commands: \/series, /);
    expect(refusal('/settings', 'en')).toMatch(/^\/settings needs one of: show, /);
    expect(refusal('/team team:a team:b', 'en')).toBe('team: is given twice; give it once.');
  });
});

describe('a Portuguese Slack workspace', () => {
  let rig: Rig;
  const text = (post: ResponsePost) => JSON.stringify(post.body);

  beforeAll(async () => {
    rig = await startRig('http');
  });
  afterAll(async () => {
    await rig.close();
  });

  it('gets the parser refusal of /matchday in Portuguese, card and all', async () => {
    await rig.app.tenants.update('slack:T0MATCHDAY', (s) => ({ ...s, language: 'pt' }));
    const post = await rig.command('seires live', { user: USERS.member.id });
    expect(text(post)).toContain('Não existe o comando');
    expect(text(post)).toContain('Veja');
    expect(text(post)).toContain('Quase lá');
    expect(text(post)).not.toMatch(/There is no command|Not quite|See |platform\./);
    const missing = await rig.command('settings', { user: USERS.admin.id });
    expect(text(missing)).toContain('precisa de um destes');
    await rig.app.tenants.update('slack:T0MATCHDAY', (s) => ({ ...s, language: 'en' }));
    const english = await rig.command('seires live', { user: USERS.member.id });
    expect(text(english)).toContain('There is no command');
  });
});
