/**
 * Group tables in the data's order: for every round-robin group of the worlds of seeds 1, 42 and 7
 * at the frozen instant, `/standings` (through the runtime, over HTTP) lists the teams in the order
 * the service ranks them (points, wins, map difference, score difference:
 * src/service/world-standings.ts), draws the advance line under the number the stage's rules
 * advance, and its picture's rows (`tableImageOf`, what `tablePng` draws) are the same rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../../src/bot/reply.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { tableImageOf } from '../../src/render/standings-input.ts';
import { call, type Stack, startStack, tenantWith } from './helpers.ts';
import { teamNameOf } from './truth.ts';

describe.each([1, 42, 7])('/standings on the world of seed %i', (seed) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ seed });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('lists every group in the order the data ranks it, with the advance line from its rules', async () => {
    const world = stack.service.world;
    const t = world.now();
    const tenant = await tenantWith(stack);
    let groups = 0;
    let tiesOnPoints = 0;
    for (const tournament of world.window(t).tournaments) {
      const title = world.tournamentAt(tournament).title;
      for (const stage of tournament.stages)
        for (const sub of stage.substages) {
          if (sub.type !== 1) continue;
          const substage = world.substageAt(sub, t);
          if (substage.standings.length === 0) continue;
          groups++;
          const result = await call(
            stack,
            'standings',
            { tournament: title, stage: String(sub.id) },
            { tenant },
          );
          expect(result.outcome, `${title} · ${sub.title}`).toBe('ok');
          const card = result.reply.cards[0]!;
          const table = card.table!;
          const shown = table.rows.map((row) => plainText(row[1]!));
          const expected = substage.standings.map((s) => teamNameOf(world, s.roster.id));
          expect(shown, `${title} · ${sub.title}`).toEqual(expected);
          const maps = table.columns.findIndex((c) => c.header === 'Maps');
          expect(table.rows.map((row) => Number(plainText(row[maps]!)))).toEqual(
            substage.standings.map((s) => s.match_diff),
          );
          const advance = substage.rules.advance?.number;
          if (advance && advance < expected.length) expect(table.cut).toBe(advance);
          else expect(table.cut).toBeUndefined();
          const picture = tableImageOf(card, translator('en'))!;
          expect(picture.rows.map((row) => row[1])).toEqual(expected);
          expect(picture.cut).toBe(table.cut);
          for (let i = 1; i < substage.standings.length; i++)
            if (substage.standings[i]!.points === substage.standings[i - 1]!.points) tiesOnPoints++;
        }
    }
    expect(groups).toBeGreaterThan(50);
    // Ties on points are what the tiebreaker decides: the walk must have met many.
    expect(tiesOnPoints).toBeGreaterThan(20);
  }, 240_000);
});
