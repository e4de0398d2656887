/**
 * `/standings`: a tournament substage as a table (round robin: rank, team, wins, draws, losses,
 * points, score difference; battle-royale lobby: place, team, points, kills, lobbies played) or as
 * bracket rounds (upper, lower, grand final) with results.
 * Standings are results: under `spoiler` the figures are wrapped and the rows are listed by seed,
 * under `hide` only the participants are listed. Requests: the substage (1), and for a bracket or
 * a lobby its series (1).
 */

import { bracketRounds, roundLabel, startOf } from '../src/bot/bracket-rounds.ts';
import { defineCommand } from '../src/bot/command.ts';
import {
  forfeitVerdict,
  guardResult,
  isForfeit,
  orderedParticipants,
  resultSpans,
  teamName,
} from '../src/bot/format.ts';
import { normalizeName } from '../src/bot/name-match.ts';
import type { NameIndex } from '../src/bot/names.ts';
import type { Card, Table, Text } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import type { SpoilerPolicy } from '../src/bot/settings.ts';
import { cmd, MatchdayError, UserError } from '../src/core/errors.ts';
import { spanned, type Translate } from '../src/i18n/i18n.ts';
import type { BracketPart, Series, StandingEntry, Substage } from '../src/protocol/types.ts';
import { attachBracket, attachTable, logoUrlsOf } from '../src/render/standings-input.ts';
import { isNotFound, resolveName, scopeOf, unlessBusy } from './shared.ts';

/** Substage `type` values (the local service's convention; docs/local-service.md). */
const ROUND_ROBIN = 1;
const BRACKET = 2;
/** A battle-royale lobby group: many teams per series, ranked by points (placement and kills). */
const LOBBY = 3;

export default defineCommand({
  name: 'standings',
  description: "A tournament's group table or bracket",
  usesService: true,
  options: {
    tournament: {
      type: 'string',
      description: 'Tournament',
      required: true,
      autocomplete: 'tournament',
      max: 100,
    },
    stage: {
      type: 'string',
      description: 'Group or bracket (default: the current one)',
      autocomplete: 'substage',
      max: 100,
    },
  },
  async run(ctx) {
    const { args, tenant } = ctx;
    const { data, names, t } = ctx;
    const tournamentText = args.tournament;
    if (!tournamentText)
      throw new UserError(
        'EMPTY_NAME',
        spanned(t, 'commands.tournament.emptyName', {}, { command: cmd('standings tournament:Major') }),
      );
    const tournamentId = await resolveName(ctx, 'tournament', tournamentText, scopeOf(ctx));
    await unlessBusy(ctx, names.ensureTournaments(data, [tournamentId]));
    let substages = names.substagesOf(tournamentId);
    if (substages.length === 0) substages = await data.tournaments.substages(tournamentId, { take: 50 });
    substages = inStageOrder(substages.filter((s) => s.deleted_at === null));
    if (substages.length === 0) {
      const title = names.tournament(tournamentId)?.title;
      throw new UserError(
        'NO_STAGES',
        title ? t('commands.standings.noStages', { title }) : t('commands.standings.noStagesThat'),
      );
    }
    const chosen = pickSubstage(t, substages, args.stage, ctx.now);
    // The read model answers; when the service is busy or down, the copy the list above came with
    // (the name index's, from its last refresh) answers, marked as possibly out of date.
    let substage: Substage;
    let stale = false;
    try {
      substage = await ctx.reads.substage(chosen.id);
    } catch (error) {
      if (isNotFound(error)) throw new UserError('UNKNOWN_STAGE', t('commands.standings.stageGone'));
      if (!(error instanceof MatchdayError) || error.audience !== 'outage') throw error;
      substage = chosen;
      stale = true;
    }
    const flags = stale ? { stale } : {};
    const tournament = names.tournament(tournamentId);
    const title = `${tournament?.title ?? t('commands.standings.tournament')} · ${substage.title}`;
    const others = substages.filter((s) => s.id !== substage.id).map((s) => s.title);
    const footer =
      others.length > 0
        ? t('commands.standings.otherStages', { list: listWithin(t, others, 280) })
        : undefined;
    const policy = tenant.settings.spoilers;
    if (substage.type === BRACKET) {
      const series = await ctx.reads.substageSeries(substage.id);
      await unlessBusy(ctx, names.ensureSeriesLabels(data, series));
      const card = bracketCard(t, title, series, names, policy, footer);
      return {
        cards: [
          await attachBracket(
            card,
            series,
            names,
            policy,
            `bracket-${substage.id}.png`,
            t,
            tenant.settings.timezone,
          ),
        ],
        ...flags,
      };
    }
    if (substage.type === LOBBY) {
      // Points are the substage's; kills and lobbies played come from its series (one request).
      const series = await ctx.reads.substageSeries(substage.id);
      await unlessBusy(ctx, names.ensureRosters(data, tableRosters(substage)));
      const card = lobbyCard(t, title, substage, series, names, policy, footer);
      const logos = logoUrlsOf(names, tableRosters(substage));
      return { cards: [await attachTable(card, `standings-${substage.id}.png`, t, logos)], ...flags };
    }
    if (substage.type !== ROUND_ROBIN && substage.standings.length === 0) {
      return {
        cards: [
          {
            title,
            colour: COLOURS.info,
            description: [[t('commands.standings.noTable')]],
            ...(footer ? { footer } : {}),
          },
        ],
        ...flags,
      };
    }
    await unlessBusy(ctx, names.ensureRosters(data, tableRosters(substage)));
    const target = substage.rules.advance?.substage?.id;
    const advanceTo = substages.find((s) => s.id === target)?.title;
    const card = tableCard(t, title, substage, names, policy, footer, advanceTo);
    const logos = logoUrlsOf(names, tableRosters(substage));
    return { cards: [await attachTable(card, `standings-${substage.id}.png`, t, logos)], ...flags };
  },
});

