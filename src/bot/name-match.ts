/**
 * Matching typed text against names, as the name index does it: normalising, scoring, ranking,
 * the nearest names for "did you mean", and picking one entry or refusing with a clear message.
 * Pure functions over lists of entries; the index (names.ts) owns the lists.
 */

import { editDistance } from '../core/edit-distance.ts';
import { UserError } from '../core/errors.ts';
import { type MessageKey, type Translate, translator } from '../i18n/i18n.ts';
import type { AutocompleteSource } from './choice.ts';

/** The sources the index resolves to numeric ids (timezones are resolved by `resolveTimeZone`). */
export type NameSource = Exclude<AutocompleteSource, 'timezone'>;

/** Choice names are capped by Discord at 100 characters. */
export const MAX_CHOICE_NAME = 100;
/** Names longer than this cannot be any team or tournament: refused before matching. */
export const MAX_NAME_INPUT = 100;

/** One name the index can offer and resolve. */
export interface Entry {
  id: number;
  /** Display name, e.g. "Team Liquid (CS2)". */
  label: string;
  /** The plain name, for exact-match messages. */
  name: string;
  /** Normalised keys: name, abbreviation, also_known_as. */
  keys: string[];
  game?: number;
  /** Higher sorts first among equal scores (e.g. active teams, current tournaments). */
  weight: number;
}

/** Optional narrowing: prefer candidates in these games when a name is ambiguous across games. */
export interface ResolveScope {
  games?: readonly number[];
}

/** Refusals in English: for callers that name no reader (tests, the notifier's labels). */
export const EN = translator('en');

/** Lower-case, accents stripped, punctuation collapsed to single spaces. */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The distinct normalised, non-empty keys of some texts (missing ones skipped). */
export function nameKeys(...texts: (string | undefined | null)[]): string[] {
  return [
    ...new Set(
      texts
        .filter((t): t is string => typeof t === 'string')
        .map(normalizeName)
        .filter((t) => t !== ''),
    ),
  ];
}

/** A normalised query in the forms `scoreKey` compares (computed once per search, not per key). */
interface Query {
  text: string;
  /** Without spaces. */
  compact: string;
  /** " text": a word of a key starting with the text; undefined when the text has spaces. */
  wordStart: string | undefined;
}

function queryOf(text: string): Query {
  return { text, compact: text.replaceAll(' ', ''), wordStart: text.includes(' ') ? undefined : ` ${text}` };
}

/** Whether `key` without its spaces equals `compact` (no space in it), without building the string. */
function equalsIgnoringSpaces(key: string, compact: string): boolean {
  let j = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 32) continue;
    if (j >= compact.length || c !== compact.charCodeAt(j)) return false;
    j++;
  }
  return j === compact.length;
}

/** Whether `key` without its spaces contains `compact` (no space in it), without building the string. */
function includesIgnoringSpaces(key: string, compact: string): boolean {
  if (!key.includes(' ')) return key.includes(compact);
  for (let start = 0; start < key.length; start++) {
    if (key.charCodeAt(start) === 32) continue;
    let j = 0;
    for (let i = start; i < key.length && j < compact.length; i++) {
      const c = key.charCodeAt(i);
      if (c === 32) continue;
      if (c !== compact.charCodeAt(j)) break;
      j++;
    }
    if (j === compact.length) return true;
  }
  return false;
}

/** `matchScore` for a prepared query: the per-key work of every search, so it allocates nothing. */
function scoreKey(query: Query, key: string): number {
  if (query.text === '' || key === '') return 0;
  if (key === query.text) return 100;
  if (equalsIgnoringSpaces(key, query.compact)) return 95;
  if (key.startsWith(query.text)) return 80;
  if (query.wordStart !== undefined && key.includes(query.wordStart)) return 70;
  // Mid-word matches of one or two letters are noise ("ab" is inside half the names).
  if (query.compact.length >= 3 && includesIgnoringSpaces(key, query.compact)) return 60;
  return 0;
}

/**
 * How well `query` (normalised) matches `key` (normalised): 0 (no) to 100 (exact). 100 the same,
 * 95 the same without spaces, 80 the key starts with it, 70 a word of the key does, 60 it is inside.
 */
export function matchScore(query: string, key: string): number {
  return scoreKey(queryOf(query), key);
}

/** `text` cut to `max` characters with an ellipsis. */
export function clip(text: string, max = MAX_CHOICE_NAME): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

type Ranked = { entry: Entry; score: number };

/** Labels compared as `localeCompare` does, with one collator instead of one per call. */
const collator = new Intl.Collator();

