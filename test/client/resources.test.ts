/**
 * Every resource method builds the path the spec names, against a loopback server that records
 * what it receives and answers with records derived from the request (ids from `id<={...}`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.ts';
import { InvalidQueryError } from '../../src/client/errors.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { UnsafeFilterTextError } from '../../src/protocol/filter.ts';
import { json, startServer, type TestServer } from './helpers.ts';

let s: TestServer;
let c: EsportsClient;
/** Total records the fake listing holds, for paginate. */
const TOTAL = 120;

beforeAll(async () => {
  s = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const filter = url.searchParams.get('filter') ?? '';
    const ids = /id<=\{([\d,]*)\}/.exec(filter);
    if (ids) {
      // pretend ids above 1000 do not exist
      const found = ids[1]!
        .split(',')
        .map(Number)
        .filter((id) => id < 1000);
      return json(
        res,
        200,
        found.map((id) => ({ id })),
      );
    }
    if (url.pathname === '/v3/matches') {
      const skip = Number(url.searchParams.get('skip') ?? 0);
      const take = Number(url.searchParams.get('take') ?? 50);
      const page = Array.from({ length: Math.max(0, Math.min(take, TOTAL - skip)) }, (_, i) => ({
        id: skip + i,
      }));
      return json(res, 200, page);
    }
    if (url.pathname === '/v3/maps') return json(res, 200, { id: 9, name: 'single object' });
    json(res, 200, /\/\d+$/.test(url.pathname) ? { id: 1 } : []);
  });
  c = createClient({ baseUrl: s.url, secret: 'resources-secret', rate: { perSecond: 1000, burst: 1000 } });
});

afterAll(async () => {
  await c.close();
  await s.close();
});

const lastPath = () => new URL(s.requests.at(-1)!.url, 'http://x').pathname.replace(/^\/v3/, '');

