/**
 * The resource registry: every path segment of the service's interface that the client names, with
 * the freshness family of its answers and, for a listing of whole records, the `/x/{id}` path whose
 * records its items are (so a listing can answer a later `/x/{id}` from the cache). The client's
 * cache families (client/ttl.ts) and priming (client/cache-policy.ts) are read from here.
 */

/** Freshness families: every answer belongs to one (client/ttl.ts gives each its time to live). */
export type Family =
  | 'games'
  | 'maps'
  | 'assets'
  | 'layouts'
  | 'releases'
  | 'reference'
  | 'teams'
  | 'players'
  | 'rosters'
  | 'organisations'
  | 'casters'
  | 'tournaments'
  | 'stages'
  | 'substages'
  | 'incidents'
  | 'series'
  | 'matches'
  | 'streams'
  | 'live';

interface Segment {
  family: Family;
  /** A listing ending in this segment holds the records of this `/x/{id}` endpoint. */
  records?: string;
}

/** By last named path segment (`/tournaments/3/series` -> `series`). Unlisted segments are `reference`. */
export const SEGMENTS: Record<string, Segment> = {
  games: { family: 'games', records: '/games' },
  mappools: { family: 'games' },
  races: { family: 'games' },
  roles: { family: 'games' },
  maps: { family: 'maps', records: '/maps' },
  layouts: { family: 'layouts', records: '/maps/layouts' },
  releases: { family: 'releases' },
  assets: { family: 'assets', records: '/assets' },
  countries: { family: 'reference', records: '/countries' },
  region: { family: 'reference' },
  regions: { family: 'reference' },
  languages: { family: 'reference' },
  platforms: { family: 'reference' },
  broadcasters: { family: 'reference', records: '/broadcasters' },
  images: { family: 'reference' },
  teams: { family: 'teams', records: '/teams' },
  players: { family: 'players', records: '/players' },
  rosters: { family: 'rosters', records: '/rosters' },
  lineups: { family: 'rosters', records: '/lineups' },
  standingrosters: { family: 'rosters', records: '/standingrosters' },
  organisations: { family: 'organisations', records: '/organisations' },
  casters: { family: 'casters', records: '/casters' },
  streams: { family: 'streams' },
  tournaments: { family: 'tournaments', records: '/tournaments' },
  participants: { family: 'tournaments' },
  stages: { family: 'stages', records: '/stages' },
  substages: { family: 'substages', records: '/substages' },
  incidents: { family: 'incidents' },
  series: { family: 'series', records: '/series' },
  scoring: { family: 'series' },
  draft: { family: 'series' },
  matches: { family: 'matches', records: '/matches' },
  summary: { family: 'live' },
  light_summary: { family: 'live' },
};

/** The named (non-numeric) segments of a path. */
export function namedSegments(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && !/^\d+$/.test(s));
}
