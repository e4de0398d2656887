/**
 * Languages, the platform area: what the runtime answers on its own (refusals, error
 * cards) and what each renderer adds around a reply (spoiler placeholder, stale notice, buttons,
 * dates) are in the tenant's language. Real replies through the runtime on the local service, and
 * the renderers on a small reply, in Portuguese and German: their words present, English's absent,
 * no raw message key, dates through `Intl` in the locale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/bot/reply.ts';
import { type Locale, translator } from '../../src/i18n/i18n.ts';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';
import { formatTime, renderReply as renderTerminal } from '../../src/platforms/terminal/render.ts';
import { call, MEMBER, type Stack, startStack, tenantWith } from '../commands/helpers.ts';

const RAW_KEY = /\b(commands|cards|platform|common)\.[a-zA-Z]/;

/** Each language's words for the same answers, and English words none of them may show. */
const WORDS: Record<Exclude<Locale, 'en'>, Record<string, string[]>> = {
  pt: {
    range: ['Quase lá', 'limit: precisa estar entre 1 e 20 (recebido -1).'],
    unknownCommand: ['Comando desconhecido', 'Não existe o comando "nope". Comandos: /series, /live'],
    unknownTeam: ['Quase lá', 'Nenhum resultado para "qqqqzzzzxxxx" (time).'],
    adminOnly: ['Só para admins', '/settings é só para admins deste chat.'],
    render: ['[spoiler oculto]', 'Os dados podem estar desatualizados', 'Horários em Europe/Berlin.'],
    slack: ['Revelar', 'Abrir', 'Página 3 ▶', '◀ Página 1'],
  },
  de: {
    range: ['Nicht ganz', 'limit: muss zwischen 1 und 20 liegen (erhalten: -1).'],
    unknownCommand: ['Unbekannter Befehl', 'Es gibt keinen Befehl „nope“. Befehle: /series, /live'],
    unknownTeam: ['Nicht ganz', 'Kein Treffer für „qqqqzzzzxxxx“ (Team).'],
    adminOnly: ['Nur für Admins', '/settings ist nur für Admins dieses Chats.'],
    render: ['[Spoiler verborgen]', 'Die Daten sind eventuell veraltet', 'Zeiten in Europe/Berlin.'],
    slack: ['Aufdecken', 'Öffnen', 'Seite 3 ▶', '◀ Seite 1'],
  },
};
const ENGLISH_ONLY = [
  'Not quite',
  'must be',
  'Unknown command',
  'There is no command',
  'No team matches',
  'Admins only',
  'is for admins',
  '[spoiler hidden]',
  'Data may be out of date',
  'Times in',
  '"Reveal"',
  '"Open"',
  '"Page ',
  '◀ Page',
];

/** A small reply with every word a renderer adds: a spoiler, a time, a stale notice, buttons, pages. */
const REPLY: Reply = {
  cards: [
    {
      title: 'Final',
      description: [
        ['Winner: ', { spoiler: ['Iron Falcons'] }],
        ['Starts ', { time: new Date('2026-03-18T15:23:00Z'), style: 'full' }],
      ],
      buttons: [{ label: '', url: 'https://example.com/watch' }],
    },
  ],
  stale: true,
  pager: { command: 'schedule', args: { day: '2026-03-18' }, page: 2, pages: 3 },
};

function expectTranslated(text: string, words: string[]): void {
  for (const word of words) expect(text).toContain(word);
  for (const word of ENGLISH_ONLY) expect(text).not.toContain(word);
  expect(text).not.toMatch(RAW_KEY);
}

describe.each(['pt', 'de'] as const)('the platform area in %s', (locale) => {
  let stack: Stack;
  const words = WORDS[locale];
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const answer = async (command: string, args: Record<string, unknown>, options = {}) => {
    const tenant = await tenantWith(stack, { language: locale });
    const result = await call(stack, command, args, { tenant, ...options });
    expect(result.outcome).not.toBe('ok');
    expect(result.t.locale).toBe(locale);
    return `${result.reply.cards[0]!.title}\n${result.text}`;
  };

  it('refuses an argument out of its range in the tenant language', async () => {
    expectTranslated(await answer('series', { limit: -1 }), words.range!);
  });

  it('answers an unknown command in the tenant language', async () => {
    expectTranslated(await answer('nope', {}), words.unknownCommand!);
  });

  it('says no team matches a name in the tenant language', async () => {
    expectTranslated(await answer('team', { team: 'qqqqzzzzxxxx' }), words.unknownTeam!);
  });

  it('refuses an admin-only command to a member in the tenant language', async () => {
    expectTranslated(await answer('settings', {}, { subcommand: 'show', user: MEMBER }), words.adminOnly!);
  });

  it("writes the renderers' own words in the reader's language on every platform", () => {
    const t = translator(locale);
    const now = new Date('2026-03-18T12:00:00Z');
    const terminal = renderTerminal(REPLY, { colour: false, timezone: 'Europe/Berlin', now, t });
    expectTranslated(terminal, words.render!);
    const discord = JSON.stringify(renderDiscord(REPLY, { t }));
    expectTranslated(discord, [words.slack![1]!, words.slack![2]!, words.slack![3]!]);
    expect(discord).toContain(words.render![1]!);
    expectTranslated(JSON.stringify(renderSlack(REPLY, { t })), words.slack!);
  });

  it('writes dates and times through Intl in the locale', () => {
    const t = translator(locale);
    const at = new Date('2026-03-18T15:23:00Z');
    const now = new Date('2026-03-18T12:00:00Z');
    const tag = locale === 'pt' ? 'pt-BR' : 'de-DE';
    const intl = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat(tag, { ...options, timeZone: 'Europe/Berlin' }).format(at);
    const date = intl({ weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
    expect(formatTime(at, 'date', 'Europe/Berlin', now, t)).toBe(date);
    expect(formatTime(at, 'time', 'Europe/Berlin', now, t)).toBe('16:23');
    expect(formatTime(at, 'full', 'Europe/Berlin', now, t)).toBe(
      locale === 'pt' ? 'qua., 18 de mar. de 2026, 16:23' : 'Mi., 18. März 2026, 16:23',
    );
    const tomorrow = new Date('2026-03-19T20:00:00Z');
    expect(formatTime(tomorrow, 'relative', 'UTC', now, t)).toBe(locale === 'pt' ? 'amanhã' : 'morgen');
    expect(formatTime(new Date('2026-03-18T12:05:00Z'), 'relative', 'UTC', now, t)).toBe(
      locale === 'pt' ? 'em 5 minutos' : 'in 5 Minuten',
    );
    // Slack's fallback for clients that cannot localise a date: the same Intl words, in UTC.
    const slack = JSON.stringify(renderSlack(REPLY, { t }));
    expect(slack).toContain(
      `|${locale === 'pt' ? 'qua., 18 de mar. de 2026, 15:23' : 'Mi., 18. März 2026, 15:23'} UTC>`,
    );
  });
});

describe('the platform area in English', () => {
  it('keeps the house style and English words when no language is named', () => {
    const text = renderTerminal(REPLY, {
      colour: false,
      timezone: 'UTC',
      now: new Date('2026-03-18T12:00:00Z'),
    });
    expect(text).toContain('[spoiler hidden]');
    expect(text).toContain('Wed 18 Mar 2026, 15:23');
    expect(text).toContain('Times in UTC.');
  });
});
