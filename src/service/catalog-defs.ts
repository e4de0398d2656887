/**
 * The fixed definitions the catalog (catalog.ts) generates the world from: games, asset names,
 * countries, regions, platforms, languages, social platforms, and how many teams and casters a
 * game has.
 */
/** What kind of play a game has: it decides map scores, participants and live figures. */
export type GameKind = 'moba' | 'shooter' | 'battle-royale' | 'esoccer' | 'rts';

export const GAME_DEFS: {
  title: string;
  abbreviation: string;
  kind: GameKind;
  color: string;
  minutes: [number, number];
  maps: string[];
}[] = [
  {
    title: 'Ancients Clash',
    abbreviation: 'AC',
    kind: 'moba',
    color: '#b3261e',
    minutes: [25, 50],
    maps: ['Ancient Valley'],
  },
  {
    title: 'Strike Point',
    abbreviation: 'SP',
    kind: 'shooter',
    color: '#f29f05',
    minutes: [30, 50],
    maps: ['Harbor', 'Citadel', 'Dunes', 'Foundry', 'Glacier', 'Metro', 'Vineyard', 'Quarry'],
  },
  {
    title: 'Rift Legends',
    abbreviation: 'RL',
    kind: 'moba',
    color: '#3867d6',
    minutes: [22, 45],
    maps: ["Summoner's Rift Valley"],
  },
  {
    title: 'Drop Zone',
    abbreviation: 'DZ',
    kind: 'battle-royale',
    color: '#20bf6b',
    minutes: [18, 28],
    maps: ['Archipelago', 'Red Canyon', 'Frostline', 'Old Town'],
  },
  {
    title: 'Pitch Masters',
    abbreviation: 'PM',
    kind: 'esoccer',
    color: '#0fb9b1',
    minutes: [14, 14],
    maps: ['Stadium'],
  },
  {
    title: 'Star Dominion',
    abbreviation: 'SD',
    kind: 'rts',
    color: '#8854d0',
    minutes: [10, 28],
    maps: ['Nebula Station', 'Crater Ridge', 'Ion Fields', 'Vanguard Plains', 'Echo Basin'],
  },
];

export const ROLE_NAMES: Record<GameKind, string[]> = {
  moba: ['carry', 'mid', 'offlane', 'soft support', 'hard support'],
  shooter: ['entry', 'sniper', 'support', 'lurker', 'in-game leader'],
  'battle-royale': ['fragger', 'support', 'scout', 'in-game leader', 'substitute'],
  esoccer: ['attacker', 'midfielder', 'defender', 'goalkeeper', 'substitute'],
  rts: ['player', 'substitute', 'coach-player', 'analyst-player', 'reserve'],
};

/** Asset categories every game has, so the live summaries have heroes, items, structures, runes. */
export const ASSET_CATEGORIES: { category: string; subcategory: string | null; names: string[] }[] = [
  {
    category: 'hero',
    subcategory: null,
    names: [
      'Warden',
      'Shade',
      'Tinker',
      'Oracle',
      'Brute',
      'Seer',
      'Ranger',
      'Mystic',
      'Golem',
      'Wisp',
      'Reaper',
      'Sentinel',
      'Drifter',
      'Hexer',
      'Lancer',
      'Phantom',
      'Warlock',
      'Druid',
      'Nomad',
      'Titan',
    ],
  },
  {
    category: 'item',
    subcategory: 'basic',
    names: [
      'Iron Branch',
      'Healing Salve',
      'Boots',
      'Magic Wand',
      'Bracer',
      'Wraith Band',
      'Null Talisman',
      'Ring of Health',
    ],
  },
  {
    category: 'item',
    subcategory: 'assembled',
    names: [
      'Blink Dagger',
      'Black Staff',
      'Battle Fury',
      'Force Rod',
      'Glimmer Cape',
      'Radiant Blade',
      'Void Mantle',
      'Storm Hammer',
    ],
  },
  {
    category: 'item',
    subcategory: 'neutral',
    names: ['Trusty Shovel', 'Faded Broach', 'Ocean Heart', 'Pirate Hat'],
  },
  {
    category: 'structure',
    subcategory: null,
    names: [
      'tower_tier_1',
      'tower_tier_2',
      'tower_tier_3',
      'tower_tier_4',
      'barracks_melee',
      'barracks_ranged',
      'ancient',
    ],
  },
  {
    category: 'rune',
    subcategory: null,
    names: ['bounty', 'haste', 'invisibility', 'regeneration', 'arcane', 'water'],
  },
  {
    category: 'rune_location',
    subcategory: null,
    names: ['top_river', 'bottom_river', 'radiant_jungle', 'dire_jungle'],
  },
  {
    category: 'outpost',
    subcategory: null,
    names: ['outpost_north_west', 'outpost_north_east', 'outpost_south_west', 'outpost_south_east'],
  },
  { category: 'aegis', subcategory: null, names: ['aegis'] },
  { category: 'faction', subcategory: null, names: ['Dawn', 'Dusk'] },
];

export const COUNTRY_DEFS: [string, string][] = [
  ['Germany', 'DE'],
  ['Sweden', 'SE'],
  ['Denmark', 'DK'],
  ['France', 'FR'],
  ['Poland', 'PL'],
  ['Brazil', 'BR'],
  ['United States', 'US'],
  ['Canada', 'CA'],
  ['South Korea', 'KR'],
  ['China', 'CN'],
  ['Japan', 'JP'],
  ['Ukraine', 'UA'],
  ['Spain', 'ES'],
  ['Peru', 'PE'],
  ['Philippines', 'PH'],
  ['Australia', 'AU'],
];
export const REGION_DEFS: [string, string, number][] = [
  ['Western Europe', 'WEU', 0],
  ['Northern Europe', 'NEU', 1],
  ['Eastern Europe', 'EEU', 11],
  ['North America', 'NA', 6],
  ['South America', 'SA', 5],
  ['Korea', 'KR', 8],
  ['China', 'CN', 9],
  ['Japan', 'JP', 10],
  ['Southeast Asia', 'SEA', 14],
  ['Oceania', 'OCE', 15],
  ['Iberia', 'IB', 12],
  ['Central Europe', 'CEU', 4],
];
export const PLATFORM_DEFS: [string, string][] = [
  ['Streamly', '#9146ff'],
  ['VidCast', '#ff0000'],
  ['PlayTV', '#00a8e8'],
  ['LiveBox', '#53fc18'],
];
export const LANGUAGES = [
  'English',
  'German',
  'Spanish',
  'Portuguese',
  'Russian',
  'Korean',
  'Chinese',
  'French',
];
export const SOCIAL_DEFS: [string, string][] = [
  ['Chirper', 'chirper'],
  ['FaceSpace', 'facespace'],
  ['PicShare', 'picshare'],
  ['ClipTok', 'cliptok'],
];

/**
 * Teams per game that no longer play; the ones that play are activeTeams (tiers.ts), each entering
 * at most one tournament a week at scale 1.
 */
export const INACTIVE_TEAMS_PER_GAME = 2;
/** Casters per game. */
export const CASTERS_PER_GAME = 8;
