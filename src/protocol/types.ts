/**
 * The resource types of the esports data service, v3 (the provider's v3 specification,
 * "Resources and their fields", completed from the real service's answers where the spec says "not
 * shown").
 *
 * One place, shared by the local service (which produces these shapes) and the client (which reads
 * them). Nullable fields are `T | null`: the service always sends every key.
 */

/** ISO 8601 UTC datetime string. */
export type DateTime = string;
/** YYYY-MM-DD. */
export type DateOnly = string;

export interface Ref {
  id: number;
}

export interface Image {
  id: number;
  url: string;
  thumbnail: string;
  fallback: boolean;
  /** default, external, circle. Absent on `/images/{id}` and on map layout floor images. */
  type?: 'default' | 'external' | 'circle';
}

export interface Asset {
  id: number;
  name: string;
  game: Ref;
  category: string;
  subcategory: string | null;
  external_id: string;
  images: Image[];
}

export interface Platform {
  id: number;
  name: string;
  color: string;
  images: Image[];
}

export interface Broadcaster {
  id: number;
  name: string;
  external_id: string;
  platform: Ref;
  broadcast_defaults: { language: Ref };
}

export interface Stream {
  id: number;
  username: string;
  display_name: string;
  status_text: string;
  viewer_count: number;
  online: boolean;
  last_online: DateTime | null;
  images: Image[];
  platform: Platform;
}

export interface Country {
  id: number;
  name: string;
  abbreviation: string;
  images: Image[];
}

export interface Region {
  id: number;
  name: string;
  abbreviation: string;
  country: Country;
}

export interface Caster {
  id: number;
  display_name: string;
  username: string;
  game: Ref;
  deleted_at: DateTime | null;
  platform: Platform;
  stream: Stream;
  region: Region;
  /** A watch URL, when the data has one: the v2 interface's caster `url` (v3 has none). */
  url?: string;
}

export interface Release {
  uuid: string;
  date: DateOnly;
  description: string;
}

export interface GameVersion {
  release: Release;
}

export interface GameMap {
  id: number;
  name: string;
  external_name: string;
  official: boolean;
  game: Ref;
}

export interface Game {
  id: number;
  abbreviation: string;
  title: string;
  default_match_type: string;
  default_map: Ref | null;
  defaults: {
    match_type: string;
    lineup_size: number;
    map: GameMap | null;
    number_of_match_participants: number;
    match_roster_lineup_size: number;
    game_version: GameVersion | null;
  };
  deleted_at: DateTime | null;
  images: Image[];
  color: string;
}

export interface MapPool {
  id: number;
  from: DateTime;
  to: DateTime | null;
  maps: Ref[];
}

export interface Race {
  id: number;
}

export interface Role {
  id: number;
  name: string;
  game: Ref;
}

export interface Incident {
  id: number;
  series: Ref;
  match: Ref | null;
  comment: string;
  game: Ref;
  tournament: Ref;
  created_at: DateTime;
}

export interface Language {
  id: number;
  name: string;
}

export interface Lineup {
  id: number;
  players: Ref[];
}

export interface Roster {
  id: number;
  team: Ref;
  line_up: Lineup;
  game: Ref;
}

export interface StandingRoster {
  id: number;
  from: DateTime;
  to: DateTime | null;
  roster: Ref;
  deleted_at: DateTime | null;
}

export interface MapLayoutFloor {
  level: number;
  image: Image;
  placement: { anchor_point: { x: number; y: number }; width_scale: number };
  assets: { id: number; position: { x: number; y: number } }[];
}

export interface MapLayout {
  id: number;
  version: string;
  map: Ref;
  floors: MapLayoutFloor[];
}

export interface Organisation {
  id: number;
  name: string;
  region: Region;
  teams: Ref[];
}

export interface SocialMediaPlatform {
  id: number;
  name: string;
  slug: string;
}

export interface SocialMediaAccount {
  handle: string;
  url: string;
  platform: SocialMediaPlatform;
}

export interface Team {
  id: number;
  name: string;
  abbreviation: string;
  also_known_as: string[];
  social_media_accounts: SocialMediaAccount[];
  game: Ref;
  organisation: Ref | null;
  deleted_at: DateTime | null;
  active: boolean;
  images: Image[];
  region: Region;
  standing_roster: StandingRoster | null;
  resource_version: number;
}

/** Coverage values in real use (seen in the real service's answers). */
export type CoverageValue =
  | 'available'
  | 'partial'
  | 'expected'
  | 'possible'
  | 'deferred'
  | 'unlikely'
  | 'unavailable'
  | 'unknown';

export interface CoverageLeaf {
  expectation: CoverageValue;
  fact: CoverageValue;
}

export interface Coverage {
  data: {
    live: { api: CoverageLeaf; cv: CoverageLeaf };
    realtime: { api: CoverageLeaf; server: CoverageLeaf };
    postgame: { api: CoverageLeaf; server: CoverageLeaf };
  };
}

export interface Participant {
  seed: number;
  score: number;
  forfeit: boolean;
  roster: Ref;
  winner: boolean;
  stats: { kills: number; placement: number } | null;
}

