import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EN,
  type Entry,
  entryById,
  matchScore,
  normalizeName,
  pickEntry,
  rankEntries,
} from '../../src/bot/name-match.ts';
import { createNameIndex } from '../../src/bot/names.ts';
import { resolveTimeZone, searchTimeZones } from '../../src/bot/time-zones.ts';
import { createClient } from '../../src/client/client.ts';
import { Clock } from '../../src/core/clock.ts';
import { editDistance } from '../../src/core/edit-distance.ts';
import { MatchdayError, messageText, UserError } from '../../src/core/errors.ts';
import { FROZEN_AT, type Stack, startStack } from '../commands/helpers.ts';
import { worldSeries } from '../commands/truth.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

/** The UserError a promise rejects with (fails the test if it resolves). */
async function userError(promise: Promise<unknown>): Promise<UserError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('expected a UserError, but the call succeeded');
}

describe('name matching (pure)', () => {
  it('normalises case, accents and punctuation', () => {
    expect(normalizeName('  Kraków  Cup—2 ')).toBe('krakow cup 2');
    expect(normalizeName('x},id<={1')).toBe('x id 1');
  });

  it('scores exact above prefix above word prefix above substring, and 0 for no match', () => {
    expect(matchScore('echo pumas', 'echo pumas')).toBe(100);
    expect(matchScore('echopumas', 'echo pumas')).toBe(95);
    expect(matchScore('echo', 'echo pumas')).toBe(80);
    expect(matchScore('pum', 'echo pumas')).toBe(70);
    expect(matchScore('opum', 'echo pumas')).toBe(60);
    expect(matchScore('fnatic', 'echo pumas')).toBe(0);
  });

  it('compares without spaces across words, and refuses one- and two-letter fragments mid-word', () => {
    expect(matchScore('ec hopumas', 'echo pumas')).toBe(95);
    expect(matchScore('echopuma', 'echo pumas')).toBe(60);
    expect(matchScore('ho pu', 'echo pumas')).toBe(60);
    expect(matchScore('echo pu', 'echo pumas')).toBe(80);
    // A query with a space is no word's start, and a mid-word fragment of two letters is noise.
    expect(matchScore('pumas x', 'echo pumas')).toBe(0);
    expect(matchScore('ch', 'echo pumas')).toBe(0);
    expect(matchScore('', 'echo pumas')).toBe(0);
    expect(matchScore('echo', '')).toBe(0);
  });

  it('ranks exact keys first and finds them without scoring the whole list', () => {
    const entries: Entry[] = [
      { id: 1, label: 'Echo Pumas', name: 'Echo Pumas', keys: ['echo pumas', 'ep'], weight: 0 },
      {
        id: 2,
        label: 'Echo Pumas Academy',
        name: 'Echo Pumas Academy',
        keys: ['echo pumas academy'],
        weight: 5,
      },
      { id: 3, label: 'Pumas', name: 'Pumas', keys: ['pumas'], weight: 0 },
    ];
    expect(rankEntries(entries, 'Echo Pumas').map((r) => [r.entry.id, r.score])).toEqual([
      [1, 100],
      [2, 80],
    ]);
    expect(rankEntries(entries, 'pumas').map((r) => r.entry.id)).toEqual([3, 2, 1]);
    expect(pickEntry(entries, 'team', 'EP', EN)).toBe(1);
    expect(pickEntry(entries, 'team', '3', EN)).toBe(3);
    expect(entryById(entries, 2)?.label).toBe('Echo Pumas Academy');
    expect(entryById(entries, 9)).toBeUndefined();
    // Empty text lists everything by weight, then label; the list is a copy each time.
    const first = rankEntries(entries, '');
    expect(first.map((r) => r.entry.id)).toEqual([2, 1, 3]);
    first.pop();
    expect(rankEntries(entries, '')).toHaveLength(3);
    expect(() => pickEntry(entries, 'team', 'zzzzzzzz', EN)).toThrow(/No team matches/i);
  });

  it('measures edit distance', () => {
    expect(editDistance('pumaz', 'pumas')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('resolves time zones by IANA name or unique city, and refuses others with a clear message', () => {
    expect(resolveTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(resolveTimeZone('UTC')).toBe('UTC');
    expect(resolveTimeZone('tokyo')).toBe('Asia/Tokyo');
    expect(() => resolveTimeZone('Mars/Olympus')).toThrow(/not a time zone/);
    expect(() => resolveTimeZone('x'.repeat(1000))).toThrow(UserError);
    expect(searchTimeZones('berl').map((c) => c.value)).toContain('Europe/Berlin');
  });
});

describe('NameIndex against the local service', () => {
  it('loads the games, teams, rosters and current tournaments the service lists', () => {
    const world = stack.service.world;
    const sizes = stack.names.sizes();
    expect(sizes.games).toBe(world.catalog.games.length);
    expect(sizes.teams).toBe(world.catalog.teams.length);
    expect(sizes.rosters).toBe(world.catalog.rosterById.size);
    expect(sizes.tournaments).toBeGreaterThan(0);
    expect(sizes.substages).toBeGreaterThan(0);
    const team = world.catalog.teams[0]!;
    expect(stack.names.team(team.id)?.name).toBe(team.name);
    for (const roster of world.catalog.rosterById.values()) {
      expect(stack.names.teamOfRoster(roster.id)?.id).toBe(roster.team.id);
    }
  });

  it('answers autocomplete from memory: no request reaches the service', () => {
    const before = stack.service.requests;
    const choices = stack.names.search('team', 'pum');
    expect(stack.service.requests).toBe(before);
    expect(choices.length).toBeGreaterThan(0);
    expect(choices.length).toBeLessThanOrEqual(25);
    for (const choice of choices) {
      expect(choice.name.length).toBeLessThanOrEqual(100);
      const team = stack.names.team(Number(choice.value));
      expect(team).toBeDefined();
      expect(`${team!.name} ${team!.abbreviation} ${team!.also_known_as.join(' ')}`.toLowerCase()).toContain(
        'pum',
      );
    }
    expect(stack.names.search('team', '', 25)).toHaveLength(25);
    expect(stack.names.search('team', 'x'.repeat(1000))).toEqual([]);
    expect(stack.names.search('team', 'pum', 3)).toHaveLength(3);
  });

  it('resolves an id, an exact name, a unique abbreviation or alias, and a unique fuzzy match', async () => {
    const teams = stack.service.world.catalog.teams;
    const target = teams.find((t) => teams.filter((o) => o.abbreviation === t.abbreviation).length === 1)!;
    expect(await stack.names.resolve('team', String(target.id))).toBe(target.id);
    expect(await stack.names.resolve('team', target.name.toUpperCase())).toBe(target.id);
    expect(await stack.names.resolve('team', target.abbreviation)).toBe(target.id);
    const aliased = teams.find(
      (t) =>
        t.also_known_as.length > 0 &&
        teams.filter((o) => o.also_known_as.includes(t.also_known_as[0]!)).length === 1,
    );
    if (aliased) expect(await stack.names.resolve('team', aliased.also_known_as[0]!)).toBe(aliased.id);
    // A prefix of exactly one team's name.
    const unique = teams.find(
      (t) =>
        teams.filter((o) => normalizeName(o.name).startsWith(normalizeName(t.name).slice(0, 9))).length === 1,
    )!;
    expect(await stack.names.resolve('team', unique.name.slice(0, 9))).toBe(unique.id);
  });

  it('lists the candidates of an ambiguous name, and narrows them by the tenant games', async () => {
    const teams = stack.service.world.catalog.teams;
    const word = 'Neon';
    const neon = teams.filter((t) => t.name.split(' ').includes(word));
    expect(neon.length).toBeGreaterThan(1);
    const error = await userError(stack.names.resolve('team', word));
    expect(error.code).toBe('AMBIGUOUS_TEAM');
    expect(error.message).toContain(`matches ${neon.length} teams`);
    for (const label of error.suggestions.map(messageText))
      expect(neon.some((t) => label.startsWith(t.name))).toBe(true);
    // Shared abbreviation across games: the tenant's game decides.
    const shared = teams.find(
      (t) => teams.filter((o) => o.abbreviation === t.abbreviation && o.game.id !== t.game.id).length > 0,
    )!;
    const sameInGame = teams.filter(
      (o) => o.abbreviation === shared.abbreviation && o.game.id === shared.game.id,
    );
    if (sameInGame.length === 1) {
      expect(await stack.names.resolve('team', shared.abbreviation, { games: [shared.game.id] })).toBe(
        shared.id,
      );
    }
    expect((await userError(stack.names.resolve('team', shared.abbreviation))).code).toBe('AMBIGUOUS_TEAM');
  });

  it('suggests the closest names for an unknown one, and refuses grammar soup and 1000 characters plainly', async () => {
    const team = stack.service.world.catalog.teams[0]!;
    // One typo away from one name only: taken, with a note saying so.
    const typo = `${team.name.slice(0, -1)}z`;
    const notes: string[] = [];
    expect(await stack.names.resolve('team', typo, undefined, notes)).toBe(team.id);
    expect(notes).toEqual([
      `No team is called "${typo}"; showing ${team.name} (${stack.names.game(team.game.id)!.abbreviation.toUpperCase()}).`,
    ]);
    // Far from every name: refused, with the closest names, each of which is then accepted as is.
    const far = `${team.name.split(' ')[0]} Qqqqq`;
    const unknown = await userError(stack.names.resolve('team', far));
    expect(unknown.code).toBe('UNKNOWN_TEAM');
    expect(unknown.message).toBe(`No team matches "${far}".`);
    expect(unknown.suggestions.length).toBeGreaterThan(0);
    for (const suggestion of unknown.suggestions.map(messageText))
      expect(stack.names.team(await stack.names.resolve('team', suggestion))!.name).toBe(
        suggestion.replace(/ \([A-Z0-9]+\)$/, ''),
      );
    const before = stack.service.requests;
    const soup = await userError(stack.names.resolve('team', 'Fnatic,G2'));
    expect(soup.code).toBe('UNKNOWN_TEAM');
    const injection = await userError(stack.names.resolve('team', 'x},id<={1'));
    expect(injection.code).toBe('UNKNOWN_TEAM');
    const long = await userError(stack.names.resolve('team', 'a'.repeat(1000)));
    expect(long.code).toBe('NAME_TOO_LONG');
    expect(long.message).toContain('1000 characters');
    expect((await userError(stack.names.resolve('team', '   '))).code).toBe('EMPTY_NAME');
    expect(stack.service.requests).toBe(before);
  });

  it('resolves games by title or abbreviation, tournaments by title or short title', async () => {
    const game = stack.service.world.catalog.games[1]!.game;
    expect(await stack.names.resolve('game', game.abbreviation.toLowerCase())).toBe(game.id);
    expect(await stack.names.resolve('game', game.title)).toBe(game.id);
    const [tournament] = stack.names.search('tournament', 'Masters', 1);
    expect(tournament).toBeDefined();
    const id = Number(tournament!.value);
    expect(await stack.names.resolve('tournament', stack.names.tournament(id)!.title)).toBe(id);
  });

  it('answers /player from the held players while their half-hourly reload is still running', async () => {
    const clock = new Clock({ start: FROZEN_AT, frozen: true });
    const client = createClient({
      baseUrl: stack.service.url,
      secret: stack.service.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
    });
    // The real client, but once `stall` is set its players listing never answers.
    let stall = false;
    let walks = 0;
    const players = client.players;
    // A client is a class instance (its resources are getters): the groups are named, not spread.
    const { games, teams, tournaments, substages, rosters, organisations, maps, series, languages } = client;
    const index = createNameIndex({
      client: {
        games,
        teams,
        tournaments,
        substages,
        rosters,
        organisations,
        maps,
        series,
        languages,
        players: {
          ...players,
          paginate: (query, options) => {
            walks++;
            if (!stall) return players.paginate(query, options);
            return (async function* () {
              await new Promise(() => {});
            })();
          },
        },
      },
      clock,
    });
    const player = stack.service.world.catalog.players.find((p) => p.active && p.deleted_at === null)!;
    expect(await index.resolve('player', String(player.id))).toBe(player.id);
    expect(index.player(player.id)?.nick_name).toBe(player.nick_name);
    expect(walks).toBe(1);
    stall = true;
    clock.advance(31 * 60 * 1000);
    // Stale: a reload starts (and never ends), but the held players answer at once.
    expect(await index.resolve('player', String(player.id))).toBe(player.id);
    expect(walks).toBe(2);
    await client.close();
  });

  it('finds a name before the first load with a filtered read, loads the rest behind it, and says so plainly when names cannot be loaded', async () => {
    const clock = new Clock({ start: FROZEN_AT, frozen: true });
    const client = createClient({
      baseUrl: stack.service.url,
      secret: stack.service.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
    });
    const index = createNameIndex({ client, clock });
    expect(index.loaded).toBe(false);
    expect(index.search('team', 'neon')).toEqual([]);
    const team = stack.service.world.catalog.teams[3]!;
    expect(await index.resolve('team', team.name)).toBe(team.id);
    // The whole index loads behind the answer (refresh shares the load under way).
    await index.refresh();
    expect(index.loaded).toBe(true);
    expect(index.team(team.id)?.name).toBe(team.name);
    await client.close();
    // A client whose every request fails (wrong secret): refresh rejects, contents stay.
    const broken = createClient({ baseUrl: stack.service.url, secret: 'wrong', retry: { attempts: 1 } });
    const failing = createNameIndex({ client: broken, clock });
    await expect(failing.refresh()).rejects.toThrow();
    // Not the user's mistake: an outage, told as one (the runtime counts it as a service failure).
    const error = await failing.resolve('team', team.name).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MatchdayError);
    expect(error).not.toBeInstanceOf(UserError);
    expect((error as MatchdayError).code).toBe('NAMES_UNAVAILABLE');
    expect((error as MatchdayError).audience).toBe('outage');
    await broken.close();
  });

  it('refreshes the series window on its own, offering what is live now first', async () => {
    // No caching of series answers, so the refresh sees the world move on.
    const client = createClient({
      baseUrl: stack.service.url,
      secret: stack.service.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
      ttl: { series: 0, live: 0 },
    });
    const index = createNameIndex({ client, clock: stack.clock });
    await index.refresh();
    const before = new Set(index.search('series', '', 25).map((c) => c.value));
    stack.clock.advance(6 * 3600_000);
    const world = stack.service.world;
    const liveNow = new Set(
      worldSeries(world)
        .filter((s) => s.lifecycle === 'live')
        .map((s) => String(s.id)),
    );
    expect(liveNow.size).toBeGreaterThan(0);
    expect([...liveNow].some((id) => !before.has(id))).toBe(true);
    await index.refreshSeries();
    await client.close();
    const [first] = index.search('series', '', 25);
    expect(liveNow.has(first!.value)).toBe(true);
    expect(first!.name).toContain('LIVE');
  });

  it('fetches rosters and teams it lacks with one getMany each, then labels them', async () => {
    const client = createClient({
      baseUrl: stack.service.url,
      secret: stack.service.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
    });
    const index = createNameIndex({ client, clock: stack.clock, limits: { rosters: 10, teams: 10 } });
    await index.refresh();
    const world = stack.service.world;
    const rosters = [...world.catalog.rosterById.values()].slice(-30);
    expect(rosters.every((r) => index.teamOfRoster(r.id) === undefined)).toBe(true);
    const before = client.stats().upstreamTotal;
    await index.ensureRosters(
      client,
      rosters.map((r) => r.id),
    );
    expect(client.stats().upstreamTotal - before).toBe(2);
    for (const r of rosters)
      expect(index.teamOfRoster(r.id)?.name).toBe(world.catalog.teamById.get(r.team.id)!.name);
    await index.ensureRosters(
      client,
      rosters.map((r) => r.id),
    );
    expect(client.stats().upstreamTotal - before).toBe(2);
    await client.close();
  });

  it('labels teams and tournaments of a game it does not know without a made-up "game <id>" tag', async () => {
    const client = createClient({
      baseUrl: stack.service.url,
      secret: stack.service.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
    });
    // Only the first game is loaded: the others' teams and tournaments have no game label.
    const index = createNameIndex({ client, clock: stack.clock, limits: { games: 1 } });
    await index.refresh();
    await client.close();
    const world = stack.service.world;
    const [known, unknown] = world.catalog.games.map((g) => g.game);
    expect(index.game(known!.id)).toBeDefined();
    expect(index.game(unknown!.id)).toBeUndefined();
    const teamOf = (gameId: number) => world.catalog.teams.find((t) => t.game.id === gameId && t.active)!;
    const label = (source: 'team' | 'tournament', id: number, text: string) =>
      index.search(source, text, 25).find((c) => c.value === String(id))?.name;
    const knownTeam = teamOf(known!.id);
    const unknownTeam = teamOf(unknown!.id);
    expect(label('team', knownTeam.id, knownTeam.name)).toBe(
      `${knownTeam.name} (${known!.abbreviation.toUpperCase()})`,
    );
    expect(label('team', unknownTeam.id, unknownTeam.name)).toBe(unknownTeam.name);
    const now = world.now();
    const tournament = world
      .window(now)
      .tournaments.find((t) => t.game === unknown!.id && t.start <= now && t.end >= now)!;
    const tournamentLabel = label('tournament', tournament.id, tournament.title);
    expect(tournamentLabel).toBe(`${tournament.title} (tier ${tournament.tier})`);
    for (const text of [label('team', unknownTeam.id, unknownTeam.name), tournamentLabel])
      expect(text).not.toMatch(/game \d/i);
  });
});
