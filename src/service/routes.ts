/**
 * The `/v3` endpoints (the v3 specification, "Endpoints"; tournaments, players, team detail and the roster
 * list as the real service answers them). Straight-line handlers: each reads its params, throws an
 * `ApiError` for anything wrong, and returns the body. Aliases are written as the spec states them: the
 * base list plus the added filter condition.
 */

import { ID_SPACES, type ListResource } from '../protocol/fields.ts';
import type { FilterCondition } from '../protocol/filter.ts';
import type { Roster, Series } from '../protocol/types.ts';
import { ApiError } from './api-error.ts';
import { liveSummary } from './live.ts';
import { eq, readListParams, runList, setCondition } from './query.ts';
import { KILL_MULTIPLIER, PLACEMENT_POINTS, type SeriesPlan } from './schedule.ts';
import { querySeries, seriesCandidates } from './series-query.ts';
import { iso, TOURNAMENT_IMAGE_BASE, tournamentImage, type World } from './world.ts';

/** What a handler gets. */
export interface RouteContext {
  world: World;
  /** The instant the request is answered at (one read of the clock per request). */
  t: number;
  query: URLSearchParams;
  /** The path ids, already resolved from the id space when the endpoint takes one. */
  ids: number[];
  /** The id space named by the request (null: the service's own). */
  space: number | null;
}

interface Route {
  pattern: RegExp;
  /** For each path id, the kind of resource it names in an id space (null: the endpoint takes no id space). */
  idKinds: (string | null)[];
  handle: (ctx: RouteContext) => unknown;
}

const routes: Route[] = [];

/** Registers `path` where `{id}` stands for an integer path segment; `kind` marks an IS endpoint. */
function route(path: string, handle: (ctx: RouteContext) => unknown, kind: string | null = null): void {
  const source = path.replace(/[.]/g, '\\.').replace(/\{id\}/g, '([^/]+)');
  const count = (path.match(/\{id\}/g) ?? []).length;
  routes.push({
    pattern: new RegExp(`^${source}$`),
    idKinds: Array.from({ length: count }, () => kind),
    handle,
  });
}

/** Finds the route for a path (after `/v3`), or null. */
export function matchRoute(path: string): { route: Route; rawIds: string[] } | null {
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (m) return { route: r, rawIds: m.slice(1) };
  }
  return null;
}

/** Reads the id space of a request: the `id_space` parameter or the `Service-IdSpace` header. */
export function readIdSpace(query: URLSearchParams, header: string | undefined): number | null {
  const name = query.get('id_space') ?? header ?? null;
  if (name === null || name === '') return null;
  const space = ID_SPACES.find((s) => s.name === name);
  if (!space) {
    throw new ApiError(
      400,
      `Invalid id_space "${name}": use one of ${ID_SPACES.map((s) => s.name).join(', ')}, or leave it out for the service's own ids.`,
    );
  }
  return space.id;
}

/** Parses and (for IS endpoints) resolves the path ids. */
export function resolveIds(
  world: World,
  found: { route: Route; rawIds: string[] },
  space: number | null,
): number[] {
  return found.rawIds.map((raw, i) => {
    if (!/^\d{1,15}$/.test(raw))
      throw new ApiError(400, `Invalid id "${raw}": ids are whole numbers of 0 or more.`);
    const id = Number(raw);
    const kind = found.route.idKinds[i];
    if (space === null || !kind) return id;
    const native = world.fromExternal(space, kind, id);
    if (native === null)
      throw new ApiError(404, `No ${kind} with id ${id} in id space ${ID_SPACES[space - 1]!.name}.`);
    return native;
  });
}

const list = (ctx: RouteContext, resource: ListResource, extra: FilterCondition[] = []) =>
  readListParams(resource, ctx.query, extra);
const id0 = (ctx: RouteContext) => ctx.ids[0]!;

function notFound(what: string, id: number): never {
  throw new ApiError(404, `No ${what} with id ${id}.`);
}

function find<T extends { id: number }>(items: readonly T[], id: number, what: string): T {
  return items.find((x) => x.id === id) ?? notFound(what, id);
}

