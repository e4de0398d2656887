// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies from the service under test
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import type { RunningService } from '../../src/service/index.ts';
import { allPages, get, INSTANT, ids, ok, start } from './helpers.ts';

const MINUTE = 60_000;
let service: RunningService;
beforeAll(async () => {
  service = await start();
});
afterAll(() => service.close());

const at = (iso: string) => Date.parse(iso);

describe('the simulation on a jumped clock', () => {
  it('takes series of every game from upcoming to live to over; scores never shrink; the winner has the majority', async () => {
    service.clock.set(INSTANT);
    const soon = await ok<any[]>(
      service,
      '/series?filter=lifecycle=upcoming,deleted_at=null&order=start-asc&take=50',
    );
    const picked: any[] = [];
    for (const game of [1, 2, 3, 4, 5, 6]) picked.push(...soon.filter((s) => s.game.id === game).slice(0, 2));
    expect(picked.length).toBeGreaterThanOrEqual(10);
    for (const first of picked) {
      const seen: string[] = [];
      let previous: any = null;
      for (let t = at(first.start) - 5 * MINUTE; ; t += 3 * MINUTE) {
        service.clock.set(new Date(t));
        const s = await ok<any>(service, `/series/${first.id}`);
        if (seen.at(-1) !== s.lifecycle) seen.push(s.lifecycle);
        if (previous) {
          expect(s.resource_version).toBeGreaterThanOrEqual(previous.resource_version);
          s.participants.forEach((p: any, i: number) => {
            expect(p.score, `series ${s.id} participant ${i}`).toBeGreaterThanOrEqual(
              previous.participants[i].score,
            );
          });
          if (JSON.stringify(s.participants) !== JSON.stringify(previous.participants)) {
            expect(s.resource_version).toBeGreaterThan(previous.resource_version);
          }
        }
        previous = s;
        if (s.lifecycle === 'over' || s.lifecycle === 'over-forfeited') break;
        expect(t - at(first.start)).toBeLessThan(8 * 60 * MINUTE);
      }
      expect(seen[0]).toBe('upcoming');
      expect(seen.at(-1)).toMatch(/^over/);
      if (seen.at(-1) === 'over') expect(seen).toEqual(['upcoming', 'live', 'over']);
      const winners = previous.participants.filter((p: any) => p.winner);
      expect(winners).toHaveLength(1);
      if (first.game.id !== 4) {
        expect(winners[0].score).toBe(Math.ceil(previous.best_of / 2));
        const loser = previous.participants.find((p: any) => !p.winner);
        expect(loser.score).toBeLessThan(winners[0].score);
      } else {
        const best = Math.max(...previous.participants.map((p: any) => p.score));
        expect(winners[0].score).toBe(best);
        expect(winners[0].stats.placement).toBe(1);
      }
      expect(previous.end).not.toBeNull();
    }
  });

  it('plays the maps of a series in order and the map scores only grow', async () => {
    service.clock.set(INSTANT);
    const next = await ok<any[]>(
      service,
      '/series?filter=lifecycle=upcoming,game.id=2,best_of=3,deleted_at=null&order=start-asc&take=3',
    );
    for (const s of next) {
      let previous: any[] | null = null;
      for (let t = at(s.start); ; t += 2 * MINUTE) {
        service.clock.set(new Date(t));
        const matches = await ok<any[]>(service, `/series/${s.id}/matches`);
        expect(matches.map((m) => m.order)).toEqual([1, 2, 3]);
        const states = matches.map((m) => m.lifecycle);
        // A later map is never further along than an earlier one.
        const rank = (l: string) => ({ upcoming: 0, live: 1, over: 2, deleted: 2 })[l] ?? 0;
        for (let i = 1; i < states.length; i++)
          expect(rank(states[i]!)).toBeLessThanOrEqual(rank(states[i - 1]!));
        expect(states.filter((l) => l === 'live').length).toBeLessThanOrEqual(1);
        if (previous) {
          matches.forEach((m, i) => {
            m.participants.forEach((p: any, j: number) => {
              expect(p.score).toBeGreaterThanOrEqual(previous![i].participants[j].score);
            });
          });
        }
        previous = matches;
        const series = await ok<any>(service, `/series/${s.id}`);
        const mapWins = series.participants.map(
          (_: any, j: number) =>
            matches.filter((m) => m.lifecycle === 'over' && m.participants[j].winner).length,
        );
        expect(series.participants.map((p: any) => p.score)).toEqual(mapWins);
        if (series.lifecycle === 'over') {
          for (const m of matches.filter((x) => x.lifecycle === 'over')) {
            const w = m.participants.find((p: any) => p.winner);
            const l = m.participants.find((p: any) => !p.winner);
            expect(w.score).toBeGreaterThan(l.score);
          }
          break;
        }
      }
    }
  });

  it('moves the start of a postponed series when the postponement becomes known', async () => {
    service.clock.set(INSTANT);
    const t = INSTANT.getTime();
    const pending = service.world
      .window(t)
      .postponed.filter((p) => p.postponedAt! > t)
      .slice(0, 5);
    expect(pending.length).toBe(5);
    for (const plan of pending) {
      service.clock.set(new Date(plan.postponedAt! - MINUTE));
      const before = await ok<any>(service, `/series/${plan.id}`);
      expect(before.postponed_from).toBeNull();
      expect(at(before.start)).toBe(plan.postponedFrom);
      expect(before.lifecycle).toBe('upcoming');
      const listed = await ok<any[]>(service, `/series?filter=id=${plan.id}&order=start-asc`);
      expect(listed).toEqual([before]);
      service.clock.set(new Date(plan.postponedAt!));
      const after = await ok<any>(service, `/series/${plan.id}`);
      expect(after.postponed_from).toBe(before.start);
      expect(at(after.start)).toBeGreaterThan(at(before.start));
      expect(after.resource_version).toBeGreaterThan(before.resource_version);
      // At the original start it is still upcoming.
      service.clock.set(new Date(plan.postponedFrom! + MINUTE));
      expect((await ok<any>(service, `/series/${plan.id}`)).lifecycle).toBe('upcoming');
    }
  });

  it('round-robin standings follow the substage points rules', async () => {
    service.clock.set(new Date(INSTANT.getTime() + 2 * 24 * 60 * MINUTE));
    const groups = await ok<any[]>(service, '/substages?filter=type=1&take=50');
    let playedSeries = 0;
    for (const sub of groups.slice(0, 12)) {
      const rules = sub.rules.points;
      const series = await allPages(service, `/substages/${sub.id}/series`);
      const expected = new Map<number, { points: number; wins: number; losses: number }>();
      for (const r of sub.rosters) expected.set(r.id, { points: 0, wins: 0, losses: 0 });
      for (const s of series) {
        if (s.lifecycle !== 'over' && s.lifecycle !== 'over-forfeited') continue;
        playedSeries++;
        for (const p of s.participants) {
          const row = expected.get(p.roster.id)!;
          row.points += p.winner ? rules.win : rules.loss;
          if (p.winner) row.wins++;
          else row.losses++;
        }
      }
      for (const row of sub.standings) {
        expect({ points: row.points, wins: row.wins, losses: row.losses }, `substage ${sub.id}`).toEqual(
          expected.get(row.roster.id),
        );
      }
      for (let i = 1; i < sub.standings.length; i++)
        expect(sub.standings[i - 1].points).toBeGreaterThanOrEqual(sub.standings[i].points);
      expect(sub.resource_version).toBeGreaterThanOrEqual(1);
    }
    expect(playedSeries).toBeGreaterThan(20);
  });

  it('slides the window with the clock and keeps ids stable', async () => {
    service.clock.set(INSTANT);
    const before = await ok<any[]>(service, '/series?filter=game.id=3&order=start-desc&take=5');
    const earliest = (await ok<any[]>(service, '/series?filter=game.id=3&order=start-asc&take=1'))[0];
    service.clock.set(new Date(INSTANT.getTime() + 10 * 24 * 60 * MINUTE));
    const later = await ok<any[]>(service, '/series?filter=game.id=3&order=start-desc&take=5');
    expect(at(later[0].start)).toBeGreaterThan(at(before[0].start));
    expect(at(later[0].start)).toBeGreaterThanOrEqual(INSTANT.getTime() + 24 * 24 * 60 * MINUTE);
    const stillThere = await ok<any>(service, `/series/${before[0].id}`);
    expect({ title: stillThere.title, start: stillThere.start }).toEqual({
      title: before[0].title,
      start: before[0].start,
    });
    expect(ids(await ok(service, `/series?filter=id=${earliest.id}`))).toEqual([]);
    // Detail lookups still answer for a series that left the window.
    expect((await ok<any>(service, `/series/${earliest.id}`)).id).toBe(earliest.id);
  });
});