/** Series and match lifecycle values in real use (seen in the real service's answers). */
export type Lifecycle = 'unknown' | 'upcoming' | 'live' | 'over' | 'over-forfeited' | 'deleted';

export type BracketPart = 'UB' | 'LB' | 'GF';

export interface BracketPosition {
  part: BracketPart;
  col: number;
  offset: number;
}

export interface SeriesCasterEntry {
  primary: boolean;
  caster: Ref;
}

export interface SeriesBroadcasterEntry {
  broadcaster: Broadcaster;
  broadcasts: { external_id: string; language: Ref }[];
  official: boolean;
}

export interface Series {
  id: number;
  title: string;
  start: DateTime | null;
  end: DateTime | null;
  lifecycle: Lifecycle;
  tier: number;
  best_of: number;
  chain: Ref[];
  streamed: boolean;
  bracket_position: BracketPosition | null;
  tournament: Ref;
  substage: Ref;
  game: Ref;
  format: { best_of: number };
  postponed_from: DateTime | null;
  deleted_at: DateTime | null;
  participants: Participant[];
  matches: Ref[];
  casters: SeriesCasterEntry[];
  broadcasters: SeriesBroadcasterEntry[];
  has_incident_report: boolean;
  game_version: GameVersion | null;
  coverage: Coverage;
  resource_version: number;
}

/** A series as listed by `/id_spaces/{id}/series`. */
export interface ExternalSeries extends Series {
  external_id: string | null;
}

export interface EsoccerFormat {
  esoccer: { period_duration: { milliseconds: number } } | null;
}

export interface Match {
  id: number;
  map: Ref | null;
  lifecycle: Lifecycle;
  order: number;
  series: Ref;
  deleted_at: DateTime | null;
  game: Ref;
  participants: Participant[];
  coverage: Coverage;
  format: EsoccerFormat;
  resource_version: number;
}

export interface PointsRules {
  win: number;
  draw: number;
  loss: number;
  scope: 'series' | 'match';
}

export interface StandingEntry {
  roster: Ref;
  points: number;
  wins: number;
  draws: number;
  losses: number;
  /** The map difference; null where the interface does not give it (v2 standings). */
  match_diff: number | null;
  /** Null where the interface does not give it (v2 standings carry no score difference). */
  score_diff: number | null;
}

export type Phase = 'qualifier' | 'regular' | 'final' | 'other';

export interface Substage {
  id: number;
  stage: Ref;
  tournament: Ref;
  game: Ref;
  title: string;
  tier: number;
  /** 1: round-robin group, 2: double-elimination bracket (the local service's convention). */
  type: number;
  phase: Phase;
  default_series_format: { best_of: number };
  order: number;
  rosters: Ref[];
  start: DateTime | null;
  deleted_at: DateTime | null;
  standings: StandingEntry[];
  rules: {
    advance: { number: number; substage: Ref | null } | null;
    descend: { number: number; substage: Ref | null } | null;
    points: PointsRules | null;
  };
  defaults: {
    game_version: GameVersion | null;
    series_format: { best_of: number };
    match_format: EsoccerFormat;
  };
  format: {
    points: PointsRules | null;
    movements: { position: number; substage: Ref; type: 'ascend' | 'descend' }[];
  };
  coverage: Coverage;
  resource_version: number;
}

export interface Stage {
  id: number;
  title: string;
  tournament: Ref;
  order: number;
  substages: Substage[];
  deleted_at: DateTime | null;
  defaults: { game_version: GameVersion | null };
  coverage: Coverage;
  resource_version: number;
}

export interface Tournament {
  id: number;
  title: string;
  short_title: string;
  tier: number;
  copy: { general_description: string; short_description: string; format_description: string };
  links: { website: string | null; wiki: string | null };
  start: DateTime;
  end: DateTime;
  game: Ref;
  string_prize_pool: {
    total: string | null;
    first: string | null;
    second: string | null;
    third: string | null;
  };
  location: { host: Region | null; participants: Region[] };
  deleted_at: DateTime | null;
  coverage: Coverage;
  images: Image[];
  stages: Ref[];
  casters: SeriesCasterEntry[];
}

export interface TournamentParticipants {
  confirmed_participants: { roster: Ref }[];
  phase_participants: Record<Phase, { roster: Ref }[]>;
}

export interface Player {
  id: number;
  first_name: string;
  last_name: string;
  nick_name: string;
  active: boolean;
  images: Image[];
  region: Region;
  game: Ref;
  race: { id: number; name: string; game: Ref } | null;
  role: Ref | null;
  teams: Ref[];
  social_media_accounts: SocialMediaAccount[];
  deleted_at: DateTime | null;
}

export interface SeriesScoringEntry {
  type: string;
  value: number;
}

export interface SeriesDraftEntry {
  draft_cycle: number;
  event_type: string;
  event_data: { map: Ref };
}

export interface Millis {
  milliseconds: number;
}

/** The service's error body, as the real service answers it (src/service/api-error.ts). */
export interface ServiceErrorBody {
  msg: string;
}
