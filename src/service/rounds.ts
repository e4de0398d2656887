/**
 * When a tactical shooter's rounds end, and who wins each: rounds follow each other at
 * a steady pace over the map (a round lasts about the map's length over its rounds, give or take
 * 15%), and the order of wins is a walk that stays plausible: each round goes to either team
 * about evenly while both still have rounds to win, and the lead never strays more than
 * `MAX_EXTRA_LEAD` rounds beyond the final margin either way (no 0–12 start of a 13–11 map). The
 * winner takes the last round at the map's end. Pure: the same match gives the same rounds.
 */
import { Rng } from './random.ts';

/** How far the lead may run beyond the final margin (for either team) while the map is played. */
export const MAX_EXTRA_LEAD = 5;

/**
 * Per team (0 home, 1 away), the ascending instants at which it won a round. `scores` are the
 * map's final rounds, `winner` the team that won it (-1: none, the rounds still alternate).
 */
export function shooterRoundTimes(
  seed: number,
  matchId: number,
  start: number,
  end: number,
  scores: readonly number[],
  winner: number,
): number[][] {
  const rng = new Rng(seed, 'rounds', matchId);
  const total = (scores[0] ?? 0) + (scores[1] ?? 0);
  const times: number[][] = [[], []];
  if (total === 0) return times;
  const w = winner === 1 ? 1 : 0;
  const l = 1 - w;
  const margin = (scores[w] ?? 0) - (scores[l] ?? 0);
  // Rounds left to give out; the winner's last round is kept for the end.
  const left = [0, 0];
  left[w] = (scores[w] ?? 0) - 1;
  left[l] = scores[l] ?? 0;
  if (left[w]! < 0) {
    left[w] = 0;
    left[l] = total;
  }
  const order: number[] = [];
  let lead = 0; // winner's rounds minus loser's
  while (left[0]! + left[1]! > 0) {
    let team: number;
    if (left[w] === 0) team = l;
    else if (left[l] === 0) team = w;
    else if (lead >= margin + MAX_EXTRA_LEAD) team = l;
    else if (lead <= -MAX_EXTRA_LEAD) team = w;
    else {
      // Even-ish, nudged toward what is left to play out (half a coin, half the rounds left).
      const share = left[w]! / (left[w]! + left[l]!);
      team = rng.next() < 0.5 * 0.5 + 0.5 * share ? w : l;
    }
    left[team]!--;
    lead += team === w ? 1 : -1;
    order.push(team);
  }
  if ((scores[w] ?? 0) > 0) order.push(w);
  // A steady pace from a minute after the start; the last round ends a second before the map does.
  const first = start + 60_000;
  const last = end - 1000;
  const length = Math.max(1, (last - first) / total);
  order.forEach((team, i) => {
    const at =
      i === order.length - 1 ? last : Math.floor(first + length * (i + 1) - length * 0.15 * (1 + rng.next()));
    times[team]!.push(i === order.length - 1 ? last : Math.min(last - 1, Math.max(first, at)));
  });
  return times;
}
