import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';
import { byEndDescThenId, byStartThenId, FINISHED, matchupOf, worldSeries } from './truth.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  describe('/team', () => {
    it('shows organisation, region, the active roster with roles, and upcoming and recent series', async () => {
      const world = stack.service.world;
      const team = world.catalog.teams.find((t) => t.organisation !== null && t.active)!;
      const result = await call(stack, 'team', { team: team.name });
      expect(result.outcome).toBe('ok');
      const card = result.reply.cards[0]!;
      expect(card.title).toContain(team.name);
      const field = (name: string) => card.fields!.find((f) => f.name === name);
      const org = world.catalog.organisations.find((o) => o.id === team.organisation!.id)!;
      if (api === 'v2') {
        // A v2 team names no organisation and no region: its country stands for the region.
        expect(result.text).not.toContain('Organisation:');
        expect(result.text).toMatch(new RegExp(`^Region: ${team.region.country.name}$`, 'm'));
      } else {
        expect(result.text).toContain(`Organisation: ${org.name}`);
        expect(result.text).toContain(`Region: ${team.region.name} (${team.region.country.name})`);
      }
      const roster = world.catalog.rosterById.get(team.standing_roster!.roster.id)!;
      const roles = world.catalog.game(team.game.id)!.roles;
      for (const { id } of roster.line_up.players) {
        const player = world.catalog.playerById.get(id)!;
        // v2 players' roles are names without the ids Matchday names roles by: none on v2.
        const role =
          player.role && api === 'v3' ? roles.find((r) => r.id === player.role!.id)!.name : undefined;
        // Then the `/player` line that shows them (test/commands/player.test.ts runs it).
        const value = field(player.nick_name)?.value;
        expect(value?.[0]).toEqual(
          [`${player.first_name} ${player.last_name}`, role].filter(Boolean).join(' · '),
        );
        expect(JSON.stringify(value?.slice(1))).toContain('"command":"player ');
        expect(JSON.stringify(value?.slice(1))).toContain(player.nick_name);
      }
      const rosters = [...world.catalog.rosterById.values()]
        .filter((r) => r.team.id === team.id)
        .map((r) => r.id);
      const mine = worldSeries(world).filter((s) =>
        s.participants.some((p) => rosters.includes(p.roster.id)),
      );
      const upcoming = mine
        .filter((s) => s.lifecycle === 'upcoming' || s.lifecycle === 'live')
        .sort(byStartThenId)
        .slice(0, 5);
      const recent = mine
        .filter((s) => FINISHED.includes(s.lifecycle))
        .sort(byEndDescThenId)
        .slice(0, 5);
      const [, upCard, recentCard] = result.reply.cards;
      expect(upCard!.title).toBe(`Upcoming · ${team.name}`);
      expect(upCard!.description).toHaveLength(upcoming.length);
      upcoming.forEach((s, i) => {
        const line = upCard!.description![i]!;
        // An upcoming line names "A vs B" in one span; a live one "A 1–0 B" with the running score.
        const text = line
          .map((span) => (typeof span === 'string' ? span : 'text' in span ? span.text : ''))
          .join('');
        if (s.lifecycle === 'live') {
          const [home, away] = matchupOf(world, s).split(' vs ');
          expect(text).toMatch(new RegExp(`LIVE ${home} \\d+–\\d+ ${away}`));
        } else {
          expect(
            line.some(
              (span) => typeof span === 'object' && 'text' in span && span.text === matchupOf(world, s),
            ),
          ).toBe(true);
        }
      });
      expect(recentCard!.title).toBe(`Recent · ${team.name}`);
      expect(recentCard!.description).toHaveLength(recent.length);
    });

    it('hides results in the recent list under the "hide" policy', async () => {
      const world = stack.service.world;
      const team = world.catalog.teams[0]!;
      const result = await call(
        stack,
        'team',
        { team: team.name },
        { tenant: await tenantWith(stack, { spoilers: 'hide' }) },
      );
      const recent = result.reply.cards[2]!;
      expect(recent.title).toBe(`Recent · ${team.name}`);
      const text = recent
        .description!.flat()
        .map((s) => (typeof s === 'string' ? s : 'text' in s ? s.text : ''))
        .join('');
      expect(text).toContain('result hidden');
      expect(text).not.toMatch(/\d+–\d+/);
    });

    it('refuses an ambiguous name with the candidates, and a missing one', async () => {
      const ambiguous = await call(stack, 'team', { team: 'Neon' });
      expect(ambiguous.outcome).toBe('user-error');
      expect(ambiguous.code).toBe('AMBIGUOUS_TEAM');
      expect(ambiguous.text).toContain('Neon');
      const missing = await call(stack, 'team', {});
      expect(missing.outcome).toBe('user-error');
      expect(missing.message).toMatch(/team/);
    });

    it('costs at most 3 upstream requests cold and none warm', async () => {
      const tenant = await tenantWith(stack);
      const name = stack.service.world.catalog.teams[7]!.name;
      const cold = await call(stack, 'team', { team: name }, { tenant });
      const warm = await call(stack, 'team', { team: name }, { tenant });
      expect(cold.upstream).toBeLessThanOrEqual(3);
      expect(warm.upstream).toBe(0);
    });
  });
});
