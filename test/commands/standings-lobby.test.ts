/**
 * A battle-royale lobby group is a points table (place, team, points, kills,
 * lobbies played), never a W/D/L table, on every platform and under every spoiler policy. The
 * figures are compared with the world's (points from its standings, kills summed over its series).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../../src/bot/reply.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';
import { renderReply as renderTerminal } from '../../src/platforms/terminal/render.ts';
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

  /** A battle-royale lobby group (substage type 3) with points, and its truth from the world. */
  function findLobby() {
    const world = stack.service.world;
    const t = world.now();
    for (const tournament of world.window(t).tournaments)
      for (const stage of tournament.stages)
        for (const sub of stage.substages) {
          if (sub.type !== 3) continue;
          const substage = world.substageAt(sub, t);
          if (!substage.standings.some((s) => s.points > 0)) continue;
          const kills = new Map<number, number>();
          const played = new Map<number, number>();
          for (const plan of world.window(t).bySubstage.get(sub.id) ?? []) {
            const series = world.seriesAt(plan, t);
            if (series.lifecycle === 'upcoming' || series.lifecycle === 'deleted') continue;
            for (const p of series.participants) {
              kills.set(p.roster.id, (kills.get(p.roster.id) ?? 0) + (p.stats?.kills ?? 0));
              // Lobbies played (the plan's matches that ended), of series that have ended.
              const lobbies = plan.matches.filter((m) => m.end <= t && m.end !== m.start).length;
              if (series.lifecycle === 'over')
                played.set(p.roster.id, (played.get(p.roster.id) ?? 0) + lobbies);
            }
          }
          const expected = substage.standings
            .map((s) => ({
              name: teamNameOf(world, s.roster.id),
              points: s.points,
              kills: kills.get(s.roster.id) ?? 0,
              played: played.get(s.roster.id) ?? 0,
              roster: s.roster.id,
            }))
            .sort((a, b) => b.points - a.points || b.kills - a.kills || a.roster - b.roster);
          // Not vacuous: a series of several lobbies was played, so lobbies and series differ.
          if (!expected.some((e) => e.played > 1)) continue;
          return { tournament: world.tournamentAt(tournament), substage, expected };
        }
    throw new Error('no battle-royale lobby with points');
  }

  const PLATFORMS: Platform[] = ['terminal', 'discord', 'slack'];

  describe('/standings of a battle-royale lobby', () => {
    // v2 series carry no statistics (docs/data-client.md, "What differs on v2"): the v2 table has the lobby's
    // points and lobbies played but no Kills column, says that the data gives no kill counts, and
    // ranks teams level on points by the data's order (roster id) instead of by kills.
    const noKills = api === 'v2';
    const NO_KILLS = 'No kill counts: the data service does not give them for these lobbies.';
    it('is a points table (place, team, points, kills, played) in the order of the points', async () => {
      const found = findLobby();
      const { tournament, substage } = found;
      const expected = noKills
        ? [...found.expected].sort((a, b) => b.points - a.points || a.roster - b.roster)
        : found.expected;
      expect(expected.length).toBeGreaterThan(2);
      expect(expected.some((e) => e.points > 0)).toBe(true);
      expect(expected.some((e) => e.kills > 0)).toBe(true);
      const result = await call(stack, 'standings', { tournament: tournament.title, stage: substage.title });
      expect(result.outcome, result.text).toBe('ok');
      const card = result.reply.cards[0]!;
      const table = card.table!;
      const rows = table.rows.map((row) => row.map((cell) => plainText(cell)));
      if (noKills) {
        expect(table.columns.map((c) => c.header)).toEqual(['#', 'Team', 'Pts', 'Played']);
        expect(rows).toEqual(
          expected.map((e, i) => [String(i + 1), e.name, String(e.points), String(e.played)]),
        );
        expect(result.text).toContain(NO_KILLS);
        expect(result.text).not.toMatch(/\bkills?\b.*\b0\b|\b0 kills/i);
      } else {
        expect(table.columns.map((c) => c.header)).toEqual(['#', 'Team', 'Pts', 'Kills', 'Played']);
        expect(rows).toEqual(
          expected.map((e, i) => [
            String(i + 1),
            e.name,
            String(e.points),
            String(e.kills),
            String(e.played),
          ]),
        );
        expect(result.text).not.toContain(NO_KILLS);
      }
    });

    it('reads as a points table on every platform, never as wins, draws and losses', async () => {
      const { tournament, substage, expected } = findLobby();
      const leader = expected[0]!;
      for (const platform of PLATFORMS) {
        const tenant = await tenantWith(stack, {}, platform);
        const result = await call(
          stack,
          'standings',
          { tournament: tournament.title, stage: substage.title },
          { tenant, platform },
        );
        expect(result.outcome, result.text).toBe('ok');
        const text =
          platform === 'terminal'
            ? renderTerminal(result.reply, { colour: false, timezone: 'UTC' })
            : JSON.stringify(
                platform === 'discord' ? renderDiscord(result.reply) : renderSlack(result.reply),
              );
        if (noKills) expect(text, platform).toContain('No kill counts');
        else expect(text, platform).toContain('Kills');
        expect(text, platform).toContain(leader.name);
        expect(text, platform).not.toMatch(/\bW\b.*\bD\b.*\bL\b/);
      }
    });

    it('guards the figures under spoiler and lists names only under hide', async () => {
      const found = findLobby();
      const { tournament, substage } = found;
      const expected = noKills
        ? [...found.expected].sort((a, b) => b.points - a.points || a.roster - b.roster)
        : found.expected;
      const spoilerTenant = await tenantWith(stack, { spoilers: 'spoiler' });
      const spoiler = await call(
        stack,
        'standings',
        { tournament: tournament.title, stage: substage.title },
        { tenant: spoilerTenant },
      );
      expect(spoiler.outcome).toBe('ok');
      const leader = expected[0]!;
      expect(spoiler.text).not.toContain(`${leader.points} pts`);
      expect(spoiler.revealed).toContain(
        noKills ? `${leader.points} pts (#1)` : `${leader.points} pts · ${leader.kills} kills (#1)`,
      );
      const hideTenant = await tenantWith(stack, { spoilers: 'hide' });
      const hidden = await call(
        stack,
        'standings',
        { tournament: tournament.title, stage: substage.title },
        { tenant: hideTenant },
      );
      expect(hidden.outcome).toBe('ok');
      expect(hidden.revealed).toContain(leader.name);
      expect(hidden.revealed).not.toContain(String(leader.kills));
      expect(hidden.reply.cards[0]!.table).toBeUndefined();
    });
  });
});
