/**
 * Which fields each list endpoint filters and orders on. The spec lists the fields "seen in
 * examples" (the v3 specification, "Filter language", item 11); the rest are the scalar fields of each
 * resource. The local service answers 400 for any other field, and the client's filter builder only
 * accepts these names, so a typo fails at compile time instead of at the service.
 */

const COVERAGE = [
  'coverage.data.live.api.expectation',
  'coverage.data.live.api.fact',
  'coverage.data.live.cv.expectation',
  'coverage.data.live.cv.fact',
  'coverage.data.realtime.api.expectation',
  'coverage.data.realtime.api.fact',
  'coverage.data.realtime.server.expectation',
  'coverage.data.realtime.server.fact',
  'coverage.data.postgame.api.expectation',
  'coverage.data.postgame.api.fact',
  'coverage.data.postgame.server.expectation',
  'coverage.data.postgame.server.fact',
] as const;

export const FILTER_FIELDS = {
  assets: ['id', 'name', 'game.id', 'category', 'subcategory', 'external_id'],
  broadcasters: ['id', 'name', 'external_id', 'platform.id', 'broadcast_defaults.language.id'],
  casters: [
    'id',
    'display_name',
    'username',
    'game.id',
    'deleted_at',
    'platform.id',
    'region.id',
    'stream.id',
    'stream.online',
    'stream.viewer_count',
    'stream.platform.id',
  ],
  countries: ['id', 'name', 'abbreviation'],
  games: ['id', 'abbreviation', 'title', 'deleted_at'],
  maps: ['id', 'name', 'external_name', 'official', 'game.id'],
  map_layouts: ['id', 'version', 'map.id'],
  races: ['id'],
  roles: ['id', 'name', 'game.id'],
  releases: ['uuid', 'date', 'description'],
  incidents: ['id', 'series.id', 'match.id', 'game.id', 'tournament.id', 'created_at'],
  languages: ['id', 'name'],
  lineups: ['id', 'players.id'],
  rosters: ['id', 'team.id', 'line_up.id', 'line_up.players.id', 'game.id'],
  organisations: ['id', 'name', 'region.id', 'teams.id'],
  platforms: ['id', 'name'],
  social_media_platforms: ['id', 'name', 'slug'],
  players: [
    'id',
    'first_name',
    'last_name',
    'nick_name',
    'active',
    'game.id',
    'role.id',
    'region.id',
    'teams.id',
    'deleted_at',
  ],
  teams: [
    'id',
    'name',
    'abbreviation',
    'also_known_as',
    'game.id',
    'organisation.id',
    'deleted_at',
    'active',
    'region.id',
    'region.country.id',
    'standing_roster.roster.id',
    'resource_version',
  ],
  standing_rosters: ['id', 'from', 'to', 'roster.id', 'deleted_at'],
  tournaments: [
    'id',
    'title',
    'short_title',
    'tier',
    'start',
    'end',
    'game.id',
    'deleted_at',
    'stages.id',
    ...COVERAGE,
  ],
  stages: ['id', 'title', 'tournament.id', 'order', 'deleted_at', 'resource_version', ...COVERAGE],
  substages: [
    'id',
    'title',
    'tier',
    'type',
    'phase',
    'order',
    'start',
    'deleted_at',
    'stage.id',
    'tournament.id',
    'game.id',
    'rosters.id',
    'resource_version',
    ...COVERAGE,
  ],
  series: [
    'id',
    'title',
    'start',
    'end',
    'lifecycle',
    'tier',
    'best_of',
    'streamed',
    'tournament.id',
    'substage.id',
    'game.id',
    'format.best_of',
    'postponed_from',
    'deleted_at',
    'participants.roster.id',
    'participants.winner',
    'participants.forfeit',
    'matches.id',
    'casters.caster.id',
    'casters.primary',
    'bracket_position.part',
    'has_incident_report',
    'resource_version',
    ...COVERAGE,
  ],
  id_space_series: [
    'id',
    'external_id',
    'start',
    'end',
    'lifecycle',
    'tier',
    'tournament.id',
    'substage.id',
    'game.id',
    'participants.roster.id',
    'deleted_at',
  ],
  matches: [
    'id',
    'map.id',
    'lifecycle',
    'order',
    'series.id',
    'deleted_at',
    'game.id',
    'participants.roster.id',
    'participants.winner',
    'resource_version',
    ...COVERAGE,
  ],
} as const satisfies Record<string, readonly string[]>;

export type ListResource = keyof typeof FILTER_FIELDS;
export type FilterField<R extends ListResource> = (typeof FILTER_FIELDS)[R][number];

/** Ordering uses the same field names (`<field>-asc`, `<field>-desc`); ties are broken by id. */
export type OrderKey<R extends ListResource> = `${FilterField<R>}-${'asc' | 'desc'}`;

export function isFilterField(resource: ListResource, path: string): boolean {
  return (FILTER_FIELDS[resource] as readonly string[]).includes(path);
}

/**
 * The id spaces of third-party providers (`IS` in the spec). Each has a number (the `{id}` of
 * `/id_spaces/{id}/series`) and a provider-like name (the value of `id_space` and `Service-IdSpace`).
 * The names are fictional; the real account manager hands out the real ones.
 */
export const ID_SPACES = [
  { id: 1, name: 'oddsline' },
  { id: 2, name: 'betgrid' },
  { id: 3, name: 'castmedia' },
  { id: 4, name: 'statsfeed' },
] as const;

export type IdSpaceName = (typeof ID_SPACES)[number]['name'];
