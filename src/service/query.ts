/**
 * The list mechanism shared by every list endpoint: `filter` (evaluated here, parsed by the one
 * grammar in `src/protocol/filter.ts`), `order` and `skip`/`take` (the v3 specification, "Filter
 * language" and "Limits"). Every malformed parameter is an `ApiError(400)` naming the parameter.
 */

import { FILTER_FIELDS, type ListResource } from '../protocol/fields.ts';
import { type FilterCondition, FilterSyntaxError, parseFilter } from '../protocol/filter.ts';
import { ApiError } from './api-error.ts';

type Kind = 'integer' | 'boolean' | 'datetime' | 'text';

const BOOLEAN_FIELDS = new Set([
  'streamed',
  'official',
  'active',
  'stream.online',
  'participants.winner',
  'participants.forfeit',
  'casters.primary',
  'has_incident_report',
]);
const DATETIME_FIELDS = new Set(['start', 'end', 'deleted_at', 'postponed_from', 'created_at', 'from', 'to']);
const INTEGER_FIELDS = new Set([
  'tier',
  'best_of',
  'format.best_of',
  'order',
  'type',
  'resource_version',
  'stream.viewer_count',
]);

/** The value type of a filterable field, which decides how a filter value is read. */
export function fieldKind(path: string): Kind {
  if (BOOLEAN_FIELDS.has(path)) return 'boolean';
  if (DATETIME_FIELDS.has(path)) return 'datetime';
  if (path === 'id' || path.endsWith('.id') || INTEGER_FIELDS.has(path)) return 'integer';
  return 'text';
}

/** A filter value read for a field: the normalised form compared with normalised record values. */
type Norm = number | boolean | string;

function normalizeInput(path: string, text: string): Norm {
  const kind = fieldKind(path);
  if (kind === 'integer') {
    if (!/^-?\d{1,15}$/.test(text))
      throw new ApiError(400, `Invalid filter: ${path} takes whole numbers, not "${text}".`);
    return Number(text);
  }
  if (kind === 'boolean') {
    if (text === '1' || text === 'true') return true;
    if (text === '0' || text === 'false') return false;
    throw new ApiError(400, `Invalid filter: ${path} takes a boolean (1, 0, true or false), not "${text}".`);
  }
  if (kind === 'datetime') {
    const ms = Date.parse(text);
    if (Number.isNaN(ms))
      throw new ApiError(400, `Invalid filter: ${path} takes an ISO 8601 datetime, not "${text}".`);
    return ms;
  }
  return text;
}

