/**
 * Stakes of a bracket series whose chain names one feeder only (as v2's does): the rounds come
 * from the bracket's shape (src/bot/preview-stakes.ts), never "eliminated" for an upper-bracket loser
 * while the stage has a lower bracket.
 */
import { describe, expect, it } from 'vitest';
import { type Stake, stakesOf } from '../../src/bot/preview-stakes.ts';
import type { Series } from '../../src/protocol/types.ts';

let nextId = 1;
function series(part: 'UB' | 'LB' | 'GF', col: number, offset: number, chain: number[] = []): Series {
  return {
    id: nextId++,
    bracket_position: { part, col, offset },
    chain: chain.map((id) => ({ id })),
  } as unknown as Series;
}

const kinds = (stakes: Stake[]) =>
  stakes.map((s) =>
    s.kind === 'winnerTo' || s.kind === 'loserTo'
      ? `${s.kind} ${s.round.part}${'round' in s.round ? s.round.round : ''}${'final' in s.round && s.round.final ? ' final' : ''}`
      : s.kind,
  );

describe('bracket stakes without a full chain', () => {
  it('a 4-team double elimination whose chains name only their first feeder', () => {
    const ub1a = series('UB', 1, 0);
    const ub1b = series('UB', 1, 1);
    const ubf = series('UB', 2, 0, [ub1a.id]);
    const lb1 = series('LB', 1, 0, [ub1a.id]);
    const lbf = series('LB', 2, 0, [ubf.id]);
    const gf = series('GF', 1, 0, [ubf.id]);
    const all = [ub1a, ub1b, ubf, lb1, lbf, gf];
    const stakes = (s: Series) => kinds(stakesOf(s, undefined, all, new Map()));
    expect(stakes(ub1a)).toEqual(['winnerTo UB2 final', 'loserTo LB1']);
    // Named by no chain: before the shape was read, "loser is eliminated".
    expect(stakes(ub1b)).toEqual(['winnerTo UB2 final', 'loserTo LB1']);
    expect(stakes(ubf)).toEqual(['winnerTo GF', 'loserTo LB2 final']);
    expect(stakes(lb1)).toEqual(['winnerTo LB2 final', 'eliminated']);
    expect(stakes(lbf)).toEqual(['winnerTo GF', 'eliminated']);
    expect(stakes(gf)).toEqual(['champion', 'runnerUp']);
  });

  it('a bracket with no lower part eliminates its losers, and its last round sends no one on', () => {
    const a = series('UB', 1, 0);
    const b = series('UB', 1, 1);
    const final = series('UB', 2, 0);
    const all = [a, b, final];
    expect(kinds(stakesOf(b, undefined, all, new Map()))).toEqual(['winnerTo UB2 final', 'eliminated']);
    expect(kinds(stakesOf(final, undefined, all, new Map()))).toEqual(['eliminated']);
  });

  it('a full chain is read as it is, not by the shape', () => {
    const ub1 = series('UB', 1, 0);
    // A data's bracket where an upper round-1 loser skips to lower round 2: the chain says so.
    const lb2 = series('LB', 2, 0, [ub1.id]);
    const ub2 = series('UB', 2, 0, [ub1.id]);
    const lb1 = series('LB', 1, 0);
    expect(kinds(stakesOf(ub1, undefined, [ub1, lb1, lb2, ub2], new Map()))).toEqual([
      'winnerTo UB2 final',
      'loserTo LB2 final',
    ]);
  });
});
