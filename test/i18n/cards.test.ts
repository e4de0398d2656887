/**
 * Languages, cards: the notifications' cards built from the local service world (a reminder, the
 * live card of each kind of game, a result, the daily digest, a tournament's end) in Portuguese and
 * German read in that language: its words are there, the English-only words of the same card are
 * not, no raw key (`cards.`) leaks, and numbers use the locale's separators.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { languageIn } from '../../src/bot/format-streams.ts';
import { finalSubstage, ordinal, placeLabel, readPlacements } from '../../src/bot/outcome.ts';
import { type Preview, previewLines, readPreview } from '../../src/bot/preview.ts';
import type { Reply, Text } from '../../src/bot/reply.ts';
import { defaultSettings } from '../../src/bot/settings.ts';
import { formatInstant } from '../../src/bot/time-format.ts';
import { type Locale, translator } from '../../src/i18n/i18n.ts';
import {
  digestReply,
  liveReply,
  reminderReply,
  resultReply,
  tournamentEndReply,
} from '../../src/notify/cards.ts';
import { renderReply } from '../../src/platforms/terminal/render.ts';
import type { GameKind, LiveSummary } from '../../src/protocol/live-summary.ts';
import type { Caster, Match, Series } from '../../src/protocol/types.ts';
import { createReads } from '../../src/reads/reads.ts';
import { call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';
import { pickLive } from '../commands/live-picks.ts';
import { byStartThenId, worldSeries } from '../commands/truth.ts';

type Words = Record<'pt' | 'de', string[]>;

/** What each card must say in each language, and the English it must not say. */
const CARDS: Record<string, { words: Words; english: string[] }> = {
  reminder: {
    words: {
      pt: ['Começa', 'Lembrete 15 min antes', 'online, 20.979 espectadores'],
      de: ['Beginn', 'Erinnerung 15 Min. vorher', 'online, 20.979 Zuschauer'],
    },
    english: ['Starts', 'Reminder', 'viewers', '20,979'],
  },
  result: {
    words: { pt: ['Série encerrada', 'Resultado'], de: ['Serie vorbei', 'Ergebnis'] },
    english: ['Series over', 'Result:', 'Started'],
  },
  digest: {
    words: {
      pt: ['Resumo diário de qua., 18 de mar. de 2026', 'Séries de hoje'],
      de: ['Tagesübersicht für Mi., 18. März 2026', 'Serien heute'],
    },
    english: ['Daily digest', "Today's series", 'Wed'],
  },
  'tournament-end': {
    words: { pt: ['terminou', 'Campeão:', '2º'], de: ['ist vorbei', 'Sieger:', '2.'] },
    english: ['is over', 'Champion', '2nd', 'Tournament over'],
  },
};

/** Each kind of game's live card: its own words. */
const LIVE: Record<GameKind, { words: Words; english: string[] }> = {
  moba: {
    words: {
      pt: ['Agora: jogo', 'Torres destruídas', 'abates'],
      de: ['Jetzt: Spiel', 'Zerstörte Türme', 'Kills'],
    },
    english: ['Now: game', 'Towers destroyed', 'Gold lead'],
  },
  shooter: {
    words: { pt: ['Agora: jogo', 'tempo', 'Lados'], de: ['Jetzt: Spiel', 'Halbzeit', 'Runden', 'Seiten'] },
    english: ['Now: game', 'half', 'Rounds by half', 'Sides', 'defence', 'attack'],
  },
  esoccer: {
    words: { pt: ['Agora: jogo'], de: ['Jetzt: Spiel'] },
    english: ['Now: game', 'Possession', 'full time'],
  },
  rts: {
    words: {
      pt: ['Agora: jogo', 'Valor do exército', 'Trabalhadores'],
      de: ['Jetzt: Spiel', 'Armeewert', 'Arbeiter'],
    },
    english: ['Now: game', 'Army value', 'Workers'],
  },
  'battle-royale': {
    words: { pt: ['Agora: jogo', 'Posição', 'Abates'], de: ['Jetzt: Spiel', 'Platz', 'Kills'] },
    english: ['Now: game', 'teams alive', 'Place ', 'leading'],
  },
};

