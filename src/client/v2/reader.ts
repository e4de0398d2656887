/**
 * How the v2 resources read, shared by every resource file: one GET through the pipeline (cache,
 * single flight, retry, limiter), the v3 `skip`/`take` window over v2 pages of 50, `paginate` over
 * a listing, `getMany` over embedded records and single reads, and the clear refusal of what v2
 * cannot express.
 */
import type { ListResource } from '../../protocol/fields.ts';
import { safeId } from '../../protocol/filter.ts';
import { InvalidQueryError, NotFoundError } from '../errors.ts';
import type { QueryParams } from '../query.ts';
import type { Send } from '../resources.ts';
import type { CallOptions, EsportsClient, PaginateOptions, Where } from '../types.ts';
import type { Embedded } from './embedded.ts';
import type { V2Answer } from './transport.ts';

/** The client surface the resources build (the rest is the client's own). */
export type Resources = Omit<EsportsClient, 'forCaller' | 'stats' | 'close'>;

/** Rows of a v2 page (the local service's; the spec does not give it). */
export const V2_PAGE = 50;

export interface Envelope<T> {
  last_page: number;
  current_page: number;
  data: T[];
}

export interface V2Reader {
  /** Records seen embedded in answers. */
  seen: Embedded;
  /** One GET of a v2 path: the answer with the service's clock when it answered. */
  get<T>(path: string, params: QueryParams, options?: CallOptions): Promise<V2Answer & { body: T }>;
  /** The v3 `skip`/`take` window over the v2 pages of a listing (one page, or two when it straddles). */
  window<T>(
    path: string,
    params: QueryParams,
    skip: number,
    take: number,
    options: CallOptions | undefined,
  ): Promise<{ at: number; items: T[] }>;
}

export function createReader(send: Send, seen: Embedded): V2Reader {
  const get = async <T>(path: string, params: QueryParams, options?: CallOptions) =>
    (await send(path, params, options)) as V2Answer & { body: T };
  return {
    seen,
    get,
    async window<T>(
      path: string,
      params: QueryParams,
      skip: number,
      take: number,
      options: CallOptions | undefined,
    ) {
      const first = Math.floor(skip / V2_PAGE) + 1;
      const offset = skip % V2_PAGE;
      const a = await get<Envelope<T>>(path, { ...params, page: String(first) }, options);
      let items = a.body.data;
      if (offset + take > V2_PAGE && a.body.last_page > first) {
        const b = await get<Envelope<T>>(path, { ...params, page: String(first + 1) }, options);
        items = items.concat(b.body.data);
      }
      return { at: a.at, items: items.slice(offset, offset + take) };
    },
  };
}

/** A query's `take`, at most one v2 page. */
export const take = (query?: { take?: number }) => Math.min(V2_PAGE, Math.max(0, query?.take ?? V2_PAGE));

/** The skip/take window of records already at hand. */
export const slice = <T>(items: readonly T[], query?: { skip?: number; take?: number }): T[] =>
  items.slice(query?.skip ?? 0, (query?.skip ?? 0) + take(query));

/** Every item of a listing, a page of 50 at a time, up to `limit`. */
export async function* paginate<T>(
  listFn: (q: { skip: number; take: number }, o: CallOptions) => Promise<T[]>,
  options: PaginateOptions,
): AsyncGenerator<T> {
  const { limit, ...call } = options;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new InvalidQueryError(
      `paginate needs a limit: a whole number of 1 or more (got ${String(limit)}).`,
    );
  let n = 0;
  for (let skip = 0; ; skip += V2_PAGE) {
    const page = await listFn({ skip, take: V2_PAGE }, call);
    for (const item of page) {
      yield item;
      if (++n >= limit) return;
    }
    if (page.length < V2_PAGE) return;
  }
}

/** A `getMany` answered from records kept, reading the others one by one (404 and 410 left out). */
export const many =
  <T extends { id: number }>(
    kept: Map<number, T>,
    fetch: ((id: number, o?: CallOptions) => Promise<T>) | null,
  ) =>
  async (wanted: readonly number[], options?: CallOptions): Promise<T[]> => {
    const missing = [...new Set(wanted)].filter((id) => !kept.has(safeId(id)));
    const fetched = new Map<number, T>();
    if (fetch)
      await Promise.all(
        missing.map(async (id) => {
          const value = await fetch(id, options).catch((e: unknown) =>
            skippable(e) ? null : Promise.reject(e),
          );
          if (value) fetched.set(id, value);
        }),
      );
    return wanted.flatMap((id) => {
      const value = kept.get(id) ?? fetched.get(id);
      return value ? [value] : [];
    });
  };

/** A condition's value as a list. */
export const list = (value: Where<ListResource>[2]): (string | number)[] =>
  Array.isArray(value) ? [...(value as (string | number)[])] : [value as string | number];

/** A condition's ids as a v2 array parameter's value (`1,2,3`; the transport writes `name[]=1&name[]=2`). */
export function ids(value: Where<ListResource>[2]): string {
  return list(value)
    .map((v) => String(safeId(v)))
    .join(',');
}

/** v2 `order` and `sort` for a v3 `start-asc`-like key; a key v2 cannot order by is refused. */
export function orderParams(key: string | undefined, what: string): QueryParams {
  if (key === undefined) return {};
  const m = /^(start|end)-(asc|desc)$/.exec(key);
  if (!m) notOnV2(`ordering ${what} by ${key}`);
  return { order: m[1]!, sort: m[2]!.toUpperCase() };
}

export function notOnV2(what: string): never {
  throw new InvalidQueryError(`${what} is not available on the v2 interface.`);
}

/** A record v2 does not answer (404) or answers as deleted (410) is left out of a `getMany`. */
export function skippable(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  return status === 404 || status === 410;
}

export function missing(path: string, id: number): never {
  throw new NotFoundError({
    status: 404,
    method: 'GET',
    path: `${path}/${id}`,
    msg: 'not known on the v2 interface',
  });
}

/** An endpoint v2 does not have: refused with a clear message. */
export const unsupported =
  (what: string) =>
  async (..._args: unknown[]): Promise<never> =>
    notOnV2(what);

export const unsupportedList = (what: string) => ({
  list: unsupported(what),
  // biome-ignore lint/correctness/useYield: it only throws, as an iterator (the caller uses for await)
  paginate: async function* (): AsyncGenerator<never> {
    notOnV2(what);
  },
});

export const unsupportedAll = (what: string) => ({
  ...unsupportedList(what),
  get: unsupported(what),
  getMany: unsupported(what),
});
