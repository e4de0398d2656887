// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies from the service under test
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service/index.ts';
import { get, ok, start } from './helpers.ts';

let service: RunningService;
beforeAll(async () => {
  service = await start();
});
afterAll(() => service.close());

const LISTS = [
  '/assets',
  '/broadcasters',
  '/casters',
  '/countries',
  '/games',
  '/incidents',
  '/languages',
  '/lineups',
  '/maps',
  '/maps/layouts',
  '/matches',
  '/organisations',
  '/platforms',
  '/players',
  '/rosters',
  '/series',
  '/socialmedia/platforms',
  '/stages',
  '/substages',
  '/teams',
  '/tournaments',
];

describe('the list endpoints', () => {
  it.each(LISTS)('%s answers a non-empty array of at most 50', async (path) => {
    const body = await ok<unknown[]>(service, path);
    expect(Array.isArray(body)).toBe(true);
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThanOrEqual(50);
  });

  it('take=0 answers an empty array and take defaults to 50', async () => {
    expect(await ok(service, '/series?take=0')).toEqual([]);
    expect(await ok<unknown[]>(service, '/series')).toHaveLength(50);
  });
});

describe('the world content', () => {
  it('has six games including a battle royale and an esoccer title', async () => {
    const games = await ok<any[]>(service, '/games');
    expect(games.length).toBeGreaterThanOrEqual(6);
    const br = await ok<any[]>(service, '/series?filter=game.id=4,lifecycle=over&take=1');
    expect(br[0].participants.length).toBeGreaterThan(2);
    expect(br[0].participants[0].stats).toEqual({ kills: expect.any(Number), placement: expect.any(Number) });
    const scoring = await ok<any[]>(service, `/series/${br[0].id}/scoring`);
    expect(scoring[0]).toEqual({ type: 'kill_multiplier', value: expect.any(Number) });
    const esoccer = await ok<any[]>(service, '/matches?filter=game.id=5&take=1');
    expect(esoccer[0].format.esoccer.period_duration.milliseconds).toBeGreaterThan(0);
    const moba = await ok<any[]>(service, '/matches?filter=game.id=1&take=1');
    expect(moba[0].format.esoccer).toBeNull();
  });

  it('has 100+ teams with organisations, regions and countries, and rosters with 5+ players', async () => {
    const teams = [] as any[];
    for (let skip = 0; skip < 200; skip += 50)
      teams.push(...(await ok<any[]>(service, `/teams?skip=${skip}`)));
    expect(teams.length).toBeGreaterThanOrEqual(100);
    expect(teams.filter((t) => t.organisation !== null).length).toBeGreaterThan(50);
    expect(teams[0].region.country.abbreviation).toMatch(/^[A-Z]{2}$/);
    const rosters = await ok<any[]>(service, '/rosters');
    for (const r of rosters) expect(r.line_up.players.length).toBeGreaterThanOrEqual(5);
    const player = await ok<any>(service, `/players/${rosters[0].line_up.players[0].id}`);
    expect(player.role).not.toBeNull();
    expect(player.teams).toContainEqual({ id: rosters[0].team.id });
  });

  it('has several live series and series starting within 15 and 60 minutes, on the quarter hour', async () => {
    const live = await ok<any[]>(service, '/series?filter=lifecycle=live');
    expect(live.length).toBeGreaterThanOrEqual(3);
    const upcoming = await ok<any[]>(service, '/series?filter=lifecycle=upcoming&order=start-asc');
    const minutes = upcoming.map((s) => (Date.parse(s.start) - Date.parse('2026-11-18T15:00:00Z')) / 60_000);
    // Broadcast days start series on the quarter hour (src/service/timetable.ts).
    expect(minutes.filter((m) => m <= 60).every((m) => m % 15 === 0)).toBe(true);
    expect(minutes.filter((m) => m <= 15).length).toBeGreaterThan(1);
    expect(minutes.filter((m) => m <= 60).length).toBeGreaterThan(5);
  });

  it('has group substages with standings and points rules, and double-elimination brackets', async () => {
    const groups = await ok<any[]>(service, '/substages?filter=type=1&take=5');
    expect(groups[0].rules.points).toEqual({
      win: expect.any(Number),
      draw: expect.any(Number),
      loss: expect.any(Number),
      scope: 'series',
    });
    expect(groups[0].standings.length).toBe(groups[0].rosters.length);
    const brackets = await ok<any[]>(service, '/series?filter=bracket_position.part<{UB,LB,GF}&take=50');
    const parts = new Set(brackets.map((s) => s.bracket_position.part));
    expect([...parts].sort()).toEqual(['GF', 'LB', 'UB']);
    const phases = new Set((await ok<any[]>(service, '/substages?take=50')).map((s) => s.phase));
    expect(phases.has('regular') || phases.has('qualifier')).toBe(true);
  });

  it('has postponed and soft-deleted series, forfeits and best-of 1, 3 and 5', async () => {
    const postponed = await ok<any[]>(service, '/series?filter=postponed_from!=null&take=1');
    expect(Date.parse(postponed[0].start)).toBeGreaterThan(Date.parse(postponed[0].postponed_from));
    const deleted = await ok<any[]>(service, '/series?filter=deleted_at!=null&take=1');
    expect(deleted[0].lifecycle).toBe('deleted');
    const gone = await get(service, `/series/${deleted[0].id}`);
    expect(gone.status).toBe(410);
    expect(gone.body.msg).toMatch(/deleted/);
    const forfeits = await ok<any[]>(service, '/series?filter=lifecycle=over-forfeited&take=1');
    expect(forfeits[0].participants.some((p: any) => p.forfeit)).toBe(true);
    for (const bo of [1, 3, 5])
      expect(await ok<any[]>(service, `/series?filter=best_of=${bo}&take=1`)).toHaveLength(1);
  });

  it('has casters with streams, a primary caster on streamed series, and broadcasters', async () => {
    const streamed = await ok<any[]>(service, '/series?filter=casters.primary=1&take=5');
    expect(streamed.length).toBe(5);
    const casters = await ok<any[]>(service, `/series/${streamed[0].id}/casters`);
    expect(casters[0].id).toBe(streamed[0].casters.find((c: any) => c.primary).caster.id);
    expect(casters[0].stream.platform.name).toEqual(expect.any(String));
    const online = await ok<any[]>(service, '/casters?filter=stream.online=1');
    expect(online.length).toBeGreaterThan(0);
    for (const c of online) expect(c.stream.viewer_count).toBeGreaterThan(0);
    const streams = await ok<any[]>(service, `/casters/${casters[0].id}/streams`);
    expect(streams[0].username).toBe(casters[0].stream.username);
    expect(streamed[0].broadcasters[0].broadcaster.platform.id).toEqual(expect.any(Number));
  });
});

