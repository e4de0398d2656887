/**
 * The two live summaries of a match (the v3 specification, "Live match summary"): the latest message of
 * the `<game>_live_cv_states` and `<game>_live_api_states` channels. A MOBA's are built here, in the
 * specification's shapes; the other games' in `live-games.ts`. Every MOBA figure is derived from
 * the match's planned score events and the clock, so it only grows where it should (kills, levels,
 * net worth, fallen structures) and a finished match keeps its last summary.
 */

import type { LiveSummary } from '../protocol/live-summary.ts';
import type {
  ApiPlayerState,
  ApiTeamState,
  CvPlayerState,
  CvSideState,
  CvTeamState,
  LiveApiSummary,
  LiveCvSummary,
} from '../protocol/moba-summary.ts';
import type { Ref } from '../protocol/types.ts';
import { ApiError } from './api-error.ts';
import { battleRoyaleSummary, esoccerSummary, rtsSummary, shooterSummary } from './live-games.ts';
import { statesIndex } from './push/channels.ts';
import { hash32, Rng } from './random.ts';
import type { MatchPlan, SeriesPlan } from './schedule.ts';
import { iso, type World } from './world.ts';

const TOWERS = 11;
const BARRACKS = 6;
const DELAY_MS = 120_000;

interface TeamFigures {
  roster: number;
  faction: Ref;
  players: number[];
  heroes: number[];
  bans: number[];
  kills: number;
  /** Kills and deaths per player (index in the lineup). */
  playerKills: number[];
  playerDeaths: number[];
  firstKill: number | null;
  towersLost: number;
  barracksLost: number;
  netWorth: number[];
}

interface Figures {
  at: number;
  clock: number;
  over: boolean;
  winner: number;
  events: number;
  teams: [TeamFigures, TeamFigures];
  patch: string;
  items: number[];
  neutral: number[];
  runes: number[];
  runeLocations: number[];
  outposts: number[];
  aegis: number;
  structures: number[];
}

/** Throws the 404 of a match that never went live; otherwise the instant of its summary (clamped to the end). */
function summaryInstant(world: World, plan: SeriesPlan, m: MatchPlan, t: number): number {
  const lifecycle = world.matchLifecycle(plan, m, t);
  const played = plan.kind === 'battle-royale' || m.winner >= 0;
  if (plan.forfeit >= 0 || !played || (plan.deletedAt !== null && plan.deletedAt <= m.start) || t < m.start) {
    throw new ApiError(
      404,
      `Match ${m.id} has not gone live${lifecycle === 'upcoming' ? ' yet' : ''}: a live summary exists once a match has started.`,
    );
  }
  return Math.min(t, m.end);
}

/**
 * What `/matches/{id}/live/{source}/summary` answers at t: a MOBA in the specification's shape of
 * that source; any other game in its own shape (`src/protocol/live-summary.ts`), the same on both
 * sources.
 */
export function liveSummary(
  world: World,
  plan: SeriesPlan,
  m: MatchPlan,
  t: number,
  source: 'cv' | 'api',
): LiveSummary {
  const at = summaryInstant(world, plan, m, t);
  // Every summary is the latest message of its push channel (`push/channels.ts`): it says which.
  const index = { latest_states_channel_index: statesIndex(world, plan, m, at) };
  switch (plan.kind) {
    case 'moba':
      return source === 'cv'
        ? { ...liveCvSummary(world, plan, m, t), ...index }
        : { ...liveApiSummary(world, plan, m, t), ...index };
    case 'shooter':
      return { ...shooterSummary(world, plan, m, at), ...index };
    case 'esoccer':
      return { ...esoccerSummary(world, plan, m, at), ...index };
    case 'rts':
      return { ...rtsSummary(world, plan, m, at), ...index };
    case 'battle-royale':
      return { ...battleRoyaleSummary(world, plan, m, at), ...index };
  }
}

