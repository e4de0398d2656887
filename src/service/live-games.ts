/**
 * The live summaries of the games that are not MOBAs (`src/protocol/live-summary.ts`; shapes in
 * docs/local-service.md, "Live summaries per game"). Every figure derives from the match plan, its score
 * events (`world.matchEvents`: rounds, goals, battle-royale kills) and the clock, so the summary
 * agrees with the match resource (its score is the summary's) and only moves forward in time.
 */
import type {
  BattleRoyaleLiveSummary,
  BattleRoyaleTeamState,
  EsoccerLiveSummary,
  EsoccerTeamState,
  LiveSummaryBase,
  RtsLiveSummary,
  RtsTeamState,
  ShooterEconomy,
  ShooterLiveSummary,
  ShooterRound,
  ShooterSide,
  ShooterTeamState,
} from '../protocol/live-summary.ts';
import { hash32 } from './random.ts';
import type { MatchPlan, SeriesPlan } from './schedule.ts';
import { iso, type World } from './world.ts';

const SIDES = ['home', 'away'] as const;

function base(m: MatchPlan, at: number): LiveSummaryBase {
  const over = at >= m.end;
  return {
    timestamp: iso(at),
    match: {
      id: m.id,
      phase: over ? 'post-game' : 'in-game',
      clock: { milliseconds: at - m.start },
      start: iso(m.start),
      end: over ? iso(m.end) : null,
    },
  };
}

/** The lineup of a roster (player ids, in lineup order). */
function lineup(world: World, roster: number): number[] {
  return world.catalog.rosterById.get(roster)?.line_up.players.map((p) => p.id) ?? [];
}

/** A number in [0, n) from a seeded key. */
function pick(n: number, ...key: (string | number)[]): number {
  return hash32(key.join('|')) % Math.max(1, n);
}

// ---- shooter ----------------------------------------------------------------------------------

/** Rounds a team needs to win a map; sides swap after round HALF. */
const ROUNDS_TO_WIN = 13;
const HALF = 12;
const START_MONEY = 800;
const MAX_MONEY = 16_000;
const WIN_REWARD = 3_250;
const LOSS_REWARD = 1_400;
const LOSS_STEP = 500;
const LOSS_MAX = 3_400;

/** The side a team plays in a round: home starts on the side its match id says, swapping at half. */
function sideOf(matchId: number, team: 0 | 1, round: number): ShooterSide {
  const homeStartsOnAttack = matchId % 2 === 0;
  const startsOnAttack = team === 0 ? homeStartsOnAttack : !homeStartsOnAttack;
  const attacks = round <= HALF ? startsOnAttack : !startsOnAttack;
  return attacks ? 'attack' : 'defence';
}

function buyFor(
  money: number,
  players: number,
  round: number,
): { spend: number; buy: ShooterEconomy['buy'] } {
  const each = money / players;
  if (round === 1 || round === HALF + 1) return { spend: Math.min(money, 700 * players), buy: 'pistol' };
  if (each >= 3_900) return { spend: Math.min(money - 300 * players, 4_700 * players), buy: 'full' };
  if (each >= 2_000) return { spend: money - 250 * players, buy: 'force' };
  return { spend: Math.min(money, 200 * players), buy: 'eco' };
}

export function shooterSummary(world: World, plan: SeriesPlan, m: MatchPlan, at: number): ShooterLiveSummary {
  return shooterState(world, plan, m, at).summary;
}

/** What a shooter map has added up by a round: per team (home, away) unless said otherwise. */
interface ShooterTally {
  matchId: number;
  /** Player ids of each team's five. */
  players: number[][];
  stats: { kills: number; deaths: number; assists: number }[][];
  rounds: ShooterRound[];
  halves: [number, number][];
  money: number[];
  /** Rounds lost in a row. */
  streak: number[];
  /** Each team's economy in the current round. */
  economy: ShooterEconomy[];
  /** What each team spent per round (home, away). */
  spends: [number, number][];
}

function winReason(winnerSide: ShooterSide, r: number): ShooterRound['win_reason'] {
  if (winnerSide === 'attack') return r < 4 ? 'detonated' : 'elimination';
  return r < 3 ? 'defused' : r < 5 ? 'time' : 'elimination';
}