/** The rosters a table names: those with standings and those entered. */
function tableRosters(substage: Substage): number[] {
  return [...substage.standings.map((s) => s.roster.id), ...substage.rosters.map((r) => r.id)];
}

/**
 * Substages in the tournament's order: stage by stage (a stage's place: its first substage's start,
 * so groups come before the playoffs they feed), and within a stage by the substage's `order`
 * (Group A, B, C, D, whichever day each starts).
 */
export function inStageOrder(substages: readonly Substage[]): Substage[] {
  const startOf = (s: Substage) => (s.start ? Date.parse(s.start) : Number.POSITIVE_INFINITY);
  const stageStart = new Map<number, number>();
  for (const s of substages)
    stageStart.set(s.stage.id, Math.min(stageStart.get(s.stage.id) ?? Number.POSITIVE_INFINITY, startOf(s)));
  const placeOf = (s: Substage) => stageStart.get(s.stage.id)!;
  return [...substages].sort(
    (a, b) => placeOf(a) - placeOf(b) || a.stage.id - b.stage.id || a.order - b.order || a.id - b.id,
  );
}

/**
 * The stage a user named (an id or a title within the tournament), else the current one: the
 * latest that has started, or the first.
 */
export function pickSubstage(
  t: Translate,
  substages: readonly Substage[],
  text: string | undefined,
  now: Date,
): Substage {
  if (text) {
    if (/^\d{1,12}$/.test(text)) {
      const byId = substages.find((s) => s.id === Number(text));
      if (byId) return byId;
    }
    // A completion offers "Group A · AC Lisbon Masters 16 Mar": the part before " · " is the stage.
    const query = normalizeName(text.split(' · ')[0]!);
    const exact = substages.filter((s) => normalizeName(s.title) === query);
    const loose = exact.length > 0 ? exact : substages.filter((s) => normalizeName(s.title).includes(query));
    if (loose.length === 1) return loose[0]!;
    const titles = substages.map((s) => s.title);
    if (loose.length > 1) {
      throw new UserError(
        'AMBIGUOUS_STAGE',
        t('commands.standings.ambiguous', {
          text: text.slice(0, 40),
          list: loose.map((s) => s.title).join(', '),
        }),
        loose.map((s) => s.title),
      );
    }
    throw new UserError(
      'UNKNOWN_STAGE',
      t('commands.standings.unknownStage', { text: text.slice(0, 40), list: titles.join(', ') }),
      titles,
    );
  }
  // The stage being played: the latest stage that has started (the playoffs once they begin, never
  // a finished group before them); within it the latest started substage with results (parallel
  // groups start together or a day apart, and the one with results says the most), else the latest
  // started one. Before anything starts, the first.
  const started = substages
    .filter((s) => s.start !== null && Date.parse(s.start) <= now.getTime())
    .sort((a, b) => Date.parse(b.start!) - Date.parse(a.start!) || a.order - b.order);
  const played = (s: Substage) => s.standings.some((e) => e.wins + e.draws + e.losses > 0);
  const latest = started[0];
  if (!latest) return substages[0]!;
  return started.find((s) => s.stage.id === latest.stage.id && played(s)) ?? latest;
}

