/**
 * v2 request parameters (the v2 specification, "Endpoints"): `name[]` arrays, booleans, `now` or ISO
 * instants, `page`, `with[]`. Anything unreadable is a 400 in the v2 error shape.
 */
export const V2_STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  429: 'Too Many Requests',
  502: 'Bad Gateway',
};

/** An answer in the v2 error shape `{ error, error_code, error_description }`. */
export class V2Error extends Error {
  override name = 'V2Error';
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

/** A 410 answers the resource as a 200 would (spec, "Errors"). */
export class V2Gone extends Error {
  override name = 'V2Gone';
  constructor(readonly body: unknown) {
    super('Resource soft-deleted.');
  }
}

/** The spec's 400 text, then what was wrong and what would be right. */
export function badInput(detail: string): V2Error {
  return new V2Error(400, `Could not parse data. ${detail}`);
}

/** Throws the 404 of an unknown id. */
export function notFound(): never {
  throw new V2Error(404, 'The specified resource could not be found.');
}

const INT32 = /^-?\d{1,10}$/;

function int(name: string, text: string): number {
  const n = Number(text);
  if (!INT32.test(text) || n > 2_147_483_647 || n < -2_147_483_648)
    throw badInput(`${name} "${text}" is not a whole number (int32).`);
  return n;
}

/** `page`: 1 or more, default 1. */
export function readPage(query: URLSearchParams): number {
  const text = query.get('page');
  if (text === null) return 1;
  const n = int('page', text);
  if (n < 1) throw badInput(`page "${text}" must be 1 or more.`);
  return n;
}

/** An int32 parameter such as `months_back`, or its default. */
export function readInt(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  return text === null ? fallback : int(name, text);
}

/** `name[]=1&name[]=2` (also `name[0]=1`), as int32s; empty when absent. */
export function readIds(query: URLSearchParams, name: string): number[] {
  const out: number[] = [];
  for (const [key, value] of query) {
    if (key === `${name}[]` || new RegExp(`^${name}\\[\\d+\\]$`).test(key)) out.push(int(`${name}[]`, value));
    else if (key === name)
      throw badInput(`${name} is an array parameter: send ${name}[]=<id> once per value.`);
  }
  return out;
}

/** A boolean (`true`/`false`/`1`/`0`), or undefined when absent. */
export function readBool(query: URLSearchParams, name: string): boolean | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw badInput(`${name} "${text}" is not a boolean: use true or false.`);
}

/** `now` or an ISO date/datetime, as ms; undefined when absent. */
export function readInstant(query: URLSearchParams, name: string, now: number): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  if (text === 'now') return now;
  const spaced = text.replace(' ', 'T');
  const zoned = spaced.includes('T') && !/(Z|[+-]\d{2}:?\d{2})$/.test(spaced) ? `${spaced}Z` : spaced;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(zoned) : Number.NaN;
  if (Number.isNaN(ms))
    throw badInput(`${name} "${text}" is not "now" or an ISO datetime such as 2026-11-22T18:00:00Z.`);
  return ms;
}

/** `with[]` values, each one of `allowed`. */
export function readWith(query: URLSearchParams, allowed: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const [key, value] of query) {
    if (key !== 'with[]' && !/^with\[\d+\]$/.test(key)) continue;
    if (!allowed.includes(value))
      throw badInput(`with[] "${value}" is not embeddable here; use one of: ${allowed.join(', ')}.`);
    out.add(value);
  }
  return out;
}

/** `order` among `allowed` (default the first) and `sort` ASC/DESC (default ASC). */
export function readOrder(
  query: URLSearchParams,
  allowed: readonly string[],
): { order: string; desc: boolean } {
  const order = query.get('order') ?? allowed[0]!;
  if (!allowed.includes(order)) throw badInput(`order "${order}" is not one of: ${allowed.join(', ')}.`);
  const sort = (query.get('sort') ?? 'ASC').toUpperCase();
  if (sort !== 'ASC' && sort !== 'DESC') throw badInput(`sort "${query.get('sort')}" is not ASC or DESC.`);
  return { order, desc: sort === 'DESC' };
}

/** A 2-letter code (country, lang), lower-cased; undefined when absent. */
export function readCode(query: URLSearchParams, name: string): string | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  if (!/^[A-Za-z]{2}$/.test(text)) throw badInput(`${name} "${text}" is not a 2-letter code such as de.`);
  return text.toLowerCase();
}

/** `q`: case-insensitive "contains". */
export function matchesQ(q: string | null, ...fields: (string | null | undefined)[]): boolean {
  if (q === null || q.trim() === '') return true;
  const needle = q.trim().toLowerCase();
  return fields.some((f) => f?.toLowerCase().includes(needle));
}
