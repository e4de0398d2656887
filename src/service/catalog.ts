/**
 * The static part of the world, generated once from the seed: games, maps, assets, countries,
 * regions, organisations, teams, rosters, lineups, players, casters, broadcasters and images.
 * These do not change with the clock (only a stream's online state and viewers do, see world.ts).
 *
 * Id ranges differ per resource so that a mix-up shows: games 1-6, countries 1-, regions 21-,
 * platforms 1-4, languages 1-8, teams 101-, rosters 1001-, lineups 5001-, standing rosters 2001-,
 * players 10001-, casters 301-, streams 3001-, broadcasters 401-, organisations 51-, assets 1000*game+,
 * maps 100*game+, map layouts 700-, incidents 90001- (per series), images 1-.
 */
import type {
  Asset,
  Broadcaster,
  Country,
  Image,
  Language,
  Lineup,
  MapLayout,
  Organisation,
  Platform,
  Player,
  Region,
  Roster,
  SocialMediaAccount,
  SocialMediaPlatform,
  StandingRoster,
  Team,
} from '../protocol/types.ts';
import {
  CASTERS_PER_GAME,
  COUNTRY_DEFS,
  GAME_DEFS,
  INACTIVE_TEAMS_PER_GAME,
  LANGUAGES,
  PLATFORM_DEFS,
  REGION_DEFS,
  SOCIAL_DEFS,
} from './catalog-defs.ts';
import { addGameAssets, type GameInfo, gameInfo, gameLayouts } from './catalog-games.ts';
import { abbreviate, firstName, handle, lastName, orgName, teamName } from './names.ts';
import { Rng } from './random.ts';
import { activeTeams } from './tiers.ts';

/** The image base of a world no service serves: a reserved name that answers nothing. */
export const UNSERVED_IMAGE_BASE = 'https://images.matchday.invalid';

/** A caster with the static part of the stream; online state and viewers are computed per instant. */
export interface CasterInfo {
  id: number;
  display_name: string;
  username: string;
  game: { id: number };
  deleted_at: string | null;
  platform: Platform;
  region: Region;
  streamId: number;
  streamImages: Image[];
  statusText: string;
  baseViewers: number;
}

/** Everything static, with lookups by id. */
export class Catalog {
  readonly images = new Map<number, Image>();
  readonly countries: Country[] = [];
  readonly regions: Region[] = [];
  readonly platforms: Platform[] = [];
  readonly languages: Language[] = [];
  readonly socialPlatforms: SocialMediaPlatform[] = [];
  readonly games: GameInfo[] = [];
  readonly assets: Asset[] = [];
  /** Assets per game and category, in id order. */
  readonly assetsBy = new Map<string, Asset[]>();
  readonly mapLayouts: MapLayout[] = [];
  readonly organisations: Organisation[] = [];
  readonly teams: Team[] = [];
  readonly rosters: Roster[] = [];
  readonly lineups: Lineup[] = [];
  readonly standingRosters: StandingRoster[] = [];
  readonly players: Player[] = [];
  readonly casters: CasterInfo[] = [];
  readonly broadcasters: Broadcaster[] = [];
  /** Active rosters per game (the ones that play), in id order (not by strength). */
  readonly activeRosters = new Map<number, Roster[]>();
  /** A roster's strength in 0..1, used to plan results. */
  readonly strength = new Map<number, number>();
  readonly teamById = new Map<number, Team>();
  readonly rosterById = new Map<number, Roster>();
  readonly playerById = new Map<number, Player>();
  readonly lineupById = new Map<number, Lineup>();
  readonly casterById = new Map<number, CasterInfo>();
  #imageId = 0;
  /** Where image URLs point (`serveImagesAt`). */
  imageBase = UNSERVED_IMAGE_BASE;
  /** Images by path ("teams/101", "flags/se"): what `/static/images/<path>.png` draws. */
  readonly imagesByPath = new Map<string, Image>();
  /** Every image object given out (the copies in teams, players, ...), for `serveImagesAt`. */
  readonly #issued: { path: string; image: Image }[] = [];
  #usedNames = new Set<string>();
  /** The last id given, per resource generated with teams. */
  #next = { team: 100, roster: 1000, lineup: 5000, standing: 2000, player: 10000 };

  constructor(readonly seed: number) {
    this.#places();
    this.#games();
    this.#teams();
    this.#casters();
  }