/** Best first: score, then in the scope's games, then weight, then label, then id. */
function byRank(scope: ResolveScope | undefined): (a: Ranked, b: Ranked) => number {
  const games = scope?.games ?? [];
  const inScope = (e: Entry) => (games.length > 0 && e.game !== undefined ? games.includes(e.game) : true);
  return (a, b) =>
    b.score - a.score ||
    Number(inScope(b.entry)) - Number(inScope(a.entry)) ||
    b.entry.weight - a.entry.weight ||
    collator.compare(a.entry.label, b.entry.label) ||
    a.entry.id - b.entry.id;
}

/**
 * What a list of entries is looked up by, built once per list (the index replaces its lists
 * whole, never edits them): ids, exact keys, and the list for empty text in each scope.
 */
interface ListIndex {
  byId: Map<number, Entry>;
  byKey: Map<string, Entry[]>;
  /** Empty text's ranking, per scope (`games` joined). */
  empty: Map<string, Ranked[]>;
}

const indexes = new WeakMap<readonly Entry[], ListIndex>();

function indexOf(entries: readonly Entry[]): ListIndex {
  let index = indexes.get(entries);
  if (!index) {
    index = { byId: new Map(), byKey: new Map(), empty: new Map() };
    for (const entry of entries) {
      if (!index.byId.has(entry.id)) index.byId.set(entry.id, entry);
      for (const key of entry.keys) {
        const list = index.byKey.get(key) ?? [];
        if (!list.includes(entry)) list.push(entry);
        index.byKey.set(key, list);
      }
    }
    indexes.set(entries, index);
  }
  return index;
}

/** The entry of `id` in `entries`, found in its index (no scan). */
export function entryById(entries: readonly Entry[], id: number): Entry | undefined {
  return indexOf(entries).byId.get(id);
}

/** Ranked matches of `text` among `entries` (best first). Empty text lists the most relevant. */
export function rankEntries(entries: readonly Entry[], text: string, scope?: ResolveScope): Ranked[] {
  const query = queryOf(normalizeName(text));
  if (query.text === '') {
    const empty = indexOf(entries).empty;
    const scopeKey = (scope?.games ?? []).join(',');
    let ranked = empty.get(scopeKey);
    if (!ranked) {
      ranked = entries.map((entry) => ({ entry, score: 1 })).sort(byRank(scope));
      empty.set(scopeKey, ranked);
    }
    return ranked.slice();
  }
  const ranked: Ranked[] = [];
  for (const entry of entries) {
    let score = 0;
    for (const key of entry.keys) score = Math.max(score, scoreKey(query, key));
    if (score > 0) ranked.push({ entry, score });
  }
  return ranked.sort(byRank(scope));
}

/** Entries whose key is exactly `text` (normalised), ranked as `rankEntries` would rank them. */
function exactEntries(entries: readonly Entry[], text: string, scope?: ResolveScope): Ranked[] {
  const exact = indexOf(entries).byKey.get(normalizeName(text)) ?? [];
  return exact.map((entry) => ({ entry, score: 100 })).sort(byRank(scope));
}

/**
 * Entries within a few edits of `text`, nearest first. A key is compared whole and cut to the
 * text's length, so a typo in the start of a long name still counts as close.
 */
export function nearestEntries(
  entries: readonly Entry[],
  text: string,
): { entry: Entry; distance: number }[] {
  const query = normalizeName(text);
  if (query === '') return [];
  const cutoff = Math.max(2, Math.ceil(query.length * 0.6));
  const scored: { entry: Entry; distance: number }[] = [];
  for (const entry of entries) {
    let distance = Number.POSITIVE_INFINITY;
    for (const key of entry.keys) {
      // Two strings whose lengths differ by more than the cutoff are further apart than it.
      if (Math.abs(key.length - query.length) <= cutoff)
        distance = Math.min(distance, editDistance(query, key));
      if (query.length - Math.min(key.length, query.length) <= cutoff)
        distance = Math.min(distance, editDistance(query, key.slice(0, query.length)));
    }
    if (distance <= cutoff) scored.push({ entry, distance });
  }
  return scored.sort((a, b) => a.distance - b.distance || collator.compare(a.entry.label, b.entry.label));
}

/** What each source is called in messages, in the reader's language. */
export const NOUN_KEY: Record<NameSource, MessageKey> = {
  team: 'platform.names.noun.team',
  organisation: 'platform.names.noun.organisation',
  tournament: 'platform.names.noun.tournament',
  game: 'platform.names.noun.game',
  substage: 'platform.names.noun.substage',
  series: 'platform.names.noun.series',
  player: 'platform.names.noun.player',
};

/** What each source is called in English: in error codes (`UNKNOWN_TEAM`) and operators' messages. */
export const NOUN = Object.fromEntries(
  Object.entries(NOUN_KEY).map(([source, key]) => [source, EN(key)]),
) as Record<NameSource, string>;

/** "3 teams", "2 séries": a count of a source's things, in the reader's language. */
const COUNT_KEY: Record<NameSource, MessageKey> = {
  team: 'platform.names.count.team',
  organisation: 'platform.names.count.organisation',
  tournament: 'platform.names.count.tournament',
  game: 'platform.names.count.game',
  substage: 'platform.names.count.substage',
  series: 'platform.names.count.series',
  player: 'platform.names.count.player',
};

