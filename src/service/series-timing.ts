/**
 * The timing of each series once it has its slot (map lengths, postponements, deletions, streams),
 * its casters once every series has its time, and when playoff participants become known.
 */
import type { Catalog } from './catalog.ts';
import type { SeriesPlan, TournamentPlan } from './plan-types.ts';
import { Rng } from './random.ts';
import { CASTER_DAY_HOURS, CASTER_DAY_SERIES } from './schedule-check.ts';
import { runsLate, WEEK_CARRY_MS } from './timetable.ts';
import { WEEK_MS, weekStart } from './weeks.ts';

const DAY_MS = 24 * 3600_000;
/** Rest a caster gets between two series. */
export const REST_MS = 15 * 60_000;

/** Timing, postponements, deletions, casters, broadcasters: once the series has its slot. */
export function finishPlan(catalog: Catalog, plan: SeriesPlan): void {
  const rng = new Rng(catalog.seed, 'series-time', plan.id);
  const info = catalog.game(plan.game)!;
  const isGroup = plan.substage.type !== 2;
  if (isGroup && plan.forfeit < 0 && rng.chance(0.03)) {
    plan.postponedFrom = plan.start;
    plan.postponedAt = plan.start - rng.int(20, 12 * 60) * 60_000;
    plan.start += rng.int(1, 8) * 3600_000;
  }
  if (
    isGroup &&
    plan.kind !== 'battle-royale' &&
    plan.forfeit < 0 &&
    plan.postponedFrom === null &&
    rng.chance(0.015)
  ) {
    plan.deletedAt = plan.start - rng.int(1, 12) * 3600_000;
  }
  let t = plan.start;
  let end = plan.start;
  for (const m of plan.matches) {
    if (plan.forfeit >= 0) {
      m.start = plan.start;
      m.end = plan.start;
      continue;
    }
    if (m.winner < 0 && plan.kind !== 'battle-royale') {
      m.start = end;
      m.end = end;
      continue;
    }
    const [lo, hi] = info.mapMinutes;
    m.start = t;
    m.end = t + rng.int(lo * 60, hi * 60) * 1000;
    end = m.end;
    t = m.end + rng.int(5, 10) * 60_000;
  }
  plan.end = end;
  // Every tier-1 series is on air; lower tiers mostly.
  const tierStreamed = plan.tier === 1 ? 1 : plan.tier <= 3 ? 0.85 : 0.4;
  plan.streamed = rng.chance(tierStreamed);
  if (plan.streamed) {
    const broadcasters = rng.sample(catalog.broadcasters, rng.int(1, 2));
    plan.broadcasters = broadcasters.map((b, i) => ({
      broadcaster: b,
      broadcasts: [{ external_id: `${b.external_id}-${plan.id}`, language: b.broadcast_defaults.language }],
      official: i === 0,
    }));
  }
  if (plan.forfeit < 0 && plan.deletedAt === null && rng.chance(0.03))
    plan.incidentAt = plan.end + 30 * 60_000;
  const changes = [plan.start];
  if (plan.kind === 'battle-royale') for (const m of plan.matches) changes.push(m.end);
  else for (const m of plan.matches) if (m.winner >= 0) changes.push(m.end);
  if (plan.deletedAt !== null) changes.push(plan.deletedAt);
  if (plan.postponedAt !== null) changes.push(plan.postponedAt);
  if (plan.incidentAt !== null) changes.push(plan.incidentAt);
  plan.changes = changes.sort((a, b) => a - b);
}

/**
 * Casters for the streamed series, once every series has its time: tier 1 first (each of its
 * series gets two, its tournament's own casters first, then the game's others), then the lower
 * tiers with one or two as casters are left. A caster casts one series at a time with a rest
 * between two, keeps a human day (at most CASTER_DAY_HOURS on air and CASTER_DAY_SERIES series
 * starting within any 24 hours), and follows the week-boundary rule of WEEK_CARRY_MS. A series
 * whose casters are all busy is streamed by its broadcasters without a caster.
 */