/** The buys of round `number` (money reset at the start of each half); the current round's economy. */
function buyRound(tally: ShooterTally, number: number, current: number): void {
  const { players, money, streak } = tally;
  if (number === 1 || number === HALF + 1) {
    for (const side of [0, 1]) {
      money[side] = START_MONEY * players[side]!.length;
      streak[side] = 0;
    }
  }
  const buys = [0, 1].map((side) => buyFor(money[side]!, players[side]!.length, number));
  for (const side of [0, 1]) money[side]! -= buys[side]!.spend;
  tally.spends.push([buys[0]!.spend, buys[1]!.spend]);
  if (number === current)
    for (const side of [0, 1])
      tally.economy[side] = {
        money: money[side]!,
        equipment_value: buys[side]!.spend + 200 * players[side]!.length,
        buy: buys[side]!.buy,
      };
}

/** `count` kills of `killer`'s players on `victim`'s, picked from the seed; an assist one time in three. */
function creditKills(
  tally: ShooterTally,
  killer: number,
  victim: number,
  count: number,
  tag: string,
  number: number,
): void {
  const { players, stats, matchId } = tally;
  for (let k = 0; k < count; k++) {
    const a = pick(players[killer]!.length, matchId, tag, number, k);
    const v = pick(players[victim]!.length, matchId, `${tag}v`, number, k);
    stats[killer]![a]!.kills++;
    stats[victim]![v]!.deaths++;
    if (pick(3, matchId, `${tag}a`, number, k) === 0)
      stats[killer]![(a + 1) % players[killer]!.length]!.assists++;
  }
}

/** Round `number`, won by team `w`: its reason, kills, the half's score, streaks and rewards. */
function playRound(tally: ShooterTally, number: number, w: 0 | 1): void {
  const { players, money, streak, matchId } = tally;
  const l = 1 - w;
  const winnerSide = sideOf(matchId, w, number);
  const reason = winReason(winnerSide, pick(10, matchId, 'round', number));
  tally.rounds.push({ number, winner: SIDES[w], winner_side: winnerSide, win_reason: reason });
  tally.halves[w]![number <= HALF ? 0 : 1]++;
  // Kills: the winners take out all five on an elimination, three or four otherwise; the losers two at most.
  const winnerKills = reason === 'elimination' ? players[l]!.length : 3 + pick(2, matchId, 'wk', number);
  creditKills(tally, w, l, winnerKills, 'w', number);
  creditKills(tally, l, w, pick(3, matchId, 'lk', number), 'l', number);
  streak[w] = 0;
  streak[l]!++;
  money[w] = Math.min(MAX_MONEY * players[w]!.length, money[w]! + WIN_REWARD * players[w]!.length);
  const lossBonus = Math.min(LOSS_MAX, LOSS_REWARD + LOSS_STEP * (streak[l]! - 1));
  money[l] = Math.min(MAX_MONEY * players[l]!.length, money[l]! + lossBonus * players[l]!.length);
}

/** A team's state in the current round; its money split among its players by seeded weights. */
function shooterTeam(tally: ShooterTally, roster: number, side: 0 | 1, current: number): ShooterTeamState {
  const eco = tally.economy[side] ?? { money: 0, equipment_value: 0, buy: 'eco' };
  const list = tally.players[side]!;
  // The parts add up to the whole: the first player takes what rounding leaves.
  const weights = list.map((_, j) => 1 + pick(4, tally.matchId, 'purse', side, current, j));
  const total = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => Math.floor((eco.money * w) / total));
  if (shares.length > 0) shares[0]! += eco.money - shares.reduce((a, b) => a + b, 0);
  return {
    roster: { id: roster },
    side: sideOf(tally.matchId, side, current),
    score: tally.rounds.filter((r) => r.winner === SIDES[side]).length,
    halves: tally.halves[side]!,
    economy: eco,
    players: list.map((id, j) => ({ player: { id }, ...tally.stats[side]![j]!, money: shares[j]! })),
  };
}

/**
 * A shooter map at an instant: the summary, and what each team spent on equipment per round (home,
 * away; the v2 light summary's rounds carry it).
 */
