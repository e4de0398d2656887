/**
 * The live summaries of every kind of game (`src/service/live-games.ts`, docs/local-service.md, "Live
 * summaries per game"), read over HTTP while a match is played: each says its game's figures, agrees with
 * the match resource at every instant, only moves forward, and keeps its last state once over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveNow, mobaFigures } from '../../src/bot/live-now.ts';
import { translator } from '../../src/i18n/i18n.ts';
import {
  type BattleRoyaleLiveSummary,
  type EsoccerLiveSummary,
  type GameKind,
  isMobaSummary,
  type LiveSummary,
  type RtsLiveSummary,
  type ShooterLiveSummary,
} from '../../src/protocol/live-summary.ts';
import type { Match } from '../../src/protocol/types.ts';
import type { RunningService } from '../../src/service/index.ts';
import { pickLive } from '../commands/live-picks.ts';
import { INSTANT, ok, start } from './helpers.ts';

let service: RunningService;
beforeAll(async () => {
  service = await start();
});
afterAll(() => service.close());

const KINDS: GameKind[] = ['moba', 'shooter', 'esoccer', 'rts', 'battle-royale'];

interface Step {
  at: number;
  cv: LiveSummary;
  api: LiveSummary;
  match: Match;
}

/** The match of a series of the kind read at 12 instants from its start to a minute past its end. */
async function watch(kind: GameKind): Promise<{ steps: Step[]; matchId: number }> {
  const p = pickLive(service.world, kind, INSTANT);
  const { start: from, end: to, id } = p.match;
  const steps: Step[] = [];
  try {
    for (let k = 0; k < 12; k++) {
      const at = k === 11 ? to + 60_000 : from + Math.floor(((to - from) * k) / 10);
      service.clock.set(new Date(at));
      const [cv, api, match] = await Promise.all([
        ok<LiveSummary>(service, `/matches/${id}/live/cv/summary`),
        ok<LiveSummary>(service, `/matches/${id}/live/api/summary`),
        ok<Match>(service, `/matches/${id}`),
      ]);
      steps.push({ at, cv, api, match });
    }
  } finally {
    service.clock.set(INSTANT);
  }
  return { steps, matchId: id };
}

const scoresOf = (m: Match) => [...m.participants].sort((a, b) => a.seed - b.seed).map((p) => p.score);

describe.each(KINDS)('the live summary of a %s match', (kind) => {
  it('says its kind, agrees with the match resource at every instant, and only moves forward', async () => {
    const { steps, matchId } = await watch(kind);
    let previous: Step | undefined;
    for (const step of steps) {
      const { cv, api, match } = step;
      expect(cv.match.id).toBe(matchId);
      if (kind === 'moba') {
        expect(isMobaSummary(cv) && isMobaSummary(api)).toBe(true);
      } else {
        // One account of the match on both sources.
        expect(cv).toEqual(api);
        expect(cv.game_kind).toBe(kind);
      }
      const over = match.lifecycle === 'over';
      const scores = scoresOf(match);
      if (!isMobaSummary(cv)) {
        expect(cv.match.phase).toBe(over ? 'post-game' : 'in-game');
        expect(cv.match.end === null).toBe(!over);
      }
      if (cv.game_kind === 'shooter' || cv.game_kind === 'esoccer' || cv.game_kind === 'rts')
        expect([cv.teams.home.score, cv.teams.away.score]).toEqual(scores);
      if (kind === 'moba' && isMobaSummary(cv) && isMobaSummary(api)) {
        // The two sources reduce to the same figures, so a card says the same from either.
        expect(mobaFigures(cv)).toEqual(mobaFigures(api));
        expect(liveNow(cv, String, translator('en'))).toEqual(liveNow(api, String, translator('en')));
        expect(mobaFigures(cv).kills).toEqual(scores);
      }
      if (previous) {
        const before = previous.cv;
        if (!isMobaSummary(cv) && !isMobaSummary(before))
          expect(cv.match.clock.milliseconds).toBeGreaterThanOrEqual(before.match.clock.milliseconds);
        scoresOf(match).forEach((s, i) => {
          expect(s).toBeGreaterThanOrEqual(scoresOf(previous!.match)[i]!);
        });
      }
      previous = step;
    }
    expect(steps.at(-1)!.match.lifecycle).toBe('over');
    // A minute after the end the summary is the one at the end.
    expect(steps.at(-1)!.cv.timestamp).toBe(steps.at(-2)!.cv.timestamp);
  });
});