/** "A, B, C and 4 more" within `max` characters, never cutting a name. */
export function listWithin(t: Translate, items: readonly string[], max: number): string {
  const more = (count: number) => (count > 0 ? ` ${t('commands.tournament.andMore', { count })}` : '');
  const shown: string[] = [];
  for (const [i, item] of items.entries()) {
    const next = [...shown, item].join(', ') + more(items.length - i - 1);
    if (next.length > max && shown.length > 0) break;
    shown.push(item);
  }
  return shown.join(', ') + more(items.length - shown.length);
}

/**
 * Round-robin table in the data's order: the service ranks its standings (points, wins, map
 * difference, score difference; `src/service/world-standings.ts` `standingsAt`), so the table never
 * re-sorts them. Columns: rank, team, W, D, L, points, map difference ("Maps") and score difference
 * ("Diff") where the data gives them (v2 gives neither). A rule under the teams that advance
 * (`rules.advance.number`), and a line naming where they go (`advanceTo`, the substage's title).
 * Under `show` in rank order; otherwise listed by name with figures guarded.
 */
export function tableCard(
  t: Translate,
  title: string,
  substage: Substage,
  names: NameIndex,
  policy: SpoilerPolicy,
  footer?: string,
  advanceTo?: string,
): Card {
  const h = (key: 'team' | 'w' | 'd' | 'l' | 'pts' | 'maps' | 'diff') =>
    t(`commands.standings.header.${key}`);
  const columns: Table['columns'] = [
    { header: '#', align: 'right' },
    { header: h('team') },
    { header: h('w'), align: 'right' },
    { header: h('d'), align: 'right' },
    { header: h('l'), align: 'right' },
    { header: h('pts'), align: 'right' },
  ];
  const ranked = substage.standings;
  // Without map or score differences (v2) the table has no Maps or Diff column.
  const withMaps = ranked.every((s) => s.match_diff !== null);
  const withDiff = ranked.every((s) => s.score_diff !== null);
  if (withMaps) columns.push({ header: h('maps'), align: 'right' });
  if (withDiff) columns.push({ header: h('diff'), align: 'right' });
  const advancing = advanceCount(substage);
  const card: Card = { title, colour: COLOURS.info };
  if (policy === 'hide') {
    const teams = (
      substage.rosters.length > 0 ? substage.rosters.map((r) => r.id) : ranked.map((s) => s.roster.id)
    )
      .map((id) => teamName(names, id))
      .sort((a, b) => a.localeCompare(b));
    card.description = [hiddenLine(t), [teams.join(', ')]];
  } else if (policy === 'spoiler') {
    const seeded = [...ranked].sort((a, b) =>
      teamName(names, a.roster.id).localeCompare(teamName(names, b.roster.id)),
    );
    const figures = (s: StandingEntry) =>
      [
        `${s.wins}–${s.draws}–${s.losses}`,
        t('commands.standings.pts', { count: s.points }),
        ...(withMaps ? [signed(s.match_diff!)] : []),
        ...(withDiff ? [signed(s.score_diff!)] : []),
      ].join(' · ');
    card.table = {
      columns: [
        { header: h('team') },
        { header: t(withDiff ? 'commands.standings.header.seededDiff' : 'commands.standings.header.seeded') },
      ],
      rows: seeded.map((s) => [
        [teamName(names, s.roster.id)],
        guardResult([`${figures(s)} (#${ranked.indexOf(s) + 1})`], policy, t),
      ]),
    };
  } else {
    card.table = {
      columns,
      rows: ranked.map((s, i) => [
        [String(i + 1)],
        [teamName(names, s.roster.id)],
        [String(s.wins)],
        [String(s.draws)],
        [String(s.losses)],
        [String(s.points)],
        ...(withMaps ? [[signed(s.match_diff!)]] : []),
        ...(withDiff ? [[signed(s.score_diff!)]] : []),
      ]),
      ...(advancing ? { cut: advancing } : {}),
    };
  }
  if (advancing && policy !== 'hide' && ranked.length > 0) {
    card.description = [
      [
        advanceTo
          ? t('commands.standings.advanceTo', { count: advancing, stage: advanceTo })
          : t('commands.standings.advance', { count: advancing }),
      ],
    ];
  }
  if (ranked.length === 0 && policy !== 'hide') {
    delete card.table;
    card.description = [[t('commands.standings.noResults')]];
  }
  if (footer) card.footer = footer;
  return card;
}