describe('detail endpoints', () => {
  it('answer the same object as the list for each kind', async () => {
    const pairs: [string, string][] = [
      ['/assets', '/assets/'],
      ['/broadcasters', '/broadcasters/'],
      ['/countries', '/countries/'],
      ['/games', '/games/'],
      ['/lineups', '/lineups/'],
      ['/maps', '/maps/'],
      ['/maps/layouts', '/maps/layouts/'],
      ['/organisations', '/organisations/'],
      ['/platforms', '/platforms/'],
      ['/players', '/players/'],
      ['/rosters', '/rosters/'],
      ['/series?filter=deleted_at=null', '/series/'],
      ['/stages', '/stages/'],
      ['/substages', '/substages/'],
      ['/teams', '/teams/'],
      ['/tournaments', '/tournaments/'],
      ['/matches?filter=deleted_at=null', '/matches/'],
      ['/casters?filter=deleted_at=null', '/casters/'],
    ];
    for (const [listPath, detail] of pairs) {
      const items = await ok<any[]>(service, `${listPath}${listPath.includes('?') ? '&' : '?'}take=3`);
      for (const item of items)
        expect(await ok(service, `${detail}${item.id}`), `${detail}${item.id}`).toEqual(item);
    }
  });

  it('answer the other single-resource endpoints', async () => {
    const team = (await ok<any[]>(service, '/teams?take=1'))[0];
    const standing = await ok<any[]>(service, `/teams/${team.id}/standingrosters`);
    expect(standing.map((s) => s.id)).toContain(team.standing_roster.id);
    expect(await ok(service, `/standingrosters/${team.standing_roster.id}`)).toEqual(team.standing_roster);
    const player = (await ok<any[]>(service, '/players?take=1'))[0];
    expect((await ok<any[]>(service, `/players/${player.id}/standingrosters`)).length).toBeGreaterThan(0);
    const country = (await ok<any[]>(service, '/countries?filter=abbreviation=DE'))[0];
    const region = await ok<any>(service, `/countries/${country.id}/region`);
    expect(region.country.id).toBe(country.id);
    expect(await ok(service, `/regions/${region.id}/countries`)).toEqual([country]);
    expect((await ok<any>(service, `/images/${country.images[0].id}`)).type).toBeUndefined();
    const game = (await ok<any[]>(service, '/games'))[5];
    expect((await ok<any[]>(service, `/games/${game.id}/races`)).length).toBe(3);
    expect((await ok<any[]>(service, `/games/${game.id}/roles`)).length).toBeGreaterThan(0);
    expect((await ok<any[]>(service, `/games/${game.id}/releases`)).length).toBeGreaterThan(0);
    expect((await ok<any[]>(service, `/games/${game.id}/mappools`))[0].maps.length).toBeGreaterThan(0);
    const tournament = (await ok<any[]>(service, '/tournaments?take=1'))[0];
    const participants = await ok<any>(service, `/tournaments/${tournament.id}/participants`);
    expect(participants.confirmed_participants.length).toBeGreaterThan(0);
    expect(Object.keys(participants.phase_participants).sort()).toEqual([
      'final',
      'other',
      'qualifier',
      'regular',
    ]);
    expect((await ok<any[]>(service, `/tournaments/${tournament.id}/casters`)).length).toBeGreaterThan(0);
    const series = (await ok<any[]>(service, '/series?filter=game.id=2,lifecycle=over&take=1'))[0];
    const draft = await ok<any[]>(service, `/series/${series.id}/draft`);
    expect(draft[0]).toEqual({
      draft_cycle: 1,
      event_type: 'random-picked-map',
      event_data: { map: { id: expect.any(Number) } },
    });
    expect(await ok(service, `/series/${series.id}/scoring`)).toEqual([]);
    const sub = (await ok<any[]>(service, '/substages?take=1'))[0];
    expect((await ok<any[]>(service, `/substages/${sub.id}/rosters`)).map((r) => r.id)).toEqual(
      sub.rosters.map((r: any) => r.id),
    );
  });
});

