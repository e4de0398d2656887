/**
 * The client surface (`EsportsClient`) over v2: each method builds a v2 path and parameters, sends
 * them through the same pipeline (cache, single flight, retry, limiter) and maps the answer to the
 * v3 records (`records.ts`). Callers write the same v3 queries; the conditions v2 can express are
 * translated (lifecycle -> is_over / starts_before / starts_after, game.id -> games[], ...), and a
 * condition it cannot express is an `InvalidQueryError` naming it. Endpoints v2 does not have
 * answer `InvalidQueryError` too ("not available on the v2 interface").
 *
 * By concern: series, matches, maps and casters in `series.ts`; tournaments and substages in
 * `tournaments.ts`; teams, rosters, players and organisations in `teams.ts`; games and what v2 does
 * not have here. Records seen embedded in answers are kept in `Embedded` (`embedded.ts`).
 */
import type { Peek, Send } from '../resources.ts';
import type { CallOptions } from '../types.ts';
import type { Embedded } from './embedded.ts';
import {
  createReader,
  type Envelope,
  missing,
  paginate,
  type Resources,
  slice,
  unsupported,
  unsupportedAll,
  unsupportedList,
} from './reader.ts';
import { toGame } from './records.ts';
import { buildSeries } from './series.ts';
import type { V2Game } from './shapes.ts';
import { buildTeams } from './teams.ts';
import { buildTournaments } from './tournaments.ts';

export function buildV2Resources(send: Send, _peek: Peek, seen: Embedded): Resources {
  const r = createReader(send, seen);
  const { seriesList, ...series } = buildSeries(r);
  const games = async (options?: CallOptions) =>
    (await r.get<Envelope<V2Game>>('/games', { page: '1' }, options)).body.data.map(toGame);
  return {
    ...series,
    ...buildTournaments(r, { seriesList }),
    ...buildTeams(r),
    games: {
      list: async (q) => slice(await games(), q),
      paginate: (_q, o) => paginate((q) => games().then((g) => g.slice(q.skip, q.skip + q.take)), o),
      get: async (id, o) => (await games(o)).find((g) => g.id === id) ?? missing('/games', id),
      getMany: async (wanted, o) => {
        const all = await games(o);
        return wanted.flatMap((id) => all.filter((g) => g.id === id));
      },
      maps: unsupported('/games/{id}/maps'),
      mappools: unsupported('/games/{id}/mappools'),
      races: unsupported('/games/{id}/races'),
      roles: unsupported('/games/{id}/roles'),
      releases: unsupported('/games/{id}/releases'),
    },
    stages: { ...unsupportedAll('/stages'), substages: unsupported('/stages/{id}/substages') },
    lineups: {
      ...unsupportedAll('/lineups'),
      rosters: unsupported('/lineups'),
      series: unsupported('/lineups'),
    },
    countries: { ...unsupportedAll('/countries'), region: unsupported('/countries/{id}/region') },
    assets: unsupportedAll('/assets'),
    broadcasters: unsupportedAll('/broadcasters'),
    platforms: unsupportedAll('/platforms'),
    languages: { ...unsupportedList('/languages'), getMany: unsupported('/languages') },
    incidents: { ...unsupportedList('/incidents as v3 records'), getMany: unsupported('/incidents') },
    mapLayouts: unsupportedAll('/maps/layouts'),
    socialMediaPlatforms: {
      ...unsupportedList('/socialmedia/platforms'),
      getMany: unsupported('/socialmedia/platforms'),
    },
    regions: { countries: unsupported('/regions/{id}/countries') },
    standingRosters: { get: unsupported('/standingrosters') },
    images: { get: unsupported('/images') },
    idSpaces: { series: unsupported('/id_spaces') },
  };
}