/** How many teams of a group advance (its rules), when that is a cut inside the table. */
export function advanceCount(substage: Substage): number | undefined {
  const n = substage.rules.advance?.number;
  return n !== undefined && n > 0 && n < substage.standings.length ? n : undefined;
}

/** One team's line in a lobby table. */
interface LobbyRow {
  roster: number;
  points: number;
  kills: number;
  played: number;
}

/**
 * A battle-royale lobby group as a points table: place, team, points, kills and lobbies played
 * (a W/D/L table says nothing about a 16-team lobby). Points are the substage's standings; kills
 * and lobbies played are summed from its series' participants (`stats.kills`). Ranked by points,
 * then kills. Under `spoiler` listed by name with the figures guarded; under `hide` names only.
 * Where the series carry no statistics (v2) there is no Kills column, and the card says why.
 */
export function lobbyCard(
  t: Translate,
  title: string,
  substage: Substage,
  series: readonly Series[],
  names: NameIndex,
  policy: SpoilerPolicy,
  footer?: string,
): Card {
  const { rows, killsKnown } = lobbyRows(substage, series);
  const ranked = [...rows.values()].sort(
    (a, b) => b.points - a.points || b.kills - a.kills || a.roster - b.roster,
  );
  const card: Card = { title, colour: COLOURS.info };
  const anything = ranked.some((r) => r.points > 0 || r.kills > 0 || r.played > 0);
  const pts = (r: LobbyRow) => t('commands.standings.pts', { count: r.points });
  const figures = (r: LobbyRow) =>
    killsKnown ? `${pts(r)} · ${t('commands.standings.kills', { count: r.kills })}` : pts(r);
  const h = (key: 'team' | 'pts' | 'killsColumn' | 'played') => t(`commands.standings.header.${key}`);
  if (!anything) card.description = [[t('commands.standings.noLobby')]];
  else if (policy === 'hide') {
    const teams = ranked.map((r) => teamName(names, r.roster)).sort((a, b) => a.localeCompare(b));
    card.description = [hiddenLine(t), [teams.join(', ')]];
  } else if (policy === 'spoiler') {
    const byName = [...ranked].sort((a, b) =>
      teamName(names, a.roster).localeCompare(teamName(names, b.roster)),
    );
    card.table = {
      columns: [
        { header: h('team') },
        {
          header: t(killsKnown ? 'commands.standings.header.placeKills' : 'commands.standings.header.place'),
        },
      ],
      rows: byName.map((r) => [
        [teamName(names, r.roster)],
        guardResult([`${figures(r)} (#${ranked.indexOf(r) + 1})`], policy, t),
      ]),
    };
  } else {
    card.table = {
      columns: [
        { header: '#', align: 'right' },
        { header: h('team') },
        { header: h('pts'), align: 'right' },
        ...(killsKnown ? [{ header: h('killsColumn'), align: 'right' as const }] : []),
        { header: h('played'), align: 'right' },
      ],
      rows: ranked.map((r, i) => [
        [String(i + 1)],
        [teamName(names, r.roster)],
        [String(r.points)],
        ...(killsKnown ? [[String(r.kills)]] : []),
        [String(r.played)],
      ]),
    };
  }
  if (anything && policy !== 'hide' && !killsKnown) card.description = [[t('commands.standings.noKills')]];
  if (footer) card.footer = footer;
  return card;
}

/** "Standings are hidden by the spoiler setting (/settings spoilers). Teams:" */
function hiddenLine(t: Translate): Text {
  return spanned(t, 'commands.standings.hidden', {}, { command: cmd('settings spoilers') });
}

/**
 * Each team's points (the substage's), kills and lobbies played (summed from its series; the
 * lobbies of a series still live count once it has ended).
 */