/** What a preview says of its stage in English (stakes, rounds, deciding series, form): never in pt/de. */
const PREVIEW_ENGLISH = [
  'At stake',
  'Stage:',
  'winner',
  'loser',
  'advance',
  'the top',
  'the next',
  'upper-bracket',
  'lower-bracket',
  'grand final',
  'eliminated',
  'champion',
  'finishes 2nd',
  'points toward',
  'forfeit vs',
  '-team lobby',
];

/** The series a preview is read for, and what its stake says in each language. */
const PREVIEWS: Record<'group' | 'UB' | 'LB' | 'GF', Words> = {
  group: { pt: ['Em jogo: os 2 primeiros avançam para'], de: ['Es geht um: die besten 2 ziehen in'] },
  UB: {
    pt: ['Em jogo: quem vencer vai para a', 'quem perder cai para a', 'da chave inferior'],
    de: ['Es geht um: der Sieger zieht', 'der Verlierer fällt in', 'des Lower Brackets'],
  },
  LB: {
    pt: ['Em jogo: quem vencer vai para a', 'quem perder está eliminado'],
    de: ['Es geht um: der Sieger zieht', 'der Verlierer scheidet aus'],
  },
  // The next grand final: its teams are not known yet, the finals that decide them are named.
  GF: {
    pt: [
      'Em jogo: quem vencer é campeão; quem perder fica em 2º',
      'A definir: vencedor da final da chave superior',
      'A definir: vencedor da final da chave inferior',
    ],
    de: [
      'Es geht um: der Sieger gewinnt das Turnier; der Verlierer wird Zweiter',
      'offen: Sieger (Upper-Bracket-Finale)',
      'offen: Sieger (Lower-Bracket-Finale)',
    ],
  },
};

let stack: Stack;
/** The reply as the terminal shows it to a reader of `locale`, unwrapped (a long line is one line). */
const text = (reply: Reply, locale: Locale) =>
  renderReply(reply, {
    colour: false,
    timezone: 'UTC',
    now: stack.clock.now(),
    t: translator(locale),
    width: 1000,
  });

function expectIn(locale: 'pt' | 'de', name: string, out: string, card: { words: Words; english: string[] }) {
  for (const word of card.words[locale]) expect(out, `${locale} ${name}: ${word}`).toContain(word);
  for (const word of card.english) expect(out, `${locale} ${name}: no ${word}`).not.toContain(word);
  expect(out, `${locale} ${name}: no raw key`).not.toMatch(/cards\.\w/);
}

/** The notification cards of the world's picks, in `locale`. */
async function notificationCards(locale: Locale): Promise<Record<string, Reply>> {
  const world = stack.service.world;
  const all = worldSeries(world).sort(byStartThenId);
  const upcoming = all.find((s) => s.lifecycle === 'upcoming' && s.tier <= 2 && s.casters.length > 0)!;
  const finished = all
    .filter((s) => s.lifecycle === 'over' && s.tier <= 2 && s.participants.length === 2)
    .sort((a, b) => Date.parse(b.end!) - Date.parse(a.end!))[0]!;
  const today = new Date(world.now()).toISOString().slice(0, 10);
  const day = all.filter((s) => s.tier <= 2 && s.start!.slice(0, 10) === today);
  const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
  await stack.names.ensureSeriesLabels(data, [upcoming, finished, ...day]);
  const casters = (await data.casters.getMany(upcoming.casters.map((c) => c.caster.id))) as Caster[];
  // One stream online with a five-digit audience: the viewers are written as the locale writes numbers.
  const watched = casters.map((c, i) =>
    i === 0 ? { ...c, stream: { ...c.stream, online: true, viewer_count: 20979 } } : c,
  );
  // A finished tier-1 tournament (its outcome: champion, places, prizes), as the goldens pick it, among
  // those whose name holds none of the card's English words (a name is the organiser's, never translated:
  // a "Championship" would read as an untranslated "Champion").
  const untranslated = CARDS['tournament-end']!.english;
  const done = world
    .window(world.now())
    .tournaments.find(
      (x) => x.tier === 1 && x.end < world.now() && !untranslated.some((word) => x.title.includes(word)),
    )!;
  const [tournament, stages] = await Promise.all([
    data.tournaments.get(done.id),
    data.tournaments.stages(done.id, { order: 'order-asc', take: 50 }),
  ]);
  const outcome = await readPlacements(data, tournament, finalSubstage(stages)!);
  await stack.names.ensureSeriesLabels(data, outcome.series);
  const audience = { spoilers: defaultSettings().spoilers, t: translator(locale) };
  return {
    reminder: reminderReply(upcoming, stack.names, audience, { lead: 15, casters: watched }),
    result: resultReply(finished, stack.names, audience),
    digest: digestReply(day, stack.names, audience, today),
    'tournament-end': tournamentEndReply(tournament, outcome.placements!, stack.names, audience),
  };
}