/** The clock's worth of one enemy kill toward a tower: a third of the 12 minutes a tower stands alone. */
const KILL_MS = 240_000;
/** The clock alone takes a tower every 12 minutes. */
const TOWER_MS = 720_000;

/**
 * Towers a side has lost: one per 3 enemy kills and one per 12 minutes of the clock, counted in
 * whole milliseconds (a sum of fractions such as 2/3 + 240000/720000 would fall short of 1).
 */
function towersLostAt(enemyKills: number, clock: number): number {
  return Math.min(TOWERS, Math.floor((enemyKills * KILL_MS + clock) / TOWER_MS));
}

/** Barracks fall two at a time once 8 towers of the side are down. */
function barracksLostAt(towersLost: number): number {
  return Math.min(BARRACKS, Math.max(0, towersLost - 7) * 2);
}

/**
 * When each structure of a MOBA match falls, up to t: per side (0 home, 1 away) the instants at
 * which its towers and barracks counts grow, found from the same rule `figures` applies at an
 * instant (the first millisecond the count is reached).
 */
export function mobaStructureFalls(
  world: World,
  plan: SeriesPlan,
  m: MatchPlan,
  t: number,
): { side: 0 | 1; type: 'tower' | 'barracks'; index: number; at: number }[] {
  const until = summaryInstant(world, plan, m, t);
  const events = world.matchEvents(plan, m);
  const out: { side: 0 | 1; type: 'tower' | 'barracks'; index: number; at: number }[] = [];
  for (const side of [0, 1] as const) {
    const enemy = (events[1 - side] ?? []).filter((x) => x <= until);
    const killsAt = (at: number) => enemy.filter((x) => x <= at).length;
    const lostAt = (at: number) => towersLostAt(killsAt(at), at - m.start);
    for (let n = 1; n <= TOWERS; n++) {
      // The count can first be reached at an enemy kill, or where the clock alone reaches it
      // after the start or after a kill (whole milliseconds, as towersLostAt counts).
      const crossings = [m.start, ...enemy].map((from) =>
        Math.max(from, m.start + n * TOWER_MS - killsAt(from) * KILL_MS),
      );
      const at = [...enemy, ...crossings]
        .filter((x) => x >= m.start && x <= until && lostAt(x) >= n)
        .reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
      if (at === Number.POSITIVE_INFINITY) break;
      out.push({ side, type: 'tower', index: n - 1, at });
      for (let k = barracksLostAt(n - 1); k < barracksLostAt(n); k++)
        out.push({ side, type: 'barracks', index: k, at });
    }
  }
  return out.sort((a, b) => a.at - b.at || a.side - b.side);
}

