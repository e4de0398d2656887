/**
 * Turns a typed `ListQuery` into query parameters the service reads. Every value
 * is checked before any request leaves: field names come from the resource's list in
 * `protocol/fields.ts`; ids are non-negative integers (inside sets too); `~=` takes the user's raw
 * text, made safe by `safeText` and sent as `*text*` ("contains"); booleans become 1/0. The
 * conditions are then written by the protocol's own `formatFilter`, the grammar the service parses.
 */

import { FILTER_FIELDS, isFilterField, type ListResource } from '../protocol/fields.ts';
import {
  FILTER_OPERATORS,
  type FilterCondition,
  type FilterOperator,
  type FilterValue,
  formatFilter,
  safeId,
  safeText,
} from '../protocol/filter.ts';
import { InvalidQueryError } from './errors.ts';
import type { ListQuery, Where, WhereValue } from './types.ts';

/** The largest page the service returns (spec, "Limits"). */
export const MAX_TAKE = 50;
/** Longest exact (non-wildcard) string value accepted in a condition. */
const MAX_VALUE_LENGTH = 200;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
const STRUCTURAL = [',', '{', '}', '=', '<', '>', '^', '~', '!', '*'];

/** Operators whose value is a set (`{a,b}`), spec items 4 to 6. */
const SET_OPERATORS: readonly FilterOperator[] = ['<=', '<', '^', '>='];

/** Query parameters in a fixed order, ready for a URL and for a cache key. */
export type QueryParams = Record<string, string>;

function isIdField(field: string): boolean {
  return field === 'id' || field.endsWith('.id');
}

/** One scalar of a condition, as the grammar writes it. */
function scalar(resource: ListResource, field: string, value: unknown): string {
  if (isIdField(field)) return String(safeId(value));
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new InvalidQueryError(`${resource}.${field}: ${value} is not a finite number.`);
    return String(value);
  }
  if (typeof value === 'string') {
    if (value === '') throw new InvalidQueryError(`${resource}.${field}: a value is empty.`);
    if (value === 'null') {
      throw new InvalidQueryError(
        `${resource}.${field}: pass null (not the string "null") to match missing values.`,
      );
    }
    if (value.length > MAX_VALUE_LENGTH) {
      throw new InvalidQueryError(
        `${resource}.${field}: a value is ${value.length} characters; at most ${MAX_VALUE_LENGTH}.`,
      );
    }
    if (CONTROL.test(value))
      throw new InvalidQueryError(`${resource}.${field}: a value contains a control character.`);
    const bad = STRUCTURAL.filter((ch) => value.includes(ch));
    if (bad.length > 0) {
      throw new InvalidQueryError(
        `${resource}.${field}: the value may not contain ${bad.map((c) => `"${c}"`).join(' ')}; for a text search use ~= with the plain text.`,
      );
    }
    return value;
  }
  throw new InvalidQueryError(
    `${resource}.${field}: ${typeof value} is not a filter value (use a string, number or boolean).`,
  );
}

/** Validates one `[field, op, value]` tuple and turns it into a grammar condition. */
function toCondition<R extends ListResource>(resource: R, where: Where<R>): FilterCondition {
  const [field, op, value] = where as readonly [string, FilterOperator, WhereValue];
  if (!isFilterField(resource, field)) {
    throw new InvalidQueryError(
      `"${field}" is not a filterable field of ${resource}; use one of: ${FILTER_FIELDS[resource].join(', ')}.`,
    );
  }
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    throw new InvalidQueryError(
      `"${op}" is not a filter operator; use one of: ${FILTER_OPERATORS.join(' ')}.`,
    );
  }
  let out: FilterValue;
  if (op === '~=') {
    if (typeof value !== 'string')
      throw new InvalidQueryError(`${resource}.${field} ~= takes the search text as a string.`);
    if (isIdField(field))
      throw new InvalidQueryError(`${resource}.${field} is an id: match it with = or <=, not ~=.`);
    // safeText trims, caps and refuses grammar characters (wildcards included) with a user-fit message.
    out = { kind: 'scalar', text: `*${safeText(value)}*` };
  } else if (Array.isArray(value)) {
    out = { kind: 'set', items: value.map((item) => scalar(resource, field, item)) };
  } else if (value === null) {
    if (op !== '=' && op !== '!=')
      throw new InvalidQueryError(`${resource}.${field} ${op} takes a set; null works with = and != only.`);
    out = { kind: 'null' };
  } else {
    if (SET_OPERATORS.includes(op)) {
      throw new InvalidQueryError(
        `${resource}.${field} ${op} takes a set such as [1, 2], not a single value.`,
      );
    }
    out = { kind: 'scalar', text: scalar(resource, field, value) };
  }
  return { path: field, op, value: out };
}

/** Builds the `filter` parameter from typed conditions (empty string when there are none). */
export function buildFilter<R extends ListResource>(
  resource: R,
  where: readonly Where<R>[] | undefined,
): string {
  if (!where || where.length === 0) return '';
  return formatFilter(where.map((w) => toCondition(resource, w)));
}

function checkCount(name: string, value: number, max?: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || (max !== undefined && value > max)) {
    throw new InvalidQueryError(
      `${name} must be a whole number from 0${max === undefined ? ' up' : ` to ${max}`}; got ${value}.`,
    );
  }
  return value;
}

/**
 * Validates a list query and returns its parameters. `extra` conditions (added by an endpoint, such
 * as `id<={...}` for `getMany`) come first. Keys come out in a fixed order, so equal queries give
 * equal cache keys.
 */
export function listParams<R extends ListResource>(
  resource: R,
  query: ListQuery<R> | undefined,
  extra: readonly Where<R>[] = [],
): QueryParams {
  const params: QueryParams = {};
  const filter = buildFilter(resource, [...extra, ...(query?.filter ?? [])]);
  if (filter !== '') params.filter = filter;
  if (query?.order !== undefined) {
    const orders: readonly string[] = typeof query.order === 'string' ? [query.order] : query.order;
    for (const key of orders) {
      const match = /^(.+)-(asc|desc)$/.exec(key);
      if (!match || !isFilterField(resource, match[1]!)) {
        throw new InvalidQueryError(
          `"${key}" is not an order of ${resource}: use <field>-asc or <field>-desc with a filterable field.`,
        );
      }
    }
    if (orders.length > 0) params.order = orders.join(',');
  }
  if (query?.skip !== undefined) params.skip = String(checkCount('skip', query.skip));
  if (query?.take !== undefined) params.take = String(checkCount('take', query.take, MAX_TAKE));
  return params;
}

/** Query string with keys sorted: the canonical form used in URLs and cache keys. */
export function canonicalQuery(params: QueryParams): string {
  const keys = Object.keys(params).sort();
  return keys.map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!)}`).join('&');
}