function lobbyRows(
  substage: Substage,
  series: readonly Series[],
): { rows: Map<number, LobbyRow>; killsKnown: boolean } {
  const rows = new Map<number, LobbyRow>();
  const row = (roster: number) => {
    let r = rows.get(roster);
    if (!r) {
      r = { roster, points: 0, kills: 0, played: 0 };
      rows.set(roster, r);
    }
    return r;
  };
  for (const s of substage.standings) row(s.roster.id).points = s.points;
  // Kills are known only where the data gives the lobbies' statistics (the v2 interface does not):
  // without them the table has no Kills column and says so, rather than showing 0 kills.
  let killsKnown = false;
  for (const s of series) {
    const started = s.lifecycle === 'live' || s.lifecycle === 'over' || s.lifecycle === 'over-forfeited';
    if (!started) continue;
    for (const p of s.participants) {
      const r = row(p.roster.id);
      if (p.stats) killsKnown = true;
      r.kills += p.stats?.kills ?? 0;
      // Lobbies, not series: a finished series played each of its matches (none when forfeited).
      if (s.lifecycle === 'over') r.played += s.matches.length || s.best_of || s.format.best_of;
    }
  }
  return { rows, killsKnown };
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * Bracket rounds in the order they are played (by their first series' start; the upper bracket
 * first where two rounds start together), each named as fans say it (`roundLabel`: "Upper-bracket
 * final"), its series by start time with their time while unplayed and a LIVE mark while live.
 */
export function bracketCard(
  t: Translate,
  title: string,
  series: readonly Series[],
  names: NameIndex,
  policy: SpoilerPolicy,
  footer?: string,
): Card {
  const rounds = [...bracketRounds(series).values()];
  const partOrder: BracketPart[] = ['UB', 'LB', 'GF'];
  const minUbCol = Math.min(...rounds.filter((r) => r.part === 'UB').map((r) => r.col));
  const firstStart = (r: (typeof rounds)[number]) => Math.min(...r.series.map(startOf));
  const ordered = [...rounds].sort(
    (a, b) =>
      firstStart(a) - firstStart(b) || partOrder.indexOf(a.part) - partOrder.indexOf(b.part) || a.col - b.col,
  );
  // Each round: a bold heading line, then one line per series (single-line spans render alike everywhere).
  const description: Text[] = [];
  for (const round of ordered) {
    description.push([{ text: roundLabel(t, round, rounds), bold: true }]);
    const byStart = [...round.series].sort(
      (a, b) =>
        startOf(a) - startOf(b) || (a.bracket_position?.offset ?? 0) - (b.bracket_position?.offset ?? 0),
    );
    for (const s of byStart) {
      // Who reached a later round is itself a result: guarded like the scores.
      description.push(bracketLine(t, s, names, policy, !(round.part === 'UB' && round.col === minUbCol)));
    }
  }
  const card: Card = { title, colour: COLOURS.info };
  card.description =
    description.length > 0 ? description.slice(0, 80) : [[t('commands.standings.emptyBracket')]];
  if (footer) card.footer = footer;
  return card;
}

function bracketLine(
  t: Translate,
  series: Series,
  names: NameIndex,
  policy: SpoilerPolicy,
  advanced: boolean,
): Text {
  const live = { text: t('commands.standings.live'), bold: true };
  const [home, away] = orderedParticipants(series);
  const a = home ? teamName(names, home.roster.id) : t('cards.series.tbd');
  const b = away ? teamName(names, away.roster.id) : t('cards.series.tbd');
  if (advanced && policy !== 'show' && (home || away)) {
    const finished = series.lifecycle === 'over' || series.lifecycle === 'over-forfeited';
    const winner = home?.winner ? a : away?.winner ? b : undefined;
    const inner =
      finished && home && away
        ? isForfeit(series)
          ? `${a} vs ${b}, ${forfeitVerdict(series, names, t)}`
          : `${a} ${home.score}–${away.score} ${b}${winner ? `, ${t('commands.standings.wins', { winner })}` : ''}`
        : `${a} vs ${b}`;
    const when: Text = series.start ? [' · ', { time: new Date(series.start), style: 'full' }] : [];
    return [...guardResult([inner], policy, t), ...(series.lifecycle === 'live' ? [' ', live] : when)];
  }
  if (series.lifecycle === 'live' && home && away) return [`${a} ${home.score}–${away.score} ${b} `, live];
  // A finished series reads as everywhere else (a score, or who forfeited).
  if ((series.lifecycle === 'over' || series.lifecycle === 'over-forfeited') && home && away)
    return resultSpans(series, names, policy, t);
  const when: Text = series.start ? [' · ', { time: new Date(series.start), style: 'full' }] : [];
  return [`${a} vs ${b}`, ...when];
}
