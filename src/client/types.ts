/**
 * The public surface of the esports data client: what commands and notifications call.
 * The implementation (one request pipeline: cache, single flight, retry, rate limit, undici) lives
 * beside this file; see `client.ts`.
 */
import type { FilterOperator } from '../protocol/filter.ts';
import type { FilterField, IdSpaceName, ListResource, OrderKey } from '../protocol/fields.ts';

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
export type Where<R extends ListResource> = readonly [field: FilterField<R>, op: FilterOperator, value: WhereValue];

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

/** Counters for metrics (issue: client, part 8). */
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
}
