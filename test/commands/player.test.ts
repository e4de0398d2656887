/**
 * `/player <name>`: team, role, country and social accounts from the world's
 * data, names matched like teams' (exact, prefix, a typo taken with a note, suggestions that the
 * command accepts verbatim, namesakes told apart), and `/team` rosters naming the `/player` line of
 * each player, which shows that player.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import type { Player } from '../../src/protocol/types.ts';
import { APIS, call, type Stack, startStack } from './helpers.ts';

let stack: Stack;

async function typed(line: string) {
  const parsed = parseCommandText(line, commands);
  return call(stack, parsed.command, parsed.args);
}

/** What the world says of a player: team name, role name, country, handles. */
function truthOf(player: Player) {
  const catalog = stack.service.world.catalog;
  const team = catalog.teamById.get(player.teams[0]!.id)!;
  const info = catalog.game(player.game.id)!;
  const role = info.roles.find((r) => r.id === player.role?.id)?.name ?? player.race?.name;
  return {
    team: team.name,
    game: info.game.title,
    role,
    country: player.region.country.name,
    handles: player.social_media_accounts.map((a) => a.handle.replace(/^@/, '')),
  };
}

describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("shows a player's team, game, role, country and socials as the world has them", async () => {
    const catalog = stack.service.world.catalog;
    const counts = new Map<string, number>();
    for (const p of catalog.players)
      counts.set(p.nick_name.toLowerCase(), (counts.get(p.nick_name.toLowerCase()) ?? 0) + 1);
    const unique = catalog.players.filter((p) => counts.get(p.nick_name.toLowerCase()) === 1);
    const picks = [unique.find((p) => p.active)!, unique.find((p) => !p.active)!, unique[200]!];
    for (const player of picks) {
      const truth = truthOf(player);
      const result = await typed(`/player ${player.nick_name}`);
      expect(result.outcome, result.text).toBe('ok');
      const text = result.text;
      expect(text.split('\n')[0]).toBe(player.nick_name);
      expect(text).toContain(`${player.first_name} ${player.last_name}`);
      expect(text).toContain(
        `Team: ${truth.team} · /team ${truth.team}`.replace(
          'Team:',
          player.active ? 'Team:' : 'Former team:',
        ),
      );
      expect(text).toContain(`Game: ${truth.game}`);
      if (truth.role) expect(text).toContain(`Role: ${truth.role}`);
      expect(text).toContain(truth.country);
      // A region is labelled Region, the country beside it; a region that is the country, Country.
      const { region } = player;
      if (region.name === region.country.name) expect(text).toContain(`Country: ${region.country.name}`);
      else {
        expect(text).toContain(`Region: ${region.name} (${region.country.name})`);
        expect(text).not.toContain(`Country: ${region.name}`);
      }
      for (const handle of truth.handles) expect(text).toContain(`@${handle}`);
      expect(text).toContain(`Player ${player.id}`);
    }
  });

  it('takes a typo with a note, and suggests names the command accepts verbatim', async () => {
    const catalog = stack.service.world.catalog;
    const player = catalog.players.find(
      (p) =>
        p.nick_name.length >= 6 && catalog.players.filter((q) => q.nick_name === p.nick_name).length === 1,
    )!;
    const typo = `${player.nick_name.slice(0, 2)}${player.nick_name.slice(3)}`;
    const near = await typed(`/player ${typo}`);
    if (near.outcome === 'ok') {
      expect(near.reply.content ?? [], near.text).not.toEqual([]);
      expect(near.text).toContain(`No player is called "${typo}"`);
    } else {
      expect(near.outcome).toBe('user-error');
      expect(near.text).toContain('Did you mean');
    }
    const unknown = await typed('/player Qqqqxz');
    expect(unknown.outcome).toBe('user-error');
    expect(unknown.text).toContain('No player matches "Qqqqxz"');
    const suggestions = unknown.reply.cards[0]!.fields?.[0]?.value.join('') ?? '';
    const labels = [...suggestions.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) {
      const again = await typed(`/player player:"${label}"`);
      expect(again.outcome, `${label}: ${again.text}`).toBe('ok');
      expect(again.reply.content, `${label} needs no correction`).toBeUndefined();
    }
  });

  it('lists namesakes by team and game, and each listed name shows that player', async () => {
    const catalog = stack.service.world.catalog;
    const twin = catalog.players.find(
      (p) => catalog.players.filter((q) => q.nick_name === p.nick_name).length > 1,
    )!;
    const result = await typed(`/player ${twin.nick_name}`);
    expect(result.outcome).toBe('user-error');
    expect(result.text).toContain(`"${twin.nick_name}" matches`);
    const all = catalog.players.filter((p) => p.nick_name === twin.nick_name);
    for (const p of all) {
      const label = `${p.nick_name} (${catalog.teamById.get(p.teams[0]!.id)!.name}, ${catalog.game(p.game.id)!.game.abbreviation.toUpperCase()})`;
      expect(result.text).toContain(label);
      const shown = await typed(`/player "${label}"`);
      expect(shown.outcome, shown.text).toBe('ok');
      expect(shown.text).toContain(`Player ${p.id}`);
    }
  });

  it("names each roster player's /player line in /team, and that line shows the player", async () => {
    const catalog = stack.service.world.catalog;
    for (const loaded of [false, true]) {
      if (loaded) await stack.names.ensurePlayers();
      const team = catalog.teams.find((t) => t.active && t.standing_roster)!;
      const roster = catalog.rosterById.get(team.standing_roster!.roster.id)!;
      const result = await call(stack, 'team', { team: team.name });
      expect(result.outcome, result.text).toBe('ok');
      const lines = [...result.text.matchAll(/(\/player (?:"[^"]+"|\S+))/g)].map((m) => m[1]!);
      expect(lines.length).toBe(roster.line_up.players.length);
      for (const [i, line] of lines.entries()) {
        const shown = await typed(line);
        expect(shown.outcome, `${line}: ${shown.text}`).toBe('ok');
        expect(shown.text).toContain(`Player ${roster.line_up.players[i]!.id}`);
      }
    }
  });

  it('refuses an empty name and a name too long, saying what to type', async () => {
    const empty = await call(stack, 'player', { player: '   ' });
    expect(empty.outcome).toBe('user-error');
    expect(empty.text).toContain('/player');
    const long = await call(stack, 'player', { player: 'x'.repeat(101) });
    expect(long.outcome).toBe('user-error');
    expect(long.text).not.toMatch(/stack|Error:/);
  });
});
