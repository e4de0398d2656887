/**
 * The fast path for listing series (and the matches of series): candidates come from the window's
 * indexes (id, game, tier, tournament, substage, roster, caster), a lifecycle condition narrows
 * them to a range of start times (the lists are sorted by start), and an order by start streams
 * the candidates and stops as soon as the page is full. Every candidate is still checked against
 * the whole filter, so the indexes only ever save work, never change an answer.
 */
import type { FilterCondition } from '../protocol/filter.ts';
import { type ListParams, sortItems } from './query.ts';
import type { SeriesPlan } from './schedule.ts';
import { firstAfter, type WindowIndex, type World } from './world.ts';

const INDEXED: Record<string, (w: WindowIndex, key: number) => readonly SeriesPlan[] | undefined> = {
  id: (w, key) => {
    const plan = w.byId.get(key);
    return plan ? [plan] : [];
  },
  'game.id': (w, key) => w.byGame.get(key),
  tier: (w, key) => w.byTier.get(key),
  'tournament.id': (w, key) => w.byTournament.get(key),
  'substage.id': (w, key) => w.bySubstage.get(key),
  'participants.roster.id': (w, key) => w.byRoster.get(key),
  'casters.caster.id': (w, key) => w.byCaster.get(key),
};

function byStart(a: SeriesPlan, b: SeriesPlan): number {
  return a.start - b.start || a.id - b.id;
}

/**
 * Candidates for one condition as sorted lists whose union holds every match, or null when the
 * condition cannot use an index. Unions stay separate lists so they can be merged lazily.
 */
function candidatesFor(
  window: WindowIndex,
  condition: FilterCondition,
  keyMap: Record<string, { path: string; map: (n: number) => number | null }>,
): (readonly SeriesPlan[])[] | null {
  let path = condition.path;
  let map: (n: number) => number | null = (n) => n;
  const mapped = keyMap[path];
  if (mapped) {
    path = mapped.path;
    map = mapped.map;
  }
  const lookup = INDEXED[path];
  if (!lookup) return null;
  const { op, value } = condition;
  const list = (text: string): readonly SeriesPlan[] => {
    const key = map(Number(text));
    return key === null ? [] : (lookup(window, key) ?? []);
  };
  if (value.kind === 'scalar' && op === '=') return [list(value.text)];
  if (value.kind !== 'set') return null;
  if (op === '<=' || op === '<' || op === '^') return [...new Set(value.items)].map(list);
  if ((op === '>=' || op === '=') && value.items.length > 0) {
    // Every result holds each item, so the shortest single list is a superset of the results.
    let best: readonly SeriesPlan[] | null = null;
    for (const item of value.items) {
      const l = list(item);
      if (best === null || l.length < best.length) best = l;
    }
    return [best!];
  }
  return null;
}

/** The start-time range [after, atMost] that a lifecycle condition allows. */
function lifecycleRange(
  window: WindowIndex,
  conditions: FilterCondition[],
  t: number,
): { after: number; atMost: number } {
  let after = Number.NEGATIVE_INFINITY;
  let atMost = Number.POSITIVE_INFINITY;
  for (const c of conditions) {
    if (c.path !== 'lifecycle') continue;
    let values: string[] | null = null;
    if (c.op === '=' && c.value.kind === 'scalar') values = [c.value.text];
    else if ((c.op === '<=' || c.op === '<' || c.op === '^') && c.value.kind === 'set')
      values = c.value.items;
    if (values === null || values.includes('deleted') || values.includes('unknown')) continue;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const v of values) {
      if (v === 'upcoming') {
        lo = Math.min(lo, t);
        hi = Number.POSITIVE_INFINITY;
      } else if (v === 'live') {
        lo = Math.min(lo, t - window.maxDuration - 1);
        hi = Math.max(hi, t);
      } else if (v === 'over' || v === 'over-forfeited') {
        lo = Number.NEGATIVE_INFINITY;
        hi = Math.max(hi, t);
      }
    }
    after = Math.max(after, lo);
    atMost = Math.min(atMost, hi);
  }
  return { after, atMost };
}

export interface SeriesQueryOptions<V> {
  /** The object the filter sees and the answer holds (default: the series at t). */
  view: (plan: SeriesPlan) => V;
  /** Filter paths that map onto an indexed path (e.g. external_id -> id). */
  keyMap?: Record<string, { path: string; map: (n: number) => number | null }>;
}