// ---- small, static resources ----
route('/assets', (c) => runList(c.world.catalog.assets, list(c, 'assets')));
route('/assets/{id}', (c) => find(c.world.catalog.assets, id0(c), 'asset'));
route('/broadcasters', (c) => runList(c.world.catalog.broadcasters, list(c, 'broadcasters')));
route('/broadcasters/{id}', (c) => find(c.world.catalog.broadcasters, id0(c), 'broadcaster'));
route('/countries', (c) => runList(c.world.catalog.countries, list(c, 'countries')));
route('/countries/{id}', (c) => find(c.world.catalog.countries, id0(c), 'country'), 'country');
route(
  '/countries/{id}/region',
  (c) => {
    const country = find(c.world.catalog.countries, id0(c), 'country');
    return (
      c.world.catalog.regions.find((r) => r.country.id === country.id) ??
      notFound('region for the country', country.id)
    );
  },
  'country',
);
route('/regions/{id}/countries', (c) => {
  const region = find(c.world.catalog.regions, id0(c), 'region');
  return runList([region.country], list(c, 'countries'));
});
route('/games', (c) =>
  runList(
    c.world.catalog.games.map((g) => g.game),
    list(c, 'games'),
  ),
);
route('/games/{id}', (c) => gameInfo(c).game, 'game');
route(
  '/games/{id}/maps',
  (c) => runList(allMaps(c), list(c, 'maps', [eq('game.id', gameInfo(c).game.id)])),
  'game',
);
route('/games/{id}/mappools', (c) => gameInfo(c).pools, 'game');
route(
  '/games/{id}/races',
  (c) =>
    runList(
      gameInfo(c).races.map((r) => ({ id: r.id })),
      list(c, 'races'),
    ),
  'game',
);
route('/games/{id}/roles', (c) => runList(gameInfo(c).roles, list(c, 'roles')), 'game');
route('/games/{id}/releases', (c) => runList(gameInfo(c).releases, list(c, 'releases')), 'game');
route('/images/{id}', (c) => {
  const id = id0(c);
  const image = c.world.catalog.images.get(id);
  if (image) return image;
  if (id > TOURNAMENT_IMAGE_BASE && c.world.tournamentPlan(id - TOURNAMENT_IMAGE_BASE)) {
    const { type: _type, ...plain } = tournamentImage(c.world, id - TOURNAMENT_IMAGE_BASE);
    return plain;
  }
  return notFound('image', id);
});
route('/incidents', (c) => runList(c.world.incidentsAt(c.t), list(c, 'incidents')));
route('/languages', (c) => runList(c.world.catalog.languages, list(c, 'languages')));
route('/lineups', (c) => runList(c.world.catalog.lineups, list(c, 'lineups')));
route('/lineups/{id}', (c) => c.world.catalog.lineupById.get(id0(c)) ?? notFound('lineup', id0(c)));
route('/lineups/{id}/rosters', (c) =>
  runList(c.world.catalog.rosters, list(c, 'rosters', [eq('line_up.id', lineup(c))])),
);
route('/lineups/{id}/series', (c) => {
  const rosters = c.world.catalog.rosters.filter((r) => r.line_up.id === lineup(c)).map((r) => r.id);
  return seriesList(c, [setCondition('participants.roster.id', '^', rosters)]);
});
route('/maps', (c) => runList(allMaps(c), list(c, 'maps')));
route('/maps/layouts', (c) => runList(c.world.catalog.mapLayouts, list(c, 'map_layouts')));
route('/maps/layouts/{id}', (c) => find(c.world.catalog.mapLayouts, id0(c), 'map layout'));
route('/maps/{id}', (c) => find(allMaps(c), id0(c), 'map'));
route('/organisations', (c) => runList(c.world.catalog.organisations, list(c, 'organisations')));
route('/organisations/{id}', (c) => find(c.world.catalog.organisations, id0(c), 'organisation'));
route('/platforms', (c) => runList(c.world.catalog.platforms, list(c, 'platforms')));
route('/platforms/{id}', (c) => find(c.world.catalog.platforms, id0(c), 'platform'));
route('/socialmedia/platforms', (c) =>
  runList(c.world.catalog.socialPlatforms, list(c, 'social_media_platforms')),
);
route('/standingrosters/{id}', (c) => find(c.world.catalog.standingRosters, id0(c), 'standing roster'));
route('/players', (c) => runList(c.world.catalog.players, list(c, 'players')));
route('/players/{id}', (c) => c.world.catalog.playerById.get(id0(c)) ?? notFound('player', id0(c)), 'player');
route(
  '/players/{id}/standingrosters',
  (c) => {
    const player = c.world.catalog.playerById.get(id0(c)) ?? notFound('player', id0(c));
    const rosters = new Set(
      c.world.catalog.rosters
        .filter((r) => r.line_up.players.some((p) => p.id === player.id))
        .map((r) => r.id),
    );
    return c.world.catalog.standingRosters.filter((s) => rosters.has(s.roster.id));
  },
  'player',
);
route('/teams', (c) => runList(c.world.catalog.teams, list(c, 'teams')));
route('/teams/{id}', (c) => c.world.catalog.teamById.get(id0(c)) ?? notFound('team', id0(c)), 'team');
route('/teams/{id}/standingrosters', (c) => {
  const team = c.world.catalog.teamById.get(id0(c)) ?? notFound('team', id0(c));
  const rosters = new Set(c.world.catalog.rosters.filter((r) => r.team.id === team.id).map((r) => r.id));
  return runList(
    c.world.catalog.standingRosters.filter((s) => rosters.has(s.roster.id)),
    list(c, 'standing_rosters'),
  );
});
route('/rosters', (c) => runList(c.world.catalog.rosters, list(c, 'rosters')));
route('/rosters/{id}', (c) => c.world.catalog.rosterById.get(id0(c)) ?? notFound('roster', id0(c)));
route('/rosters/{id}/series', (c) => {
  const roster = c.world.catalog.rosterById.get(id0(c)) ?? notFound('roster', id0(c));
  return seriesList(c, [setCondition('participants.roster.id', '^', [roster.id])]);
});

