/**
 * The second game shape of v2 (`service-v2.md`, "Light summaries" and "Match play-by-play"): a
 * MOBA's light summary (`radiant`/`dire` with their players, `draft`, `building_kills`) and its
 * play-by-play summary (`radiant_roster`, `dire_roster`, `match_length`, `draft_seq`,
 * `first_blood`, `kills`, `structure_dest`, `player_stats`, `roshan_events`). Both read the v3 API
 * summary and kill log of the same match (`src/service/live.ts`), so the three never disagree.
 * Play-by-play times are in milliseconds on the game clock: the game starts at -90000 and 0 is
 * the first creep wave.
 */
import type { ApiTeamState, LiveApiSummary } from '../../protocol/moba-summary.ts';
import { liveApiSummary, mobaKills, mobaStructureFalls } from '../live.ts';
import type { MatchPlan, SeriesPlan } from '../schedule.ts';
import type { World } from '../world.ts';

/** Where the game clock's 0 lies after the match's start (spec: the game starts at -90000 ms). */
export const PRE_GAME_MS = 90_000;

const LANES = ['top', 'mid', 'bot'] as const;

type SideName = 'radiant' | 'dire';

/** A player's figures in the spec's keys; seeds 1-5 are the radiant's, 6-10 the dire's. */
function playerStats(team: ApiTeamState, side: SideName) {
  return team.players.map((p, i) => ({
    player: { id: p.id },
    hero: { id: p.hero.id },
    side,
    seed: (side === 'radiant' ? 1 : 6) + i,
    kills: p.kills.total,
    deaths: p.deaths.total,
    assists: p.assists.total,
    creep_kills: p.creeps.overall.kills.total,
    creep_denies: p.creeps.overall.denies.total,
    level: p.level,
    networth: p.gold.net_worth,
    gpm: p.gold.per_minute,
    xpm: p.experience.per_minute,
    hero_damage: p.damage.hero.given.total,
    tower_damage: p.damage.structures.given.total,
    hero_healing: p.healing.hero.given.total,
    items: {
      backpack: p.items.hero.backpack.items.map((x) => ({ id: x.id })),
      inventory: p.items.hero.inventory.items.map((x) => ({ id: x.id })),
    },
  }));
}

/** Picks and bans in draft order: `{ order, type, roster: { id }, hero }`. */
function draft(api: LiveApiSummary) {
  return [api.teams.home, api.teams.away]
    .flatMap((team) => [
      ...team.draft.picks.map((x) => ({
        order: x.draft_order,
        type: 'pick',
        roster: team.roster,
        hero: x.hero,
      })),
      ...team.draft.bans.map((x) => ({
        order: x.draft_order,
        type: 'ban',
        roster: team.roster,
        hero: x.hero,
      })),
    ])
    .sort((a, b) => a.order - b.order);
}

/** Where the k-th structure of a kind stands: towers three a lane and tier by tier, barracks two a lane. */
function position(type: 'tower' | 'barracks', k: number, side: SideName) {
  if (type === 'barracks') return { tier: 3, lane: LANES[Math.floor(k / 2) % 3]!, side };
  return k < 9 ? { tier: Math.floor(k / 3) + 1, lane: LANES[k % 3]!, side } : { tier: 4, lane: 'mid', side };
}

/** The structures fallen by t, in order; `match_time` is ms since the match's start (`live.ts`). */
export function buildingKills(world: World, plan: SeriesPlan, m: MatchPlan, t: number) {
  return mobaStructureFalls(world, plan, m, t).map((f) => {
    const side: SideName = f.side === 0 ? 'radiant' : 'dire';
    return {
      match_time: f.at - m.start,
      victim: { type: f.type, position: position(f.type, f.index, side) },
    };
  });
}

/** The light summary of a MOBA match at t (the second game shape). */
export function mobaLight(world: World, plan: SeriesPlan, m: MatchPlan, t: number, ended: boolean) {
  const api = liveApiSummary(world, plan, m, t);
  const side = (team: ApiTeamState, name: SideName) => ({
    roster: { id: team.roster.id },
    score: team.score,
    is_winner: team.is_winner,
    structure_status: {
      towers: team.structures_status.towers.map((x) => x.standing),
      barracks: team.structures_status.barracks.map((x) => x.standing),
    },
    player_stats: playerStats(team, name),
  });
  return {
    confirmed: true,
    length: Math.floor(api.match.clock.milliseconds / 1000),
    ended,
    radiant: side(api.teams.home, 'radiant'),
    dire: side(api.teams.away, 'dire'),
    draft: draft(api),
    building_kills: buildingKills(world, plan, m, t),
  };
}

/** The play-by-play summary of a MOBA match at t (`with[]=summary`). */
export function mobaPlayByPlay(world: World, plan: SeriesPlan, m: MatchPlan, t: number) {
  const api = liveApiSummary(world, plan, m, t);
  const clock = (at: number) => at - m.start - PRE_GAME_MS;
  const kills = mobaKills(world, plan, m, t).map((k) => ({
    match_time: clock(k.at),
    killer: { id: k.killer },
    victim: { id: k.victim },
    roster: { id: plan.rosters[k.side]! },
  }));
  // The aegis shows on the computer-vision summary from the 20th minute after the start (`live.ts`).
  const roshanAt = m.start + 20 * 60_000;
  const roshan: { match_time: number; roster: { id: number } }[] = [];
  if (Math.min(t, m.end) >= roshanAt) {
    // Roshan falls to the side then ahead on kills, who carries the aegis.
    const ahead = mobaKills(world, plan, m, roshanAt).reduce((n, k) => n + (k.side === 0 ? 1 : -1), 0);
    roshan.push({ match_time: clock(roshanAt), roster: { id: plan.rosters[ahead >= 0 ? 0 : 1]! } });
  }
  return {
    radiant_roster: { id: api.teams.home.roster.id },
    dire_roster: { id: api.teams.away.roster.id },
    match_length: api.match.clock.milliseconds,
    draft_seq: draft(api),
    first_blood: kills[0] ?? null,
    kills,
    structure_dest: buildingKills(world, plan, m, t).map((b) => ({
      match_time: clock(m.start + b.match_time),
      victim: b.victim,
    })),
    player_stats: [...playerStats(api.teams.home, 'radiant'), ...playerStats(api.teams.away, 'dire')],
    roshan_events: roshan,
  };
}
