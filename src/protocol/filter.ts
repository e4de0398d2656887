/**
 * The filter language of the v3 service (the provider's v3 specification, "Filter language"), plus `!=`
 * and `null`, which real clients send too (docs/local-service.md, "The interface"). One grammar for
 * both sides: the local service parses and evaluates filters with it, the client formats them with it, so
 * what one writes the other reads.
 *
 *   filter    := condition ("," condition)*
 *   condition := path op value
 *   path      := name ("." name)*            name := [a-z_][a-z0-9_]*
 *   op        := "<=" | ">=" | "!=" | "~=" | "=" | "<" | "^"
 *   value     := "{" [scalar ("," scalar)*] "}" | "null" | scalar
 *   scalar    := one or more characters other than , { } = < > ^ ~ ! and control characters
 */

import { MatchdayError } from '../core/errors.ts';

export const FILTER_OPERATORS = ['<=', '>=', '!=', '~=', '=', '<', '^'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterValue =
  | { kind: 'scalar'; text: string }
  | { kind: 'null' }
  | { kind: 'set'; items: string[] };

export interface FilterCondition {
  path: string;
  op: FilterOperator;
  value: FilterValue;
}

/** Characters that carry meaning in the grammar; never allowed inside a value (except wildcards in `~=`). */
const GRAMMAR_CHARACTERS = [',', '{', '}', '=', '<', '>', '^', '~', '!', '*', '_'] as const;
const STRUCTURAL = new Set([',', '{', '}', '=', '<', '>', '^', '~', '!']);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
const PATH = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/;

/** Which operators take which kind of value (spec items 3 to 7). */
const OPERATOR_VALUES: Record<FilterOperator, readonly FilterValue['kind'][]> = {
  '=': ['scalar', 'null', 'set'],
  '!=': ['scalar', 'null', 'set'],
  '<=': ['set'],
  '<': ['set'],
  '^': ['set'],
  '>=': ['set'],
  '~=': ['scalar'],
};

/** A filter that does not follow the grammar. The message says what is wrong and what would be right. */
export class FilterSyntaxError extends Error {
  override name = 'FilterSyntaxError';
}

/** Parses a `filter` parameter. Throws `FilterSyntaxError` with a message fit for a 400 body. */
export function parseFilter(source: string): FilterCondition[] {
  const conditions: FilterCondition[] = [];
  if (source.trim() === '') return conditions;
  let i = 0;
  const fail = (what: string): never => {
    throw new FilterSyntaxError(`Invalid filter at character ${i + 1}: ${what}.`);
  };
  while (i <= source.length) {
    // path
    const pathStart = i;
    while (i < source.length && /[a-z0-9_.]/i.test(source[i]!)) i++;
    const path = source.slice(pathStart, i);
    if (path === '') fail('expected a field name such as game.id');
    if (!PATH.test(path)) fail(`"${path}" is not a field path (lowercase names joined by dots)`);
    // operator
    const op = FILTER_OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (!op) fail(`expected an operator (${FILTER_OPERATORS.join(' ')}) after "${path}"`);
    i += op!.length;
    // value
    let value: FilterValue;
    if (source[i] === '{') {
      const close = source.indexOf('}', i);
      if (close < 0) fail('a set opened with { is never closed with }');
      const inner = source.slice(i + 1, close);
      const items = inner === '' ? [] : inner.split(',');
      for (const item of items) checkScalar(item, op!, fail);
      value = { kind: 'set', items };
      i = close + 1;
    } else {
      const end = source.indexOf(',', i);
      const text = source.slice(i, end < 0 ? source.length : end);
      if (text === 'null') value = { kind: 'null' };
      else {
        checkScalar(text, op!, fail);
        value = { kind: 'scalar', text };
      }
      i += text.length;
    }
    if (!OPERATOR_VALUES[op!].includes(value.kind)) {
      const wanted = OPERATOR_VALUES[op!].map((k) =>
        k === 'set' ? 'a set {a,b}' : k === 'null' ? 'null' : 'a value',
      );
      fail(`operator ${op} on ${path} takes ${wanted.join(' or ')}`);
    }
    conditions.push({ path, op: op!, value });
    if (i >= source.length) break;
    if (source[i] !== ',') fail(`expected "," between conditions, found "${source[i]}"`);
    i++;
    if (i >= source.length) fail('a filter cannot end with ","');
  }
  return conditions;
}

function checkScalar(text: string, op: FilterOperator, fail: (what: string) => never): void {
  if (text === '') fail('a value is empty');
  if (CONTROL.test(text)) fail('a value contains a control character');
  for (const ch of text) {
    if (STRUCTURAL.has(ch)) fail(`a value contains "${ch}", which belongs to the filter grammar`);
  }
  if (op !== '~=' && text.includes('*')) fail('"*" is a wildcard and only works with ~=');
}

/** Formats conditions into a `filter` parameter. Values must already be safe (see `safeText`). */
export function formatFilter(conditions: readonly FilterCondition[]): string {
  return conditions
    .map(({ path, op, value }) => {
      if (!PATH.test(path)) throw new FilterSyntaxError(`"${path}" is not a field path.`);
      const text =
        value.kind === 'null' ? 'null' : value.kind === 'set' ? `{${value.items.join(',')}}` : value.text;
      return `${path}${op}${text}`;
    })
    .join(',');
}

/** Longest free text accepted for a `~=` search. */
const MAX_SEARCH_LENGTH = 64;

/** Free text from a user fails this check; the message is fit to show to that user. */
export class UnsafeFilterTextError extends MatchdayError {
  override name = 'UnsafeFilterTextError';
  constructor(message: string) {
    super('UNSAFE_TEXT', 'user', message);
  }
}

/**
 * Makes user text safe for a `~=` condition: trimmed, length-capped, and refused if it holds any
 * character of the grammar or a control character: user text can never change what a filter means.
 */
export function safeText(input: string, maxLength = MAX_SEARCH_LENGTH): string {
  const text = input.trim();
  if (text === '') throw new UnsafeFilterTextError('The search text is empty: type at least one letter.');
  if (text.length > maxLength) {
    throw new UnsafeFilterTextError(
      `The search text is ${text.length} characters long; at most ${maxLength} are allowed.`,
    );
  }
  if (CONTROL.test(text)) throw new UnsafeFilterTextError('The search text contains a control character.');
  const bad = [...new Set([...text].filter((ch) => (GRAMMAR_CHARACTERS as readonly string[]).includes(ch)))];
  if (bad.length > 0) {
    throw new UnsafeFilterTextError(
      `The search text may not contain ${bad.map((c) => `"${c}"`).join(', ')}: use letters, digits, spaces and - . ' & only.`,
    );
  }
  return text;
}

/** Ids in filters and paths: non-negative safe integers only. */
export function safeId(id: unknown): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
    throw new UnsafeFilterTextError(`${String(id)} is not an id: ids are whole numbers of 0 or more.`);
  }
  return id;
}
