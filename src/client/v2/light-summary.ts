/**
 * The v2 light summary (the v2 specification, "Light summaries") as the live summary a card reads
 * (`src/protocol/live-summary.ts`): the second game shape (`radiant`/`dire`) is a MOBA's, read as
 * the v3 API summary; the first (`home`/`away`) with its `rounds` is a shooter's. The first shape
 * without rounds says nothing a card can name (the v2 specification shows no third game's shape):
 * it is answered as "no summary" (a 404), and the card shows the match's score.
 */
import type {
  LiveSummary,
  ShooterLiveSummary,
  ShooterRound,
  ShooterSide,
} from '../../protocol/live-summary.ts';
import type { LiveApiSummary } from '../../protocol/moba-summary.ts';
import { NotFoundError } from '../errors.ts';
import type { V2LightRound, V2LightSide, V2LightSummary } from './shapes.ts';

/** Rounds a shooter team needs (the v2 rounds do not say; the first game's format is 13). */
const ROUNDS_TO_WIN = 13;
const HALF = 12;

const REASONS: Record<string, ShooterRound['win_reason']> = {
  enemy_elimination: 'elimination',
  exploded: 'detonated',
  defused: 'defused',
  time_limit: 'time',
};

/** The live summary in a light summary of match `matchId`, read at `at` (ms). */
export function toLiveSummary(matchId: number, l: V2LightSummary, at: number, path: string): LiveSummary {
  if (l.radiant || l.dire) return toLiveApi(matchId, l, at);
  if (l.home && l.away && l.rounds) return toShooter(matchId, l.home, l.away, l.rounds, l, at);
  throw new NotFoundError({
    status: 404,
    method: 'GET',
    path,
    msg: `The light summary of match ${matchId} has no shape a live card can read (no rounds, no structures).`,
  });
}

function toShooter(
  matchId: number,
  home: V2LightSide,
  away: V2LightSide,
  rounds: V2LightRound[],
  l: V2LightSummary,
  at: number,
): ShooterLiveSummary {
  const ordered = [...rounds].sort((a, b) => a.round_nr - b.round_nr);
  const played: ShooterRound[] = ordered.map((r) => {
    const attackersWon = r.t_side.is_winner;
    const winner = attackersWon ? r.t_side.roster.id : r.ct_side.roster.id;
    return {
      number: r.round_nr,
      winner: winner === home.roster.id ? 'home' : 'away',
      winner_side: attackersWon ? 'attack' : 'defence',
      win_reason: REASONS[r.win_reason?.name ?? ''] ?? 'elimination',
    };
  });
  const current = l.ended ? Math.max(1, played.length) : played.length + 1;
  // Home's side in round 1, from the first round played; unknown before any round.
  const first = ordered[0];
  const homeAttacksFirst = first ? first.t_side.roster.id === home.roster.id : undefined;
  const sideIn = (isHome: boolean, round: number): ShooterSide | null => {
    if (homeAttacksFirst === undefined) return null;
    const startsOnAttack = isHome ? homeAttacksFirst : !homeAttacksFirst;
    return (round <= HALF ? startsOnAttack : !startsOnAttack) ? 'attack' : 'defence';
  };
  const team = (s: V2LightSide, key: 'home' | 'away') => {
    const won = played.filter((r) => r.winner === key);
    return {
      roster: { id: s.roster.id },
      side: sideIn(key === 'home', current),
      score: won.length,
      halves: [won.filter((r) => r.number <= HALF).length, won.filter((r) => r.number > HALF).length] as [
        number,
        number,
      ],
      economy: null,
      players: s.player_stats.map((p) => ({
        player: { id: p.player.id },
        kills: p.kills,
        deaths: p.deaths,
        assists: p.assists,
        money: null,
      })),
    };
  };
  const clock = l.length * 1000;
  return {
    timestamp: new Date(at).toISOString(),
    match: {
      id: matchId,
      phase: l.ended ? 'post-game' : 'in-game',
      clock: { milliseconds: clock },
      start: new Date(at - clock).toISOString(),
      end: l.ended ? new Date(at).toISOString() : null,
    },
    game_kind: 'shooter',
    round: { number: current, half: current <= HALF ? 1 : 2 },
    rounds_to_win: ROUNDS_TO_WIN,
    teams: { home: team(home, 'home'), away: team(away, 'away') },
    rounds: played,
  };
}

/** The light summary as the v3 API summary a live card reads (score, structures, net worth, clock). */
export function toLiveApi(matchId: number, l: V2LightSummary, at: number): LiveApiSummary {
  const home = l.radiant ?? l.home;
  const away = l.dire ?? l.away;
  const side = (s: V2LightSide | undefined) => ({
    roster: { id: s?.roster.id ?? 0 },
    faction: { id: 0 },
    score: s?.score ?? 0,
    is_winner: s?.is_winner ?? false,
    captain: { id: 0 },
    players: (s?.player_stats ?? []).map((p, i) => ({
      id: p.player.id,
      hero: { id: p.hero?.id ?? 0 },
      ui_index: i,
      items: {
        hero: {
          inventory: { items: [], default_size: 0 },
          backpack: { items: [], default_size: 0 },
          neutral_slot: { items: [], default_size: 0 },
        },
      },
      damage: { hero: { given: { total: 0 } }, structures: { given: { total: 0 } } },
      healing: { hero: { given: { total: 0 } } },
      creeps: { overall: { kills: { total: 0 }, denies: { total: 0 } } },
      gold: { per_minute: p.gpm ?? 0, current: 0, net_worth: p.networth ?? 0 },
      position: { x: 0, y: 0 },
      respawn_timer: { milliseconds: 0 },
      ultimate: { cooldown: { milliseconds: 0 }, state: 'unknown' },
      kills: { total: p.kills },
      assists: { total: p.assists },
      deaths: { total: p.deaths },
      experience: { per_minute: p.xpm ?? 0 },
      level: p.level ?? 0,
    })),
    structures_status: {
      towers: (s?.structure_status?.towers ?? []).map((standing) => ({ standing })),
      barracks: (s?.structure_status?.barracks ?? []).map((standing) => ({ standing })),
    },
    draft: { picks: [], bans: [] },
  });
  const clock = l.length * 1000;
  return {
    timestamp: new Date(at).toISOString(),
    match: {
      id: matchId,
      patch: '',
      phase: l.ended ? 'post-game' : 'in-game',
      clock: { milliseconds: clock },
    },
    first_blood_time: null,
    timeline: {
      length: clock,
      start: new Date(at - clock).toISOString(),
      end: l.ended ? new Date(at).toISOString() : null,
    },
    delay: { milliseconds: 0 },
    teams: { home: side(home), away: side(away) },
  };
}
