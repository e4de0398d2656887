/**
 * The games of the catalog (catalog.ts), one definition (catalog-defs.ts) at a time: maps, patch
 * releases, map pools, roles and races, assets and map layouts. The order of the draws on the
 * game's Rng and of the images made is the world's: changing it changes every seed's world.
 */
import type { Asset, Game, GameMap, Image, MapLayout, MapPool, Release, Role } from '../protocol/types.ts';
import { ASSET_CATEGORIES, type GAME_DEFS, type GameKind, ROLE_NAMES } from './catalog-defs.ts';
import type { Rng } from './random.ts';

/** A game of the catalog with everything drawn for it. */
export interface GameInfo {
  game: Game;
  kind: GameKind;
  /** Minutes a map lasts: [min, max]. */
  mapMinutes: [number, number];
  maps: GameMap[];
  roles: Role[];
  races: { id: number; name: string; game: { id: number } }[];
  releases: Release[];
  pools: MapPool[];
}

type GameDef = (typeof GAME_DEFS)[number];
/** The catalog's `image`: a new image with the next id. */
type MakeImage = (path: string, type: Image['type']) => Image;

function gameMaps(def: GameDef, id: number): GameMap[] {
  return def.maps.map((name, i) => ({
    id: id * 100 + i + 1,
    name,
    external_name: `${def.abbreviation.toLowerCase()}_${name.toLowerCase().replace(/[^a-z]+/g, '_')}`,
    official: i < def.maps.length - 1 || def.maps.length === 1,
    game: { id },
  }));
}

function gameReleases(def: GameDef, rng: Rng): Release[] {
  const releases: Release[] = [];
  for (let r = 0; r < 4; r++) {
    const month = 1 + r * 3;
    releases.push({
      uuid: uuidFrom(rng),
      date: `2026-${String(month).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
      description: `${def.abbreviation} patch 7.${30 + r}`,
    });
  }
  return releases;
}

/** Two pools: the first half of the year without the last map, the second without the first. */
function mapPools(id: number, maps: GameMap[]): MapPool[] {
  return [
    {
      id: id * 10 + 1,
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-06-30T23:59:59.000Z',
      maps: maps.slice(0, Math.max(1, maps.length - 1)).map((m) => ({ id: m.id })),
    },
    {
      id: id * 10 + 2,
      from: '2026-07-01T00:00:00.000Z',
      to: null,
      maps: maps.slice(Math.min(1, maps.length - 1)).map((m) => ({ id: m.id })),
    },
  ];
}

function gameResource(def: GameDef, id: number, maps: GameMap[], latest: Release, image: MakeImage): Game {
  return {
    id,
    abbreviation: def.abbreviation,
    title: def.title,
    default_match_type: 'team',
    default_map: { id: maps[0]!.id },
    defaults: {
      match_type: 'team',
      lineup_size: def.kind === 'battle-royale' ? 4 : 5,
      map: maps[0]!,
      number_of_match_participants: def.kind === 'battle-royale' ? 16 : 2,
      match_roster_lineup_size: def.kind === 'battle-royale' ? 4 : 5,
      game_version: { release: latest },
    },
    deleted_at: null,
    images: [
      image(`games/${def.abbreviation.toLowerCase()}`, 'default'),
      image(`games/${def.abbreviation.toLowerCase()}-circle`, 'circle'),
    ],
    color: def.color,
  };
}

/** A game's static description: its resource, maps, roles, races, releases and map pools. */
export function gameInfo(def: GameDef, id: number, rng: Rng, image: MakeImage): GameInfo {
  const maps = gameMaps(def, id);
  const releases = gameReleases(def, rng);
  const pools = mapPools(id, maps);
  const game = gameResource(def, id, maps, releases[releases.length - 1]!, image);
  const roles: Role[] = ROLE_NAMES[def.kind].map((name, i) => ({ id: id * 10 + i + 1, name, game: { id } }));
  const races =
    def.kind === 'rts'
      ? ['Terran League', 'Swarm', 'Ascendants'].map((name, i) => ({
          id: id * 10 + i + 1,
          name,
          game: { id },
        }))
      : [];
  return { game, kind: def.kind, mapMinutes: def.minutes, maps, roles, races, releases, pools };
}

/** A game's assets, added to the catalog's list and to its per-category lists (`${id}:${category}`). */
export function addGameAssets(
  def: GameDef,
  id: number,
  image: MakeImage,
  assets: Asset[],
  assetsBy: Map<string, Asset[]>,
): void {
  let assetId = id * 1000;
  for (const group of ASSET_CATEGORIES) {
    const key = `${id}:${group.category}`;
    const list = assetsBy.get(key) ?? [];
    for (const name of group.names) {
      assetId++;
      const asset: Asset = {
        id: assetId,
        name,
        game: { id },
        category: group.category,
        subcategory: group.subcategory,
        external_id: `${def.abbreviation.toLowerCase()}-${group.category}-${assetId}`,
        images: [image(`assets/${assetId}`, 'default')],
      };
      assets.push(asset);
      list.push(asset);
    }
    assetsBy.set(key, list);
  }
}

/** The layout of one map, with id `layoutId`: one or two floors, three structures placed on each. */
function mapLayout(
  def: GameDef,
  map: GameMap,
  layoutId: number,
  structures: Asset[],
  rng: Rng,
  image: MakeImage,
): MapLayout {
  const floors = def.kind === 'shooter' ? rng.int(1, 2) : 1;
  return {
    id: layoutId,
    version: `1.${rng.int(0, 9)}`,
    map: { id: map.id },
    floors: Array.from({ length: floors }, (_, level) => {
      const plain = image(`layouts/${layoutId}-${level}`, undefined);
      return {
        level,
        image: plain,
        placement: {
          anchor_point: { x: round2(rng.next()), y: round2(rng.next()) },
          width_scale: round2(0.5 + rng.next()),
        },
        assets: rng.sample(structures, 3).map((a) => ({
          id: a.id,
          position: { x: round2(rng.next() * 100), y: round2(rng.next() * 100) },
        })),
      };
    }),
  };
}

/**
 * Layouts for the shooter's maps (its first five) and the MOBA's one map: not every game has them
 * (spec). Ids follow `lastLayoutId`.
 */
export function gameLayouts(
  def: GameDef,
  info: GameInfo,
  structures: Asset[],
  rng: Rng,
  image: MakeImage,
  lastLayoutId: number,
): MapLayout[] {
  const id = info.game.id;
  if (def.kind !== 'shooter' && !(def.kind === 'moba' && id === 1)) return [];
  const maps = info.maps.slice(0, def.kind === 'shooter' ? 5 : 1);
  return maps.map((map, i) => mapLayout(def, map, lastLayoutId + i + 1, structures, rng, image));
}

function uuidFrom(rng: Rng): string {
  const hex = () => Math.floor(rng.next() * 16).toString(16);
  const part = (n: number) => Array.from({ length: n }, hex).join('');
  return `${part(8)}-${part(4)}-4${part(3)}-${'89ab'[rng.int(0, 3)]}${part(3)}-${part(12)}`;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