describe('live summaries', () => {
  it('carry every key of both shapes for a live match', async () => {
    const match = (await ok<any[]>(service, '/matches?filter=lifecycle=live,game.id=1&take=1'))[0];
    const cv = await ok<any>(service, `/matches/${match.id}/live/cv/summary`);
    expect(Object.keys(cv).sort()).toEqual(
      [
        'latest_events_channel_index',
        'latest_states_channel_index',
        'match',
        'seed_indexed_state',
        'side_indexed_state',
        'timestamp',
      ].sort(),
    );
    expect(Object.keys(cv.seed_indexed_state.teams).sort()).toEqual(['away', 'home']);
    expect(Object.keys(cv.side_indexed_state.teams).sort()).toEqual(['left', 'right']);
    const home = cv.seed_indexed_state.teams.home;
    expect(Object.keys(home).sort()).toEqual(['faction', 'players', 'roster', 'state', 'stats', 'ui_side']);
    expect(Object.keys(home.players[0]).sort()).toEqual(['hero', 'player', 'state', 'stats', 'ui_index']);
    expect(Object.keys(cv.seed_indexed_state.outposts).sort()).toEqual([
      'north_east',
      'north_west',
      'south_east',
      'south_west',
    ]);
    expect(home.stats.score).toBe(match.participants[0].score);
    const api = await ok<any>(service, `/matches/${match.id}/live/api/summary`);
    // Both summaries name the latest message of their push channel (`src/service/push/channels.ts`).
    expect(Object.keys(api).sort()).toEqual([
      'delay',
      'first_blood_time',
      'latest_states_channel_index',
      'match',
      'teams',
      'timeline',
      'timestamp',
    ]);
    const team = api.teams.home;
    expect(Object.keys(team).sort()).toEqual([
      'captain',
      'draft',
      'faction',
      'is_winner',
      'players',
      'roster',
      'score',
      'structures_status',
    ]);
    expect(Object.keys(team.players[0].items.hero).sort()).toEqual(['backpack', 'inventory', 'neutral_slot']);
    expect(team.score).toBe(match.participants[0].score);
    expect(team.players.reduce((sum: number, p: any) => sum + p.kills.total, 0)).toBe(team.score);
    expect(cv.seed_indexed_state.teams.home.state.net_worth_lead).toBe(
      -cv.seed_indexed_state.teams.away.state.net_worth_lead,
    );
  });

  it('answer 404 with a message for a match that never went live', async () => {
    const match = (await ok<any[]>(service, '/matches?filter=lifecycle=upcoming&take=1'))[0];
    for (const kind of ['cv', 'api']) {
      const answer = await get(service, `/matches/${match.id}/live/${kind}/summary`);
      expect(answer.status).toBe(404);
      expect(answer.body.msg).toMatch(/not gone live/);
    }
  });

  it('keep the last summary of a finished match', async () => {
    const match = (await ok<any[]>(service, '/matches?filter=lifecycle=over,game.id=3&take=1'))[0];
    const api = await ok<any>(service, `/matches/${match.id}/live/api/summary`);
    expect(api.timeline.end).not.toBeNull();
    const winner = match.participants.findIndex((p: any) => p.winner);
    expect(winner === 0 ? api.teams.home.is_winner : api.teams.away.is_winner).toBe(true);
    expect(api.teams.home.score).toBe(match.participants[0].score);
  });
});