// ---- casters ----
route('/casters', (c) =>
  runList(
    c.world.catalog.casters.map((info) => c.world.casterAt(info, c.t)),
    list(c, 'casters'),
  ),
);
route('/casters/{id}', (c) => {
  const info = c.world.catalog.casterById.get(id0(c)) ?? notFound('caster', id0(c));
  if (info.deleted_at !== null)
    throw new ApiError(410, `Caster ${info.id} was deleted at ${info.deleted_at}.`);
  return c.world.casterAt(info, c.t);
});
route('/casters/{id}/streams', (c) => {
  const info = c.world.catalog.casterById.get(id0(c)) ?? notFound('caster', id0(c));
  return [c.world.streamAt(info, c.t)];
});

// ---- series ----
route('/series', (c) => seriesList(c, []));
route(
  '/series/{id}',
  (c) => {
    const plan = seriesPlan(c);
    const series = c.world.seriesAt(plan, c.t);
    if (series.deleted_at !== null)
      throw new ApiError(410, `Series ${plan.id} was deleted at ${series.deleted_at}.`);
    return series;
  },
  'series',
);
route(
  '/series/{id}/casters',
  (c) => {
    const plan = seriesPlan(c);
    const params = list(c, 'casters');
    const entries = [...plan.casters].sort(
      (a, b) => Number(b.primary) - Number(a.primary) || a.caster.id - b.caster.id,
    );
    const casters = entries.map((e) => c.world.casterAt(c.world.catalog.casterById.get(e.caster.id)!, c.t));
    // Primary first, then by id (spec, "Aliases"), unless the request orders otherwise.
    if (params.order.length > 0) return runList(casters, params);
    return casters
      .filter((x) => params.filter.test(x))
      .slice(params.page.skip, params.page.skip + params.page.take);
  },
  'series',
);
route('/series/{id}/matches', (c) => matchList(c, [eq('series.id', seriesPlan(c).id)]), 'series');
route('/series/{id}/rosters', (c) => rosterList(c, c.world.knownRosters(seriesPlan(c), c.t)), 'series');
route(
  '/series/{id}/scoring',
  (c) => {
    const plan = seriesPlan(c);
    if (plan.kind !== 'battle-royale') return [];
    return [
      { type: 'kill_multiplier', value: KILL_MULTIPLIER },
      ...PLACEMENT_POINTS.map((value, i) => ({ type: `placement_${i + 1}`, value })),
    ];
  },
  'series',
);
route(
  '/series/{id}/draft',
  (c) => {
    const plan = seriesPlan(c);
    // The map of each played map is revealed when that map starts.
    return plan.matches
      .filter((m) => c.t >= m.start && (plan.kind === 'battle-royale' || m.winner >= 0))
      .map((m) => ({
        draft_cycle: m.order,
        event_type: 'random-picked-map',
        event_data: { map: { id: m.map } },
      }));
  },
  'series',
);
route('/id_spaces/{id}/series', (c) => {
  const space = id0(c);
  if (space < 1 || space > ID_SPACES.length) notFound('id space', space);
  const params = list(c, 'id_space_series');
  return querySeries(c.world, params, c.t, {
    view: (plan) => {
      const external = c.world.externalId(space, 'series', plan.id);
      return { ...c.world.seriesAt(plan, c.t), external_id: external === null ? null : String(external) };
    },
    keyMap: { external_id: { path: 'id', map: (n) => c.world.fromExternal(space, 'series', n) } },
  });
});

