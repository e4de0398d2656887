/**
 * Live match summaries per kind of game. The v3 specification ("Live match summary") shows the shapes of a
 * MOBA only (`LiveCvSummary`, `LiveApiSummary` in `moba-summary.ts`) and leaves the other games' shapes
 * open; these are the local service's, documented in docs/local-service.md ("Live summaries per game"). A
 * summary says which kind it is in `game_kind`; a MOBA summary may lack it (the specification's shapes do
 * not carry it), which `liveSummaryKind` reads as a MOBA.
 *
 * For the games other than MOBA the local service answers the same document on both summary
 * endpoints (`/live/cv/summary` and `/live/api/summary`): one match, one account of it.
 */
import type { LiveApiSummary, LiveCvSummary } from './moba-summary.ts';
import type { DateTime, Millis, Ref } from './types.ts';

/** What kind of play a game has: it decides its summary's shape and the words of its live card. */
export type GameKind = 'moba' | 'shooter' | 'esoccer' | 'rts' | 'battle-royale';

/** The part every non-MOBA summary shares: when it was taken and where the match stands. */
export interface LiveSummaryBase {
  timestamp: DateTime;
  /** The match's state changes so far: the index of the latest message of its push channel. */
  latest_states_channel_index?: number;
  match: {
    id: number;
    /** `in-game` while the match is played, `post-game` once it is over (the summary then holds). */
    phase: 'in-game' | 'post-game';
    /** Time since the match started (the broadcast clock, not a game-time clock). */
    clock: Millis;
    start: DateTime;
    end: DateTime | null;
  };
}

// ---- shooter (rounds; sides swap at half time) ------------------------------------------------

export type ShooterSide = 'attack' | 'defence';

export interface ShooterPlayerState {
  player: Ref;
  kills: number;
  deaths: number;
  assists: number;
  /** Money left after this round's buy; null when the source has no economy. */
  money: number | null;
}

export interface ShooterEconomy {
  /** The team's money left after this round's buy (sum of its players'). */
  money: number;
  /** Value of the equipment the team carries into this round. */
  equipment_value: number;
  buy: 'pistol' | 'full' | 'force' | 'eco';
}

export interface ShooterTeamState {
  roster: Ref;
  /** The side it plays in the current round; null when the source does not say. */
  side: ShooterSide | null;
  /** Rounds won. */
  score: number;
  /** Rounds won in the first and in the second half. */
  halves: [number, number];
  /** Null when the source has no economy (the v2 interface's rounds). */
  economy: ShooterEconomy | null;
  players: ShooterPlayerState[];
}

export interface ShooterRound {
  number: number;
  winner: 'home' | 'away';
  winner_side: ShooterSide;
  win_reason: 'elimination' | 'detonated' | 'defused' | 'time';
}

export interface ShooterLiveSummary extends LiveSummaryBase {
  game_kind: 'shooter';
  /** The round being played (the last one once the map is over); rounds 13+ are the second half. */
  round: { number: number; half: 1 | 2 };
  rounds_to_win: number;
  teams: { home: ShooterTeamState; away: ShooterTeamState };
  /** Rounds played, in order. */
  rounds: ShooterRound[];
}

// ---- e-soccer (goals, two periods) ------------------------------------------------------------

export interface EsoccerTeamState {
  roster: Ref;
  /** The player at the controller for this match. */
  player: Ref;
  /** Goals. */
  score: number;
  shots: number;
  shots_on_target: number;
  /** Share of possession, percent (the two sides add up to 100). */
  possession: number;
}

export interface EsoccerLiveSummary extends LiveSummaryBase {
  game_kind: 'esoccer';
  period: {
    number: 1 | 2;
    state: 'playing' | 'full-time';
    /** Game minute on the match clock, 0 to 90. */
    minute: number;
  };
  teams: { home: EsoccerTeamState; away: EsoccerTeamState };
  goals: { team: 'home' | 'away'; player: Ref; minute: number }[];
}

// ---- real-time strategy (one player a side; supply and army) ----------------------------------

export interface RtsTeamState {
  roster: Ref;
  player: Ref;
  race: Ref | null;
  /** 1 for the map's winner once it is decided (the opponent left the game), else 0. */
  score: number;
  supply: { used: number; cap: number };
  /** Resources spent on the army alive now. */
  army_value: number;
  workers: number;
  bases: number;
  /** Resources banked. */
  resources: { minerals: number; gas: number };
}

export interface RtsLiveSummary extends LiveSummaryBase {
  game_kind: 'rts';
  teams: { home: RtsTeamState; away: RtsTeamState };
}

// ---- battle royale (a lobby: every participant) -----------------------------------------------

export interface BattleRoyaleTeamState {
  roster: Ref;
  /** The participant's seed in the series (1-based), as on the match resource. */
  seed: number;
  alive: boolean;
  players_alive: number;
  /** Final place once eliminated (the last team standing is 1), null while alive. */
  placement: number | null;
  kills: number;
  /** Match clock when it was eliminated. */
  eliminated_at: Millis | null;
}

export interface BattleRoyaleLiveSummary extends LiveSummaryBase {
  game_kind: 'battle-royale';
  /** The safe zone's stage (1 is the first circle). */
  zone: number;
  teams_alive: number;
  /** Every participant, in seed order. */
  teams: BattleRoyaleTeamState[];
}

// ---- the union --------------------------------------------------------------------------------

/** A MOBA summary, from either source (the specification's shapes). */
export type MobaLiveSummary = LiveCvSummary | LiveApiSummary;

/** What either live summary endpoint answers, for any game. */
export type LiveSummary =
  | MobaLiveSummary
  | ShooterLiveSummary
  | EsoccerLiveSummary
  | RtsLiveSummary
  | BattleRoyaleLiveSummary;

/** A summary's kind; the specification's MOBA shapes carry none. */
export function liveSummaryKind(summary: LiveSummary): GameKind {
  return summary.game_kind ?? 'moba';
}

/** Is it a MOBA summary (the specification's shapes, from either source)? */
export function isMobaSummary(summary: LiveSummary): summary is MobaLiveSummary {
  return summary.game_kind === undefined || summary.game_kind === 'moba';
}

/** The match a summary is of, and when that match started. */
export function liveSummaryMatch(summary: LiveSummary): { id: number; start: DateTime } {
  if (isMobaSummary(summary)) {
    const start = 'seed_indexed_state' in summary ? summary.match.timeline.start : summary.timeline.start;
    return { id: summary.match.id, start };
  }
  return { id: summary.match.id, start: summary.match.start };
}