describe('errors', () => {
  it.each([
    ['/series?take=51', /take/],
    ['/series?take=-1', /take/],
    ['/series?take=abc', /take/],
    ['/series?skip=-5', /skip/],
    ['/series?skip=1.5', /skip/],
    ['/series?order=start', /order/],
    ['/series?order=nope-asc', /order.*nope/],
    ['/series?filter=nope=1', /unknown field "nope"/],
    ['/series?filter=game.id=abc', /game\.id/],
    ['/series?filter=streamed=maybe', /boolean/],
    ['/series?filter=start=yesterday', /datetime/],
    ['/series?filter=game.id', /operator/],
    ['/series?filter=game.id^2', /set/],
    ['/series?filter=game.id<={1,2', /never closed/],
    ['/series?filter=game.id=1,', /end with/],
    ['/series/abc', /Invalid id/],
    ['/series/-1', /Invalid id/],
    ['/series/1?id_space=nobody', /id_space/],
    ['/teams?filter=lifecycle=live', /unknown field "lifecycle"/],
  ])('%s answers 400 naming what is wrong', async (path, message) => {
    const answer = await get(service, path);
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toMatch(message);
  });

  it('answers 404 for unknown paths and unknown ids, with a message', async () => {
    for (const path of [
      '/nothing',
      '/series/1/nothing',
      '/v2/series',
      '/series/12',
      '/teams/1',
      '/matches/5',
      '/tournaments/3',
      '/id_spaces/9/series',
    ]) {
      const answer = await get(service, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.msg).toEqual(expect.any(String));
    }
    const outside = await fetch(service.url.replace('/v3', '/other'), {
      headers: { 'Service-Secret': service.secret },
    });
    expect(outside.status).toBe(404);
  });

  it('answers 405 for any method but GET', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await get(service, '/series', { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET');
    }
  });

  it('answers 401 for a missing or wrong secret, never echoing it, and accepts the query parameter', async () => {
    const missing = await get(service, '/series', { secret: null });
    expect(missing.status).toBe(401);
    const wrong = await get(service, '/series', { secret: 'hunter2-wrong-secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain('hunter2');
    const query = await fetch(`${service.url}/games?secret=${service.secret}`);
    expect(query.status).toBe(200);
    const wrongQuery = await fetch(`${service.url}/games?secret=nope-nope`);
    expect(wrongQuery.status).toBe(401);
    expect(await wrongQuery.text()).not.toContain('nope-nope');
  });
});