/** The candidate lists (each sorted by start, then id) for the conditions, cut to the lifecycle range. */
function candidateLists(
  world: World,
  conditions: FilterCondition[],
  t: number,
  keyMap: SeriesQueryOptions<unknown>['keyMap'] = {},
): (readonly SeriesPlan[])[] {
  const window = world.window(t);
  let lists: (readonly SeriesPlan[])[] = [window.series];
  let size = window.series.length;
  for (const condition of conditions) {
    const found = candidatesFor(window, condition, keyMap);
    if (!found) continue;
    const total = found.reduce((sum, l) => sum + l.length, 0);
    if (total < size) {
      lists = found;
      size = total;
    }
  }
  const { after, atMost } = lifecycleRange(window, conditions, t);
  if (after === Number.NEGATIVE_INFINITY && atMost === Number.POSITIVE_INFINITY) return lists;
  if (after >= atMost) return [];
  return lists.map((list) => {
    const lo = after === Number.NEGATIVE_INFINITY ? 0 : firstAfter(list, after);
    const hi = atMost === Number.POSITIVE_INFINITY ? list.length : firstAfter(list, atMost);
    return list.slice(lo, hi);
  });
}

/** The window's series selected by the filter conditions' indexes and lifecycle range, by start. */
export function seriesCandidates(
  world: World,
  conditions: FilterCondition[],
  t: number,
  keyMap: SeriesQueryOptions<unknown>['keyMap'] = {},
): readonly SeriesPlan[] {
  const lists = candidateLists(world, conditions, t, keyMap);
  if (lists.length === 1) return lists[0]!;
  return [...new Set(lists.flat())].sort(byStart);
}

/**
 * Walks sorted lists in start order (ascending or descending), one group of equal starts at a
 * time, each group in ascending id and without repeats: ties are always broken by ascending id.
 */
function* merged(
  lists: (readonly SeriesPlan[])[],
  desc: boolean,
  key: (plan: SeriesPlan) => number,
): Generator<SeriesPlan> {
  const cursors = lists.map((l) => (desc ? l.length - 1 : 0));
  const seen = lists.length > 1 ? new Set<number>() : null;
  for (;;) {
    let next = Number.NaN;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i]!;
      // Skip what shows another start than its index position (a postponement not yet announced).
      while (
        list[cursors[i]!] &&
        i < lists.length - 1 &&
        key(list[cursors[i]!]!) !== list[cursors[i]!]!.start
      ) {
        cursors[i]! += desc ? -1 : 1;
      }
      const plan = list[cursors[i]!];
      if (plan && (Number.isNaN(next) || (desc ? key(plan) > next : key(plan) < next))) next = key(plan);
    }
    if (Number.isNaN(next)) return;
    const group: SeriesPlan[] = [];
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i]!;
      let c = cursors[i]!;
      while (
        list[c] &&
        (key(list[c]!) === next || (i < lists.length - 1 && key(list[c]!) !== list[c]!.start))
      ) {
        if (key(list[c]!) === next) group.push(list[c]!);
        c += desc ? -1 : 1;
      }
      cursors[i] = c;
    }
    if (group.length > 1) group.sort((a, b) => a.id - b.id);
    for (const plan of group) {
      if (seen) {
        if (seen.has(plan.id)) continue;
        seen.add(plan.id);
      }
      yield plan;
    }
  }
}

/** Lists series for a request: filter, order, skip, take. */
export function querySeries<V>(
  world: World,
  list: ListParams,
  t: number,
  options: SeriesQueryOptions<V>,
): V[] {
  const lists = candidateLists(world, list.filter.conditions, t, options.keyMap);
  const { skip, take } = list.page;
  const want = skip + take;
  const key = list.order[0];
  if (list.order.length === 1 && key?.path === 'start') {
    const out: V[] = [];
    if (take === 0) return out;
    // The last list holds the postponed series by original start; the index lists skip those
    // whose postponement is not yet announced.
    const window = world.window(t);
    const pending = window.postponed.filter((p) => t < p.postponedAt!);
    for (const plan of merged([...lists, pending], key.desc, (p) => world.displayedStart(p, t))) {
      const item = options.view(plan);
      if (list.filter.test(item) && out.push(item) >= want) break;
    }
    return out.slice(skip);
  }
  const matched: V[] = [];
  const plans = lists.length === 1 ? lists[0]! : new Set(lists.flat());
  for (const plan of plans) {
    const item = options.view(plan);
    if (list.filter.test(item)) matched.push(item);
  }
  return sortItems(matched, list.order, want).slice(skip, want);
}