export function assignCasters(catalog: Catalog, series: SeriesPlan[], week: number): void {
  const base = weekStart(week);
  const weekEnd = base + WEEK_MS;
  const casts = new Map<number, [number, number][]>();
  const gameCasters = new Map<number, number[]>();
  for (const c of catalog.casters) {
    if (c.deleted_at !== null) continue;
    const list = gameCasters.get(c.game.id) ?? [];
    list.push(c.id);
    gameCasters.set(c.game.id, list);
  }
  const free = (id: number, plan: SeriesPlan) => {
    if (runsLate(id, week)) {
      if (plan.end > weekEnd + WEEK_CARRY_MS) return false;
    } else if (plan.start < base + WEEK_CARRY_MS + REST_MS || plan.end > weekEnd - REST_MS) return false;
    const list = casts.get(id) ?? [];
    return humanDay(list, plan.start, plan.end) && edgesHalfDay(list, plan, base, weekEnd);
  };
  const order = series
    .filter((plan) => plan.streamed && plan.deletedAt === null)
    .sort((a, b) => a.tier - b.tier || a.start - b.start || a.id - b.id);
  // Tier 1 in two passes (a caster for each series, then a second), then the others.
  const tier1 = order.filter((plan) => plan.tier === 1);
  const passes: [SeriesPlan[], number][] = [
    [tier1, 1],
    [tier1, 2],
    [order.filter((plan) => plan.tier !== 1), 2],
  ];
  for (const [plans, upTo] of passes) {
    for (const plan of plans) {
      const rng = new Rng(catalog.seed, 'series-casters', plan.id);
      const own = rng.shuffle([...plan.tournament.casters]);
      const guests = rng.shuffle((gameCasters.get(plan.game) ?? []).filter((id) => !own.includes(id)));
      const wanted = Math.min(upTo, plan.tier === 1 ? 2 : rng.int(1, 2)) - plan.casters.length;
      if (wanted <= 0) continue;
      const taken = new Set(plan.casters.map((c) => c.caster.id));
      const chosen = [...own, ...guests].filter((id) => !taken.has(id) && free(id, plan)).slice(0, wanted);
      if (chosen.length === 0) continue;
      const primary = rng.chance(0.9);
      const ids = [...taken, ...chosen];
      plan.casters = ids.map((id, i) => ({ primary: primary && i === 0, caster: { id } }));
      for (const id of chosen) {
        const list = casts.get(id) ?? [];
        list.push([plan.start, plan.end]);
        casts.set(id, list);
      }
    }
  }
}

/**
 * Weeks are planned apart, so a caster's 24 hours across two weeks are kept human by halves: at
 * most half a day on air (and half its series) starting in the week's first 24 hours, and half in
 * its last 24 hours.
 */
function edgesHalfDay(list: [number, number][], plan: SeriesPlan, base: number, weekEnd: number): boolean {
  const half = (CASTER_DAY_HOURS * 3600_000) / 2;
  const length = plan.end - plan.start;
  const fits = (inEdge: (start: number) => boolean) => {
    if (!inEdge(plan.start)) return true;
    const casts = list.filter(([a]) => inEdge(a));
    const ms = casts.reduce((sum, [a, b]) => sum + b - a, length);
    return ms <= half && casts.length + 1 <= CASTER_DAY_SERIES / 2;
  };
  return fits((a) => a < base + DAY_MS) && fits((a) => a >= weekEnd - DAY_MS);
}

/**
 * May a caster with these casts ([start, end]) also cast from `start` to `end`: rested from every
 * other, and within a human day in every 24 hours that would hold it?
 */
function humanDay(list: [number, number][], start: number, end: number): boolean {
  for (const [a, b] of list) if (a < end + REST_MS && start < b + REST_MS) return false;
  const near = list.filter(([a]) => Math.abs(a - start) < DAY_MS);
  near.push([start, end]);
  near.sort((x, y) => x[0] - y[0]);
  for (let i = 0; i < near.length; i++) {
    let ms = 0;
    let n = 0;
    for (let j = i; j < near.length && near[j]![0] - near[i]![0] < DAY_MS; j++) {
      ms += near[j]![1] - near[j]![0];
      n++;
    }
    if (ms > CASTER_DAY_HOURS * 3600_000 || n > CASTER_DAY_SERIES) return false;
  }
  return true;
}

/**
 * When the participants of each playoff series become known: a slot fed by a series when that
 * series is over, a seed when the whole group stage is over (its last series' end). Until then the
 * service shows the series without them (TBD). Each reveal is a change of the series.
 */
export function revealParticipants(tournaments: TournamentPlan[]): void {
  for (const t of tournaments) {
    const groups = t.stages.find((stage) => stage.order === 1);
    let groupEnd = 0;
    for (const sub of groups?.substages ?? [])
      for (const s of sub.series) if (s.deletedAt === null) groupEnd = Math.max(groupEnd, s.end);
    const byId = new Map<number, SeriesPlan>();
    for (const stage of t.stages)
      for (const sub of stage.substages) for (const s of sub.series) byId.set(s.id, s);
    for (const stage of t.stages) {
      if (stage.order === 1) continue;
      for (const sub of stage.substages) {
        for (const plan of sub.series) {
          plan.revealAt = plan.sources.map((source) =>
            source === null ? groupEnd : (byId.get(source)?.end ?? groupEnd),
          );
          plan.changes = [...new Set([...plan.changes, ...plan.revealAt])].sort((a, b) => a - b);
        }
      }
    }
  }
}