/** The MOBA figures at t (clamped to the match's end). */
function figures(world: World, plan: SeriesPlan, m: MatchPlan, t: number): Figures {
  const at = summaryInstant(world, plan, m, t);
  const catalog = world.catalog;
  const assets = (category: string) =>
    (catalog.assetsBy.get(`${plan.game}:${category}`) ?? []).map((a) => a.id);
  const rng = new Rng(world.seed, 'draft', m.id);
  const heroes = rng.sample(assets('hero'), 20);
  const events = world.matchEvents(plan, m);
  const clock = at - m.start;
  const teams = [0, 1].map((side): TeamFigures => {
    const roster = catalog.rosterById.get(plan.rosters[side]!)!;
    const players = roster.line_up.players.slice(0, 5).map((p) => p.id);
    const own = events[side] ?? [];
    const other = events[1 - side] ?? [];
    const playerKills = players.map(() => 0);
    const playerDeaths = players.map(() => 0);
    let kills = 0;
    for (let k = 0; k < own.length && own[k]! <= at; k++) {
      kills++;
      playerKills[hash32(`${m.id}|k|${side}|${k}`) % players.length]!++;
    }
    for (let k = 0; k < other.length && other[k]! <= at; k++)
      playerDeaths[hash32(`${m.id}|d|${side}|${k}`) % players.length]!++;
    const otherKills = other.filter((x) => x <= at).length;
    const minutes = clock / 60_000;
    const towersLost = towersLostAt(otherKills, clock);
    return {
      roster: roster.id,
      faction: { id: assets('faction')[side] ?? 0 },
      players,
      heroes: heroes.slice(side * 5, side * 5 + 5),
      bans: heroes.slice(10 + side * 5, 15 + side * 5),
      kills,
      playerKills,
      playerDeaths,
      firstKill: own[0] !== undefined && own[0] <= at ? own[0] : null,
      towersLost,
      barracksLost: barracksLostAt(towersLost),
      netWorth: players.map((_, j) =>
        Math.round(600 + minutes * (380 + 25 * (4 - j)) + playerKills[j]! * 220 - playerDeaths[j]! * 60),
      ),
    };
  }) as [TeamFigures, TeamFigures];
  const release = catalog.game(plan.game)!.releases.at(-1)!;
  return {
    at,
    clock,
    over: at >= m.end,
    winner: m.winner,
    events: teams[0].kills + teams[1].kills,
    teams,
    patch: release.description.split(' ').at(-1)!,
    items: assets('item'),
    neutral: (catalog.assetsBy.get(`${plan.game}:item`) ?? [])
      .filter((a) => a.subcategory === 'neutral')
      .map((a) => a.id),
    runes: assets('rune'),
    runeLocations: assets('rune_location'),
    outposts: assets('outpost'),
    aegis: assets('aegis')[0] ?? 0,
    structures: assets('structure'),
  };
}

/**
 * The kills of a MOBA match up to t (clamped to its end), in order: the killing side, the killer
 * and the victim, from the same draws `figures` counts per player.
 */
export function mobaKills(
  world: World,
  plan: SeriesPlan,
  m: MatchPlan,
  t: number,
): { at: number; side: 0 | 1; killer: number; victim: number }[] {
  const at = summaryInstant(world, plan, m, t);
  const events = world.matchEvents(plan, m);
  const players = [0, 1].map(
    (side) =>
      world.catalog.rosterById
        .get(plan.rosters[side]!)
        ?.line_up.players.slice(0, 5)
        .map((p) => p.id) ?? [],
  );
  const kills: { at: number; side: 0 | 1; killer: number; victim: number }[] = [];
  for (const side of [0, 1] as const) {
    const own = events[side] ?? [];
    const killers = players[side]!;
    const victims = players[1 - side]!;
    for (let k = 0; k < own.length && own[k]! <= at; k++)
      kills.push({
        at: own[k]!,
        side,
        killer: killers[hash32(`${m.id}|k|${side}|${k}`) % killers.length]!,
        victim: victims[hash32(`${m.id}|d|${1 - side}|${k}`) % victims.length]!,
      });
  }
  return kills.sort((a, b) => a.at - b.at || a.side - b.side);
}

/** Items a player has assembled by the clock: one every 9 minutes, from a seeded order. */
function assembled(
  f: Figures,
  matchId: number,
  side: number,
  j: number,
): { item: Ref; clock: { milliseconds: number } }[] {
  const count = Math.floor(f.clock / (9 * 60_000));
  const rng = new Rng(matchId, 'items', side, j);
  const order = rng.shuffle(f.items.slice(8, 16));
  return order
    .slice(0, Math.min(count, 6))
    .map((id, k) => ({ item: { id }, clock: { milliseconds: (k + 1) * 9 * 60_000 } }));
}