  /**
   * A new image; `/images/{id}` answers it without `type`. Its URLs are under `imageBase`: the
   * placeholder (serving nothing) until the service listens and calls `serveImagesAt` with its own
   * `/static/images` address, which serves a PNG for every image (`image-files.ts`).
   */
  image(path: string, type: Image['type'], fallback = false): Image {
    const id = ++this.#imageId;
    const image: Image = { id, ...this.imageUrls(path), fallback };
    this.images.set(id, image);
    this.imagesByPath.set(path, image);
    const given = type === undefined ? { ...image } : { ...image, type };
    this.#issued.push({ path, image }, { path, image: given });
    return given;
  }

  /** The URLs of the image at `path` ("teams/101"): the picture and its thumbnail. */
  imageUrls(path: string): Pick<Image, 'url' | 'thumbnail'> {
    return { url: `${this.imageBase}/${path}.png`, thumbnail: `${this.imageBase}/${path}.thumb.png` };
  }

  /** Points every image made so far at `base` (the service's own `/static/images`, once it listens). */
  serveImagesAt(base: string): void {
    this.imageBase = base;
    for (const { path, image } of this.#issued) Object.assign(image, this.imageUrls(path));
  }

  game(id: number): GameInfo | undefined {
    return this.games[id - 1];
  }

  #places(): void {
    COUNTRY_DEFS.forEach(([name, abbreviation], i) => {
      this.countries.push({
        id: i + 1,
        name,
        abbreviation,
        images: [this.image(`flags/${abbreviation.toLowerCase()}`, 'default')],
      });
    });
    REGION_DEFS.forEach(([name, abbreviation, country], i) => {
      this.regions.push({ id: 21 + i, name, abbreviation, country: this.countries[country]! });
    });
    PLATFORM_DEFS.forEach(([name, color], i) => {
      this.platforms.push({
        id: i + 1,
        name,
        color,
        images: [this.image(`platforms/${name.toLowerCase()}`, 'default')],
      });
    });
    LANGUAGES.forEach((name, i) => {
      this.languages.push({ id: i + 1, name });
    });
    SOCIAL_DEFS.forEach(([name, slug], i) => {
      this.socialPlatforms.push({ id: i + 1, name, slug });
    });
  }