describe('a shooter summary', () => {
  it('counts rounds to 13, swaps sides after round 12, and keeps kills, deaths and money consistent', async () => {
    const { steps } = await watch('shooter');
    const sides = new Map<1 | 2, string>();
    for (const { cv } of steps) {
      const s = cv as ShooterLiveSummary;
      const { home, away } = s.teams;
      expect(s.rounds).toHaveLength(home.score + away.score);
      expect(s.rounds.map((r) => r.number)).toEqual(s.rounds.map((_, i) => i + 1));
      expect(home.halves[0] + home.halves[1]).toBe(home.score);
      expect(s.round.half).toBe(s.round.number <= 12 ? 1 : 2);
      expect(home.side).not.toBe(away.side);
      const seen = sides.get(s.round.half);
      if (seen) expect(home.side).toBe(seen);
      else sides.set(s.round.half, home.side!);
      const total = (t: typeof home, key: 'kills' | 'deaths') => t.players.reduce((n, p) => n + p[key], 0);
      expect(total(home, 'kills')).toBe(total(away, 'deaths'));
      expect(total(away, 'kills')).toBe(total(home, 'deaths'));
      for (const t of [home, away]) {
        expect(t.economy!.money).toBeGreaterThanOrEqual(0);
        expect(t.economy!.money).toBeLessThanOrEqual(16_000 * t.players.length);
        expect(t.players.reduce((n, p) => n + p.money!, 0)).toBe(t.economy!.money);
      }
    }
    if (sides.size === 2) expect(sides.get(1)).not.toBe(sides.get(2));
    const last = steps.at(-1)!.cv as ShooterLiveSummary;
    expect(Math.max(last.teams.home.score, last.teams.away.score)).toBe(13);
  });
});

describe('an e-soccer summary', () => {
  it('lists each goal with its minute, runs the game clock through two halves, and splits possession', async () => {
    const { steps } = await watch('esoccer');
    let minute = -1;
    for (const { cv } of steps) {
      const s = cv as EsoccerLiveSummary;
      const { home, away } = s.teams;
      expect(s.goals).toHaveLength(home.score + away.score);
      expect(s.goals.filter((g) => g.team === 'home')).toHaveLength(home.score);
      const minutes = s.goals.map((g) => g.minute);
      expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
      expect(s.period.minute).toBeGreaterThanOrEqual(minute);
      minute = s.period.minute;
      expect(s.period.number).toBe(s.period.minute < 45 ? 1 : 2);
      expect(home.possession + away.possession).toBe(100);
      for (const t of [home, away]) {
        expect(t.shots).toBeGreaterThanOrEqual(t.shots_on_target);
        expect(t.shots_on_target).toBeGreaterThanOrEqual(t.score);
      }
    }
    const last = steps.at(-1)!.cv as EsoccerLiveSummary;
    expect(last.period).toEqual({ number: 2, state: 'full-time', minute: 90 });
    expect(steps[5]!.cv).toMatchObject({ period: { state: 'playing' } });
  });
});

describe('an RTS summary', () => {
  it('grows supply within its cap and ends with the loser army broken and the winner scored', async () => {
    const { steps } = await watch('rts');
    for (const { cv } of steps) {
      const s = cv as RtsLiveSummary;
      for (const t of [s.teams.home, s.teams.away]) {
        expect(t.supply.used).toBeLessThanOrEqual(t.supply.cap);
        expect(t.supply.cap).toBeLessThanOrEqual(200);
        expect(t.race).not.toBeNull();
      }
    }
    const last = steps.at(-1)!.cv as RtsLiveSummary;
    const winner = last.teams.home.score === 1 ? last.teams.home : last.teams.away;
    const loser = winner === last.teams.home ? last.teams.away : last.teams.home;
    expect(winner.score + loser.score).toBe(1);
    expect(winner.army_value).toBeGreaterThan(loser.army_value);
  });
});

describe('a battle-royale summary', () => {
  it('holds every participant, eliminates them in place order, and ends with the match resource places and kills', async () => {
    const { steps } = await watch('battle-royale');
    const out = new Set<number>();
    for (const { cv, match } of steps) {
      const s = cv as BattleRoyaleLiveSummary;
      expect(s.teams.map((t) => t.roster.id).sort()).toEqual(
        match.participants.map((p) => p.roster.id).sort(),
      );
      expect(s.teams_alive).toBe(s.teams.filter((t) => t.alive).length);
      // Once out, out; the places of those out are the last ones.
      for (const id of out) expect(s.teams.find((t) => t.roster.id === id)!.alive).toBe(false);
      for (const t of s.teams) if (!t.alive) out.add(t.roster.id);
      const gone = s.teams.filter((t) => !t.alive).map((t) => t.placement!);
      expect(gone.sort((a, b) => a - b)).toEqual(
        Array.from({ length: gone.length }, (_, i) => s.teams.length - gone.length + i + 1),
      );
      if (match.lifecycle === 'live')
        for (const p of match.participants)
          expect(s.teams.find((t) => t.roster.id === p.roster.id)!.kills).toBe(p.score);
    }
    const { cv, match } = steps.at(-1)!;
    const last = cv as BattleRoyaleLiveSummary;
    expect(last.teams_alive).toBe(1);
    for (const p of match.participants) {
      const t = last.teams.find((x) => x.roster.id === p.roster.id)!;
      expect(t.placement).toBe(p.stats!.placement);
      expect(t.kills).toBe(p.stats!.kills);
    }
  });
});
