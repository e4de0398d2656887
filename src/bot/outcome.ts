/**
 * The outcome of a finished tournament: its champion and placements, read from its last playoff
 * substage. A double-elimination bracket places its teams by where they lost: the grand final's
 * loser 2nd, then the lower bracket's losers from its last round back (the last round's loser
 * 3rd, the one before 4th, then shared places such as 5th-6th). A battle-royale final lobby
 * places them by its standings (points). Prize money by place comes from the tournament's
 * `string_prize_pool` (first, second, third) where the data has it.
 */
import type { EsportsClient } from '../client/types.ts';
import { cmd } from '../core/errors.ts';
import { INTL_TAGS, localMoney, spanned, type Translate } from '../i18n/i18n.ts';
import type { Series, Stage, StandingEntry, Substage, Tournament } from '../protocol/types.ts';
import { guardResult, type SeriesLabels, teamName } from './format.ts';
import type { Span, Text } from './reply.ts';
import type { SpoilerPolicy } from './settings.ts';

export interface Placement {
  /** The place, or the first of shared places (5 in "5th-6th"). */
  from: number;
  /** The last of shared places; `from` when the place is not shared. */
  to: number;
  rosters: number[];
  /** The prize for this place, when the data names one ("$125,000"). */
  prize?: string;
}

const BRACKET = 2;
const LOBBY = 3;

const ORDINAL_FORMS = ['one', 'two', 'few', 'other'] as const;

/** A place as the reader's language writes it: "1st", "21st" (en), "1º" (pt), "1." (de). */
export function ordinal(n: number, t: Translate): string {
  const form = new Intl.PluralRules(INTL_TAGS[t.locale], { type: 'ordinal' }).select(n);
  const known = ORDINAL_FORMS.find((f) => f === form) ?? 'other';
  return t(`cards.outcome.ordinal.${known}`, { n });
}

/** "1st", or shared places "5th-6th". */
export function placeLabel(place: Pick<Placement, 'from' | 'to'>, t: Translate): string {
  if (place.from === place.to) return ordinal(place.from, t);
  return t('cards.outcome.range', { from: ordinal(place.from, t), to: ordinal(place.to, t) });
}

function over(series: Series): boolean {
  return series.lifecycle === 'over' || series.lifecycle === 'over-forfeited';
}

function loserOf(series: Series): number | undefined {
  return series.participants.find((p) => !p.winner)?.roster.id;
}

/**
 * Placements of a double-elimination bracket whose grand final is over, else null (not finished,
 * or no grand final).
 */
export function bracketPlacements(series: readonly Series[]): Placement[] | null {
  const played = series.filter((s) => s.lifecycle !== 'deleted' && s.bracket_position);
  const finals = played.filter((s) => s.bracket_position!.part === 'GF');
  const final = finals.sort((a, b) => b.bracket_position!.col - a.bracket_position!.col)[0];
  if (!final || !over(final)) return null;
  const champion = final.participants.find((p) => p.winner)?.roster.id;
  const runnerUp = loserOf(final);
  if (champion === undefined || runnerUp === undefined) return null;
  const places: Placement[] = [
    { from: 1, to: 1, rosters: [champion] },
    { from: 2, to: 2, rosters: [runnerUp] },
  ];
  // Lower-bracket rounds from the last back: each round's losers share the next places.
  const lower = new Map<number, number[]>();
  for (const s of played) {
    if (s.bracket_position!.part !== 'LB' || !over(s)) continue;
    const loser = loserOf(s);
    if (loser === undefined) continue;
    const col = s.bracket_position!.col;
    lower.set(col, [...(lower.get(col) ?? []), loser]);
  }
  let next = 3;
  for (const col of [...lower.keys()].sort((a, b) => b - a)) {
    const rosters = lower.get(col)!;
    const last = next + rosters.length - 1;
    places.push({ from: next, to: last, rosters });
    next = last + 1;
  }
  return places;
}

/**
 * Placements of a final lobby whose series are all over, by its standings; else null. Standings
 * that do not yet count every finished lobby (a substage read before the last lobby ended, still
 * cached) decide nothing either: each team's wins, draws and losses must add up to the lobbies it
 * played.
 */
