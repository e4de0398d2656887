/**
 * The commands speak the tenant's language: real commands through the real runtime, for
 * a tenant set to Portuguese and one set to German. Each reply holds words of its language, none of
 * the English-only words the same reply says in English, and no raw message key (`commands.`).
 * Data (team, tournament, player names) stays as the data gives it; what other areas write (cards'
 * lines, day titles) is checked by their own tests.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../src/i18n/i18n.ts';
import { type CallResult, call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** What one command's reply must say in a language, and the English it must not. */
interface Expectation {
  says: string[];
  not: string[];
}

/** Runs `command` for a fresh tenant in `locale`; the reply's text, checked for raw keys. */
async function inLocale(
  locale: Locale,
  command: string,
  args: Record<string, unknown> = {},
  subcommand?: string,
): Promise<CallResult> {
  const tenant = await tenantWith(stack, { language: locale });
  const result = await call(stack, command, args, { tenant, ...(subcommand ? { subcommand } : {}) });
  expect(result.text).not.toContain('commands.');
  return result;
}

function expectSays(result: CallResult, { says, not }: Expectation): void {
  for (const word of says) expect(result.text).toContain(word);
  for (const word of not) expect(result.text).not.toContain(word);
}

/** A name the index offers for `source`: real data, so the commands find it. */
function sampleName(source: 'team' | 'tournament'): string {
  const name = stack.names.search(source, '', 1)[0]?.name;
  if (!name) throw new Error(`no ${source} in the index`);
  return name;
}

/** An active player whose nick no other player has, from the world (the index loads players lazily). */
function playerNick(): string {
  const players = stack.service.world.catalog.players;
  const taken = (nick: string) =>
    players.filter((p) => p.nick_name.toLowerCase() === nick.toLowerCase()).length;
  const player = players.find((p) => p.active && taken(p.nick_name) === 1);
  if (!player) throw new Error('no player with a unique nick');
  return player.nick_name;
}

/** A running tournament with a round-robin group that has results, from the world. */
function groupTournament(): string {
  const world = stack.service.world;
  const t = world.now();
  for (const tournament of world.window(t).tournaments) {
    if (tournament.start > t || tournament.end < t) continue;
    for (const stage of tournament.stages)
      for (const sub of stage.substages)
        if (sub.type === 1 && world.substageAt(sub, t).standings.some((s) => s.wins > 0))
          return world.tournamentAt(tournament).title;
  }
  throw new Error('no group with results');
}

const CASES: Record<'pt' | 'de', Record<string, Expectation>> = {
  pt: {
    live: { says: ['Mais', 'O jogo atual em detalhe'], not: ['The current game in detail', 'Streams:'] },
    series: { says: ['Próximas séries'], not: ['Upcoming series', 'No upcoming series'] },
    team: {
      says: ['Jogo', 'Região', 'Próximas ·', 'Recentes ·', 'Time '],
      not: ['Upcoming ·', 'Recent ·', 'Region'],
    },
    tournament: {
      says: ['Fase:', 'Participantes', 'Premiação', 'Torneio', '(grupos, Bo3)'],
      not: ['Participants', 'Prize pool', 'Location', 'Tournament ', '(groups'],
    },
    standings: { says: ['Outras fases'], not: ['Other stages'] },
    casters: { says: ['Narradores ·', 'Série'], not: ['Casters ·'] },
    player: { says: ['Região', 'Jogador'], not: ['Country', 'Region', 'Player '] },
    follow: {
      says: ['Times seguidos', 'Este chat ainda não segue nenhum time'],
      not: ['Followed teams', 'follows no teams'],
    },
    me: {
      says: ['Seguir times pessoalmente não está disponível'],
      not: ['Personal follows are not available'],
    },
    settings: {
      says: ['Configurações do Matchday', 'Fuso horário', 'Atualizações ao vivo'],
      not: ['Matchday settings', 'Live updates', 'Timezone'],
    },
    status: {
      says: ['Status do Matchday', 'Próxima série', 'Canais'],
      not: ['Matchday status', 'Next series', 'Esports data service'],
    },
    help: {
      says: ['Comandos do Matchday', 'Detalhes de um comando'],
      not: ['Matchday commands', 'Details of one command'],
    },
    helpSeries: {
      says: ['Ajuda: series', 'sugere nomes', 'Uso:'],
      not: ['Help: series', 'suggests names', 'Usage:'],
    },
    unknownSeries: { says: ['Não existe a série 999999'], not: ['There is no series'] },
    badDay: { says: ['não é um dia'], not: ['is not a day'] },
  },
  de: {
    live: { says: ['Mehr', 'Das aktuelle Spiel im Detail'], not: ['The current game in detail', 'More'] },
    series: { says: ['Kommende Serien'], not: ['Upcoming series', 'No upcoming series'] },
    team: { says: ['Spiel', 'Kommend ·', 'Zuletzt ·'], not: ['Upcoming ·', 'Recent ·', 'Game'] },
    tournament: {
      says: ['Phase:', 'Teilnehmer', 'Preisgeld', 'Turnier', '(Gruppen, Bo3)'],
      not: ['Participants', 'Prize pool', 'Location', 'Tournament ', '(groups'],
    },
    standings: { says: ['Andere Phasen'], not: ['Other stages'] },
    casters: { says: ['Caster ·', 'Serie'], not: ['Casters ·', 'Series '] },
    player: { says: ['Region', 'Spieler'], not: ['Country', 'Player '] },
    follow: {
      says: ['Gefolgte Teams', 'Dieser Chat folgt noch keinem Team'],
      not: ['Followed teams', 'follows no teams'],
    },
    me: { says: ['Persönliches Folgen ist in diesem Matchday nicht verfügbar'], not: ['Personal follows'] },
    settings: {
      says: ['Matchday-Einstellungen', 'Zeitzone', 'Live-Updates'],
      not: ['Matchday settings', 'Live updates', 'Timezone'],
    },
    status: {
      says: ['Matchday-Status', 'Nächste Serie', 'Kanäle'],
      not: ['Matchday status', 'Next series', 'Esports data service'],
    },
    help: {
      says: ['Matchday-Befehle', 'Details zu einem Befehl'],
      not: ['Matchday commands', 'Details of one command'],
    },
    helpSeries: {
      says: ['Hilfe: series', 'schlägt Namen vor', 'Aufruf:'],
      not: ['Help: series', 'suggests names', 'Usage:'],
    },
    unknownSeries: { says: ['Es gibt keine Serie 999999'], not: ['There is no series'] },
    badDay: { says: ['ist kein Tag'], not: ['is not a day'] },
  },
};

