/**
 * v2 `/series` and `/series/{id}` (the v2 specification, "Series list parameters"). Candidates come from
 * the same indexed query the v3 `/series` uses (`series-query.ts`), ordered by the start the world
 * shows; the v2 conditions are then checked on the v3 resource and the page mapped to the v2 shape.
 */
import type { FilterCondition } from '../../protocol/filter.ts';
import type { Series } from '../../protocol/types.ts';
import { compileFilter, setCondition } from '../query.ts';
import { querySeries } from '../series-query.ts';
import type { World } from '../world.ts';
import { readListHead, readStartBounds } from './list-params.ts';
import { notFound, readBool, readCode, readIds, readWith, V2Gone } from './params.ts';
import { type Envelope, envelope, seriesV2 } from './shapes.ts';

export interface V2Context {
  world: World;
  t: number;
  query: URLSearchParams;
  ids: number[];
}

const LIST_WITH = ['tournament', 'matches', 'casters', 'sportsbook_odds'] as const;
const DETAIL_WITH = [
  'tournament',
  'matches',
  'casters',
  'roster_perf',
  'comp_perf',
  'sportsbook_odds',
  'summary',
] as const;

/** A series is over once it has ended; a deleted one once its start has passed. */
function isOver(series: Series, t: number): boolean {
  if (series.deleted_at !== null) return series.start !== null && Date.parse(series.start) <= t;
  return series.end !== null;
}

/** The conditions the series indexes answer: `games[]`, `tiers[]`, `tournaments[]`, `substages[]`, `competitors[]`. */
function readIndexed(query: URLSearchParams): FilterCondition[] {
  const conditions: FilterCondition[] = [];
  const index = (param: string, path: string, op: '<=' | '^' = '<=') => {
    const ids = readIds(query, param);
    if (ids.length > 0) conditions.push(setCondition(path, op, ids));
  };
  index('games', 'game.id');
  index('tiers', 'tier');
  index('tournaments', 'tournament.id');
  index('substages', 'substage.id');
  index('competitors', 'participants.roster.id', '^');
  return conditions;
}

/** The v2 conditions checked on each series resource. */
interface Wanted {
  platforms: Set<number>;
  before: number | undefined;
  after: number | undefined;
  isOver: boolean | undefined;
  isDeleted: boolean | undefined;
  isPostponed: boolean | undefined;
  country: string | undefined;
  lang: string | undefined;
}

function readWanted(query: URLSearchParams, t: number): Wanted {
  const platforms = new Set(readIds(query, 'platforms'));
  const { before, after, isOver } = readStartBounds(query, t);
  const isDeleted = readBool(query, 'is_deleted');
  const isPostponed = readBool(query, 'is_postponed');
  const country = readCode(query, 'country');
  const lang = readCode(query, 'lang');
  return { platforms, before, after, isOver, isDeleted, isPostponed, country, lang };
}

/** Whether a series meets every wanted condition at t. */
function seriesTest(world: World, t: number, w: Wanted): (s: Series) => boolean {
  const casterInfo = (id: number) => world.catalog.casterById.get(id);
  const teamCountry = (roster: number) => {
    const r = world.catalog.rosterById.get(roster);
    const team = r ? world.catalog.teamById.get(r.team.id) : undefined;
    return team?.region.country.abbreviation.toLowerCase();
  };
  return (s) => {
    if (w.isDeleted !== undefined && (s.deleted_at !== null) !== w.isDeleted) return false;
    if (w.isPostponed !== undefined && (s.postponed_from !== null) !== w.isPostponed) return false;
    const start = s.start === null ? Number.NaN : Date.parse(s.start);
    if (w.before !== undefined && !(start < w.before)) return false;
    if (w.after !== undefined && !(start >= w.after)) return false;
    if (w.isOver !== undefined && isOver(s, t) !== w.isOver) return false;
    const casters = s.casters.map((e) => casterInfo(e.caster.id));
    if (w.platforms.size > 0 && !casters.some((x) => w.platforms.has(x?.platform.id ?? -1))) return false;
    if (w.lang !== undefined && !casters.some((x) => x?.region.country.abbreviation.toLowerCase() === w.lang))
      return false;
    return w.country === undefined || s.participants.some((p) => teamCountry(p.roster.id) === w.country);
  };
}

/**
 * is_over narrows the start range like a v3 lifecycle condition (a superset: deleted series are
 * not over before their start, and over once it passed); the series test decides.
 */
function lifecycleRange(w: Wanted, t: number): string[] | null {
  if (w.isOver === true) return ['over', 'over-forfeited'];
  if (w.isOver === false) return w.before === t ? ['live'] : ['upcoming', 'live'];
  return null;
}

export function listSeries(c: V2Context): Envelope<unknown> {
  const { query, world, t } = c;
  const { page, withParts, order, desc } = readListHead(query, LIST_WITH, ['start', 'end']);
  const conditions = readIndexed(query);
  const wanted = readWanted(query, t);
  const test = seriesTest(world, t, wanted);
  const range = lifecycleRange(wanted, t);
  // The indexes only narrow the candidates: every condition is still checked on each series.
  const indexed = compileFilter('series', null, conditions);
  if (range) conditions.push({ path: 'lifecycle', op: '<=', value: { kind: 'set', items: range } });
  const all = querySeries(
    world,
    {
      filter: { conditions, test: (item) => indexed.test(item) && test(item as Series) },
      order: [{ path: order, desc }],
      page: { skip: 0, take: Number.MAX_SAFE_INTEGER },
    },
    t,
    { view: (plan) => world.seriesAt(plan, t) },
  );
  return envelope(all, page, (s) => seriesV2(world, s, t, withParts));
}

export function getSeries(c: V2Context): unknown {
  const withParts = readWith(c.query, DETAIL_WITH);
  const plan = c.world.seriesPlan(c.ids[0]!) ?? notFound();
  const series = c.world.seriesAt(plan, c.t);
  const body = seriesV2(c.world, series, c.t, withParts);
  if (series.deleted_at !== null) throw new V2Gone(body);
  return body;
}