export function lobbyPlacements(
  series: readonly Series[],
  standings: readonly StandingEntry[],
): Placement[] | null {
  const played = series.filter((s) => s.lifecycle !== 'deleted');
  if (played.length === 0 || !played.every(over) || standings.length === 0) return null;
  // Standings without points (a service that gives a lobby none) do not rank anyone: no outcome
  // rather than a made-up one.
  if (standings.every((entry) => entry.points === 0)) return null;
  const lobbies = new Map<number, number>();
  for (const s of played)
    for (const p of s.participants) lobbies.set(p.roster.id, (lobbies.get(p.roster.id) ?? 0) + 1);
  const counted = standings.every(
    (e) => e.wins + e.draws + e.losses === (lobbies.get(e.roster.id) ?? e.wins + e.draws + e.losses),
  );
  if (!counted) return null;
  return standings.map((entry, i) => ({ from: i + 1, to: i + 1, rosters: [entry.roster.id] }));
}

/** Adds the prize of the first three places where the tournament names them. */
export function withPrizes(
  places: Placement[],
  tournament: Pick<Tournament, 'string_prize_pool'>,
): Placement[] {
  const pool = tournament.string_prize_pool;
  const prizes = [pool.first, pool.second, pool.third];
  return places.map((p) => {
    const prize = p.from === p.to ? prizes[p.from - 1] : undefined;
    return prize ? { ...p, prize } : p;
  });
}

/** The placements of a playoff substage by its type (bracket or lobby), or null while it plays. */
export function placementsOf(
  substage: { type: number; standings: readonly StandingEntry[] },
  series: readonly Series[],
): Placement[] | null {
  if (substage.type === BRACKET) return bracketPlacements(series);
  if (substage.type === LOBBY) return lobbyPlacements(series, substage.standings);
  return null;
}

/** The substage that decides the places: the last stage's last bracket or lobby. */
export function finalSubstage(stages: readonly Stage[]): Substage | undefined {
  const live = [...stages].filter((s) => s.deleted_at === null).sort((a, b) => b.order - a.order);
  for (const stage of live) {
    const subs = stage.substages
      .filter((s) => s.deleted_at === null && (s.type === BRACKET || s.type === LOBBY))
      .sort((a, b) => b.order - a.order);
    if (subs[0]) return subs[0];
  }
  return undefined;
}

/** The service no longer has it (404, or 410 for a deleted resource). */
function isNotFound(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 404 || status === 410;
}

/**
 * Reads the outcome of a tournament from its final substage (`finalSubstage`): the substage's
 * series (one request) and, for a lobby whose standings did not come with it (v2 embeds substages
 * without standings), the substage itself (one more). The placements with their prizes, or null
 * while the final substage plays; and the series read (their teams are the ones placed).
 */
export async function readPlacements(
  data: Pick<EsportsClient, 'substages'>,
  tournament: Pick<Tournament, 'string_prize_pool'>,
  final: Pick<Substage, 'id' | 'type' | 'standings'>,
): Promise<{ placements: Placement[] | null; series: Series[] }> {
  let series: Series[];
  try {
    series = await data.substages.series(final.id, { order: 'start-asc', take: 50 });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    series = [];
  }
  const decided =
    final.type === LOBBY && final.standings.length === 0
      ? await data.substages.get(final.id).catch((error: unknown) => {
          if (isNotFound(error)) return final;
          throw error;
        })
      : final;
  const placements = placementsOf(decided, series);
  return { placements: placements && withPrizes(placements, tournament), series };
}

/** Places shown: the first four (shared places count once). */
const SHOWN_PLACES = 4;

/**
 * The outcome as lines, one a place (every platform shows them as lines): "Champion: A ·
 * $125,000", then "2nd B · $62,500" and on, the first four places. Results, so the spoiler policy
 * applies: names behind a spoiler, or one line saying they are hidden. `/tournament` and the
 * tournament-end notification both show these lines.
 */
export function outcomeLines(
  placements: readonly Placement[],
  labels: SeriesLabels,
  policy: SpoilerPolicy,
  t: Translate,
): Text[] {
  if (placements.length === 0) return [];
  if (policy === 'hide') {
    const pieces = spanned<Span>(t, 'cards.outcome.hidden', {}, { command: cmd('settings spoilers') });
    return [pieces.map((piece) => (typeof piece === 'string' ? { text: piece, italic: true } : piece))];
  }
  return placements
    .slice(0, SHOWN_PLACES)
    .map((p, i) => [
      ...(i === 0 ? [{ text: t('cards.outcome.champion'), bold: true }, ' '] : [`${placeLabel(p, t)} `]),
      ...guardResult([p.rosters.map((r) => teamName(labels, r)).join(', ')], policy, t),
      ...(p.prize ? [` · ${localMoney(t.locale, p.prize)}`] : []),
    ]);
}