// ---- matches ----
route('/matches', (c) => matchList(c, []));
route(
  '/matches/{id}',
  (c) => {
    const { series, match } = matchPlan(c);
    const value = c.world.matchAt(series, match, c.t);
    if (value.deleted_at !== null)
      throw new ApiError(410, `Match ${match.id} was deleted at ${value.deleted_at}.`);
    return value;
  },
  'match',
);
route('/matches/{id}/rosters', (c) => rosterList(c, c.world.knownRosters(matchPlan(c).series, c.t)), 'match');
route(
  '/matches/{id}/live/cv/summary',
  (c) => {
    const { series, match } = matchPlan(c);
    return liveSummary(c.world, series, match, c.t, 'cv');
  },
  'match',
);
route(
  '/matches/{id}/live/api/summary',
  (c) => {
    const { series, match } = matchPlan(c);
    return liveSummary(c.world, series, match, c.t, 'api');
  },
  'match',
);

// ---- tournaments, stages, substages ----
route('/tournaments', (c) =>
  runList(
    c.world.window(c.t).tournaments.map((t) => c.world.tournamentAt(t)),
    list(c, 'tournaments'),
  ),
);
route('/tournaments/{id}', (c) => c.world.tournamentAt(tournamentPlan(c)), 'tournament');
route(
  '/tournaments/{id}/casters',
  (c) => {
    const plan = tournamentPlan(c);
    const casters = plan.casters.map((id) => c.world.casterAt(c.world.catalog.casterById.get(id)!, c.t));
    return runList(casters, list(c, 'casters'));
  },
  'tournament',
);
route(
  '/tournaments/{id}/stages',
  (c) => stageList(c, [eq('tournament.id', tournamentPlan(c).id)]),
  'tournament',
);
route(
  '/tournaments/{id}/substages',
  (c) => substageList(c, [eq('tournament.id', tournamentPlan(c).id)]),
  'tournament',
);
route(
  '/tournaments/{id}/series',
  (c) => seriesList(c, [eq('tournament.id', tournamentPlan(c).id)]),
  'tournament',
);
route('/tournaments/{id}/participants', (c) => c.world.participantsOf(tournamentPlan(c), c.t));
route('/stages', (c) => stageList(c, []));
route('/stages/{id}', (c) => c.world.stageAt(c.world.stagePlan(id0(c)) ?? notFound('stage', id0(c)), c.t));
route('/stages/{id}/substages', (c) => {
  const stage = c.world.stagePlan(id0(c)) ?? notFound('stage', id0(c));
  return substageList(c, [eq('stage.id', stage.id)]);
});
route('/substages', (c) => substageList(c, []));
route('/substages/{id}', (c) => c.world.substageAt(substagePlan(c), c.t));
route('/substages/{id}/rosters', (c) =>
  c.world.substageAt(substagePlan(c), c.t).rosters.map((r) => c.world.catalog.rosterById.get(r.id)!),
);
route('/substages/{id}/series', (c) => seriesList(c, [eq('substage.id', substagePlan(c).id)]));

