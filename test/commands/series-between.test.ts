/**
 * `/series "A vs B"` names a series by its teams: the live one between them, else the next
 * upcoming one, else the latest finished one; either order, typed with or without quotes. Checked
 * against the world's own series.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import type { Series } from '../../src/protocol/types.ts';
import { APIS, call, type Stack, startStack } from './helpers.ts';
import { byEndDescThenId, byStartThenId, FINISHED, teamNameOf, worldSeries } from './truth.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Runs a typed line as the terminal would. */
  function typed(line: string) {
    const parsed = parseCommandText(line, commands);
    return call(stack, parsed.command, parsed.args);
  }

  /** The pairs of teams with uniquely named teams, and the series between each pair. */
  function pairs(): { a: string; b: string; series: Series[] }[] {
    const world = stack.service.world;
    const all = worldSeries(world);
    const count = new Map<string, number>();
    for (const team of world.catalog.teamById.values()) count.set(team.name, (count.get(team.name) ?? 0) + 1);
    const byPair = new Map<string, { a: string; b: string; series: Series[] }>();
    for (const s of all) {
      if (s.participants.length !== 2) continue;
      const [a, b] = s.participants.map((p) => teamNameOf(world, p.roster.id)).sort() as [string, string];
      if (a === 'TBD' || b === 'TBD' || a === b || count.get(a) !== 1 || count.get(b) !== 1) continue;
      const entry = byPair.get(`${a}|${b}`) ?? { a, b, series: [] };
      entry.series.push(s);
      byPair.set(`${a}|${b}`, entry);
    }
    return [...byPair.values()];
  }

  /** The series "A vs B" should show: live, else next upcoming, else latest finished. */
  function expected(series: Series[]): Series | undefined {
    const live = series.filter((s) => s.lifecycle === 'live').sort(byStartThenId);
    const upcoming = series.filter((s) => s.lifecycle === 'upcoming').sort(byStartThenId);
    const finished = series.filter((s) => FINISHED.includes(s.lifecycle)).sort(byEndDescThenId);
    return live[0] ?? upcoming[0] ?? finished[0];
  }

  it('reads a bare or quoted "A vs B" as the series, not a game', () => {
    expect(parseCommandText('/series "Iron Pilots vs Nova Krakens"', commands).args).toEqual({
      series: 'Iron Pilots vs Nova Krakens',
    });
    expect(parseCommandText('/series Iron Pilots vs Nova Krakens', commands).args).toEqual({
      series: 'Iron Pilots vs Nova Krakens',
    });
    // Without "vs" the words are still a game, a tier and the rest.
    expect(parseCommandText('/series "Strike Point" 2', commands).args).toEqual({
      game: 'Strike Point',
      tier: '2',
    });
    expect(parseCommandText('/series 1234', commands).args).toEqual({ series: '1234' });
  });

  it('shows the live series between two teams, else the next, else the latest, in either order', async () => {
    const found = { live: 0, upcoming: 0, finished: 0 };
    for (const { a, b, series } of pairs()) {
      const want = expected(series)!;
      const kind =
        want.lifecycle === 'live' ? 'live' : want.lifecycle === 'upcoming' ? 'upcoming' : 'finished';
      if (found[kind] >= 3) continue;
      found[kind]++;
      for (const line of [`/series "${a} vs ${b}"`, `/series ${b} vs ${a}`]) {
        const result = await typed(line);
        expect(result.outcome, `${line}: ${result.text}`).toBe('ok');
        expect(result.text, line).toContain(`Series ${want.id}`);
        expect(result.reply.cards[0]!.title).toContain(a);
        expect(result.reply.cards[0]!.title).toContain(b);
      }
    }
    expect(found).toEqual({ live: 3, upcoming: 3, finished: 3 });
  });

  it('says plainly when two teams have no series between them, and still reads other text as a series name', async () => {
    const world = stack.service.world;
    const met = new Set(pairs().map((p) => `${p.a}|${p.b}`));
    const names = [...new Set([...world.catalog.teamById.values()].map((t) => t.name))].sort();
    const [a, b] = (() => {
      for (const x of names)
        for (const y of names)
          if (x < y && !met.has(`${x}|${y}`) && !x.includes(' vs ') && !y.includes(' vs ')) return [x, y];
      throw new Error('every pair met');
    })();
    const none = await typed(`/series "${a} vs ${b}"`);
    expect(none.outcome).toBe('user-error');
    expect(none.text).toContain(`between ${a} and ${b}`);
    const unknown = await typed('/series "Qqqq Zzzz vs Wwww Xxxx"');
    expect(unknown.outcome).toBe('user-error');
    expect(unknown.text).not.toContain('No game');
  });
});
