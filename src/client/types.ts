/**
 * The public surface of the esports data client: what commands and notifications call.
 * The implementation (one request pipeline: cache, single flight, retry, rate limit, undici) lives
 * beside this file; see `client.ts`.
 */

import type { FilterField, IdSpaceName, ListResource, OrderKey } from '../protocol/fields.ts';
import type { FilterOperator } from '../protocol/filter.ts';
import type { LiveSummary } from '../protocol/live-summary.ts';
import type {
  Asset,
  Broadcaster,
  Caster,
  Country,
  ExternalSeries,
  Game,
  GameMap,
  Image,
  Incident,
  Language,
  Lineup,
  MapLayout,
  MapPool,
  Match,
  Organisation,
  Platform,
  Player,
  Race,
  Region,
  Release,
  Role,
  Roster,
  Series,
  SeriesDraftEntry,
  SeriesScoringEntry,
  SocialMediaPlatform,
  Stage,
  StandingRoster,
  Stream,
  Substage,
  Team,
  Tournament,
  TournamentParticipants,
} from '../protocol/types.ts';

/** Interactive callers (a user waits) are served before background work (notification polling). */
export type Priority = 'interactive' | 'background';

export interface CallOptions {
  signal?: AbortSignal;
  /** Default: the caller's priority (see `EsportsClient.forCaller`), else 'background'. */
  priority?: Priority;
  /** Overall deadline for the call including retries. Default 2 s interactive, 10 s background. */
  deadlineMs?: number;
  /** Resolve the path id in a third-party id space (`IS` endpoints only). */
  idSpace?: IdSpaceName;
}

/** A scalar or a set, as the grammar allows for the operator. */
export type WhereValue = string | number | boolean | null | readonly (string | number)[];

/**
 * One condition: `[field, operator, value]`. Fields come from the resource's typed list; ids must be
 * non-negative integers; for `~=` the value is the user's raw text, made safe by the client (trimmed,
 * capped, refused if it holds grammar characters) and matched as "contains".
 */
export type Where<R extends ListResource> = readonly [
  field: FilterField<R>,
  op: FilterOperator,
  value: WhereValue,
];

export interface ListQuery<R extends ListResource> {
  filter?: readonly Where<R>[];
  order?: OrderKey<R> | readonly OrderKey<R>[];
  skip?: number;
  /** 0..50, default 50. */
  take?: number;
}

export interface PaginateOptions extends CallOptions {
  /** Stop after this many items. Required: an unbounded walk of a listing is never what a bot wants. */
  limit: number;
}

/** A list endpoint with `L` parameters. */
export interface ListEndpoint<T, R extends ListResource> {
  list(query?: ListQuery<R>, options?: CallOptions): Promise<T[]>;
  /** Fetches 50 at a time and stops at `limit` or when a page is short. */
  paginate(query: Omit<ListQuery<R>, 'skip' | 'take'>, options: PaginateOptions): AsyncIterable<T>;
}

/** A resource with `/x/{id}` and, where the resource has an `id` filter, `getMany` via `id<={...}`. */
export interface ByIdEndpoint<T> {
  get(id: number, options?: CallOptions): Promise<T>;
}

export interface ManyEndpoint<T> {
  /** Batches `id<={...}` in chunks of 50; returns found items in the order of `ids` (missing ids skipped). */
  getMany(ids: readonly number[], options?: CallOptions): Promise<T[]>;
}

/** Counters for metrics (src/ops/metrics.ts reads them). */
export interface ClientStats {
  upstream: Record<string, Record<string, number>>; // family -> status -> count
  upstreamTotal: number;
  cacheHits: number;
  cacheMisses: number;
  staleServed: number;
  retries: number;
  rateLimited: number;
  queueLength: number;
  limiterWaitMs: number;
  /** Stale entries answered at once while one refresh ran (counted in `cacheHits` too). */
  revalidations: number;
  /** Calls that joined an upstream request already running for the same key. */
  coalesced: number;
  /** Calls refused before reaching the service: the queue was full (background first), or the wait for a token would end after the call's deadline. */
  shed: number;
  /** Upstream requests running or waiting right now (after coalescing). */
  inFlight: number;
  /** Cache store operations that failed or timed out (the call then ran without cache). */
  cacheStoreFailures: number;
  /** The secret's budget as this process's bucket sees it: rate, size and tokens left now. */
  budget?: { perSecond: number; burst: number; available: number };
  /** v2: access token requests this process sent (0 on v3). */
  tokenRequests?: number;
}

/** A list resource with `/x/{id}` and an `id` filter: list, paginate, get and getMany. */
export type ResourceEndpoint<T, R extends ListResource> = ListEndpoint<T, R> &
  ByIdEndpoint<T> &
  ManyEndpoint<T>;