describe('resources', () => {
  it('build the spec paths for every endpoint', async () => {
    const cases: [() => Promise<unknown>, string][] = [
      [() => c.games.list(), '/games'],
      [() => c.games.get(1), '/games/1'],
      [() => c.games.maps(1), '/games/1/maps'],
      [() => c.games.mappools(1), '/games/1/mappools'],
      [() => c.games.races(1), '/games/1/races'],
      [() => c.games.roles(1), '/games/1/roles'],
      [() => c.games.releases(1), '/games/1/releases'],
      [() => c.series.list(), '/series'],
      [() => c.series.get(2), '/series/2'],
      [() => c.series.casters(2), '/series/2/casters'],
      [() => c.series.matches(2), '/series/2/matches'],
      [() => c.series.rosters(2), '/series/2/rosters'],
      [() => c.series.scoring(2), '/series/2/scoring'],
      [() => c.series.draft(2), '/series/2/draft'],
      [() => c.matches.get(3), '/matches/3'],
      [() => c.matches.rosters(3), '/matches/3/rosters'],
      [() => c.matches.liveCv(3), '/matches/3/live/cv/summary'],
      [() => c.matches.liveApi(3), '/matches/3/live/api/summary'],
      [() => c.teams.list(), '/teams'],
      [() => c.teams.get(4), '/teams/4'],
      [() => c.teams.standingRosters(4), '/teams/4/standingrosters'],
      [() => c.rosters.list(), '/rosters'],
      [() => c.rosters.get(5), '/rosters/5'],
      [() => c.rosters.series(5), '/rosters/5/series'],
      [() => c.players.list(), '/players'],
      [() => c.players.get(6), '/players/6'],
      [() => c.players.standingRosters(6), '/players/6/standingrosters'],
      [() => c.tournaments.list(), '/tournaments'],
      [() => c.tournaments.get(7), '/tournaments/7'],
      [() => c.tournaments.stages(7), '/tournaments/7/stages'],
      [() => c.tournaments.substages(7), '/tournaments/7/substages'],
      [() => c.tournaments.series(7), '/tournaments/7/series'],
      [() => c.tournaments.casters(7), '/tournaments/7/casters'],
      [() => c.tournaments.participants(7), '/tournaments/7/participants'],
      [() => c.stages.list(), '/stages'],
      [() => c.stages.get(8), '/stages/8'],
      [() => c.stages.substages(8), '/stages/8/substages'],
      [() => c.substages.list(), '/substages'],
      [() => c.substages.get(9), '/substages/9'],
      [() => c.substages.series(9), '/substages/9/series'],
      [() => c.substages.rosters(9), '/substages/9/rosters'],
      [() => c.casters.list(), '/casters'],
      [() => c.casters.get(10), '/casters/10'],
      [() => c.casters.streams(10), '/casters/10/streams'],
      [() => c.organisations.list(), '/organisations'],
      [() => c.organisations.get(11), '/organisations/11'],
      [() => c.lineups.list(), '/lineups'],
      [() => c.lineups.get(12), '/lineups/12'],
      [() => c.lineups.rosters(12), '/lineups/12/rosters'],
      [() => c.lineups.series(12), '/lineups/12/series'],
      [() => c.countries.list(), '/countries'],
      [() => c.countries.get(13), '/countries/13'],
      [() => c.countries.region(13), '/countries/13/region'],
      [() => c.regions.countries(14), '/regions/14/countries'],
      [() => c.assets.list(), '/assets'],
      [() => c.assets.get(15), '/assets/15'],
      [() => c.broadcasters.list(), '/broadcasters'],
      [() => c.broadcasters.get(16), '/broadcasters/16'],
      [() => c.platforms.list(), '/platforms'],
      [() => c.platforms.get(17), '/platforms/17'],
      [() => c.languages.list(), '/languages'],
      [() => c.incidents.list(), '/incidents'],
      [() => c.maps.get(18), '/maps/18'],
      [() => c.mapLayouts.list(), '/maps/layouts'],
      [() => c.mapLayouts.get(19), '/maps/layouts/19'],
      [() => c.socialMediaPlatforms.list(), '/socialmedia/platforms'],
      [() => c.standingRosters.get(20), '/standingrosters/20'],
      [() => c.images.get(21), '/images/21'],
      [() => c.idSpaces.series(2), '/id_spaces/2/series'],
    ];
    for (const [call, path] of cases) {
      await call();
      expect(lastPath(), path).toBe(path);
    }
  });

  it('reads a list answer that is a single object (the spec sample of /maps) as a one-item list', async () => {
    expect(await c.maps.list()).toEqual([{ id: 9, name: 'single object' }]);
  });

  it('getMany asks id<={...} in sorted chunks of 50 and answers in the order asked, skipping missing ids', async () => {
    const before = s.requests.length;
    const ids = [...Array.from({ length: 120 }, (_, i) => 420 - i), 305, 5000];
    const rosters = await c.rosters.getMany(ids);
    const sent = s.requests.slice(before).map((r) => new URL(r.url, 'http://x').searchParams.get('filter'));
    expect(sent).toHaveLength(3);
    expect(sent.map((f) => f!.replace(/^id<=\{|\}$/g, '').split(',').length).sort()).toEqual([21, 50, 50]);
    expect(rosters.map((r) => r.id)).toEqual([...Array.from({ length: 120 }, (_, i) => 420 - i), 305]);
  });

  it('getMany and get reuse the records a listing already brought', async () => {
    await c.players.getMany([600, 601, 602, 603]);
    const before = s.requests.length;
    expect((await c.players.getMany([602, 600])).map((p) => p.id)).toEqual([602, 600]);
    expect((await c.players.get(601)).id).toBe(601);
    expect(s.requests.length).toBe(before);
    // one id not seen yet: only that one goes upstream
    await c.players.getMany([600, 604]);
    expect(s.requests.length).toBe(before + 1);
    expect(new URL(s.requests.at(-1)!.url, 'http://x').searchParams.get('filter')).toBe('id<={604}');
  });

  it('getMany of 16 rosters costs one request', async () => {
    const before = s.requests.length;
    await c.rosters.getMany(Array.from({ length: 16 }, (_, i) => 200 + i));
    expect(s.requests.length - before).toBe(1);
  });

  it('paginate fetches 50 at a time, stops at the limit or at a short page', async () => {
    const before = s.requests.length;
    const seen: number[] = [];
    for await (const match of c.matches.paginate({ order: 'id-asc' }, { limit: 70 })) seen.push(match.id);
    expect(seen).toEqual(Array.from({ length: 70 }, (_, i) => i));
    expect(s.requests.length - before).toBe(2);

    const all: number[] = [];
    for await (const match of c.matches.paginate({ order: 'id-desc' }, { limit: 1000 })) all.push(match.id);
    expect(all).toHaveLength(TOTAL);
    const takes = s.requests.slice(-3).map((r) => new URL(r.url, 'http://x').searchParams);
    expect(takes.map((p) => [p.get('skip'), p.get('take')])).toEqual([
      ['0', '50'],
      ['50', '50'],
      ['100', '50'],
    ]);
  });

  it('paginate refuses to run without a limit', async () => {
    const walk = async () => {
      for await (const _ of c.matches.paginate({}, { limit: 0 })) break;
    };
    await expect(walk()).rejects.toBeInstanceOf(InvalidQueryError);
  });

  it('refuses bad ids and bad text before any request', async () => {
    const before = s.requests.length;
    await expect(c.series.get(-1)).rejects.toBeInstanceOf(UnsafeFilterTextError);
    await expect(c.series.get(1.5)).rejects.toBeInstanceOf(UnsafeFilterTextError);
    await expect(c.series.get('1/../../x' as never)).rejects.toBeInstanceOf(UnsafeFilterTextError);
    await expect(c.rosters.getMany([1, -2])).rejects.toBeInstanceOf(UnsafeFilterTextError);
    for (const text of ['1,2', 'x},id<={1', '*', 'a\u0007b', 'y'.repeat(1000)]) {
      await expect(c.teams.list({ filter: [['name', '~=', text]] })).rejects.toBeInstanceOf(
        UnsafeFilterTextError,
      );
    }
    expect(s.requests.length).toBe(before);
  });
});