export function shooterState(
  world: World,
  plan: SeriesPlan,
  m: MatchPlan,
  at: number,
): { summary: ShooterLiveSummary; spends: [number, number][] } {
  const events = world.matchEvents(plan, m);
  const played = [0, 1]
    .flatMap((team) =>
      (events[team] ?? []).filter((x) => x <= at).map((x) => ({ at: x, team: team as 0 | 1 })),
    )
    .sort((a, b) => a.at - b.at || a.team - b.team);
  const over = at >= m.end;
  const current = over ? Math.max(1, played.length) : played.length + 1;
  const players = [0, 1].map((side) => lineup(world, plan.rosters[side]!).slice(0, 5));
  const tally: ShooterTally = {
    matchId: m.id,
    players,
    stats: players.map((list) => list.map(() => ({ kills: 0, deaths: 0, assists: 0 }))),
    rounds: [],
    halves: [
      [0, 0],
      [0, 0],
    ],
    money: [0, 0],
    streak: [0, 0],
    economy: [],
    spends: [],
  };
  for (let number = 1; number <= current; number++) {
    buyRound(tally, number, current);
    const result = played[number - 1];
    if (!result) break;
    playRound(tally, number, result.team);
  }
  const summary: ShooterLiveSummary = {
    ...base(m, at),
    game_kind: 'shooter',
    round: { number: current, half: current <= HALF ? 1 : 2 },
    rounds_to_win: ROUNDS_TO_WIN,
    teams: {
      home: shooterTeam(tally, plan.rosters[0]!, 0, current),
      away: shooterTeam(tally, plan.rosters[1]!, 1, current),
    },
    rounds: tally.rounds,
  };
  return { summary, spends: tally.spends };
}

// ---- e-soccer ---------------------------------------------------------------------------------

/** The game minute (0 to 90) at an instant of the map's span: two halves of 45 on the span. */
function gameMinute(m: MatchPlan, at: number): number {
  const span = Math.max(1, m.end - m.start);
  return Math.min(90, Math.max(0, Math.floor(((at - m.start) / span) * 90)));
}

export function esoccerSummary(world: World, plan: SeriesPlan, m: MatchPlan, at: number): EsoccerLiveSummary {
  const events = world.matchEvents(plan, m);
  const over = at >= m.end;
  const minute = over ? 90 : gameMinute(m, at);
  const controller = (side: number) => {
    const list = lineup(world, plan.rosters[side]!);
    return list[(m.order - 1) % Math.max(1, Math.min(2, list.length))] ?? 0;
  };
  const goals = [0, 1]
    .flatMap((side) =>
      (events[side] ?? [])
        .filter((x) => x <= at)
        .map((x) => ({
          at: x,
          team: SIDES[side]!,
          player: { id: controller(side) },
          minute: Math.max(1, gameMinute(m, x)),
        })),
    )
    .sort((a, b) => a.at - b.at)
    .map(({ at: _at, ...goal }) => goal);
  // Possession swings around an even share by the seed and the minute; the two add up to 100.
  const homePossession = 40 + pick(21, m.id, 'possession', Math.floor(minute / 10));
  const team = (side: 0 | 1): EsoccerTeamState => {
    const score = goals.filter((g) => g.team === SIDES[side]).length;
    const extra = Math.floor(minute / (9 + pick(5, m.id, 'shots', side)));
    const onTarget = score + Math.floor(extra / 2);
    return {
      roster: { id: plan.rosters[side]! },
      player: { id: controller(side) },
      score,
      shots: onTarget + Math.ceil(extra / 2),
      shots_on_target: onTarget,
      possession: side === 0 ? homePossession : 100 - homePossession,
    };
  };
  return {
    ...base(m, at),
    game_kind: 'esoccer',
    period: { number: minute < 45 ? 1 : 2, state: over ? 'full-time' : 'playing', minute },
    teams: { home: team(0), away: team(1) },
    goals,
  };
}

// ---- real-time strategy -----------------------------------------------------------------------

const SUPPLY_CAP = 200;