/** A list endpoint under a parent (`/series/{id}/matches`). */
export type SubList<T, R extends ListResource> = (
  id: number,
  query?: ListQuery<R>,
  options?: CallOptions,
) => Promise<T[]>;
/** A fixed answer under a parent (`/series/{id}/scoring`). */
export type SubGet<T> = (id: number, options?: CallOptions) => Promise<T>;

/** Every v3 endpoint (spec, "Endpoints"; tournaments, players, teams and rosters as served for real). */
export interface EsportsClient {
  games: ResourceEndpoint<Game, 'games'> & {
    maps: SubList<GameMap, 'maps'>;
    mappools: SubGet<MapPool[]>;
    races: SubList<Race, 'races'>;
    roles: SubList<Role, 'roles'>;
    releases: SubList<Release, 'releases'>;
  };
  series: ResourceEndpoint<Series, 'series'> & {
    casters: SubList<Caster, 'casters'>;
    matches: SubList<Match, 'matches'>;
    rosters: SubList<Roster, 'rosters'>;
    scoring: SubGet<SeriesScoringEntry[]>;
    draft: SubGet<SeriesDraftEntry[]>;
  };
  matches: ResourceEndpoint<Match, 'matches'> & {
    rosters: SubList<Roster, 'rosters'>;
    /** A MOBA's in the specification's computer-vision shape; other games' in their own (`live-summary.ts`). */
    liveCv: SubGet<LiveSummary>;
    /** A MOBA's in the specification's API shape; other games' in their own. */
    liveApi: SubGet<LiveSummary>;
  };
  teams: ResourceEndpoint<Team, 'teams'> & { standingRosters: SubList<StandingRoster, 'standing_rosters'> };
  rosters: ResourceEndpoint<Roster, 'rosters'> & { series: SubList<Series, 'series'> };
  players: ResourceEndpoint<Player, 'players'> & { standingRosters: SubGet<StandingRoster[]> };
  tournaments: ResourceEndpoint<Tournament, 'tournaments'> & {
    stages: SubList<Stage, 'stages'>;
    substages: SubList<Substage, 'substages'>;
    series: SubList<Series, 'series'>;
    casters: SubList<Caster, 'casters'>;
    participants: SubGet<TournamentParticipants>;
  };
  stages: ResourceEndpoint<Stage, 'stages'> & { substages: SubList<Substage, 'substages'> };
  substages: ResourceEndpoint<Substage, 'substages'> & {
    series: SubList<Series, 'series'>;
    rosters: SubGet<Roster[]>;
  };
  casters: ResourceEndpoint<Caster, 'casters'> & { streams: SubGet<Stream[]> };
  organisations: ResourceEndpoint<Organisation, 'organisations'>;
  lineups: ResourceEndpoint<Lineup, 'lineups'> & {
    rosters: SubList<Roster, 'rosters'>;
    series: SubList<Series, 'series'>;
  };
  countries: ResourceEndpoint<Country, 'countries'> & { region: SubGet<Region> };
  assets: ResourceEndpoint<Asset, 'assets'>;
  broadcasters: ResourceEndpoint<Broadcaster, 'broadcasters'>;
  platforms: ResourceEndpoint<Platform, 'platforms'>;
  /** No `/languages/{id}` in the spec: list and getMany only. */
  languages: ListEndpoint<Language, 'languages'> & ManyEndpoint<Language>;
  /** No `/incidents/{id}` in the spec: list and getMany only. */
  incidents: ListEndpoint<Incident, 'incidents'> & ManyEndpoint<Incident>;
  maps: ResourceEndpoint<GameMap, 'maps'>;
  mapLayouts: ResourceEndpoint<MapLayout, 'map_layouts'>;
  socialMediaPlatforms: ListEndpoint<SocialMediaPlatform, 'social_media_platforms'> &
    ManyEndpoint<SocialMediaPlatform>;
  regions: { countries: SubList<Country, 'countries'> };
  standingRosters: ByIdEndpoint<StandingRoster>;
  images: ByIdEndpoint<Image>;
  idSpaces: {
    /** `/id_spaces/{space}/series`: `space` is the id space's number (`ID_SPACES` in protocol/fields.ts). */
    series: (
      space: number,
      query?: ListQuery<'id_space_series'>,
      options?: CallOptions,
    ) => Promise<ExternalSeries[]>;
  };
  /**
   * A view for one caller (a command run, a notifier tick) sharing cache, limiter and connections.
   * `servedStale` turns true once any answer was served stale-if-error, so a reply can say
   * "may be out of date"; `answers` counts how this view's calls were served.
   */
  forCaller(defaults: CallerDefaults): ScopedEsportsClient;
  stats(): ClientStats;
  /** Cancels waiting calls, closes connections. A cache passed in by the caller stays open. */
  close(): Promise<void>;
}

export interface CallerDefaults {
  priority: Priority;
  deadlineMs?: number;
}

export type ScopedEsportsClient = EsportsClient & {
  readonly servedStale: boolean;
  readonly answers: { readonly cached: number; readonly upstream: number; readonly stale: number };
};