/** The world's series for each of `PREVIEWS`: a group's and the next of each bracket part. */
async function previewSeries(): Promise<Record<keyof typeof PREVIEWS, Series>> {
  const world = stack.service.world;
  const at = world.now();
  const plans = world.window(at).series.sort((x, y) => x.start - y.start);
  const next = (part: 'UB' | 'LB' | 'GF') =>
    plans.find(
      (p) =>
        p.bracket?.part === part &&
        p.kind !== 'battle-royale' &&
        ['upcoming', 'live'].includes(world.lifecycle(p, at)),
    )!.id;
  const all = worldSeries(world).sort(byStartThenId);
  const group = all.find((s) => s.lifecycle === 'upcoming' && s.tier <= 2 && s.casters.length > 0)!;
  const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
  const ids = [next('UB'), next('LB'), next('GF')];
  const [ub, lb, gf] = (await Promise.all(ids.map((id) => data.series.get(id)))) as Series[];
  return { group, UB: ub!, LB: lb!, GF: gf! };
}

/** The live card of a series of `kind` at an instant it is live, in `locale`. */
async function liveCardOf(kind: GameKind, locale: Locale, start: Date): Promise<Reply> {
  const p = pickLive(stack.service.world, kind, start);
  await stack.jump(p.at);
  const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
  const [series, matches, summary] = await Promise.all([
    data.series.get(p.plan.id) as Promise<Series>,
    data.matches.list({ filter: [['series.id', '=', p.plan.id]], order: 'order-asc', take: 50 }),
    data.matches.liveApi(p.match.id),
  ]);
  await stack.names.ensureSeriesLabels(data, [series]);
  return liveReply(
    series,
    stack.names,
    { spoilers: 'show', t: translator(locale) },
    {
      matches: (matches as Match[]).filter((m) => m.deleted_at === null),
      summary: summary as LiveSummary,
      mapName: (id) => stack.names.mapName(id),
      first: true,
    },
  );
}