// ---- helpers ----
function gameInfo(c: RouteContext) {
  return c.world.catalog.game(id0(c)) ?? notFound('game', id0(c));
}

function allMaps(c: RouteContext) {
  return c.world.catalog.games.flatMap((g) => g.maps);
}

function lineup(c: RouteContext): number {
  const found = c.world.catalog.lineupById.get(id0(c)) ?? notFound('lineup', id0(c));
  return found.id;
}

function seriesPlan(c: RouteContext): SeriesPlan {
  return c.world.seriesPlan(id0(c)) ?? notFound('series', id0(c));
}

function matchPlan(c: RouteContext) {
  return c.world.matchPlan(id0(c)) ?? notFound('match', id0(c));
}

function tournamentPlan(c: RouteContext) {
  return c.world.tournamentPlan(id0(c)) ?? notFound('tournament', id0(c));
}

function substagePlan(c: RouteContext) {
  return c.world.substagePlan(id0(c)) ?? notFound('substage', id0(c));
}

function seriesList(c: RouteContext, extra: FilterCondition[]): Series[] {
  return querySeries(c.world, list(c, 'series', extra), c.t, { view: (plan) => c.world.seriesAt(plan, c.t) });
}

function rosterList(c: RouteContext, ids: number[]): Roster[] {
  return runList(c.world.catalog.rosters, list(c, 'rosters', [setCondition('id', '<=', [...new Set(ids)])]));
}

/** Matches of the window's series; series-level indexes narrow the candidates first. */
function matchList(c: RouteContext, extra: FilterCondition[]) {
  const params = list(c, 'matches', extra);
  // A match's lifecycle bounds its series' lifecycle: an upcoming map may belong to a live series.
  const SERIES_LIFECYCLES: Record<string, string[]> = {
    live: ['live'],
    upcoming: ['upcoming', 'live'],
    over: ['live', 'over'],
  };
  const seriesConditions = params.filter.conditions.flatMap((cond): FilterCondition[] => {
    if (cond.path !== 'lifecycle') return [cond];
    const bound =
      cond.op === '=' && cond.value.kind === 'scalar' ? SERIES_LIFECYCLES[cond.value.text] : undefined;
    return bound ? [{ path: 'lifecycle', op: '<=', value: { kind: 'set', items: bound } }] : [];
  });
  const candidates = seriesCandidates(c.world, seriesConditions, c.t, {
    'series.id': { path: 'id', map: (n) => n },
    id: { path: 'id', map: (n) => Math.floor(n / 8) },
  });
  const matches = candidates.flatMap((plan) => plan.matches.map((m) => c.world.matchAt(plan, m, c.t)));
  return runList(matches, params);
}

function stageList(c: RouteContext, extra: FilterCondition[]) {
  const params = list(c, 'stages', extra);
  const tournament =
    extra[0]?.path === 'tournament.id'
      ? c.world.tournamentPlan(Number((extra[0].value as { text: string }).text))
      : null;
  const stages = tournament ? tournament.stages : c.world.window(c.t).stages;
  return runList(
    stages.map((s) => c.world.stageAt(s, c.t)),
    params,
  );
}

function substageList(c: RouteContext, extra: FilterCondition[]) {
  const params = list(c, 'substages', extra);
  let substages = c.world.window(c.t).substages;
  const first = extra[0];
  if (first && first.value.kind === 'scalar') {
    const id = Number(first.value.text);
    if (first.path === 'tournament.id')
      substages = c.world.tournamentPlan(id)?.stages.flatMap((s) => s.substages) ?? [];
    if (first.path === 'stage.id') substages = c.world.stagePlan(id)?.substages ?? [];
  }
  return runList(
    substages.map((s) => c.world.substageAt(s, c.t)),
    params,
  );
}

export { iso };