describe.each(['pt', 'de'] as const)('the commands in %s', (locale) => {
  const expected = CASES[locale];

  it('/live, /series, /casters: the live overview, a listing and the streams', async () => {
    expectSays(await inLocale(locale, 'live'), expected.live!);
    expectSays(await inLocale(locale, 'series', { when: 'upcoming' }), expected.series!);
    expectSays(await inLocale(locale, 'casters'), expected.casters!);
  });

  it('/team, /player, /tournament, /standings: data stays, the words around it are translated', async () => {
    const team = sampleName('team');
    const teamReply = await inLocale(locale, 'team', { team });
    expectSays(teamReply, expected.team!);
    // The label the index offers ends with the game ("Name (CS2)"); the card is titled with the name.
    expect(teamReply.text).toContain(team.replace(/ \([^)]*\)$/, ''));
    expectSays(await inLocale(locale, 'player', { player: playerNick() }), expected.player!);
    const tournament = groupTournament();
    const tournamentReply = await inLocale(locale, 'tournament', { tournament });
    expectSays(tournamentReply, expected.tournament!);
    expect(tournamentReply.text).toContain(tournament);
    expectSays(await inLocale(locale, 'standings', { tournament }), expected.standings!);
  });

  it('/follow, /me, /settings, /status, /help', async () => {
    expectSays(await inLocale(locale, 'follow', {}, 'list'), expected.follow!);
    expectSays(await inLocale(locale, 'me', {}, 'list'), expected.me!);
    expectSays(await inLocale(locale, 'settings', {}, 'show'), expected.settings!);
    expectSays(await inLocale(locale, 'status'), expected.status!);
    expectSays(await inLocale(locale, 'help'), expected.help!);
    expectSays(await inLocale(locale, 'help', { command: 'series' }), expected.helpSeries!);
  });

  it('refusals thrown by the commands', async () => {
    const unknown = await inLocale(locale, 'series', { series: '999999' });
    expect(unknown.outcome).not.toBe('ok');
    expectSays(unknown, expected.unknownSeries!);
    expectSays(await inLocale(locale, 'schedule', { day: 'someday' }), expected.badDay!);
  });
});

describe('/settings language', () => {
  it('answers in the language just chosen, and the next reply follows it', async () => {
    const tenant = await tenantWith(stack, {});
    const changed = await call(stack, 'settings', { code: 'pt' }, { tenant, subcommand: 'language' });
    expect(changed.text).toContain('Idioma: Português.');
    expect(changed.text).toContain('Configurações do Matchday');
    expect(changed.text).not.toContain('Matchday settings');
    const next = await call(stack, 'series', { when: 'upcoming' }, { tenant });
    expect(next.text).toContain('Próximas séries');
    const back = await call(stack, 'settings', { code: 'en' }, { tenant, subcommand: 'language' });
    expect(back.text).toContain('Language: English.');
    expect(back.text).toContain('Matchday settings');
  });
});
