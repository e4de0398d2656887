/**
 * v2 `/series` and `/series/{id}` (`service-v2.md`, "Series list parameters"). Candidates come from
 * the same indexed query the v3 `/series` uses (`series-query.ts`), ordered by the start the world
 * shows; the v2 conditions are then checked on the v3 resource and the page mapped to the v2 shape.
 */
import type { FilterCondition } from '../../protocol/filter.ts';
import type { Series } from '../../protocol/types.ts';
import { compileFilter, setCondition } from '../query.ts';
import { querySeries } from '../series-query.ts';
import type { World } from '../world.ts';
import {
  notFound,
  readBool,
  readCode,
  readIds,
  readInstant,
  readOrder,
  readPage,
  readWith,
  V2Gone,
} from './params.ts';
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

export function listSeries(c: V2Context): Envelope<unknown> {
  const { query, world, t } = c;
  const page = readPage(query);
  const withParts = readWith(query, LIST_WITH);
  const { order, desc } = readOrder(query, ['start', 'end']);
  const conditions: FilterCondition[] = [];
  const index = (param: string, path: string, op: '<=' | '^' = '<=') => {
    const ids = readIds(query, param);
    if (ids.length > 0) conditions.push(setCondition(path, op, ids));
    return ids;
  };
  index('games', 'game.id');
  index('tiers', 'tier');
  index('tournaments', 'tournament.id');
  index('substages', 'substage.id');
  index('competitors', 'participants.roster.id', '^');
  const platforms = new Set(readIds(query, 'platforms'));
  const before = readInstant(query, 'starts_before', t);
  const after = readInstant(query, 'starts_after', t);
  // is_over defaults to false unless a starts_* bound is set; then only an explicit value filters.
  const isOverParam =
    readBool(query, 'is_over') ?? (before === undefined && after === undefined ? false : undefined);
  const isDeleted = readBool(query, 'is_deleted');
  const isPostponed = readBool(query, 'is_postponed');
  const country = readCode(query, 'country');
  const lang = readCode(query, 'lang');

  const casterInfo = (id: number) => world.catalog.casterById.get(id);
  const test = (s: Series): boolean => {
    if (isDeleted !== undefined && (s.deleted_at !== null) !== isDeleted) return false;
    if (isPostponed !== undefined && (s.postponed_from !== null) !== isPostponed) return false;
    const start = s.start === null ? Number.NaN : Date.parse(s.start);
    if (before !== undefined && !(start < before)) return false;
    if (after !== undefined && !(start >= after)) return false;
    if (isOverParam !== undefined && isOver(s, t) !== isOverParam) return false;
    if (
      platforms.size > 0 &&
      !s.casters.some((e) => platforms.has(casterInfo(e.caster.id)?.platform.id ?? -1))
    )
      return false;
    if (
      lang !== undefined &&
      !s.casters.some((e) => casterInfo(e.caster.id)?.region.country.abbreviation.toLowerCase() === lang)
    )
      return false;
    if (
      country !== undefined &&
      !s.participants.some((p) => {
        const roster = world.catalog.rosterById.get(p.roster.id);
        const team = roster ? world.catalog.teamById.get(roster.team.id) : undefined;
        return team?.region.country.abbreviation.toLowerCase() === country;
      })
    )
      return false;
    return true;
  };
  // The indexes only narrow the candidates: every condition is still checked on each series.
  const indexed = compileFilter('series', null, conditions);
  // is_over narrows the start range like a v3 lifecycle condition (a superset: deleted series are
  // not over before their start, and over once it passed); `test` decides.
  const range =
    isOverParam === true
      ? ['over', 'over-forfeited']
      : isOverParam === false
        ? before === t
          ? ['live']
          : ['upcoming', 'live']
        : null;
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