function cvPlayer(f: Figures, matchId: number, side: number, j: number): CvPlayerState {
  const team = f.teams[side]!;
  const kills = team.playerKills[j]!;
  const deaths = team.playerDeaths[j]!;
  const minutes = Math.floor(f.clock / 60_000);
  const pulse = hash32(`${matchId}|hp|${side}|${j}|${Math.floor(f.at / 5000)}`);
  return {
    ui_index: side * 5 + j,
    player: { id: team.players[j]! },
    hero: { id: team.heroes[j]! },
    state: {
      hitpoints: { health: { percent: (pulse % 100) + 1 } },
      ability_resource: { mana: { percent: ((pulse >>> 8) % 100) + 1 } },
      ultimate_state: minutes < 6 ? 'not-learned' : (pulse >>> 4) % 3 === 0 ? 'cooldown' : 'ready',
      smoked: (pulse >>> 12) % 17 === 0,
      respawns_in: { milliseconds: (pulse >>> 3) % 9 === 0 && !f.over ? ((pulse >>> 5) % 40) * 1000 : 0 },
      items_assembled: assembled(f, matchId, side, j),
    },
    stats: {
      couriers: Math.floor(kills / 9),
      wards: { killed: Math.floor(minutes / 7) + (j >= 3 ? Math.floor(minutes / 5) : 0) },
      multi_kills: kills >= 2 ? [{ nr_kills: 2, count: Math.floor(kills / 4) }] : [],
      kill_streaks: kills >= 3 ? [Math.min(kills, 3 + (j % 3))] : [],
      structures:
        Math.floor(f.teams[1 - side]!.towersLost / 5) +
        (j === 0 ? 1 : 0) * Math.floor(f.teams[1 - side]!.towersLost / 3),
      kills: {
        total: kills,
        special: {
          first_blood:
            team.firstKill !== null && hash32(`${matchId}|k|${side}|0`) % team.players.length === j,
        },
      },
      denies: { total: Math.floor(minutes * (j < 3 ? 0.6 : 0.1)) },
      deaths: { total: deaths, enemy: { total: deaths }, denies: { total: 0, allies: 0, neutrals: 0 } },
      tips: { enemy: { incoming: 0, outgoing: Math.floor(kills / 5) }, allies: { incoming: 0, outgoing: 0 } },
      runes: Math.floor(minutes / 4) + (j === 1 ? Math.floor(minutes / 2) : 0),
    },
  };
}

function cvTeam(f: Figures, matchId: number, side: number, uiSide: string): CvTeamState {
  const team = f.teams[side]!;
  const enemy = f.teams[1 - side]!;
  const minutes = Math.floor(f.clock / 60_000);
  const neutral = f.neutral.slice(0, Math.min(f.neutral.length, Math.floor(minutes / 7)));
  const structureKills = (lost: number) => [
    { asset: { id: f.structures[0] ?? 0 }, total: Math.min(3, lost) },
    { asset: { id: f.structures[1] ?? 0 }, total: Math.min(3, Math.max(0, lost - 3)) },
    { asset: { id: f.structures[2] ?? 0 }, total: Math.min(3, Math.max(0, lost - 6)) },
    { asset: { id: f.structures[3] ?? 0 }, total: Math.min(2, Math.max(0, lost - 9)) },
  ];
  return {
    roster: { id: team.roster },
    ui_side: uiSide,
    faction: team.faction,
    state: {
      net_worth_lead: sum(team.netWorth) - sum(enemy.netWorth),
      neutral_items_discovered: neutral.map((id, k) => ({
        ui_index: side * 5 + (k % 5),
        player: { id: team.players[k % team.players.length]! },
        item: { id },
        clock: { milliseconds: (k + 1) * 7 * 60_000 },
      })),
    },
    stats: {
      score: team.kills,
      structures: {
        denies: { towers: [{ asset: { id: f.structures[0] ?? 0 }, total: Math.floor(team.towersLost / 4) }] },
        kills: {
          towers: structureKills(enemy.towersLost),
          barracks: [{ asset: { id: f.structures[4] ?? 0 }, total: enemy.barracksLost }],
        },
      },
      creeps: { lane: minutes * 40 + side * 3, neutral: minutes * 12, ancient: Math.floor(minutes / 3) },
      runes: {
        bottled: { bounty: Math.floor(minutes / 6), haste: Math.floor(minutes / 11) },
        activated: {
          bounty: Math.floor(minutes / 3),
          haste: Math.floor(minutes / 8),
          regeneration: Math.floor(minutes / 9),
        },
      },
    },
    players: team.players.map((_, j) => cvPlayer(f, matchId, side, j)),
  };
}

