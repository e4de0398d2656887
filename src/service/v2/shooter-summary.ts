/**
 * The first game shape of v2 (`service-v2.md`, "Light summaries" and "Match play-by-play"): a
 * shooter's light summary (`home`/`away`, `rounds`) and its play-by-play summary (`home`, `away`,
 * `match_length`, `scoreboard`, `rounds`). Both are read round by round from the same account of
 * the map as the v3 summary (`shooterState` in `src/service/live-games.ts`): a round's kills and
 * player figures are what that round added to the map's totals.
 */
import type { ShooterRound, ShooterTeamState } from '../../protocol/live-summary.ts';
import { shooterState } from '../live-games.ts';
import type { MatchPlan, SeriesPlan } from '../schedule.ts';
import type { World } from '../world.ts';

const WIN_REASONS: Record<ShooterRound['win_reason'], { id: number; name: string }> = {
  elimination: { id: 1, name: 'enemy_elimination' },
  detonated: { id: 2, name: 'exploded' },
  defused: { id: 3, name: 'defused' },
  time: { id: 4, name: 'time_limit' },
};

/** The bomb's fuse: a planted bomb explodes this long after the plant. */
const FUSE_MS = 40_000;

type Key = 'home' | 'away';
type Figures = { kills: number; deaths: number; assists: number };

/** One played round: its end (ms since the map's start), sides, and what each player added in it. */
interface PlayedRound {
  round: ShooterRound;
  end: number;
  attacker: Key;
  added: Record<Key, { player: number; figures: Figures }[]>;
  roster: Record<Key, number>;
}

/** The rounds of a map played by t, each with what it added to the players' totals. */
function playedRounds(world: World, plan: SeriesPlan, m: MatchPlan, t: number): PlayedRound[] {
  const until = Math.min(t, m.end);
  const ends = world
    .matchEvents(plan, m)
    .flat()
    .filter((x) => x <= until)
    .sort((a, b) => a - b);
  const totals = (team: ShooterTeamState) =>
    team.players.map((p) => ({ kills: p.kills, deaths: p.deaths, assists: p.assists }));
  let before: Record<Key, Figures[]> | null = null;
  const out: PlayedRound[] = [];
  for (const end of ends) {
    const { summary } = shooterState(world, plan, m, end);
    const round = summary.rounds[out.length];
    if (!round) break;
    const now = { home: totals(summary.teams.home), away: totals(summary.teams.away) };
    const added = (key: Key) =>
      summary.teams[key].players.map((p, j) => {
        const was = before?.[key][j] ?? { kills: 0, deaths: 0, assists: 0 };
        const is = now[key][j]!;
        return {
          player: p.player.id,
          figures: {
            kills: is.kills - was.kills,
            deaths: is.deaths - was.deaths,
            assists: is.assists - was.assists,
          },
        };
      });
    const loser: Key = round.winner === 'home' ? 'away' : 'home';
    out.push({
      round,
      end: end - m.start,
      attacker: round.winner_side === 'attack' ? round.winner : loser,
      added: { home: added('home'), away: added('away') },
      roster: { home: summary.teams.home.roster.id, away: summary.teams.away.roster.id },
    });
    before = now;
  }
  return out;
}

/** A round's kills: each killer of a side paired in order with a victim of the other. */
function kills(r: PlayedRound) {
  return (['home', 'away'] as const).flatMap((key) => {
    const other: Key = key === 'home' ? 'away' : 'home';
    const killers = r.added[key].flatMap((x) => Array<number>(x.figures.kills).fill(x.player));
    const victims = r.added[other].flatMap((x) => Array<number>(x.figures.deaths).fill(x.player));
    return killers.slice(0, victims.length).map((killer, k) => ({
      match_time: r.end,
      attacker: { id: killer },
      victim: { id: victims[k]! },
      assist: null,
      weapon: null,
    }));
  });
}