describe('determinism', () => {
  it('two services with one seed agree at one instant, whenever they started', async () => {
    const early = new Clock({ start: new Date(INSTANT.getTime() - 60 * MINUTE), frozen: true });
    const a = await start({ clock: early, seed: 7 });
    const b = await start({ seed: 7 });
    const c = await start({ seed: 8 });
    try {
      await ok(a, '/series?filter=lifecycle=live');
      early.set(INSTANT);
      for (const path of [
        '/series?filter=lifecycle=live',
        '/series?order=start-asc&skip=500',
        '/teams?take=50',
        '/substages?take=20',
        '/casters',
        '/tournaments?take=10',
      ]) {
        expect(ownOriginOut(a, await ok(a, path)), path).toEqual(ownOriginOut(b, await ok(b, path)));
      }
      const live = await ok<any[]>(b, '/matches?filter=lifecycle=live,game.id=1&take=2');
      for (const m of live) {
        expect(await ok(a, `/matches/${m.id}/live/cv/summary`)).toEqual(
          await ok(b, `/matches/${m.id}/live/cv/summary`),
        );
        expect(await ok(a, `/matches/${m.id}/live/api/summary`)).toEqual(
          await ok(b, `/matches/${m.id}/live/api/summary`),
        );
      }
      expect(ownOriginOut(c, await ok(c, '/teams?take=50'))).not.toEqual(
        ownOriginOut(b, await ok(b, '/teams?take=50')),
      );
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

/**
 * An answer with the service's own address (its image URLs: the service serves its images) written
 * as `<service>`: two services of one seed listen on different ports, and nothing else may differ.
 */
function ownOriginOut(service: RunningService, body: unknown): unknown {
  const origin = new URL(service.url).origin;
  return JSON.parse(JSON.stringify(body).replaceAll(origin, '<service>'));
}

describe('the simulation on a fast clock', () => {
  it('a series goes upcoming -> live -> over while the clock runs 3,000 times faster', async () => {
    const fast = new Clock({ start: INSTANT, speed: 3000 });
    const running = await start({ clock: fast });
    try {
      const s = (
        await ok<any[]>(
          running,
          '/series?filter=lifecycle=upcoming,game.id=1,best_of=3,deleted_at=null&order=start-asc&take=1',
        )
      )[0];
      const seen: string[] = [];
      const scores: number[][] = [];
      for (let i = 0; i < 1500 && seen.at(-1) !== 'over'; i++) {
        const now = await ok<any>(running, `/series/${s.id}`);
        if (seen.at(-1) !== now.lifecycle) seen.push(now.lifecycle);
        scores.push(now.participants.map((p: any) => p.score));
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen).toEqual(['upcoming', 'live', 'over']);
      for (let i = 1; i < scores.length; i++) {
        scores[i]!.forEach((x, j) => {
          expect(x).toBeGreaterThanOrEqual(scores[i - 1]![j]!);
        });
      }
    } finally {
      await running.close();
    }
  });

  it('a live summary evolves with the clock and never loses kills', async () => {
    service.clock.set(INSTANT);
    const m = (await ok<any[]>(service, '/matches?filter=lifecycle=live,game.id=1&take=1'))[0];
    let previous: any = null;
    for (let step = 0; step < 12; step++) {
      service.clock.set(new Date(INSTANT.getTime() + step * 4 * MINUTE));
      const answer = await get<any>(service, `/matches/${m.id}/live/api/summary`);
      expect(answer.status).toBe(200);
      const api = answer.body;
      if (previous) {
        expect(api.match.clock.milliseconds).toBeGreaterThanOrEqual(previous.match.clock.milliseconds);
        for (const side of ['home', 'away']) {
          expect(api.teams[side].score).toBeGreaterThanOrEqual(previous.teams[side].score);
          api.teams[side].players.forEach((p: any, i: number) => {
            expect(p.kills.total).toBeGreaterThanOrEqual(previous.teams[side].players[i].kills.total);
            expect(p.level).toBeGreaterThanOrEqual(previous.teams[side].players[i].level);
          });
        }
      }
      previous = api;
    }
    expect(previous.timeline.end).not.toBeNull();
  });
});
