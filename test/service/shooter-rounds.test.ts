/**
 * A shooter map's rounds progress plausibly in the local service: at a steady pace (no
 * rounds seconds apart, no ten-minute gaps), in an order whose lead stays realistic (never more
 * than a few rounds beyond the final margin: no 0–12 start to a 13–11 map), sides swapping at
 * the half, the winner taking the last round. Checked on every played shooter map of a week, and
 * over HTTP on one map's live summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShooterLiveSummary } from '../../src/protocol/live-summary.ts';
import type { RunningService } from '../../src/service/index.ts';
import { MAX_EXTRA_LEAD } from '../../src/service/rounds.ts';
import { INSTANT, ok, start } from './helpers.ts';

let service: RunningService;
beforeAll(async () => {
  service = await start();
});
afterAll(() => service.close());

function shooterMaps() {
  const world = service.world;
  const t = INSTANT.getTime();
  return world
    .window(t)
    .series.filter((p) => p.kind === 'shooter' && p.forfeit < 0)
    .flatMap((plan) =>
      plan.matches.filter((m) => m.winner >= 0 && m.end > m.start).map((m) => ({ plan, m })),
    );
}

describe("a shooter map's rounds", () => {
  it('come at a steady pace, in a plausible order, the winner taking the last', () => {
    const maps = shooterMaps().slice(0, 1500);
    expect(maps.length).toBeGreaterThan(500);
    let widest = 0;
    for (const { plan, m } of maps) {
      const events = service.world.matchEvents(plan, m);
      expect(events.map((e) => e.length)).toEqual(m.scores);
      const rounds = events
        .flatMap((list, team) => list.map((at) => ({ at, team })))
        .sort((a, b) => a.at - b.at);
      const total = rounds.length;
      const pace = (m.end - m.start - 61_000) / total;
      // Steady: consecutive rounds at least 70% of the average round apart, at most 130%.
      for (let i = 1; i < total; i++) {
        const gap = rounds[i]!.at - rounds[i - 1]!.at;
        expect(gap, `map ${m.id} round ${i + 1}`).toBeGreaterThanOrEqual(pace * 0.7);
        expect(gap, `map ${m.id} round ${i + 1}`).toBeLessThanOrEqual(pace * 1.3 + 1000);
      }
      expect(rounds[0]!.at).toBeGreaterThanOrEqual(m.start + 60_000);
      expect(rounds.at(-1)!.team, `map ${m.id}: the winner takes the last round`).toBe(m.winner);
      expect(rounds.at(-1)!.at).toBe(m.end - 1000);
      // Plausible: the lead (winner minus loser) stays within the final margin plus a few rounds.
      const margin = m.scores[m.winner]! - m.scores[1 - m.winner]!;
      let lead = 0;
      for (const r of rounds) {
        lead += r.team === m.winner ? 1 : -1;
        expect(lead, `map ${m.id}`).toBeLessThanOrEqual(margin + MAX_EXTRA_LEAD);
        expect(lead, `map ${m.id}`).toBeGreaterThanOrEqual(-MAX_EXTRA_LEAD);
        widest = Math.max(widest, Math.abs(lead) - margin);
      }
    }
    // The bound is reached sometimes (a comeback or a stomp), so it is a bound and not a shape.
    expect(widest).toBeGreaterThan(0);
  });

  it('reads round by round over HTTP: numbers in order, sides swapped at the half, scores as won', async () => {
    const { plan, m } = shooterMaps().find(({ m }) => m.scores[0]! + m.scores[1]! >= 20)!;
    const events = service.world.matchEvents(plan, m);
    const ends = events.flat().sort((a, b) => a - b);
    let last = 0;
    const sides: (string | null)[] = [];
    for (const [i, at] of ends.slice(0, -1).entries()) {
      service.clock.set(new Date(at + 1));
      const summary = (await ok(service, `/matches/${m.id}/live/cv/summary`)) as ShooterLiveSummary;
      const home = summary.teams.home;
      const away = summary.teams.away;
      expect(home.score + away.score).toBe(i + 1);
      expect(summary.rounds.map((r) => r.number)).toEqual(Array.from({ length: i + 1 }, (_, k) => k + 1));
      expect(home.score + away.score).toBeGreaterThan(last);
      last = home.score + away.score;
      // Sides: opposite each other, swapped after round 12.
      expect(home.side).not.toBe(away.side);
      const round = summary.round.number;
      expect(round).toBe(i + 2);
      expect(summary.round.half).toBe(round <= 12 ? 1 : 2);
      sides[round - 1] = home.side;
    }
    // Home keeps one side for the first half and plays the other in the second.
    // (Read from round 2 on: each read is taken just after a round ends.)
    expect(new Set(sides.slice(1, 12)).size).toBe(1);
    expect(new Set(sides.slice(12)).size).toBe(1);
    expect(sides[12]).not.toBe(sides[1]);
    service.clock.set(INSTANT);
  });
});