/** A round's bomb events: a plant before a detonation or a defuse. */
function bombEvents(r: PlayedRound, detail: boolean) {
  const reason = r.round.win_reason;
  if (reason !== 'detonated' && reason !== 'defused') return [];
  const planted = r.end - (reason === 'detonated' ? FUSE_MS : FUSE_MS / 2);
  const event = (type: string, at: number) => ({
    type,
    match_time: at,
    bomb_planted: type !== 'planted' && type !== 'beginplant',
    time_since_plant: Math.max(0, at - planted),
  });
  if (reason === 'detonated')
    return detail
      ? [event('beginplant', planted - 3_000), event('planted', planted), event('exploded', r.end)]
      : [event('planted', planted), event('exploded', r.end)];
  return detail
    ? [
        event('beginplant', planted - 3_000),
        event('planted', planted),
        event('begindefuse', r.end - 5_000),
        event('defused', r.end),
      ]
    : [event('planted', planted), event('defused', r.end)];
}

/** The light summary of a shooter map at t (the first game shape). */
export function shooterLight(
  world: World,
  plan: SeriesPlan,
  m: MatchPlan,
  t: number,
  root: { confirmed: boolean; length: number; ended: boolean },
) {
  const { summary, spends } = shooterState(world, plan, m, Math.min(t, m.end));
  const { home, away } = summary.teams;
  const side = (key: Key, round: ShooterRound) => {
    const team = summary.teams[key];
    const spent = spends[round.number - 1]?.[key === 'home' ? 0 : 1] ?? 0;
    return {
      roster: { id: team.roster.id },
      is_winner: round.winner === key,
      player_stats: team.players.map((p) => ({
        player: { id: p.player.id },
        cash: { spent: Math.round(spent / Math.max(1, team.players.length)) },
      })),
    };
  };
  const lightSide = (team: typeof home) => ({
    roster: { id: team.roster.id },
    is_winner: summary.match.phase === 'post-game' && team.score >= summary.rounds_to_win,
    score: team.score,
    player_stats: team.players.map((p) => ({
      player: { id: p.player.id },
      kills: p.kills,
      assists: p.assists,
      deaths: p.deaths,
    })),
  });
  return {
    ...root,
    home: lightSide(home),
    away: lightSide(away),
    rounds: playedRounds(world, plan, m, t).map((r) => ({
      round_nr: r.round.number,
      t_side: side(r.attacker, r.round),
      ct_side: side(r.attacker === 'home' ? 'away' : 'home', r.round),
      bomb_events: bombEvents(r, false),
      kills: kills(r),
      win_reason: { ...WIN_REASONS[r.round.win_reason], images: [] },
    })),
  };
}

/** Per-player totals of a map: `{ player, roster, kills, deaths, assists }`, home then away. */
export function shooterScoreboard(world: World, plan: SeriesPlan, m: MatchPlan, t: number) {
  const { summary } = shooterState(world, plan, m, Math.min(t, m.end));
  const rows = (team: ShooterTeamState) =>
    team.players.map((p) => ({
      player: { id: p.player.id },
      roster: { id: team.roster.id },
      kills: p.kills,
      deaths: p.deaths,
      assists: p.assists,
    }));
  return { 1: rows(summary.teams.home), 2: rows(summary.teams.away) };
}

/** The play-by-play summary of a shooter map at t (`with[]=summary`). */
export function shooterPlayByPlay(world: World, plan: SeriesPlan, m: MatchPlan, t: number) {
  const rounds = playedRounds(world, plan, m, t);
  return {
    home: plan.rosters[0]!,
    away: plan.rosters[1]!,
    match_length: Math.min(t, m.end) - m.start,
    scoreboard: shooterScoreboard(world, plan, m, t),
    rounds: rounds.map((r) => {
      const defender: Key = r.attacker === 'home' ? 'away' : 'home';
      const stats = (key: Key) =>
        r.added[key].map((x) => ({ player: { id: x.player }, roster: { id: r.roster[key] }, ...x.figures }));
      return {
        round_nr: r.round.number,
        t_side: r.roster[r.attacker],
        ct_side: r.roster[defender],
        winner: r.roster[r.round.winner],
        win_reason: WIN_REASONS[r.round.win_reason].name,
        bomb_events: bombEvents(r, true),
        kills: kills(r),
        player_stats: [...stats('home'), ...stats('away')],
      };
    }),
  };
}
