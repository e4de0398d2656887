import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../../src/bot/reply.ts';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';
import { teamNameOf } from './truth.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** A running tier-1 tournament with a round-robin group that has results, from the world. */
  function findGroup() {
    const world = stack.service.world;
    const t = world.now();
    for (const tournament of world.window(t).tournaments) {
      if (tournament.start > t || tournament.end < t) continue;
      for (const stage of tournament.stages)
        for (const sub of stage.substages) {
          if (sub.type !== 1) continue;
          const substage = world.substageAt(sub, t);
          if (substage.standings.some((s) => s.wins > 0))
            return { tournament: world.tournamentAt(tournament), substage };
        }
    }
    throw new Error('no group with results');
  }

  function findBracket() {
    const world = stack.service.world;
    const t = world.now();
    for (const tournament of world.window(t).tournaments) {
      for (const stage of tournament.stages)
        for (const sub of stage.substages) {
          if (sub.type !== 2) continue;
          const series = world.window(t).bySubstage.get(sub.id) ?? [];
          if (series.some((p) => ['over', 'over-forfeited'].includes(world.lifecycle(p, t))))
            return {
              tournament: world.tournamentAt(tournament),
              substage: world.substageAt(sub, t),
              series: series.map((p) => world.seriesAt(p, t)),
            };
        }
    }
    throw new Error('no bracket with results');
  }

  describe('/standings', () => {
    it('shows a round-robin group as a table in rank order with wins, draws, losses, points and difference', async () => {
      const world = stack.service.world;
      const { tournament, substage } = findGroup();
      const result = await call(stack, 'standings', { tournament: tournament.title, stage: substage.title });
      expect(result.outcome).toBe('ok');
      const table = result.reply.cards[0]!.table!;
      // The world's rows (the service's order: points, wins, map and score difference), each with
      // its score difference, which v3 gives and v2 does not.
      const rows = substage.standings.map((s) => ({ ...s, diff: s.score_diff! }));
      if (api === 'v2') {
        // v2 standings carry no map or score difference: no Maps or Diff column (never a made-up 0).
        expect(table.columns.map((c) => c.header)).toEqual(['#', 'Team', 'W', 'D', 'L', 'Pts']);
      } else {
        expect(table.columns.map((c) => c.header)).toEqual([
          '#',
          'Team',
          'W',
          'D',
          'L',
          'Pts',
          'Maps',
          'Diff',
        ]);
      }
      // The data's order, never re-sorted (the service ranks by points, wins, map difference).
      const expected = rows;
      const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
      expect(table.rows).toHaveLength(expected.length);
      table.rows.forEach((row, i) => {
        const s = expected[i]!;
        expect(row.map((cell) => plainText(cell))).toEqual([
          String(i + 1),
          teamNameOf(world, s.roster.id),
          String(s.wins),
          String(s.draws),
          String(s.losses),
          String(s.points),
          ...(api === 'v2' ? [] : [signed(s.match_diff!), signed(s.diff)]),
        ]);
      });
      expect(result.reply.cards[0]!.title).toBe(`${tournament.title} · ${substage.title}`);
    });

    it('keeps standings behind spoilers (listed by name) or hides them, per policy', async () => {
      const world = stack.service.world;
      const { tournament, substage } = findGroup();
      const leader = substage.standings[0]!;
      const spoiler = await call(
        stack,
        'standings',
        { tournament: tournament.title, stage: substage.title },
        { tenant: await tenantWith(stack, { spoilers: 'spoiler' }) },
      );
      const rows = spoiler.reply.cards[0]!.table!.rows;
      const names = rows.map((r) => plainText(r[0]!));
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect(spoiler.text).not.toContain(`${leader.points} pts`);
      expect(spoiler.revealed).toContain(
        `${leader.wins}–${leader.draws}–${leader.losses} · ${leader.points} pts`,
      );
      const hidden = await call(
        stack,
        'standings',
        { tournament: tournament.title, stage: substage.title },
        { tenant: await tenantWith(stack, { spoilers: 'hide' }) },
      );
      expect(hidden.reply.cards[0]!.table).toBeUndefined();
      expect(hidden.revealed).toContain(teamNameOf(world, leader.roster.id));
      expect(hidden.revealed).not.toContain(`${leader.points} pts`);
    });

    it('shows a bracket as rounds of the upper and lower bracket with results', async () => {
      const world = stack.service.world;
      const { tournament, substage, series } = findBracket();
      const result = await call(stack, 'standings', { tournament: tournament.title, stage: substage.title });
      expect(result.outcome).toBe('ok');
      const lines = result.reply.cards[0]!.description!;
      // Rounds named as fans say them: an 8-team bracket opens with the quarterfinals, and its
      // upper and lower brackets end in their finals (never "Upper bracket · round 3").
      expect(lines[0]).toEqual([{ text: 'Upper-bracket quarterfinals', bold: true }]);
      const headings = lines
        .filter((l) => l.length === 1 && typeof l[0] === 'object' && 'bold' in l[0]!)
        .map((l) => (l[0] as { text: string }).text);
      expect(headings).toEqual(expect.arrayContaining(['Upper-bracket semifinals', 'Upper-bracket final']));
      expect(headings).not.toContain('Upper bracket · round 3');
      if (series.some((s) => s.bracket_position?.part === 'LB'))
        expect(headings).toContain('Lower-bracket final');
      const done = series.find((s) => s.lifecycle === 'over' && s.participants.length === 2)!;
      const [home, away] = [...done.participants].sort((a, b) => a.seed - b.seed);
      expect(result.text).toContain(
        `${teamNameOf(world, home!.roster.id)} ${home!.score}–${away!.score} ${teamNameOf(world, away!.roster.id)}`,
      );
      if (series.some((s) => s.bracket_position?.part === 'GF')) expect(headings).toContain('Grand final');
      expect(headings.some((h) => h.startsWith('Lower bracket'))).toBe(
        series.some((s) => s.bracket_position?.part === 'LB'),
      );
    });

    it('names the stages when the stage is unknown, and costs at most 2 requests cold, none warm', async () => {
      const { tournament, substage } = findGroup();
      const unknown = await call(stack, 'standings', { tournament: tournament.title, stage: 'Group Z9' });
      expect(unknown.outcome).toBe('user-error');
      expect(unknown.message).toContain(substage.title);
      const tenant = await tenantWith(stack);
      const bracket = findBracket();
      const cold = await call(
        stack,
        'standings',
        { tournament: bracket.tournament.title, stage: bracket.substage.title },
        { tenant },
      );
      const warm = await call(
        stack,
        'standings',
        { tournament: bracket.tournament.title, stage: bracket.substage.title },
        { tenant },
      );
      expect(cold.upstream).toBeLessThanOrEqual(2);
      expect(warm.upstream).toBe(0);
    });
  });

  describe('/standings without a stage', () => {
    it('shows the playoffs while they are live (not a finished group), and lists the other stages in their order', async () => {
      const world = stack.service.world;
      const frozen = world.now();
      // An instant a bracket's first series is live: its groups are over by then.
      const tournament = world
        .window(frozen)
        .tournaments.find(
          (tr) => tr.stages.length > 1 && tr.stages.some((st) => st.substages.some((s) => s.type === 2)),
        )!;
      const bracket = tournament.stages.flatMap((stage) => stage.substages).find((sub) => sub.type === 2)!;
      const first = [...bracket.series].sort((a, b) => a.start - b.start)[0]!;
      const at = first.start + 60_000;
      await stack.jump(new Date(at));
      try {
        expect(world.lifecycle(first, at)).toBe('live');
        const title = world.tournamentAt(tournament).title;
        const result = await call(stack, 'standings', { tournament: title });
        expect(result.outcome).toBe('ok');
        const card = result.reply.cards[0]!;
        expect(card.title).toBe(`${title} · ${bracket.title}`);
        // The other stages stage by stage, each stage's groups in their order (A, B, C, D).
        const expected = tournament.stages
          .flatMap((stage) => [...stage.substages].sort((a, b) => a.order - b.order))
          .filter((sub) => sub.id !== bracket.id)
          .map((sub) => sub.title);
        expect(expected.length).toBeGreaterThan(1);
        expect(card.footer).toBe(`Other stages: ${expected.join(', ')}`);
      } finally {
        await stack.jump(new Date(frozen));
      }
    });

    it('shows a group with results (not an empty one) and lists the other stages in playing order', async () => {
      const { tournament } = findGroup();
      const result = await call(stack, 'standings', { tournament: tournament.title });
      expect(result.outcome).toBe('ok');
      const card = result.reply.cards[0]!;
      const rows = card.table!.rows.map((row) => row.map((cell) => plainText(cell)));
      // W + D + L of some row is above zero: the group shown has results.
      expect(rows.some((row) => Number(row[2]) + Number(row[3]) + Number(row[4]) > 0)).toBe(true);
      const others = card.footer!.replace('Other stages: ', '').split(', ');
      const bracket = others.findIndex((o) => /Bracket|Playoffs/i.test(o));
      // Groups come before the playoffs they feed.
      expect(bracket).toBeGreaterThanOrEqual(0);
      expect(others.slice(bracket + 1).some((o) => /^Group/.test(o))).toBe(false);
    });
  });
});