describe('cards in Portuguese and German', () => {
  beforeAll(async () => {
    stack = await startStack({ api: 'v3' });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('writes the reminder, result, digest and tournament-end cards in the reader language', async () => {
    for (const locale of ['pt', 'de'] as const) {
      const replies = await notificationCards(locale);
      for (const [name, card] of Object.entries(CARDS))
        expectIn(locale, name, text(replies[name]!, locale), card);
    }
  });

  it("writes a preview's stakes, rounds and deciding series in the reader language", async () => {
    const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
    for (const [name, series] of Object.entries(await previewSeries())) {
      await stack.names.ensureSeriesLabels(data, [series]);
      const preview = await readPreview(series, createReads(data), stack.names, (list) =>
        stack.names.ensureSeriesLabels(data, list),
      );
      for (const locale of ['pt', 'de'] as const) {
        const audience = { spoilers: 'show' as const, t: translator(locale) };
        const reminder = text(reminderReply(series, stack.names, audience, { lead: 60, preview }), locale);
        const card = { words: PREVIEWS[name as keyof typeof PREVIEWS], english: PREVIEW_ENGLISH };
        expectIn(locale, `reminder preview ${name}`, reminder, card);
        // `/series` writes the same values in full, with the stage's round.
        const tenant = await tenantWith(stack, { spoilers: 'show', language: locale });
        const full = await call(stack, 'series', { series: String(series.id) }, { tenant });
        expectIn(locale, `/series ${name}`, full.text, card);
        if (name !== 'group') expect(full.text).toContain(locale === 'pt' ? 'Fase:' : 'Phase:');
      }
    }
  });

  it("writes a preview's lobby places, forfeits and a group's rules in the reader language", () => {
    const series = worldSeries(stack.service.world)[0]!;
    const preview: Preview = {
      sides: [
        {
          roster: 1,
          name: 'Nova Krakens',
          form: [
            { series, place: 3, teams: 16 },
            { series, won: false, score: [0, 0], opponent: 'Storm Owls', forfeit: true },
            { series, won: true, score: [2, 1], opponent: 'Storm Owls', forfeit: false },
          ],
        },
      ],
      stakes: [
        { kind: 'advance', count: 1, to: 'Finals' },
        { kind: 'drop', count: 4 },
        { kind: 'points', table: 'lobby' },
      ],
    };
    const plain = (lines: Text[]) =>
      lines.map((line) => line.map((s) => (typeof s === 'string' ? s : 'text' in s ? s.text : '')).join(''));
    const write = (locale: Locale) =>
      plain(previewLines(preview, 'show', { compact: false, t: translator(locale) }));
    expect(write('en')).toEqual([
      'Nova Krakens form: 3rd/16 16-team lobby · L forfeit vs Storm Owls · W 2–1 Storm Owls',
      'At stake: the top 1 advance to Finals; the next 4 drop; points toward the lobby table',
    ]);
    expect(write('pt')).toEqual([
      'Forma de Nova Krakens: 3º/16 lobby de 16 equipes · D W.O. contra Storm Owls · V 2–1 Storm Owls',
      'Em jogo: o top 1 avança para Finals; os 4 seguintes caem; pontos para a tabela do lobby',
    ]);
    expect(write('de')).toEqual([
      'Form von Nova Krakens: 3./16 Lobby mit 16 Teams · N kampflos gegen Storm Owls · S 2–1 Storm Owls',
      'Es geht um: Platz 1 zieht in Finals ein; die nächsten 4 steigen ab; Punkte für die Lobby-Tabelle',
    ]);
  });

  it("writes each kind of game's live card in its own words in the reader language", async () => {
    const start = stack.clock.now();
    try {
      for (const kind of Object.keys(LIVE) as GameKind[])
        for (const locale of ['pt', 'de'] as const) {
          const out = text(await liveCardOf(kind, locale, start), locale);
          expectIn(locale, `live ${kind}`, out, LIVE[kind]);
          expect(out).toContain(locale === 'pt' ? 'Ao vivo agora' : 'Jetzt live');
        }
    } finally {
      await stack.jump(start);
    }
  });

  it('writes places and relative times as each language does', () => {
    const [en, pt, de] = [translator('en'), translator('pt'), translator('de')];
    expect([1, 2, 3, 11, 21].map((n) => ordinal(n, en))).toEqual(['1st', '2nd', '3rd', '11th', '21st']);
    expect([1, 2, 3].map((n) => ordinal(n, pt))).toEqual(['1º', '2º', '3º']);
    expect([1, 2, 3].map((n) => ordinal(n, de))).toEqual(['1.', '2.', '3.']);
    expect(placeLabel({ from: 5, to: 6 }, de)).toBe('5.–6.');
    const now = new Date('2026-03-18T15:20:00Z');
    const soon = new Date('2026-03-18T15:25:00Z');
    expect(formatInstant(soon, 'relative', 'UTC', now, pt)).toBe('em 5 minutos');
    expect(formatInstant(soon, 'relative', 'UTC', now, de)).toBe('in 5 Minuten');
    expect(formatInstant(soon, 'relative', 'UTC', now, en)).toBe('in 5 minutes');
    expect(formatInstant(soon, 'full', 'UTC', now, de)).toBe('Mi., 18. März 2026, 15:25');
    // Broadcast languages: the data names them in English; the reader reads them in their own.
    expect(['German', 'English'].map((name) => languageIn(name, pt))).toEqual(['alemão', 'inglês']);
    expect(['German', 'English'].map((name) => languageIn(name, de))).toEqual(['Deutsch', 'Englisch']);
    expect(languageIn('German', en)).toBe('German');
    expect(languageIn('Elvish', de)).toBe('Elvish');
  });
});