function normalizeRecord(kind: Kind, value: unknown): Norm | null {
  if (value === null || value === undefined) return null;
  if (kind === 'datetime' && typeof value === 'string') return Date.parse(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}

/** Collects the values at a dotted path, descending into arrays; `many` says an array was crossed. */
export function valuesAt(record: unknown, parts: readonly string[]): { values: unknown[]; many: boolean } {
  let current: unknown[] = [record];
  let many = false;
  for (const part of parts) {
    const next: unknown[] = [];
    for (const item of current) {
      if (item === null || item === undefined) continue;
      const value = (item as Record<string, unknown>)[part];
      if (Array.isArray(value)) {
        many = true;
        next.push(...value);
      } else if (value !== undefined) next.push(value);
    }
    current = next;
  }
  if (Array.isArray(record)) many = true;
  return { values: current, many };
}

/**
 * The `~=` match (spec item 7): `*` any run of characters, `_` exactly one, case-insensitive, the
 * whole text. A two-pointer glob match that remembers only the last `*`: at most
 * pattern.length x text.length steps and usually about text.length, never the exponential
 * backtracking a regular expression can fall into (`a*a*a*...b`). `steps` counts the work done,
 * so tests can bound it.
 */
export function wildcardMatch(pattern: string, text: string, steps = { count: 0 }): boolean {
  return globMatch([...pattern.toLowerCase()], text, steps);
}

function globMatch(p: readonly string[], text: string, steps = { count: 0 }): boolean {
  const t = [...text.toLowerCase()];
  let pi = 0;
  let ti = 0;
  let star = -1;
  let resume = 0;
  while (ti < t.length) {
    steps.count++;
    if (pi < p.length && (p[pi] === '_' || (p[pi] !== '*' && p[pi] === t[ti]))) {
      pi++;
      ti++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      resume = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++resume;
    } else return false;
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

/**
 * The `~=` match compiled once per request (the same answers as `wildcardMatch`). Without `_`, the
 * pattern is its literal pieces between stars: the first must start the text, the last end it, and
 * each one between is found after the previous with `indexOf` (the leftmost place is always safe).
 * That is a few native searches per record instead of a step per character, whatever the stars.
 * A pattern with `_` uses the step-wise match, its characters split once.
 */
export function compileWildcard(pattern: string): (text: string) => boolean {
  const lower = pattern.toLowerCase();
  if (lower.includes('_')) {
    const chars = [...lower];
    return (text) => globMatch(chars, text);
  }
  const pieces = lower.split('*');
  if (pieces.length === 1) return (text) => text.toLowerCase() === lower;
  const first = pieces[0]!;
  const last = pieces.at(-1)!;
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '');
  const least = pieces.reduce((n, piece) => n + piece.length, 0);
  return (text) => {
    const t = text.toLowerCase();
    if (t.length < least || !t.startsWith(first) || !t.endsWith(last)) return false;
    let at = first.length;
    const end = t.length - last.length;
    for (const piece of middle) {
      const found = t.indexOf(piece, at);
      if (found < 0 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return true;
  };
}

/**
 * Bounds on what one request may ask for, each answered with a 400 that names it. Generous for
 * any real client (the bot's biggest filter is a few hundred ids), tight enough that no single
 * request can hold the process: a `~=` pattern costs at most its length per character of text.
 */
export const LIMITS = {
  filterLength: 6000,
  conditions: 32,
  setItems: 1000,
  patternLength: 128,
  orderKeys: 8,
} as const;

/** A compiled condition: a predicate over a record. */
export type Predicate = (record: unknown) => boolean;

function compileCondition(condition: FilterCondition): Predicate {
  const { path, op, value } = condition;
  const parts = path.split('.');
  const kind = fieldKind(path);
  const read = (record: unknown) => {
    const { values, many } = valuesAt(record, parts);
    return { values: values.map((v) => normalizeRecord(kind, v)).filter((v) => v !== null) as Norm[], many };
  };
  if (value.kind === 'null') {
    const isNull = (record: unknown) => read(record).values.length === 0;
    return op === '=' ? isNull : (record) => !isNull(record);
  }
  if (value.kind === 'scalar') {
    if (op === '~=') {
      const matches = compileWildcard(value.text);
      return (record) => read(record).values.some((v) => matches(String(v)));
    }
    const wanted = normalizeInput(path, value.text);
    const eq = (record: unknown) => read(record).values.some((v) => v === wanted);
    return op === '=' ? eq : (record) => !eq(record);
  }
  const set = value.items.map((item) => normalizeInput(path, item));
  const inSet = new Set<Norm>(set);
  switch (op) {
    case '=':
    case '!=': {
      // A set with `=` means the collection equals exactly that set (item 3).
      const exact = (record: unknown) => {
        const got = new Set(read(record).values);
        if (got.size !== inSet.size) return false;
        for (const v of got) if (!inSet.has(v)) return false;
        return true;
      };
      return op === '=' ? exact : (record) => !exact(record);
    }
    case '<=':
    case '<':
      // Any member of the set (item 4); a collection must lie within the set.
      return (record) => {
        const { values, many } = read(record);
        if (values.length === 0) return false;
        return many ? values.every((v) => inSet.has(v)) : values.some((v) => inSet.has(v));
      };
    case '^':
      return (record) => read(record).values.some((v) => inSet.has(v));
    case '>=':
      return (record) => {
        const got = new Set(read(record).values);
        for (const v of inSet) if (!got.has(v)) return false;
        return true;
      };
    default:
      throw new ApiError(400, `Invalid filter: operator ${op} does not take a set on ${path}.`);
  }
}

/** A parsed, validated filter. */
export interface CompiledFilter {
  conditions: FilterCondition[];
  test: Predicate;
}

/** Parses and validates `filter` for a resource; unknown fields and malformed values are 400s. */
export function compileFilter(
  resource: ListResource,
  source: string | null,
  extra: FilterCondition[] = [],
): CompiledFilter {
  if (source !== null && source.length > LIMITS.filterLength) {
    throw new ApiError(
      400,
      `Invalid filter parameter: it is ${source.length} characters long; at most ${LIMITS.filterLength} are allowed.`,
    );
  }
  let conditions: FilterCondition[];
  try {
    conditions = source === null ? [] : parseFilter(source);
  } catch (error) {
    if (error instanceof FilterSyntaxError)
      throw new ApiError(400, `Invalid filter parameter: ${error.message}`);
    throw error;
  }
  if (conditions.length > LIMITS.conditions) {
    throw new ApiError(
      400,
      `Invalid filter parameter: ${conditions.length} conditions; at most ${LIMITS.conditions} are allowed.`,
    );
  }
  const fields = FILTER_FIELDS[resource] as readonly string[];
  for (const condition of conditions) {
    const { value } = condition;
    if (value.kind === 'set' && value.items.length > LIMITS.setItems) {
      throw new ApiError(
        400,
        `Invalid filter parameter: the set for ${condition.path} has ${value.items.length} values; at most ${LIMITS.setItems} are allowed.`,
      );
    }
    if (condition.op === '~=' && value.kind === 'scalar' && value.text.length > LIMITS.patternLength) {
      throw new ApiError(
        400,
        `Invalid filter parameter: the ~= pattern for ${condition.path} is ${value.text.length} characters long; at most ${LIMITS.patternLength} are allowed.`,
      );
    }
    if (!fields.includes(condition.path)) {
      throw new ApiError(
        400,
        `Invalid filter parameter: unknown field "${condition.path}" for ${resource}. Filterable fields: ${fields.join(', ')}.`,
      );
    }
  }
  const all = [...conditions, ...extra];
  const predicates = all.map(compileCondition);
  return { conditions: all, test: (record) => predicates.every((p) => p(record)) };
}

/** One ordering key. */
export interface OrderKey {
  path: string;
  desc: boolean;
}

/** Parses `order` (`<field>-asc|desc`, comma-separated); ties are always broken by ascending id. */
export function parseOrder(resource: ListResource, source: string | null): OrderKey[] {
  if (source === null || source === '') return [];
  const fields = FILTER_FIELDS[resource] as readonly string[];
  const parts = source.split(',', LIMITS.orderKeys + 1);
  if (parts.length > LIMITS.orderKeys) {
    throw new ApiError(
      400,
      `Invalid order parameter: at most ${LIMITS.orderKeys} keys are allowed, e.g. start-asc,id-asc.`,
    );
  }
  const seen = new Set<string>();
  return parts.map((part) => {
    const match = /^([a-z0-9_.]+)-(asc|desc)$/.exec(part);
    if (!match)
      throw new ApiError(
        400,
        `Invalid order parameter "${part}": use <field>-asc or <field>-desc, e.g. start-asc.`,
      );
    const path = match[1]!;
    if (!fields.includes(path)) {
      throw new ApiError(
        400,
        `Invalid order parameter: unknown field "${path}" for ${resource}. Orderable fields: ${fields.join(', ')}.`,
      );
    }
    if (seen.has(path))
      throw new ApiError(400, `Invalid order parameter: "${path}" is named twice; name each field once.`);
    seen.add(path);
    return { path, desc: match[2] === 'desc' };
  });
}

function firstValue(record: unknown, parts: readonly string[]): Norm | null {
  if (parts.length === 1 && typeof record === 'object' && record !== null && !Array.isArray(record)) {
    // The common case (a top-level field of a record), without collecting every value.
    const value = (record as Record<string, unknown>)[parts[0]!];
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined || first === null ? null : (first as Norm);
  }
  const { values } = valuesAt(record, parts);
  const v = values[0];
  if (v === undefined || v === null) return null;
  return v as Norm;
}

/** A comparator for the keys, nulls last, then ascending id (or `uuid`) so paging is stable. */
export function comparator(keys: readonly OrderKey[]): (a: unknown, b: unknown) => number {
  const compiled = keys.map((k) => ({ parts: k.path.split('.'), sign: k.desc ? -1 : 1 }));
  return (a, b) => {
    for (const { parts, sign } of compiled) {
      const x = firstValue(a, parts);
      const y = firstValue(b, parts);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    const ia = (a as { id?: number; uuid?: string }).id ?? (a as { uuid?: string }).uuid ?? 0;
    const ib = (b as { id?: number; uuid?: string }).id ?? (b as { uuid?: string }).uuid ?? 0;
    return ia === ib ? 0 : ia < ib ? -1 : 1;
  };
}

/** Paging parameters. */
export interface Page {
  skip: number;
  take: number;
}

/** Reads `skip` (>= 0) and `take` (0..50, default 50). */
export function parsePage(params: URLSearchParams): Page {
  const takeText = params.get('take');
  const skipText = params.get('skip');
  let take = 50;
  let skip = 0;
  if (takeText !== null) {
    if (!/^\d{1,3}$/.test(takeText) || Number(takeText) > 50) {
      throw new ApiError(400, `Invalid take parameter "${takeText}": take is a whole number from 0 to 50.`);
    }
    take = Number(takeText);
  }
  if (skipText !== null) {
    if (!/^\d{1,9}$/.test(skipText))
      throw new ApiError(400, `Invalid skip parameter "${skipText}": skip is a whole number of 0 or more.`);
    skip = Number(skipText);
  }
  return { skip, take };
}

/** The list query of a request, validated. */
export interface ListParams {
  filter: CompiledFilter;
  order: OrderKey[];
  page: Page;
}

/** Validates `filter`, `order`, `skip` and `take` of a request for a resource. */
export function readListParams(
  resource: ListResource,
  params: URLSearchParams,
  extra: FilterCondition[] = [],
): ListParams {
  return {
    filter: compileFilter(resource, params.get('filter'), extra),
    order: parseOrder(resource, params.get('order')),
    page: parsePage(params),
  };
}

/**
 * Sorts by the order keys (then id). Each item's keys are read once, and only as far as a comparison
 * needs them (most comparisons end at the first key). With `limit` well below the number of items
 * (a page: skip + take), only the first `limit` are kept, in order (one pass, a binary insertion
 * into the short list kept): the same items as a full sort, without sorting the rest.
 */
export function sortItems<T>(items: T[], keys: readonly OrderKey[], limit = items.length): T[] {
  if (keys.length === 0) {
    const id = (x: T) => (x as { id?: number }).id;
    if (items.every((x) => typeof id(x) === 'number')) return items.sort((a, b) => id(a)! - id(b)!);
    return items.sort(comparator(keys));
  }
  const parts = keys.map((k) => ({ parts: k.path.split('.'), sign: k.desc ? -1 : 1 }));
  type Decorated = { item: T; keys: (Norm | null | undefined)[] };
  const keyOf = (d: Decorated, i: number): Norm | null => {
    let v = d.keys[i];
    if (v === undefined) {
      v = firstValue(d.item, parts[i]!.parts);
      d.keys[i] = v;
    }
    return v;
  };
  const byId = comparator([]);
  const compare = (a: Decorated, b: Decorated): number => {
    for (let i = 0; i < parts.length; i++) {
      const x = keyOf(a, i);
      const y = keyOf(b, i);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * parts[i]!.sign;
    }
    return byId(a.item, b.item);
  };
  if (limit * 8 < items.length) {
    const kept: Decorated[] = [];
    for (const item of items) {
      const d: Decorated = { item, keys: [] };
      if (kept.length >= limit) {
        if (limit === 0 || compare(d, kept[limit - 1]!) >= 0) continue;
        kept.pop();
      }
      let lo = 0;
      let hi = kept.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compare(kept[mid]!, d) <= 0) lo = mid + 1;
        else hi = mid;
      }
      kept.splice(lo, 0, d);
    }
    return kept.map((d) => d.item);
  }
  const decorated: Decorated[] = items.map((item) => ({ item, keys: [] }));
  decorated.sort(compare);
  return decorated.map((d) => d.item);
}

/** Filters, orders and pages a whole collection (the path for every resource except the big ones). */
export function runList<T>(items: Iterable<T>, list: ListParams): T[] {
  const matched: T[] = [];
  for (const item of items) if (list.filter.test(item)) matched.push(item);
  const want = list.page.skip + list.page.take;
  return sortItems(matched, list.order, want).slice(list.page.skip, want);
}

/** A condition built by an alias (`/series/{id}/matches` adds `series.id=<id>`, ...). */
export function eq(path: string, id: number): FilterCondition {
  return { path, op: '=', value: { kind: 'scalar', text: String(id) } };
}

/** `path<op>{ids}` built by an alias. */
export function setCondition(path: string, op: '^' | '<=', ids: readonly number[]): FilterCondition {
  return { path, op, value: { kind: 'set', items: ids.map(String) } };
}
