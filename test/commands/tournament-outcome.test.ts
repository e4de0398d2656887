/**
 * `/tournament` of a finished tournament names its champion and placements with the prize of each
 * place, checked against the world's planned results; the
 * spoiler policy applies; a running tournament has no outcome yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bracketPlacements, lobbyPlacements, ordinal, placeLabel } from '../../src/bot/outcome.ts';
import { translator } from '../../src/i18n/i18n.ts';
import type { Series, StandingEntry } from '../../src/protocol/types.ts';
import type { SeriesPlan, TournamentPlan } from '../../src/service/schedule.ts';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';
import { teamNameOf } from './truth.ts';

let stack: Stack;

const playoffSeries = (plan: TournamentPlan): SeriesPlan[] =>
  plan.stages
    .filter((s) => s.order === 2)
    .flatMap((s) => s.substages.flatMap((sub) => sub.series))
    .filter((s) => s.deletedAt === null);

function finished(kind: 'bracket' | 'lobby'): TournamentPlan {
  const world = stack.service.world;
  const t = world.now();
  const plan = world
    .window(t)
    .tournaments.find(
      (x) =>
        x.end < t &&
        x.tier === 1 &&
        (kind === 'lobby') === x.stages.some((s) => s.substages.some((sub) => sub.type === 3)),
    );
  if (!plan) throw new Error(`no finished ${kind} tournament in the window`);
  return plan;
}

describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  describe('/tournament outcome', () => {
    it("names the bracket's champion, runner-up and the lower bracket's last losers, with prizes", async () => {
      const world = stack.service.world;
      const plan = finished('bracket');
      const tournament = world.tournamentAt(plan);
      const series = playoffSeries(plan);
      const gf = series.find((s) => s.bracket?.part === 'GF')!;
      const lbCols = series.filter((s) => s.bracket?.part === 'LB').map((s) => s.bracket!.col);
      const lbFinal = series.find((s) => s.bracket?.part === 'LB' && s.bracket.col === Math.max(...lbCols))!;
      const name = (s: SeriesPlan, winner: boolean) =>
        teamNameOf(world, s.rosters[winner ? s.winner : 1 - s.winner]!);

      const result = await call(stack, 'tournament', { tournament: tournament.title });
      expect(result.outcome).toBe('ok');
      // The description: an optional blurb, the dates, then a line a place.
      const lines = result.reply.cards[0]!.description!.map((line) =>
        line.map((s) => (typeof s === 'string' ? s : 'text' in s ? s.text : '')).join(''),
      );
      const at = lines.findIndex((l) => l.startsWith('Champion: '));
      expect(lines.slice(at)).toEqual([
        `Champion: ${name(gf, true)} · ${tournament.string_prize_pool.first}`,
        `2nd ${name(gf, false)} · ${tournament.string_prize_pool.second}`,
        `3rd ${name(lbFinal, false)} · ${tournament.string_prize_pool.third}`,
        expect.stringMatching(/^4th [A-Z][a-z]+ [A-Z][a-z]+$/),
      ]);
    });

    // On v2 too: a lobby's standings carry its points there, read from the substage (v2 embeds
    // substages in a tournament without their standings; docs/data-client.md, "What differs on v2").
    it("names a battle-royale final lobby's places by its standings", async () => {
      const world = stack.service.world;
      const plan = finished('lobby');
      const tournament = world.tournamentAt(plan);
      const sub = plan.stages.find((s) => s.order === 2)!.substages[0]!;
      const standings = world.substageAt(sub, world.now()).standings;
      const result = await call(stack, 'tournament', { tournament: tournament.title });
      expect(result.outcome).toBe('ok');
      expect(result.text).toContain(
        `Champion: ${teamNameOf(world, standings[0]!.roster.id)} · ${tournament.string_prize_pool.first}`,
      );
      expect(result.text).toContain(`2nd ${teamNameOf(world, standings[1]!.roster.id)}`);
      expect(result.text).toContain(`3rd ${teamNameOf(world, standings[2]!.roster.id)}`);
    });

    it('keeps the places behind a spoiler, or hides them, as the server asks', async () => {
      const world = stack.service.world;
      const plan = finished('bracket');
      const gf = playoffSeries(plan).find((s) => s.bracket?.part === 'GF')!;
      const champion = teamNameOf(world, gf.rosters[gf.winner]!);
      const title = world.tournamentAt(plan).title;

      const spoiler = await tenantWith(stack, { spoilers: 'spoiler' });
      const guarded = await call(stack, 'tournament', { tournament: title }, { tenant: spoiler });
      expect(guarded.text).toContain('Champion: [spoiler]');
      expect(guarded.text).not.toContain(`Champion: ${champion}`);
      expect(guarded.revealed).toContain(`Champion: ${champion}`);

      const hide = await tenantWith(stack, { spoilers: 'hide' });
      const hidden = await call(stack, 'tournament', { tournament: title }, { tenant: hide });
      expect(hidden.text).toContain('The placements are hidden by the spoiler setting');
      expect(hidden.revealed).not.toContain('Champion:');
    });

    it('has no outcome while the tournament is still being played', async () => {
      const world = stack.service.world;
      const t = world.now();
      const plan = world.window(t).tournaments.find((x) => x.tier === 1 && x.start <= t && x.end > t)!;
      const result = await call(stack, 'tournament', { tournament: plan.title });
      expect(result.outcome).toBe('ok');
      expect(result.text).not.toContain('Champion:');
      expect(result.text).not.toMatch(/^2nd /m);
    });
  });
});

describe('bracketPlacements', () => {
  const series = (id: number, part: 'UB' | 'LB' | 'GF', col: number, winner: number, loser: number): Series =>
    ({
      id,
      lifecycle: 'over',
      bracket_position: { part, col, offset: 0 },
      participants: [
        { roster: { id: winner }, winner: true },
        { roster: { id: loser }, winner: false },
      ],
    }) as unknown as Series;

  it('places an 8-team bracket by where each team lost, sharing the early lower-bracket places', () => {
    const places = bracketPlacements([
      series(1, 'LB', 1, 5, 7),
      series(2, 'LB', 1, 6, 8),
      series(3, 'LB', 2, 5, 9),
      series(4, 'LB', 2, 6, 10),
      series(5, 'LB', 3, 5, 6),
      series(6, 'LB', 4, 5, 3),
      series(7, 'GF', 1, 1, 2),
    ])!;
    expect(places.map((p) => [placeLabel(p, translator('en')), p.rosters])).toEqual([
      ['1st', [1]],
      ['2nd', [2]],
      ['3rd', [3]],
      ['4th', [6]],
      ['5th-6th', [9, 10]],
      ['7th-8th', [7, 8]],
    ]);
  });

  it('answers null until the grand final is over', () => {
    const gf = { ...series(7, 'GF', 1, 1, 2), lifecycle: 'upcoming' } as Series;
    expect(bracketPlacements([series(6, 'LB', 2, 5, 3), gf])).toBeNull();
    expect(bracketPlacements([])).toBeNull();
  });

  it('writes ordinals in English', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map((n) => ordinal(n, translator('en')))).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
    ]);
  });
});

describe('lobbyPlacements', () => {
  const lobby = (id: number, rosters: number[]): Series =>
    ({
      id,
      lifecycle: 'over',
      participants: rosters.map((r) => ({ roster: { id: r }, winner: r === rosters[0] })),
    }) as unknown as Series;
  const entry = (roster: number, points: number, played: number): StandingEntry => ({
    roster: { id: roster },
    points,
    wins: 0,
    draws: 0,
    losses: played,
    match_diff: 0,
    score_diff: null,
  });
  const lobbies = [lobby(1, [10, 11, 12]), lobby(2, [10, 11, 12])];

  it('places by the standings once they count every lobby played', () => {
    const places = lobbyPlacements(lobbies, [entry(11, 30, 2), entry(10, 20, 2), entry(12, 5, 2)])!;
    expect(places.map((p) => [placeLabel(p, translator('en')), p.rosters])).toEqual([
      ['1st', [11]],
      ['2nd', [10]],
      ['3rd', [12]],
    ]);
  });

  it('decides nothing from standings read before the last lobby ended (a stale cache)', () => {
    // The standings count one lobby, the series two: the leader may change with the second.
    expect(lobbyPlacements(lobbies, [entry(11, 20, 1), entry(10, 15, 1), entry(12, 5, 1)])).toBeNull();
  });
});
