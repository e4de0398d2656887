/**
 * The four tiers of competition: the tournament template of each (its groups, formats, broadcast
 * days and prize pools), and how many a week has at a scale. A higher tier never plays shorter
 * group series than a lower one.
 */
import type { Phase, PointsRules } from '../protocol/types.ts';

export interface Template {
  tier: number;
  /** Names by prize pool: the event's name goes with its size ([prize, name], one drawn a week). */
  sizes: [number, string][];
  groups: number;
  groupSize: number;
  groupBestOf: number;
  /** Group rounds played on one broadcast day (a team plays each round once). */
  roundsPerDay: number;
  bracket: 0 | 4 | 8;
  phase: Phase;
  points: PointsRules;
  /** Broadcast days a day lasts, in hours: the shortest and longest. */
  dayHours: [number, number];
  /** Days into the week the event may start on: from 0 to this (it must be over by Sunday). */
  latestStartDay: number;
}

export const TEMPLATES: Template[] = [
  {
    tier: 1,
    sizes: [
      [150_000, 'Invitational'],
      [250_000, 'Masters'],
      [400_000, 'Championship'],
      [1_000_000, 'Major'],
    ],
    groups: 4,
    groupSize: 4,
    groupBestOf: 3,
    roundsPerDay: 1,
    bracket: 8,
    phase: 'regular',
    points: { win: 3, draw: 1, loss: 0, scope: 'series' },
    dayHours: [10, 12],
    latestStartDay: 0,
  },
  {
    tier: 2,
    sizes: [
      [40_000, 'League'],
      [50_000, 'League'],
      [75_000, 'League'],
    ],
    groups: 2,
    groupSize: 6,
    groupBestOf: 3,
    roundsPerDay: 1,
    bracket: 4,
    phase: 'regular',
    points: { win: 3, draw: 1, loss: 0, scope: 'series' },
    dayHours: [9, 11],
    latestStartDay: 0,
  },
  {
    tier: 3,
    sizes: [
      [10_000, 'Cup'],
      [15_000, 'Cup'],
      [20_000, 'Cup'],
    ],
    groups: 2,
    groupSize: 6,
    groupBestOf: 1,
    roundsPerDay: 2,
    bracket: 4,
    phase: 'regular',
    points: { win: 2, draw: 1, loss: 0, scope: 'series' },
    dayHours: [8, 10],
    latestStartDay: 2,
  },
  {
    tier: 4,
    sizes: [
      [2_000, 'Open Qualifier'],
      [2_500, 'Open Qualifier'],
      [5_000, 'Open Qualifier'],
    ],
    groups: 2,
    groupSize: 5,
    groupBestOf: 1,
    roundsPerDay: 3,
    bracket: 4,
    phase: 'qualifier',
    points: { win: 1, draw: 0, loss: 0, scope: 'series' },
    dayHours: [8, 10],
    latestStartDay: 3,
  },
];

/**
 * Tournaments of each tier per game and week at scale 1. A battle royale has fewer: its
 * tournaments take 16 teams a lobby.
 */
const BASE_COUNTS = [1, 4, 3, 4];
const BASE_COUNTS_BATTLE_ROYALE = [1, 1, 1, 2];
/**
 * Active teams of a game (catalog.ts): a few more than its tournaments of a week have places at
 * scale 1 (weekPlaces), so some teams, the top ones among them, rest each week.
 */
const ACTIVE_TEAMS = 148;
const ACTIVE_TEAMS_BATTLE_ROYALE = 128;

/** Active teams of a game (catalog.ts). */
export function activeTeams(battleRoyale: boolean): number {
  return battleRoyale ? ACTIVE_TEAMS_BATTLE_ROYALE : ACTIVE_TEAMS;
}

/** Tournaments of a tier (1-4) per game and week at a scale (tier 1: always one). */
export function tournamentCount(tier: number, scale: number, battleRoyale = false): number {
  const base = (battleRoyale ? BASE_COUNTS_BATTLE_ROYALE : BASE_COUNTS)[tier - 1]!;
  return tier === 1 ? 1 : Math.max(1, Math.round(base * scale));
}

/** Groups of a battle-royale tournament of a tier (16 rosters a group). */
export function battleRoyaleGroups(tier: number): number {
  return tier === 4 ? 1 : 2;
}

/** Lobby days of a battle-royale group stage (one a day), and its final lobbies' days after them. */
export const LOBBY_DAYS = 3;
export function finalLobbyDays(tier: number): number[] {
  // Tier 1: three final days, the last after a rest day.
  return tier === 1 ? [0, 1, 3] : [0];
}

/** Teams a tournament of the template takes. */
export function entrantCount(template: Template, battleRoyale: boolean): number {
  return battleRoyale ? battleRoyaleGroups(template.tier) * 16 : template.groups * template.groupSize;
}

/** Places a game's tournaments of the given tiers offer in a week at a scale. */
export function weekPlaces(battleRoyale: boolean, scale: number, tiers = [1, 2, 3, 4]): number {
  let places = 0;
  for (const template of TEMPLATES) {
    if (!tiers.includes(template.tier)) continue;
    places += tournamentCount(template.tier, scale, battleRoyale) * entrantCount(template, battleRoyale);
  }
  return places;
}