function cvState<K extends string>(
  f: Figures,
  matchId: number,
  keys: [K, K],
  sides: [number, number],
): CvSideState<K> {
  const minutes = Math.floor(f.clock / 60_000);
  const leader = f.teams[0].kills >= f.teams[1].kills ? 0 : 1;
  const names = ['north_west', 'north_east', 'south_west', 'south_east'] as const;
  const outposts = Object.fromEntries(
    names.map((name, k) => [
      name,
      {
        asset: { id: f.outposts[k] ?? 0 },
        owner: minutes < 10 ? null : { id: f.teams[(k + leader) % 2 === 0 ? 0 : 1]!.roster },
      },
    ]),
  ) as CvSideState<K>['outposts'];
  const teams = {
    [keys[0]]: cvTeam(f, matchId, sides[0], keys[0] === 'home' ? 'left' : keys[0]),
    [keys[1]]: cvTeam(f, matchId, sides[1], keys[1] === 'away' ? 'right' : keys[1]),
  } as Record<K, CvTeamState>;
  return {
    teams,
    outposts,
    available_runes:
      minutes % 2 === 0
        ? f.runeLocations.slice(0, 2).map((loc, k) => ({
            location: { id: loc },
            rune: { id: f.runes[(minutes / 2 + k) % f.runes.length] ?? 0 },
          }))
        : [],
    aegis: {
      carrier:
        minutes >= 20 && !f.over
          ? {
              ui_side: leader === 0 ? 'left' : 'right',
              ui_index: leader * 5,
              roster: { id: f.teams[leader]!.roster },
              player: { id: f.teams[leader]!.players[0]! },
            }
          : null,
      asset: { id: f.aegis },
    },
  };
}

/** `/matches/{id}/live/cv/summary` at t. */
export function liveCvSummary(world: World, plan: SeriesPlan, m: MatchPlan, t: number): LiveCvSummary {
  const f = figures(world, plan, m, t);
  const minutes = Math.floor(f.clock / 60_000);
  return {
    timestamp: iso(f.at),
    latest_events_channel_index: f.events,
    latest_states_channel_index: statesIndex(world, plan, m, f.at),
    match: {
      id: m.id,
      patch: f.patch,
      timeline: {
        diurnal_phase: Math.floor(minutes / 5) % 2 === 0 ? 'day' : 'night',
        phase: f.over ? 'post-game' : f.clock < 90_000 ? 'pre-game' : 'in-game',
        clock: { milliseconds: f.clock },
        start: iso(m.start),
        end: f.over ? iso(m.end) : null,
      },
    },
    seed_indexed_state: cvState(f, m.id, ['home', 'away'], [0, 1]),
    side_indexed_state: cvState(f, m.id, ['left', 'right'], m.id % 2 === 0 ? [0, 1] : [1, 0]),
  };
}