  #games(): void {
    let layoutId = 700;
    const image = (path: string, type: Image['type']) => this.image(path, type);
    GAME_DEFS.forEach((def, index) => {
      const id = index + 1;
      const rng = new Rng(this.seed, 'game', id);
      const info = gameInfo(def, id, rng, image);
      this.games.push(info);
      addGameAssets(def, id, image, this.assets, this.assetsBy);
      const structures = this.assetsBy.get(`${id}:structure`)!;
      const layouts = gameLayouts(def, info, structures, rng, image, layoutId);
      this.mapLayouts.push(...layouts);
      layoutId += layouts.length;
    });
  }

  #teams(): void {
    const rng = new Rng(this.seed, 'teams');
    const orgCount = 48;
    for (let i = 0; i < orgCount; i++) {
      this.organisations.push({
        id: 51 + i,
        name: orgName(rng, i),
        region: rng.pick(this.regions),
        teams: [],
      });
    }
    for (const info of this.games) {
      const active: Roster[] = [];
      const playing = activeTeams(info.kind === 'battle-royale');
      for (let t = 0; t < playing + INACTIVE_TEAMS_PER_GAME; t++) {
        const roster = this.#team(rng, info, t, t < playing);
        if (t < playing) active.push(roster);
      }
      this.activeRosters.set(info.game.id, active);
    }
  }

  /** One team with its players and rosters (a former one for some); returns the current roster. */
  #team(rng: Rng, info: GameInfo, t: number, isActive: boolean): Roster {
    const gameId = info.game.id;
    let name = teamName(rng);
    while (this.#usedNames.has(name)) name = teamName(rng);
    this.#usedNames.add(name);
    const id = ++this.#next.team;
    const org = rng.chance(0.8)
      ? this.organisations[(t * 7 + gameId * 5) % this.organisations.length]!
      : null;
    const region = org?.region ?? rng.pick(this.regions);
    const newPlayer = (roleIndex: number) => this.#player(info, id, roleIndex, isActive, region);
    const size = rng.chance(0.3) ? 6 : 5;
    const current = Array.from({ length: size }, (_, i) => newPlayer(i));
    const standings: StandingRoster[] = [];
    const previous = rng.chance(0.35);
    const makeRoster = (players: Player[], from: string, to: string | null) =>
      this.#roster(id, gameId, players, from, to, standings);
    if (previous) {
      const former = [newPlayer(3), newPlayer(4)];
      for (const p of former) p.active = false;
      makeRoster([...current.slice(0, 3), ...former], '2024-01-15T00:00:00.000Z', '2025-11-30T00:00:00.000Z');
    }
    const currentRoster = makeRoster(
      current,
      previous ? '2025-12-01T00:00:00.000Z' : '2025-01-10T00:00:00.000Z',
      null,
    );
    this.strength.set(currentRoster.id, rng.next());
    const team: Team = {
      id,
      name,
      abbreviation: abbreviate(name),
      also_known_as: rng.chance(0.4)
        ? [`${name.split(' ')[1]} ${['Club', 'Squad', 'Five'][rng.int(0, 2)]}`]
        : [],
      social_media_accounts: this.socialPlatforms
        .slice(0, rng.int(1, 3))
        .map((platform) => socialAccount(platform, name.toLowerCase().replace(/\s+/g, ''))),
      game: { id: gameId },
      organisation: org ? { id: org.id } : null,
      deleted_at: null,
      active: isActive,
      images: [this.image(`teams/${id}`, 'default', rng.chance(0.1))],
      region,
      standing_roster: standings[standings.length - 1] ?? null,
      resource_version: 1,
    };
    this.teams.push(team);
    this.teamById.set(id, team);
    org?.teams.push({ id });
    return currentRoster;
  }

  #player(info: GameInfo, team: number, roleIndex: number, active: boolean, region: Region): Player {
    const prng = new Rng(this.seed, 'player', this.#next.player + 1);
    const nick = handle(prng);
    const id = ++this.#next.player;
    const role = info.roles[roleIndex % info.roles.length];
    const player: Player = {
      id,
      first_name: firstName(prng),
      last_name: lastName(prng),
      nick_name: nick,
      active,
      images: [this.image(`players/${id}`, 'default', prng.chance(0.2))],
      region: prng.chance(0.85) ? region : prng.pick(this.regions),
      game: { id: info.game.id },
      race: info.races.length > 0 ? { ...prng.pick(info.races) } : null,
      role: role ? { id: role.id } : null,
      teams: [{ id: team }],
      social_media_accounts: [socialAccount(this.socialPlatforms[0]!, nick.toLowerCase())],
      deleted_at: null,
    };
    this.players.push(player);
    this.playerById.set(player.id, player);
    return player;
  }

  /** A roster of a team with its lineup and standing roster (appended to `standings`). */
  #roster(
    team: number,
    game: number,
    players: Player[],
    from: string,
    to: string | null,
    standings: StandingRoster[],
  ): Roster {
    const lineup: Lineup = { id: ++this.#next.lineup, players: players.map((p) => ({ id: p.id })) };
    this.lineups.push(lineup);
    this.lineupById.set(lineup.id, lineup);
    const roster: Roster = {
      id: ++this.#next.roster,
      team: { id: team },
      line_up: lineup,
      game: { id: game },
    };
    this.rosters.push(roster);
    this.rosterById.set(roster.id, roster);
    const standing: StandingRoster = {
      id: ++this.#next.standing,
      from,
      to,
      roster: { id: roster.id },
      deleted_at: null,
    };
    this.standingRosters.push(standing);
    standings.push(standing);
    return roster;
  }

  #casters(): void {
    const rng = new Rng(this.seed, 'casters');
    let casterId = 300;
    for (const info of this.games) {
      for (let c = 0; c < CASTERS_PER_GAME; c++) {
        const id = ++casterId;
        const name = `${handle(rng)}${rng.chance(0.5) ? 'Casts' : ''}`;
        const platform = this.platforms[c % this.platforms.length]!;
        const caster: CasterInfo = {
          id,
          display_name: name,
          username: name.toLowerCase(),
          game: { id: info.game.id },
          deleted_at:
            c === CASTERS_PER_GAME - 1 && info.game.id % 3 === 0 ? '2026-01-15T12:00:00.000Z' : null,
          platform,
          region: rng.pick(this.regions),
          streamId: 3000 + id,
          streamImages: [this.image(`streams/${id}`, 'external')],
          statusText: `${info.game.abbreviation} with ${name}: live from the desk`,
          baseViewers: rng.int(300, 40000),
        };
        this.casters.push(caster);
        this.casterById.set(id, caster);
      }
    }
    for (let b = 0; b < 12; b++) {
      const platform = this.platforms[b % this.platforms.length]!;
      const language = this.languages[b % this.languages.length]!;
      this.broadcasters.push({
        id: 401 + b,
        name: `${['Main', 'Second', 'Community', 'Regional'][b % 4]} ${language.name} ${platform.name}`,
        external_id: `bc-${platform.name.toLowerCase()}-${401 + b}`,
        platform: { id: platform.id },
        broadcast_defaults: { language: { id: language.id } },
      });
    }
  }
}

function socialAccount(platform: SocialMediaPlatform, name: string): SocialMediaAccount {
  return { handle: `@${name}`, url: `https://${platform.slug}.social.invalid/${name}`, platform };
}
