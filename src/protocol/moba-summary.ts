/**
 * The live match summaries of a MOBA, as the v3 specification shows them ("Live match summary"):
 * `LiveCvSummary` from the computer-vision source, `LiveApiSummary` from the API source. The other
 * games' summaries are the local service's own shapes, in `live-summary.ts`.
 */
import type { DateTime, Millis, Ref } from './types.ts';

/** Live match summary, computer-vision source (`/matches/{id}/live/cv/summary`). */
export interface CvTeamState {
  roster: Ref;
  ui_side: string;
  faction: Ref;
  state: {
    net_worth_lead: number;
    neutral_items_discovered: { ui_index: number; player: Ref; item: Ref; clock: Millis }[];
  };
  stats: {
    score: number;
    structures: {
      denies: Record<string, { asset: Ref; total: number }[]>;
      kills: Record<string, { asset: Ref; total: number }[]>;
    };
    creeps: Record<string, number>;
    runes: { bottled: Record<string, number>; activated: Record<string, number> };
  };
  players: CvPlayerState[];
}

export interface CvPlayerState {
  ui_index: number;
  player: Ref;
  hero: Ref;
  state: {
    hitpoints: { health: { percent: number } };
    ability_resource: { mana: { percent: number } };
    ultimate_state: string;
    smoked: boolean;
    respawns_in: Millis;
    items_assembled: { item: Ref; clock: Millis }[];
  };
  stats: {
    couriers: number;
    wards: { killed: number };
    multi_kills: { nr_kills: number; count: number }[];
    kill_streaks: number[];
    structures: number;
    kills: { total: number; special: { first_blood: boolean } };
    denies: { total: number };
    deaths: {
      total: number;
      enemy: { total: number };
      denies: { total: number; allies: number; neutrals: number };
    };
    tips: { enemy: { incoming: number; outgoing: number }; allies: { incoming: number; outgoing: number } };
    runes: number;
  };
}

export interface CvSideState<K extends string> {
  teams: Record<K, CvTeamState>;
  outposts: Record<
    'north_west' | 'north_east' | 'south_west' | 'south_east',
    { asset: Ref; owner: Ref | null }
  >;
  available_runes: { location: Ref; rune: Ref }[];
  aegis: { carrier: { ui_side: string; ui_index: number; roster: Ref; player: Ref } | null; asset: Ref };
}

export interface LiveCvSummary {
  /** Not in the specification's shape: the local service adds it (see `live-summary.ts`). */
  game_kind?: 'moba';
  timestamp: DateTime;
  latest_events_channel_index: number;
  latest_states_channel_index: number;
  match: {
    id: number;
    patch: string;
    timeline: { diurnal_phase: string; phase: string; clock: Millis; start: DateTime; end: DateTime | null };
  };
  seed_indexed_state: CvSideState<'home' | 'away'>;
  side_indexed_state: CvSideState<'left' | 'right'>;
}

/** Live match summary, API source (`/matches/{id}/live/api/summary`). */
export interface ApiPlayerState {
  id: number;
  hero: Ref;
  ui_index: number;
  items: {
    hero: Record<
      'inventory' | 'backpack' | 'neutral_slot',
      { items: { id: number; slot: number }[]; default_size: number }
    >;
  };
  damage: { hero: { given: { total: number } }; structures: { given: { total: number } } };
  healing: { hero: { given: { total: number } } };
  creeps: { overall: { kills: { total: number }; denies: { total: number } } };
  gold: { per_minute: number; current: number; net_worth: number };
  position: { x: number; y: number };
  respawn_timer: Millis;
  ultimate: { cooldown: Millis; state: string };
  kills: { total: number };
  assists: { total: number };
  deaths: { total: number };
  experience: { per_minute: number };
  level: number;
}

export interface ApiTeamState {
  roster: Ref;
  faction: Ref;
  score: number;
  is_winner: boolean;
  captain: Ref;
  players: ApiPlayerState[];
  structures_status: { towers: { standing: boolean }[]; barracks: { standing: boolean }[] };
  draft: { picks: { draft_order: number; hero: Ref }[]; bans: { draft_order: number; hero: Ref }[] };
}

export interface LiveApiSummary {
  /** Not in the specification's shape: the local service adds it (see `live-summary.ts`). */
  game_kind?: 'moba';
  timestamp: DateTime;
  /** The index of the latest message of the match's push channel (as the computer-vision summary's). */
  latest_states_channel_index?: number;
  match: { id: number; patch: string; phase: string; clock: Millis };
  first_blood_time: Millis | null;
  timeline: { length: number; start: DateTime; end: DateTime | null };
  delay: Millis;
  teams: { home: ApiTeamState; away: ApiTeamState };
}
