/**
 * The outcome of a finished tournament: its champion and placements, read from its last playoff
 * substage. A double-elimination bracket places its teams by where they lost: the grand final's
 * loser 2nd, then the lower bracket's losers from its last round back (the last round's loser
 * 3rd, the one before 4th, then shared places such as 5th-6th). A battle-royale final lobby
 * places them by its standings (points). Prize money by place comes from the tournament's
 * `string_prize_pool` (first, second, third) where the data has it.
 */
import type { Series, StandingEntry, Tournament } from '../protocol/types.ts';

export interface Placement {
  /** "1st", "2nd", "5th-6th". */
  place: string;
  rosters: number[];
  /** The prize for this place, when the data names one ("$125,000"). */
  prize?: string;
}

const BRACKET = 2;
const LOBBY = 3;

/** "1st", "2nd", "3rd", "4th", ... "11th", "21st". */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
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
    { place: '1st', rosters: [champion] },
    { place: '2nd', rosters: [runnerUp] },
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
    places.push({ place: last === next ? ordinal(next) : `${ordinal(next)}-${ordinal(last)}`, rosters });
    next = last + 1;
  }
  return places;
}

/** Placements of a final lobby whose series are all over, by its standings; else null. */
export function lobbyPlacements(
  series: readonly Series[],
  standings: readonly StandingEntry[],
): Placement[] | null {
  const played = series.filter((s) => s.lifecycle !== 'deleted');
  if (played.length === 0 || !played.every(over) || standings.length === 0) return null;
  // Standings without points (a service that gives a lobby none) do not rank anyone: no outcome
  // rather than a made-up one.
  if (standings.every((entry) => entry.points === 0)) return null;
  return standings.map((entry, i) => ({ place: ordinal(i + 1), rosters: [entry.roster.id] }));
}

/** Adds the prize of the first three places where the tournament names them. */
export function withPrizes(
  places: Placement[],
  tournament: Pick<Tournament, 'string_prize_pool'>,
): Placement[] {
  const pool = tournament.string_prize_pool;
  const prizes: Record<string, string | null | undefined> = {
    '1st': pool.first,
    '2nd': pool.second,
    '3rd': pool.third,
  };
  return places.map((p) => (prizes[p.place] ? { ...p, prize: prizes[p.place]! } : p));
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
