/**
 * The v2 answers as the client reads them (the v2 specification, "Resources and their fields"): the
 * shapes `records.ts` maps to the v3 records and `light-summary.ts` to the live summaries.
 */
export type Dict<T> = Record<string, T>;
export interface V2Country {
  name: string;
  short_name: string;
  images?: { default?: string; thumbnail?: string };
}
export interface V2Game {
  id: number;
  title: string;
  long_title: string;
  default_match_type: string;
  deleted_at: string | null;
  images?: Dict<string>;
  color: string;
}
export interface V2Team {
  id: number;
  name: string;
  short_name: string;
  deleted_at: string | null;
  images?: Dict<string | boolean>;
  country: V2Country | null;
  game?: V2Game;
  rosters?: V2Roster[];
}
export interface V2Player {
  id: number;
  first_name: string;
  last_name: string;
  nick_name: string;
  deleted_at: string | null;
  images?: Dict<string | boolean>;
  country: V2Country | null;
  race: { id: number; game_id: number; name: string } | null;
  team?: V2Team | null;
  game?: V2Game;
}
export interface V2Roster {
  id: number;
  teams: V2Team[];
  players: V2Player[];
}
export interface V2Caster {
  id: number;
  name: string;
  type: number | null;
  url: string;
  primary: boolean;
  stream: {
    id: number;
    username: string;
    display_name: string;
    status_text: string;
    viewer_count: number;
    online: boolean;
    last_online?: string | null;
    platform?: { id: number; name: string; color: string };
  } | null;
  country: V2Country | null;
}
export interface V2Match {
  id: number;
  series_id: number;
  order: number;
  deleted_at: string | null;
  winner: number | null;
  scores: Dict<number> | null;
  forfeit: Dict<boolean>;
  seeding: Dict<number>;
  game: V2Game;
  has_pbpstats: boolean;
  map: { id: number; name: string; official: boolean } | null;
}
export interface V2Series {
  id: number;
  title: string;
  start: string | null;
  end: string | null;
  tier: number;
  bestOf: number;
  tournament_id: number;
  substage_id: number;
  deleted_at: string | null;
  pbp_status: string;
  postponed_from: string | null;
  scores: Dict<number>;
  forfeit: Dict<boolean>;
  chain: { root_id: number } | null;
  streamed: boolean;
  seeding: Dict<number | null>;
  game: V2Game;
  bracket_pos: { part: 'UB' | 'LB' | 'GF'; col: number; offset: number } | null;
  rosters: V2Roster[];
  tournament?: V2Tournament | null;
  matches?: V2Match[];
  casters?: V2Caster[];
}
export interface V2Substage {
  id: number;
  stage_id: number;
  tier: number;
  title: string;
  deleted_at: string | null;
  type: number;
  tournament_id: number;
  order: number;
  start: string | null;
  rules: {
    advance: { number: number | null; substage_id: number | null };
    descend: { number: number | null; substage_id: number | null };
    points: { win: number | null; draw: number | null; loss: number | null; scope: 'series' | 'match' };
  };
  standings?: { roster_id: number; points: number | null; wins: number; draws: number; losses: number }[];
  rosters?: V2Roster[];
  series?: V2Series[];
}
export interface V2Tournament {
  id: number;
  title: string;
  short_title?: string;
  abbrev?: string;
  country: V2Country | null;
  tier: number;
  description: string;
  short_description: string;
  format: string;
  start: string;
  end: string;
  deleted_at: string | null;
  images?: Dict<string | boolean>;
  prizepool_string: Dict<string>;
  links: Dict<string>;
  game: V2Game;
  stages?: { id: number; title: string; order: number; substages: V2Substage[] }[];
  rosters?: V2Roster[];
  casters?: V2Caster[];
}
export interface V2LightSummary {
  confirmed: boolean;
  length: number;
  ended: boolean;
  radiant?: V2LightSide;
  dire?: V2LightSide;
  home?: V2LightSide;
  away?: V2LightSide;
  /** The first game shape's rounds (a shooter's); see `light-summary.ts`. */
  rounds?: V2LightRound[];
}
/** A round of the first game shape (the v2 specification, "Light summaries"). */
export interface V2LightRound {
  round_nr: number;
  t_side: { roster: { id: number }; is_winner: boolean };
  ct_side: { roster: { id: number }; is_winner: boolean };
  win_reason: { id: number; name: string } | null;
}
export interface V2LightSide {
  roster: { id: number };
  score: number;
  is_winner: boolean;
  structure_status?: { towers: boolean[]; barracks: boolean[] };
  player_stats: {
    player: { id: number };
    kills: number;
    deaths: number;
    assists: number;
    level?: number;
    networth?: number;
    gpm?: number;
    xpm?: number;
    hero?: { id: number };
  }[];
}
