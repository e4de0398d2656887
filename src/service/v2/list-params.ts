/**
 * What the v2 lists of series and tournaments read alike (the v2 specification, "Series list parameters"
 * and "Tournament list parameters"), in the order each list reads them: the first error found is
 * the one answered.
 */
import { readBool, readInstant, readOrder, readPage, readWith } from './params.ts';

/** `page`, `with[]` (among `withs`), `order` (among `orders`) and `sort`. */
export function readListHead(
  query: URLSearchParams,
  withs: readonly string[],
  orders: readonly string[],
): { page: number; withParts: Set<string>; order: string; desc: boolean } {
  const page = readPage(query);
  const withParts = readWith(query, withs);
  const { order, desc } = readOrder(query, orders);
  return { page, withParts, order, desc };
}

/**
 * `starts_before`, `starts_after` and `is_over`, which defaults to false unless a starts_* bound
 * is set; then only an explicit value filters.
 */
export function readStartBounds(
  query: URLSearchParams,
  t: number,
): { before: number | undefined; after: number | undefined; isOver: boolean | undefined } {
  const before = readInstant(query, 'starts_before', t);
  const after = readInstant(query, 'starts_after', t);
  const isOver =
    readBool(query, 'is_over') ?? (before === undefined && after === undefined ? false : undefined);
  return { before, after, isOver };
}