export function rtsSummary(world: World, plan: SeriesPlan, m: MatchPlan, at: number): RtsLiveSummary {
  const scores = world.matchScores(plan, m, at);
  const span = Math.max(1, m.end - m.start);
  const minutes = (at - m.start) / 60_000;
  const progress = (at - m.start) / span;
  const team = (side: 0 | 1): RtsTeamState => {
    const list = lineup(world, plan.rosters[side]!);
    const player = list[(m.order - 1) % Math.max(1, Math.min(3, list.length))] ?? 0;
    const race = world.catalog.playerById.get(player)?.race ?? null;
    const pace = 0.92 + pick(9, m.id, 'pace', side) / 100;
    const workers = Math.min(70, Math.floor(12 + minutes * 4.5 * pace));
    const cap = Math.min(SUPPLY_CAP, 15 + Math.floor(minutes * 13 * pace));
    let used = Math.min(cap, Math.floor(12 + minutes * 11 * pace));
    let army = Math.max(0, used - workers) * 95;
    // The last fifth of the map is the decisive fight: the loser's army melts away.
    const loser = m.winner >= 0 && side !== m.winner;
    if (loser && progress > 0.8) {
      const loss = Math.min(1, (progress - 0.8) / 0.2);
      const armySupply = Math.max(0, used - workers);
      used -= Math.floor(armySupply * 0.85 * loss);
      army = Math.floor(army * (1 - 0.85 * loss));
    }
    return {
      roster: { id: plan.rosters[side]! },
      player: { id: player },
      race: race ? { id: race.id } : null,
      score: scores[side] ?? 0,
      supply: { used, cap },
      army_value: army,
      workers,
      bases: Math.min(5, 1 + Math.floor(minutes / 5)),
      resources: {
        minerals: 50 + pick(750, m.id, 'minerals', side, Math.floor(at / 10_000)),
        gas: pick(400, m.id, 'gas', side, Math.floor(at / 10_000)),
      },
    };
  };
  return { ...base(m, at), game_kind: 'rts', teams: { home: team(0), away: team(1) } };
}

// ---- battle royale ----------------------------------------------------------------------------

const ZONES = 8;
const LOBBY_LINEUP = 4;

/**
 * When each participant is eliminated (by index; the winner never is): from the last place to the
 * second, spread over the map, never before its own last kill, in placement order.
 */
function eliminations(world: World, plan: SeriesPlan, m: MatchPlan): (number | null)[] {
  const events = world.matchEvents(plan, m);
  const placements = m.placements ?? plan.rosters.map((_, i) => i + 1);
  const n = placements.length;
  const span = Math.max(1, m.end - m.start);
  const out: (number | null)[] = placements.map(() => null);
  const byPlace = placements.map((p, i) => ({ p, i })).sort((a, b) => b.p - a.p);
  let previous = m.start;
  for (const { p, i } of byPlace) {
    if (p === 1) continue;
    const planned = m.start + Math.floor(span * (0.12 + (0.85 * (n - p + 1)) / n));
    const lastKill = (events[i] ?? []).at(-1) ?? m.start;
    const latest = m.end - (p - 1) * 1000;
    out[i] = Math.min(latest, Math.max(planned, lastKill + 1000, previous + 1000));
    previous = out[i]!;
  }
  return out;
}

export function battleRoyaleSummary(
  world: World,
  plan: SeriesPlan,
  m: MatchPlan,
  at: number,
): BattleRoyaleLiveSummary {
  const events = world.matchEvents(plan, m);
  const over = at >= m.end;
  const out = eliminations(world, plan, m);
  const span = Math.max(1, m.end - m.start);
  const teams = plan.rosters.map((roster, i): BattleRoyaleTeamState => {
    const eliminated = out[i] !== null && out[i]! <= at;
    const alive = !eliminated;
    // Players fall one by one in the last tenth of the time before the team is out.
    const until = out[i] === null ? Number.POSITIVE_INFINITY : out[i]! - at;
    const down =
      alive && until < span * 0.1 ? 1 + pick(LOBBY_LINEUP - 1, m.id, 'down', i, Math.floor(at / 30_000)) : 0;
    return {
      roster: { id: roster },
      seed: i + 1,
      alive,
      players_alive: alive ? LOBBY_LINEUP - down : 0,
      placement: eliminated || over ? (m.placements?.[i] ?? null) : null,
      kills: over ? (m.kills?.[i] ?? 0) : (events[i] ?? []).filter((x) => x <= at).length,
      eliminated_at: eliminated ? { milliseconds: out[i]! - m.start } : null,
    };
  });
  return {
    ...base(m, at),
    game_kind: 'battle-royale',
    zone: Math.min(ZONES, 1 + Math.floor(((at - m.start) / span) * ZONES)),
    teams_alive: teams.filter((t) => t.alive).length,
    teams,
  };
}