/** Refuses text that cannot be a name (empty, too long, no letters or digits), saying why. */
function checkTyped(noun: string, raw: string, t: Translate): void {
  if (raw === '') throw new UserError('EMPTY_NAME', t('platform.names.empty', { noun }));
  if (raw.length > MAX_NAME_INPUT) {
    throw new UserError(
      'NAME_TOO_LONG',
      t('platform.names.tooLong', { noun, length: raw.length, max: MAX_NAME_INPUT }),
    );
  }
  if (normalizeName(raw) === '') {
    throw new UserError('EMPTY_NAME', t('platform.names.noLetters', { noun, text: clip(raw, 20) }));
  }
}

/**
 * No entry matches: one clearly closest name (a typo) is taken, with a line in `notes` saying so;
 * otherwise a `UserError` suggesting the closest names.
 */
function closestOrRefuse(
  entries: readonly Entry[],
  source: NameSource,
  raw: string,
  t: Translate,
  notes?: string[],
  takeClosest = true,
): number {
  const noun = t(NOUN_KEY[source]);
  const near = nearestEntries(entries, raw);
  const first = near[0];
  const typos = normalizeName(raw).length >= 8 ? 2 : 1;
  if (
    takeClosest &&
    first &&
    first.distance <= typos &&
    (near[1]?.distance ?? Number.POSITIVE_INFINITY) > first.distance
  ) {
    notes?.push(t('platform.names.takenAs', { noun, text: clip(raw, 40), label: first.entry.label }));
    return first.entry.id;
  }
  // The closest names go under the message, as "Did you mean" (`errorReply`), once.
  const suggestions = near.slice(0, 3).map((n) => n.entry.label);
  throw new UserError(
    `UNKNOWN_${NOUN[source].toUpperCase()}`,
    t('platform.names.noMatch', { noun, text: clip(raw, 40) }),
    suggestions,
  );
}

/**
 * The id `text` names among `entries`: an id (digits, as autocomplete sends), an exact name,
 * abbreviation or alias, a unique fuzzy match, or one clearly closest name (noted in `notes`).
 * Ambiguous text throws a `UserError` listing the candidates; unknown text one naming the closest.
 * `takeClosest: false` (entries known to be only some of the names) never takes the closest name
 * for a typo: a namesake left out could be as close; it is offered instead.
 */
export function pickEntry(
  entries: readonly Entry[],
  source: NameSource,
  text: string,
  t: Translate,
  scope?: ResolveScope,
  notes?: string[],
  takeClosest = true,
): number {
  const noun = NOUN[source];
  const raw = text.trim();
  checkTyped(t(NOUN_KEY[source]), raw, t);
  if (/^\d{1,15}$/.test(raw)) {
    const id = Number(raw);
    if (entryById(entries, id)) return id;
  }
  // An exact name, abbreviation or alias outranks every fuzzy match: no need to score the rest.
  const exact = exactEntries(entries, raw, scope);
  let ranked = exact.length > 0 ? exact : rankEntries(entries, raw, scope);
  // A label offered earlier ("A vs B · Event · 15:00 UTC") still names its series once the state
  // part changed (it went live, its time moved): try it without that last part.
  if (ranked.length === 0 && raw.includes(' · '))
    ranked = rankEntries(entries, raw.slice(0, raw.lastIndexOf(' · ')), scope);
  const best = ranked[0];
  if (!best) return closestOrRefuse(entries, source, raw, t, notes, takeClosest);
  let top = ranked.filter((r) => r.score === best.score);
  const games = scope?.games ?? [];
  if (top.length > 1 && games.length > 0) {
    const scoped = top.filter((r) => r.entry.game === undefined || games.includes(r.entry.game));
    if (scoped.length > 0) top = scoped;
  }
  // Among fuzzy (non-exact) matches, a single current or active one beats stale namesakes.
  if (top.length > 1 && best.score < 95) {
    const heaviest = Math.max(...top.map((r) => r.entry.weight));
    const heavy = top.filter((r) => r.entry.weight === heaviest);
    if (heavy.length === 1 && heaviest > 0) top = heavy;
  }
  if (top.length === 1) return top[0]!.entry.id;
  const labels = top.slice(0, 10).map((r) => r.entry.label);
  const more = top.length - labels.length;
  const values = {
    text: clip(raw, 40),
    matches: t(COUNT_KEY[source], { count: top.length }),
    labels: labels.join('; '),
    more: t.number(more),
  };
  throw new UserError(
    `AMBIGUOUS_${noun.toUpperCase()}`,
    t(more > 0 ? 'platform.names.ambiguousMore' : 'platform.names.ambiguous', values),
    labels,
  );
}
