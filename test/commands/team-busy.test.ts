/**
 * `/team` while the data service is busy or unreachable (commands answer from
 * what is there): the team itself comes from the name index, so the answer stands; the parts the
 * service could not give (players, series; a tournament's stages and participants) say so, with one
 * note above the reply. What a command cannot stand without (the series list of `/series`) still
 * fails as an outage. Real service, real client:
 * the service is stopped, so the client's requests are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_NOTE } from '../../commands/shared.ts';
import { call, type Stack, startStack } from './helpers.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.client.close();
  await stack.truth.close();
});

/** Active teams with players on their standing roster, as the world has them. */
function teamsWithPlayers(on: Stack = stack) {
  return on.service.world.catalog.teams.filter((t) => {
    if (!t.active || !t.standing_roster) return false;
    const roster = on.service.world.catalog.rosterById.get(t.standing_roster.roster.id);
    return (roster?.line_up.players.length ?? 0) > 0 && on.names.team(t.id)?.standing_roster;
  });
}

describe('/team, /tournament and /live series: while the data service is unreachable', () => {
  it('answers in full, with no busy note, while the service answers', async () => {
    const team = teamsWithPlayers()[0]!;
    const result = await call(stack, 'team', { team: String(team.id) });
    expect(result.outcome).toBe('ok');
    expect(result.text).not.toContain(BUSY_NOTE);
    expect(result.text).not.toContain('could not be read');
    const roster = stack.service.world.catalog.rosterById.get(team.standing_roster!.roster.id)!;
    const nick = stack.service.world.catalog.playerById.get(roster.line_up.players[0]!.id)!.nick_name;
    expect(result.text).toContain(nick);
  });

  it('still shows the team, says its players and series could not be read, and notes it once', async () => {
    const team = teamsWithPlayers()[1]!;
    const tournament = stack.service.world.window(stack.clock.nowMs()).tournaments[0]!;
    // A live series the client has cached (a listing primes each series it holds), not its games.
    const live = await call(stack, 'series', { when: 'live' });
    expect(live.outcome).toBe('ok');
    const liveId = stack.service.world
      .window(stack.clock.nowMs())
      .series.find(
        (p) =>
          p.tier <= 2 &&
          p.casters.length > 0 &&
          stack.service.world.lifecycle(p, stack.clock.nowMs()) === 'live',
      )!.id;
    await stack.service.close();

    const result = await call(stack, 'team', { team: String(team.id) });
    expect(result.outcome).toBe('ok');
    expect(result.reply.cards[0]!.title).toContain(team.name);
    expect(result.text).toContain('Roster: Could not be read just now.');
    expect(result.text.split(BUSY_NOTE)).toHaveLength(2);
    // Not "Nothing scheduled": the bot does not know, and says so.
    expect(result.text).not.toContain('Nothing scheduled.');
    expect(result.text).not.toContain('No finished series yet.');
    expect(result.text.match(/Could not be read just now\./g)).toHaveLength(3);

    // A tournament the name index holds: its card stands without stages and participants.
    const held = await call(stack, 'tournament', { tournament: String(tournament.id) });
    expect(held.outcome).toBe('ok');
    expect(held.reply.cards[0]!.title).toBe(tournament.title);
    expect(held.text).toContain('Stages: Could not be read just now.');
    expect(held.text).toContain('Participants: Could not be read just now.');
    expect(held.text.split(BUSY_NOTE)).toHaveLength(2);

    // A live series in detail: the series from the cache, its games, casters and names missing.
    const detail = await call(stack, 'live', { series: String(liveId) });
    expect(detail.outcome).toBe('ok');
    expect(detail.text).toMatch(/^Series: .+ \d+–\d+ .+$/m);
    // Its streams are left to /casters, which the card points to.
    expect(detail.text).toContain(`Streams: /casters series:${liveId}`);
    expect(detail.text.split(BUSY_NOTE)).toHaveLength(2);

    // A list that is the whole answer cannot stand without the service: an outage, said as one.
    const refused = await call(stack, 'series', {});
    expect(refused.outcome).toBe('error');
    expect(refused.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.text).not.toContain(BUSY_NOTE);
  });
});

describe('/team with the players in the name index', () => {
  let own: Stack;
  beforeAll(async () => {
    own = await startStack();
  });
  afterAll(async () => {
    await own.close();
  });

  it('reads no players once the name index holds them (a miss asks the service for them)', async () => {
    const playerReads = () =>
      Object.values(own.client.stats().upstream.players ?? {}).reduce((a, b) => a + b, 0);
    const [cold, warm] = teamsWithPlayers(own).slice(2, 4);
    const before = playerReads();
    expect((await call(own, 'team', { team: String(cold!.id) })).outcome).toBe('ok');
    expect(playerReads()).toBe(before + 1);
    await own.names.ensurePlayers('interactive');
    const loaded = playerReads();
    const result = await call(own, 'team', { team: String(warm!.id) });
    expect(result.outcome).toBe('ok');
    expect(playerReads()).toBe(loaded);
    const roster = own.service.world.catalog.rosterById.get(warm!.standing_roster!.roster.id)!;
    for (const { id } of roster.line_up.players)
      expect(result.text).toContain(own.service.world.catalog.playerById.get(id)!.nick_name);
  });
});

describe('/standings while the data service is unreachable', () => {
  let own: Stack;
  beforeAll(async () => {
    own = await startStack();
  });
  afterAll(async () => {
    await own.client.close();
    await own.truth.close();
  });

  it("answers a group table from the name index's copy, marked as possibly out of date", async () => {
    const now = own.clock.nowMs();
    const tournaments = own.service.world.window(now).tournaments;
    const stages = (id: number) =>
      own.names
        .substagesOf(id)
        .filter((s) => s.deleted_at === null)
        .sort((a, b) => Date.parse(a.start ?? '') - Date.parse(b.start ?? '') || a.id - b.id);
    // A current tournament whose first stage in playing order is a group table the index holds.
    const tournament = tournaments.find((x) => {
      const first = stages(x.id)[0];
      return x.start <= now && x.end >= now && first?.type === 1 && first.standings.length > 0;
    })!;
    expect(tournament).toBeDefined();
    // A tournament the index knows but holds no stages of.
    const unheld = tournaments.find((x) => own.names.tournament(x.id) && stages(x.id).length === 0)!;
    expect(unheld).toBeDefined();

    // The client's cache emptied (the index's load had primed each substage it listed), then the
    // service gone: only the index's copy is left.
    await own.jump(new Date(now));
    await own.service.close();
    const held = await call(own, 'standings', { tournament: String(tournament.id) });
    expect(held.outcome).toBe('ok');
    expect(held.reply.stale).toBe(true);
    // The stage it shows (the current one) is one the index holds, with its table's rows.
    const [title, stage] = held.reply.cards[0]!.title!.split(' · ');
    expect(title).toBe(tournament.title);
    const shown = stages(tournament.id).find((s) => s.title === stage)!;
    expect(shown).toBeDefined();
    const rows = held.text.split('\n').filter((line) => /^\d+\s/.test(line.trim()));
    expect(rows.length).toBeGreaterThan(1);
    expect(rows).toHaveLength(shown.standings.length);

    // Without a held copy there is nothing to show: an outage, said as one.
    const refused = await call(own, 'standings', { tournament: String(unheld.id) });
    expect(refused.outcome).toBe('error');
    expect(refused.code).toBe('SERVICE_UNAVAILABLE');
  });
});
