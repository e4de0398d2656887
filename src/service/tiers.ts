/** The four tiers of competition: the tournament template of each, and how many a week has at a scale. */
import type { Phase, PointsRules } from '../protocol/types.ts';

export interface Template {
  tier: number;
  name: string;
  groups: number;
  groupSize: number;
  groupBestOf: number;
  bracket: 0 | 4 | 8;
  phase: Phase;
  points: PointsRules;
}

export const TEMPLATES: Template[] = [
  {
    tier: 1,
    name: 'Masters',
    groups: 4,
    groupSize: 6,
    groupBestOf: 3,
    bracket: 8,
    phase: 'regular',
    points: { win: 3, draw: 1, loss: 0, scope: 'series' },
  },
  {
    tier: 2,
    name: 'League',
    groups: 2,
    groupSize: 6,
    groupBestOf: 1,
    bracket: 4,
    phase: 'regular',
    points: { win: 2, draw: 1, loss: 0, scope: 'series' },
  },
  {
    tier: 3,
    name: 'Cup',
    groups: 2,
    groupSize: 6,
    groupBestOf: 3,
    bracket: 4,
    phase: 'regular',
    points: { win: 3, draw: 1, loss: 0, scope: 'series' },
  },
  {
    tier: 4,
    name: 'Open Qualifier',
    groups: 2,
    groupSize: 5,
    groupBestOf: 1,
    bracket: 4,
    phase: 'qualifier',
    points: { win: 1, draw: 0, loss: 0, scope: 'series' },
  },
];

/**
 * Tournaments of each tier per game and week at scale 1: few enough that every active team of a
 * game enters exactly one tournament a week (weekPlaces), so a team plays one series at a time.
 * A battle royale has fewer: its tournaments take 16 teams a lobby.
 */
const BASE_COUNTS = [1, 4, 3, 4];
const BASE_COUNTS_BATTLE_ROYALE = [1, 1, 1, 2];

/** Tournaments of a tier (1-4) per game and week at a scale (tier 1: always one). */
export function tournamentCount(tier: number, scale: number, battleRoyale = false): number {
  const base = (battleRoyale ? BASE_COUNTS_BATTLE_ROYALE : BASE_COUNTS)[tier - 1]!;
  return tier === 1 ? 1 : Math.max(1, Math.round(base * scale));
}

/** Groups and lobbies of a battle-royale tournament of a tier (16 rosters a group). */
export function battleRoyaleGroups(tier: number): number {
  return tier === 4 ? 1 : 2;
}

/** Teams a tournament of the template takes. */
export function entrantCount(template: Template, battleRoyale: boolean): number {
  return battleRoyale ? battleRoyaleGroups(template.tier) * 16 : template.groups * template.groupSize;
}

/**
 * Places a game's tournaments of the given tiers offer in a week at a scale: at scale 1 over every
 * tier, how many active teams the game has (catalog.ts), each entering one tournament a week.
 */
export function weekPlaces(battleRoyale: boolean, scale: number, tiers = [1, 2, 3, 4]): number {
  let places = 0;
  for (const template of TEMPLATES) {
    if (!tiers.includes(template.tier)) continue;
    places += tournamentCount(template.tier, scale, battleRoyale) * entrantCount(template, battleRoyale);
  }
  return places;
}
