/**
 * A cap on the length of v2 URLs. v2 listings take their ids as repeated array parameters
 * (`tournaments[]=1&tournaments[]=2...`, about 25 characters an id as sent), and the client builds
 * some from sets that grow with the data: the tournaments of a cluster of series (`series-batch.ts`),
 * the rosters of a calendar's teams (`competitors[]`). Past a few kilobytes servers and proxies refuse
 * a URL (node's HTTP server: 431 past 16 KiB of headers; many proxies: 414 past 8 KiB or less).
 *
 * So no v2 request URL the client sends is longer than `MAX_URL_CHARS` (2,000 characters: the path,
 * the query and the access token). A listing whose ids do not fit is cut into several listings,
 * each id list in the fewest parts that fit (`splitIds`); the callers merge what the parts answer.
 */
import { canonicalQuery, type QueryParams } from '../query.ts';
import { expandArrays } from './transport.ts';

/** The longest v2 URL the client sends, access token included. */
export const MAX_URL_CHARS = 2_000;
/** Room kept beside a listing's parameters for its path, `page` and the `access_token` the transport adds. */
export const URL_RESERVE_CHARS = 400;
/** The longest query a listing's own parameters may take. */
export const MAX_QUERY_CHARS = MAX_URL_CHARS - URL_RESERVE_CHARS;

/** The length of the query the transport sends for these parameters (array parameters repeated). */
export function queryLength(params: QueryParams): number {
  return expandArrays(`?${canonicalQuery(params)}`).length - 1;
}

/** True when the parameters fit one listing. */
export function fits(params: QueryParams): boolean {
  return queryLength(params) <= MAX_QUERY_CHARS;
}

/**
 * The parameters with the ids of the array parameter `key` cut into the fewest consecutive parts
 * whose query fits `MAX_QUERY_CHARS` (the parameters unchanged when they fit). A single id that
 * cannot fit (the other parameters already too long) still gets its own part.
 */
export function splitIds(params: QueryParams, key: string): QueryParams[] {
  const value = params[key];
  if (value === undefined || fits(params)) return [params];
  const { [key]: _ids, ...rest } = params;
  const room = MAX_QUERY_CHARS - queryLength(rest);
  // One id as sent: `&` `name%5B%5D=` and the id.
  const cost = (id: string) => 2 + encodeURIComponent(key).length + encodeURIComponent(id).length;
  const parts: string[][] = [];
  let used = Number.POSITIVE_INFINITY;
  for (const id of value.split(',')) {
    if (used + cost(id) > room) {
      parts.push([]);
      used = 0;
    }
    parts.at(-1)!.push(id);
    used += cost(id);
  }
  return parts.map((part) => ({ ...params, [key]: part.join(',') }));
}

/** The array parameter holding the most ids (the one to split), or undefined when there is none. */
export function longestArray(params: QueryParams): string | undefined {
  let best: string | undefined;
  for (const [key, value] of Object.entries(params))
    if (
      key.endsWith('[]') &&
      value !== undefined &&
      (best === undefined || value.length > params[best]!.length)
    )
      best = key;
  return best;
}
