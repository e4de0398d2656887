/**
 * Every language whole: no message key is missing from any locale; `/help` speaks the declarations'
 * English in English and the reader's language otherwise; and a German and a Portuguese pass over
 * every command's help (through the runtime, on the local service) and every card kind (the reviewed
 * renderings in test/golden/__snapshots__/<locale>/, written by test/golden/golden.test.ts) finds
 * none of a list of common English words outside names from the data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import type { Card, Reply, Text } from '../../src/bot/reply.ts';
import { LOCALES, type Locale, type MessageKey, storedMessages, translator } from '../../src/i18n/i18n.ts';
import { call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';

/** Words a German or Portuguese reader should never meet in Matchday's own text. */
const ENGLISH = [
  'the',
  'and',
  'with',
  'your',
  'you',
  'upcoming',
  'recent',
  'follows',
  'followed',
  'healthy',
  'abbreviation',
  'accounts',
  'scorelines',
  'everything',
  'here',
  'each',
  'their',
  'change',
  'won',
  'lost',
  'left',
  'equipment',
  'winner',
  'loser',
  'eliminated',
  'picture',
  'default',
  'between',
  'before',
  'after',
  'until',
  'more',
  'this',
  'that',
  'of',
  'from',
  'only',
  'which',
  'what',
  'table',
  'round',
  'rounds',
  'quarterfinals',
  'semifinals',
  'buy',
  'pistol',
];
const ENGLISH_WORD = new RegExp(`(?<![\\p{L}'’-])(${ENGLISH.join('|')})(?![\\p{L}'’-])`, 'iu');

/** The values options take, typed as they are in every language ("upcoming, live, recent"). */
const CHOICES = [
  ...new Set(
    commands.flatMap((c) =>
      [c.options ?? {}, ...Object.values(c.subcommands ?? {}).map((sub) => sub.options ?? {})].flatMap(
        (options) =>
          Object.values(options).flatMap((o) => (o.choices ?? []).map((choice) => String(choice.value))),
      ),
    ),
  ),
];

/** Matchday's own words in a reply: plain and styled text; commands and code (typed as they are) left out. */
function ownText(reply: Reply): string[] {
  const of = (text: Text | undefined): string =>
    (text ?? [])
      .map((span) =>
        typeof span === 'string' ? span : 'text' in span && !('code' in span && span.code) ? span.text : ' ',
      )
      .join('');
  const card = (c: Card): string[] => [
    c.title,
    ...(c.description ?? []).map(of),
    ...(c.fields ?? []).flatMap((f) => [f.name, of(f.value)]),
    ...(c.table ? [...c.table.columns.map((col) => col.header), ...c.table.rows.flat().map(of)] : []),
    c.footer ?? '',
    c.image?.alt ?? '',
  ];
  return reply.cards.flatMap(card);
}

describe('message keys', () => {
  it('lists the keys each locale is missing: none', () => {
    const english = [...storedMessages('en').keys()];
    const missing = Object.fromEntries(
      LOCALES.map((locale) => {
        const has = storedMessages(locale);
        return [locale, english.filter((key) => !has.has(key))];
      }),
    );
    expect(missing).toEqual({ en: [], pt: [], de: [] });
  });

  it("has /help's English for every command, subcommand and option, the same words as the declarations", () => {
    const t = translator('en');
    const same = (key: string, declared: string) =>
      expect(t(`help.${key}` as MessageKey), key).toBe(declared);
    for (const command of commands) {
      same(`${command.name}.description`, command.description);
      for (const [name, option] of Object.entries(command.options ?? {}))
        same(`${command.name}.options.${name}`, option.description);
      for (const [sub, def] of Object.entries(command.subcommands ?? {})) {
        same(`${command.name}.sub.${sub}.description`, def.description);
        for (const [name, option] of Object.entries(def.options ?? {}))
          same(`${command.name}.sub.${sub}.options.${name}`, option.description);
      }
    }
  });
});

describe.each(['de', 'pt'] as const)('a reader of %s', (locale: Locale) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Names from the data (teams, tournaments, stages) and typed option values, removed before the check. */
  function withoutNames(line: string): string {
    const world = stack.service.world;
    let out = line;
    const names = [
      ...[...world.catalog.teamById.values()].map((team) => team.name),
      ...world
        .window(world.now())
        .tournaments.flatMap((tr) => [
          world.tournamentAt(tr).title,
          ...tr.stages.flatMap((st) => st.substages.map((sub) => sub.title)),
        ]),
    ].sort((a, b) => b.length - a.length);
    for (const name of names) if (out.includes(name)) out = out.replaceAll(name, ' ');
    for (const value of CHOICES) out = out.replace(new RegExp(`\\b${value}\\b`, 'g'), ' ');
    return out;
  }

  it("reads every command's help with no English word", async () => {
    const tenant = await tenantWith(stack, { language: locale });
    const english = await tenantWith(stack, { language: 'en' });
    const found: string[] = [];
    const check = (what: string, reply: Reply) => {
      for (const line of ownText(reply)) {
        const word = ENGLISH_WORD.exec(withoutNames(line));
        if (word) found.push(`${what}: "${word[1]}" in "${line}"`);
      }
    };
    check('/help', (await call(stack, 'help', {}, { tenant })).reply);
    for (const command of commands) {
      const reply = (await call(stack, 'help', { command: command.name }, { tenant })).reply;
      check(`/help ${command.name}`, reply);
      // The same help in English does have English words: the check is not vacuous.
      const inEnglish = (await call(stack, 'help', { command: command.name }, { tenant: english })).reply;
      expect(
        ownText(inEnglish).some((line) => ENGLISH_WORD.test(line)),
        command.name,
      ).toBe(true);
    }
    expect(found).toEqual([]);
  });

  it('reads every card kind (the reviewed renderings) with no English word outside names from the data', () => {
    const folder = new URL(`../golden/__snapshots__/${locale}/`, import.meta.url);
    const files = readdirSync(folder).filter((f) => f.endsWith('.terminal.txt'));
    expect(files.length).toBeGreaterThan(30);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(new URL(file, folder), 'utf8')
        // Commands, typed options and links are typed as they are, in every language.
        .replace(/\/\w[\w-]*( [\w-]+)*( \w+:("[^"]*"|\S+))*/g, ' ')
        .replace(/https?:\/\/\S+/g, ' ')
        .replace(/\(\S+\.png\)/g, ' ');
      for (const line of text.split('\n')) {
        const word = ENGLISH_WORD.exec(withoutNames(line));
        if (word) found.push(`${file}: "${word[1]}" in "${line.trim()}"`);
      }
    }
    expect(found).toEqual([]);
  });
});