function apiPlayer(f: Figures, matchId: number, side: number, j: number): ApiPlayerState {
  const team = f.teams[side]!;
  const minutes = Math.max(1, f.clock / 60_000);
  const kills = team.playerKills[j]!;
  const deaths = team.playerDeaths[j]!;
  const netWorth = team.netWorth[j]!;
  const second = Math.floor(f.at / 1000);
  const items = assembled(f, matchId, side, j);
  return {
    id: team.players[j]!,
    hero: { id: team.heroes[j]! },
    ui_index: side * 5 + j,
    items: {
      hero: {
        inventory: { items: items.map((x, slot) => ({ id: x.item.id, slot })), default_size: 6 },
        backpack: { items: f.clock > 20 * 60_000 ? [{ id: f.items[0] ?? 0, slot: 0 }] : [], default_size: 3 },
        neutral_slot: {
          items:
            f.neutral[j % Math.max(1, f.neutral.length)] !== undefined && f.clock > 7 * 60_000
              ? [{ id: f.neutral[j % f.neutral.length]!, slot: 0 }]
              : [],
          default_size: 1,
        },
      },
    },
    damage: {
      hero: { given: { total: Math.round(kills * 1400 + minutes * 180 * (5 - j)) } },
      structures: { given: { total: Math.round(f.teams[1 - side]!.towersLost * 900 * (j < 3 ? 1 : 0.3)) } },
    },
    healing: { hero: { given: { total: Math.round(j >= 3 ? minutes * 120 : minutes * 10) } } },
    creeps: {
      overall: {
        kills: { total: Math.round(minutes * (j < 3 ? 7 - j : 1)) },
        denies: { total: Math.round(minutes * (j < 3 ? 0.6 : 0.1)) },
      },
    },
    gold: {
      per_minute: Math.round((netWorth / minutes) * 10) / 10,
      current: netWorth % 2400,
      net_worth: netWorth,
    },
    position: {
      x: (hash32(`${matchId}|x|${side}|${j}|${second}`) % 16000) - 8000,
      y: (hash32(`${matchId}|y|${side}|${j}|${second}`) % 16000) - 8000,
    },
    respawn_timer: { milliseconds: 0 },
    ultimate: { cooldown: { milliseconds: 0 }, state: minutes < 6 ? 'not-learned' : 'ready' },
    kills: { total: kills },
    assists: { total: Math.floor((team.kills - kills) * 0.55) },
    deaths: { total: deaths },
    experience: { per_minute: Math.round(420 + (4 - j) * 60 + kills * 8) },
    level: Math.min(30, 1 + Math.floor(minutes / 2) + Math.floor(kills / 3)),
  };
}

function apiTeam(f: Figures, matchId: number, side: number): ApiTeamState {
  const team = f.teams[side]!;
  return {
    roster: { id: team.roster },
    faction: team.faction,
    score: team.kills,
    is_winner: f.over && f.winner === side,
    captain: { id: team.players[0]! },
    players: team.players.map((_, j) => apiPlayer(f, matchId, side, j)),
    structures_status: {
      towers: Array.from({ length: TOWERS }, (_, k) => ({ standing: k >= team.towersLost })),
      barracks: Array.from({ length: BARRACKS }, (_, k) => ({ standing: k >= team.barracksLost })),
    },
    draft: {
      picks: team.heroes.map((id, k) => ({ draft_order: 7 + k * 2 + side, hero: { id } })),
      bans: team.bans.map((id, k) => ({ draft_order: k * 2 + side, hero: { id } })),
    },
  };
}

/** `/matches/{id}/live/api/summary` at t. */
export function liveApiSummary(world: World, plan: SeriesPlan, m: MatchPlan, t: number): LiveApiSummary {
  const f = figures(world, plan, m, t);
  const first = [f.teams[0].firstKill, f.teams[1].firstKill].filter((x): x is number => x !== null);
  return {
    timestamp: iso(f.at),
    match: {
      id: m.id,
      patch: f.patch,
      phase: f.over ? 'post-game' : f.clock < 90_000 ? 'undetermined' : 'in-game',
      clock: { milliseconds: f.clock },
    },
    first_blood_time: first.length > 0 ? { milliseconds: Math.min(...first) - m.start } : null,
    timeline: { length: f.clock, start: iso(m.start), end: f.over ? iso(m.end) : null },
    delay: { milliseconds: DELAY_MS },
    teams: { home: apiTeam(f, m.id, 0), away: apiTeam(f, m.id, 1) },
  };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
