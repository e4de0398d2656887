/**
 * The name index: games, teams, tournaments, substages (and the rosters, organisations and nearby
 * series that label them) held in memory, so that commands resolve names to ids and label series
 * without asking the service, and autocomplete answers within Discord's 3 s from memory alone.
 *
 * It is loaded by `refresh()` at background priority with bounded pagination and refreshed
 * periodically (`start()`); `search` never waits on the service; `resolve` waits only for the first
 * load. User text never reaches the service from here: it is matched locally and turned into ids.
 */

import { InvalidQueryError } from '../client/errors.ts';
import type { EsportsClient } from '../client/types.ts';
import type { Clock } from '../core/clock.ts';
import { MatchdayError } from '../core/errors.ts';
import type {
  Game,
  GameMap,
  Language,
  Organisation,
  Player,
  Role,
  Roster,
  Series,
  Substage,
  Team,
  Tournament,
} from '../protocol/types.ts';
import type { AutocompleteSource, Choice } from './command.ts';
import { UserError } from './command.ts';
import { editDistance } from './text-args.ts';

/** The sources the index resolves to numeric ids (timezones are resolved by `resolveTimeZone`). */
export type NameSource = Exclude<AutocompleteSource, 'timezone'>;

/** The slice of the data client the index reads. */
export type NameIndexClient = Pick<
  EsportsClient,
  'games' | 'teams' | 'tournaments' | 'substages' | 'rosters' | 'organisations' | 'maps' | 'series'
> &
  Partial<Pick<EsportsClient, 'languages' | 'players'>>;

export interface NameIndexLogger {
  warn(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
}

export interface NameIndexOptions {
  client: NameIndexClient;
  clock: Clock;
  logger?: NameIndexLogger;
  /** Upper bounds of each walk, so a huge catalogue cannot turn a refresh into thousands of requests. */
  limits?: Partial<typeof DEFAULT_LIMITS>;
  /** Tournaments ending this long before now still count as current. Default 14 days. */
  pastWindowMs?: number;
  /** Tournaments starting within this long after now count as current. Default 21 days. */
  futureWindowMs?: number;
  /**
   * Substages are loaded for tournaments running within this long of now (default 7 days): the
   * ones people ask standings of; others are fetched when asked for.
   */
  substageWindowMs?: number;
}

export const DEFAULT_LIMITS = {
  games: 100,
  teams: 5000,
  tournaments: 500,
  substages: 2000,
  rosters: 10000,
  organisations: 5000,
  maps: 2000,
  /** Live, next and latest series offered to autocomplete (`series` source). */
  series: 100,
  /** Players, loaded on the first `player` search or resolve (not with the rest). */
  players: 5000,
};

/** Players are loaded when first asked for, and again when this old (they change rarely). */
const PLAYERS_MAX_AGE_MS = 30 * 60 * 1000;

/** Choice names are capped by Discord at 100 characters. */
export const MAX_CHOICE_NAME = 100;
/** Names longer than this cannot be any team or tournament: refused before matching. */
export const MAX_NAME_INPUT = 100;

const DAY = 24 * 60 * 60 * 1000;

/** A roster as the index keeps it: which team, which players. */
export interface RosterEntry {
  id: number;
  team: number;
  players: number[];
  game: number;
}

interface Entry {
  id: number;
  /** Display name, e.g. "Team Liquid (CS2)". */
  label: string;
  /** The plain name, for exact-match messages. */
  name: string;
  /** Normalised keys: name, abbreviation, also_known_as. */
  keys: string[];
  game?: number;
  /** Higher sorts first among equal scores (e.g. active teams, current tournaments). */
  weight: number;
}

/** The index as plain data (`NameIndex.snapshot`). */
export interface NameSnapshot {
  /** The instant (clock ms) of the refresh it holds. */
  at: number;
  games: Game[];
  teams: Team[];
  tournaments: Tournament[];
  substages: Substage[];
  rosters: RosterEntry[];
  organisations: Organisation[];
  series: Series[];
  maps: GameMap[];
  roles: Role[];
  /** Absent in snapshots written before languages were indexed. */
  languages?: Language[];
}

/** Optional narrowing: prefer candidates in these games when a name is ambiguous across games. */
export interface ResolveScope {
  games?: readonly number[];
}

const NOUN: Record<NameSource, string> = {
  team: 'team',
  organisation: 'organisation',
  tournament: 'tournament',
  game: 'game',
  substage: 'stage',
  series: 'series',
  player: 'player',
};

/** Lower-case, accents stripped, punctuation collapsed to single spaces. */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** How well `query` (normalised) matches `key` (normalised): 0 (no) to 100 (exact). */
export function matchScore(query: string, key: string): number {
  if (query === '' || key === '') return 0;
  if (key === query) return 100;
  const compactKey = key.replaceAll(' ', '');
  const compactQuery = query.replaceAll(' ', '');
  if (compactKey === compactQuery) return 95;
  if (key.startsWith(query)) return 80;
  if (key.split(' ').some((word) => word.startsWith(query))) return 70;
  // Mid-word matches of one or two letters are noise ("ab" is inside half the names).
  if (compactQuery.length >= 3 && compactKey.includes(compactQuery)) return 60;
  return 0;
}

function clip(text: string, max = MAX_CHOICE_NAME): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Every IANA zone this runtime knows, plus UTC. */
const TIME_ZONES: string[] = (() => {
  const zones = new Set<string>(['UTC']);
  try {
    for (const zone of Intl.supportedValuesOf('timeZone')) zones.add(zone);
  } catch {
    // Older runtimes: UTC only; isTimeZone still validates whatever the user types.
  }
  return [...zones];
})();

/**
 * The name index. Build one per process with `createNameIndex` and share it between commands and
 * autocomplete; it also labels series (team names from rosters) for cards and notifications.
 */
export class NameIndex {
  readonly #client: NameIndexClient;
  readonly #clock: Clock;
  readonly #logger: NameIndexLogger | undefined;
  readonly #limits: typeof DEFAULT_LIMITS;
  readonly #pastWindowMs: number;
  readonly #futureWindowMs: number;
  readonly #substageWindowMs: number;

  #games = new Map<number, Game>();
  #teams = new Map<number, Team>();
  #tournaments = new Map<number, Tournament>();
  #substages = new Map<number, Substage>();
  #rosters = new Map<number, RosterEntry>();
  #rostersByTeam = new Map<number, number[]>();
  #organisations = new Map<number, Organisation>();
  #series = new Map<number, Series>();
  #maps = new Map<number, GameMap>();
  #languages = new Map<number, Language>();
  #roles = new Map<number, Role>();
  #players = new Map<number, Player>();
  /** Clock ms of the last players load; -Infinity before the first. */
  #playersAt = Number.NEGATIVE_INFINITY;
  #playersLoading: Promise<void> | undefined;
  #entries: Record<NameSource, Entry[]> = {
    team: [],
    organisation: [],
    tournament: [],
    game: [],
    substage: [],
    series: [],
    player: [],
  };

  #loaded = false;
  #refreshing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #seriesTimer: NodeJS.Timeout | undefined;
  #lastRefresh: Date | undefined;

  constructor(options: NameIndexOptions) {
    this.#client = options.client;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.#pastWindowMs = options.pastWindowMs ?? 14 * DAY;
    this.#futureWindowMs = options.futureWindowMs ?? 21 * DAY;
    this.#substageWindowMs = options.substageWindowMs ?? 7 * DAY;
  }

  /** True once a refresh has completed. */
  get loaded(): boolean {
    return this.#loaded;
  }

  get lastRefresh(): Date | undefined {
    return this.#lastRefresh;
  }

  /**
   * Everything the index holds, as plain data for the store (`restore` reads it back), with the
   * instant of the refresh it came from: a new process starts warm instead of reloading it all.
   */
  snapshot(): NameSnapshot {
    return {
      at: this.#lastRefresh?.getTime() ?? 0,
      games: [...this.#games.values()],
      teams: [...this.#teams.values()],
      tournaments: [...this.#tournaments.values()],
      substages: [...this.#substages.values()],
      rosters: [...this.#rosters.values()],
      organisations: [...this.#organisations.values()],
      series: [...this.#series.values()],
      maps: [...this.#maps.values()],
      roles: [...this.#roles.values()],
      languages: [...this.#languages.values()],
    };
  }

  /** Takes a snapshot's contents (see `snapshot`); the index counts as loaded at its instant. */
  restore(snapshot: NameSnapshot): void {
    this.#games = new Map(snapshot.games.map((g) => [g.id, g]));
    this.#teams = new Map(snapshot.teams.map((t) => [t.id, t]));
    this.#tournaments = new Map(snapshot.tournaments.map((t) => [t.id, t]));
    this.#substages = new Map(snapshot.substages.map((s) => [s.id, s]));
    this.#organisations = new Map(snapshot.organisations.map((o) => [o.id, o]));
    this.#series = new Map(snapshot.series.map((s) => [s.id, s]));
    this.#maps = new Map(snapshot.maps.map((m) => [m.id, m]));
    this.#roles = new Map(snapshot.roles.map((r) => [r.id, r]));
    this.#languages = new Map((snapshot.languages ?? []).map((l) => [l.id, l]));
    this.#rosters = new Map();
    this.#rostersByTeam = new Map();
    for (const entry of snapshot.rosters) {
      this.#rosters.set(entry.id, entry);
      const list = this.#rostersByTeam.get(entry.team) ?? [];
      if (!list.includes(entry.id)) list.push(entry.id);
      this.#rostersByTeam.set(entry.team, list);
    }
    this.#rebuild();
    this.#loaded = true;
    this.#lastRefresh = new Date(snapshot.at);
  }

  /** Sizes, for logs and the banner. */
  sizes(): Record<string, number> {
    return {
      games: this.#games.size,
      teams: this.#teams.size,
      tournaments: this.#tournaments.size,
      substages: this.#substages.size,
      rosters: this.#rosters.size,
      organisations: this.#organisations.size,
      maps: this.#maps.size,
      roles: this.#roles.size,
      series: this.#series.size,
    };
  }

  /**
   * Reloads everything at background priority. Concurrent calls share one refresh. On failure the
   * previous contents stay in place (and the error is thrown to the caller, and logged).
   */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#load().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /**
   * Refreshes everything every `everyMs` (default 10 minutes) and the live, next and latest series
   * offered to `series` autocomplete every `seriesEveryMs` (default 1 minute, 3 requests) until
   * `stop()`. The timers never keep the process alive.
   */
  start(everyMs = 10 * 60 * 1000, seriesEveryMs = 60 * 1000): void {
    this.stop();
    const quietly = (work: () => Promise<void>) => () => {
      work().catch(() => {
        // logged where it failed; the old contents keep serving
      });
    };
    this.#timer = setInterval(
      quietly(() => this.refresh()),
      everyMs,
    );
    this.#timer.unref();
    this.#seriesTimer = setInterval(
      quietly(() => this.refreshSeries()),
      seriesEveryMs,
    );
    this.#seriesTimer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    if (this.#seriesTimer) clearInterval(this.#seriesTimer);
    this.#timer = undefined;
    this.#seriesTimer = undefined;
  }

  /** Reloads only the series window (live, next, latest) that `series` autocomplete offers. */
  async refreshSeries(): Promise<void> {
    if (!this.#loaded || this.#refreshing) return;
    try {
      const series = await this.#loadSeries();
      this.#series = new Map(series.map((s) => [s.id, s]));
      this.#rebuild();
    } catch (error) {
      this.#logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'series window refresh failed',
      );
      throw error;
    }
  }

  async #load(): Promise<void> {
    const now = this.#clock.nowMs();
    const opts = (limit: number) => ({ limit, priority: 'background' as const });
    const collect = async <T>(
      iterable: AsyncIterable<T>,
      keep: (item: T) => boolean = () => true,
      stop?: (item: T) => boolean,
    ) => {
      const items: T[] = [];
      for await (const item of iterable) {
        if (stop?.(item)) break;
        if (keep(item)) items.push(item);
      }
      return items;
    };
    try {
      const from = new Date(now - this.#pastWindowMs).toISOString();
      const until = new Date(now + this.#futureWindowMs).toISOString();
      const [games, teams, tournaments, rosters, organisations, maps] = await Promise.all([
        collect(
          this.#client.games.paginate({ order: 'id-asc' }, opts(this.#limits.games)),
          (g) => g.deleted_at === null,
        ),
        collect(
          this.#client.teams.paginate(
            { filter: [['deleted_at', '=', null]], order: 'id-asc' },
            opts(this.#limits.teams),
          ),
        ),
        // Newest end first; stop once tournaments ended before the window: the "current window".
        collect(
          this.#client.tournaments.paginate(
            { filter: [['deleted_at', '=', null]], order: 'end-desc' },
            opts(this.#limits.tournaments),
          ),
          (t) => t.start <= until,
          (t) => t.end < from,
        ),
        collect(this.#client.rosters.paginate({ order: 'id-asc' }, opts(this.#limits.rosters))),
        collect(this.#client.organisations.paginate({ order: 'id-asc' }, opts(this.#limits.organisations))),
        // Maps rarely change (spec, "Map"): names for live cards without a request per match.
        collect(this.#client.maps.paginate({ order: 'id-asc' }, opts(this.#limits.maps))),
      ]);
      const near = (t: Tournament) =>
        Date.parse(t.start) <= now + this.#substageWindowMs &&
        Date.parse(t.end) >= now - this.#substageWindowMs;
      const tournamentIds = tournaments.filter(near).map((t) => t.id);
      const [substages, series, roles, languages] = await Promise.all([
        tournamentIds.length === 0
          ? Promise.resolve([] as Substage[])
          : collect(
              this.#client.substages.paginate(
                {
                  filter: [
                    ['tournament.id', '<=', tournamentIds],
                    ['deleted_at', '=', null],
                  ],
                  order: 'id-asc',
                },
                opts(this.#limits.substages),
              ),
            ),
        this.#loadSeries(),
        // Player roles per game (one small list each): names for team rosters.
        Promise.all(
          games.map((g) =>
            this.#client.games
              .roles(g.id, { take: 50 }, { priority: 'background' })
              .catch(() => [] as Role[]),
          ),
        ).then((lists) => lists.flat()),
        // Stream languages (a short list): named on /casters without a request.
        this.#client.languages
          ? this.#client.languages
              .list({ take: 50 }, { priority: 'background' })
              .catch(() => [] as Language[])
          : Promise.resolve([] as Language[]),
      ]);
      this.#games = new Map(games.map((g) => [g.id, g]));
      this.#teams = new Map(teams.map((t) => [t.id, t]));
      this.#tournaments = new Map(tournaments.map((t) => [t.id, t]));
      this.#substages = new Map(substages.map((s) => [s.id, s]));
      this.#organisations = new Map(organisations.map((o) => [o.id, o]));
      this.#maps = new Map(maps.map((m) => [m.id, m]));
      this.#roles = new Map(roles.map((r) => [r.id, r]));
      this.#languages = new Map(languages.map((l) => [l.id, l]));
      this.#rosters = new Map();
      this.#rostersByTeam = new Map();
      for (const roster of rosters) this.#addRoster(roster);
      this.#series = new Map(series.map((s) => [s.id, s]));
      this.#rebuild();
      this.#loaded = true;
      this.#lastRefresh = new Date(now);
      this.#logger?.info?.({ sizes: this.sizes() }, 'name index refreshed');
    } catch (error) {
      this.#logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'name index refresh failed',
      );
      throw error;
    }
  }

  /** Live, next upcoming and latest finished series: what `series` autocomplete offers. */
  async #loadSeries(): Promise<Series[]> {
    const take = Math.min(50, Math.max(1, Math.floor(this.#limits.series / 3)));
    const background = { priority: 'background' as const };
    const [live, upcoming, recent] = await Promise.all([
      this.#client.series.list(
        { filter: [['lifecycle', '=', 'live']], order: 'start-asc', take: 50 },
        background,
      ),
      this.#client.series.list(
        { filter: [['lifecycle', '=', 'upcoming']], order: 'start-asc', take },
        background,
      ),
      this.#client.series.list(
        { filter: [['lifecycle', '<=', ['over', 'over-forfeited']]], order: 'end-desc', take },
        background,
      ),
    ]);
    return [...live, ...upcoming, ...recent];
  }

  #addRoster(roster: Roster): void {
    const entry: RosterEntry = {
      id: roster.id,
      team: roster.team.id,
      players: roster.line_up.players.map((p) => p.id),
      game: roster.game.id,
    };
    this.#rosters.set(roster.id, entry);
    const list = this.#rostersByTeam.get(entry.team) ?? [];
    if (!list.includes(roster.id)) list.push(roster.id);
    this.#rostersByTeam.set(entry.team, list);
  }

  /** The game's tag, or empty when the game is unknown (a made-up "game 7" reads like a map). */
  #gameTag(gameId: number): string {
    const game = this.#games.get(gameId);
    return game ? game.abbreviation.toUpperCase() : '';
  }

  /** "Nova Krakens (SP)": the name and, when known, the game (teams of different games share names). */
  #teamLabel(t: Team): string {
    const tag = this.#gameTag(t.game.id);
    return tag ? `${t.name} (${tag})` : t.name;
  }

  #rebuild(): void {
    this.#rebuildPlayers();
    const key = (...texts: (string | undefined | null)[]) => [
      ...new Set(
        texts
          .filter((t): t is string => typeof t === 'string')
          .map(normalizeName)
          .filter((t) => t !== ''),
      ),
    ];
    const now = this.#clock.nowMs();
    this.#entries.game = [...this.#games.values()].map((g) => ({
      id: g.id,
      name: g.title,
      label: clip(`${g.title} (${g.abbreviation})`),
      keys: key(g.title, g.abbreviation, `${g.title} (${g.abbreviation})`),
      weight: 0,
    }));
    this.#entries.team = [...this.#teams.values()].map((t) => ({
      id: t.id,
      name: t.name,
      label: clip(this.#teamLabel(t)),
      keys: key(t.name, t.abbreviation, ...t.also_known_as, this.#teamLabel(t)),
      game: t.game.id,
      weight: t.active ? 1 : 0,
    }));
    this.#entries.organisation = [...this.#organisations.values()].map((o) => ({
      id: o.id,
      name: o.name,
      label: clip(o.name),
      keys: key(o.name),
      weight: 0,
    }));
    this.#entries.tournament = [...this.#tournaments.values()].map((t) => {
      const running = Date.parse(t.start) <= now && now <= Date.parse(t.end);
      const label = `${t.title} (${[this.#gameTag(t.game.id), `tier ${t.tier}`].filter(Boolean).join(', ')})`;
      return {
        id: t.id,
        name: t.title,
        label: clip(label),
        keys: key(t.title, t.short_title, label),
        game: t.game.id,
        weight: running ? 2 : Date.parse(t.start) > now ? 1 : 0,
      };
    });
    this.#entries.substage = [...this.#substages.values()].map((s) => {
      const tournament = this.#tournaments.get(s.tournament.id);
      const owner = tournament?.short_title || tournament?.title || `tournament ${s.tournament.id}`;
      return {
        id: s.id,
        name: s.title,
        label: clip(`${s.title} · ${owner}`),
        keys: key(s.title, `${owner} ${s.title}`, `${s.title} · ${owner}`),
        game: s.game.id,
        weight: 0,
      };
    });
    this.#entries.series = [...this.#series.values()].map((s) => {
      const teams = s.participants.map((p) => this.teamOfRoster(p.roster.id)?.name ?? 'TBD');
      const tournament = this.#tournaments.get(s.tournament.id);
      const when = s.start ? `${s.start.slice(0, 16).replace('T', ' ')} UTC` : 'time TBD';
      const head = teams.length > 0 ? teams.join(' vs ') : s.title;
      const state = s.lifecycle === 'live' ? 'LIVE' : when;
      const event = tournament?.short_title || tournament?.title || s.title;
      return {
        id: s.id,
        name: head,
        label: clip(`${head} · ${event} · ${state}`),
        // The label without its state still names the series once it went live (or its time moved).
        keys: key(
          head,
          s.title,
          tournament?.title,
          tournament?.short_title,
          ...teams,
          `${head} · ${event} · ${state}`,
          `${head} · ${event}`,
        ),
        game: s.game.id,
        weight: s.lifecycle === 'live' ? 2 : s.lifecycle === 'upcoming' ? 1 : 0,
      };
    });
  }

  /**
   * "Zogalqu (Iron Pilots, SP)": a player's nick with the team and game that tell namesakes apart;
   * keys are the nick, the real name and the label.
   */
  #rebuildPlayers(): void {
    // Namesakes of one team and game (a former and a current player) are told apart by real name.
    const seen = new Map<string, number>();
    for (const p of this.#players.values()) {
      const label = this.#playerLabel(p);
      seen.set(label, (seen.get(label) ?? 0) + 1);
    }
    this.#entries.player = [...this.#players.values()].map((p) => {
      const base = this.#playerLabel(p);
      const label = seen.get(base)! > 1 ? this.#playerLabel(p, true) : base;
      const real = [p.first_name, p.last_name].filter(Boolean).join(' ');
      return {
        id: p.id,
        name: p.nick_name,
        label: clip(label),
        keys: [...new Set([p.nick_name, real, label].map(normalizeName).filter((k) => k !== ''))],
        game: p.game.id,
        weight: p.active ? 1 : 0,
      };
    });
  }

  #playerLabel(p: Player, withRealName = false): string {
    const team = p.teams.map((t) => this.#teams.get(t.id)).find((t) => t !== undefined);
    const real = withRealName ? [p.first_name, p.last_name].filter(Boolean).join(' ') : '';
    const context = [real, team?.name, this.#gameTag(p.game.id)].filter(Boolean).join(', ');
    return clip(context ? `${p.nick_name} (${context})` : p.nick_name);
  }

  /**
   * The shortest text `/player` resolves to this player: the nick when no other player has it (once
   * the players are loaded), else the label with team and game ("Zogalqu (Iron Pilots, SP)").
   */
  playerText(player: Player): string {
    const nick = normalizeName(player.nick_name);
    const loaded = this.#players.size > 0;
    const namesakes = this.#entries.player.filter((e) => e.keys.includes(nick)).length;
    if (loaded && namesakes === 1) return player.nick_name;
    return this.#entries.player.find((e) => e.id === player.id)?.label ?? this.#playerLabel(player);
  }

  /**
   * Loads the players (once, then again when older than half an hour): one listing walk at
   * background priority on v3; on an interface without a players listing (v2), the players of the
   * rosters the index holds (records the rosters carried, so no request). Concurrent calls share it.
   */
  ensurePlayers(): Promise<void> {
    if (this.#players.size > 0 && this.#clock.nowMs() - this.#playersAt < PLAYERS_MAX_AGE_MS)
      return Promise.resolve();
    this.#playersLoading ??= this.#loadPlayers().finally(() => {
      this.#playersLoading = undefined;
    });
    return this.#playersLoading;
  }

  async #loadPlayers(): Promise<void> {
    const players = this.#client.players;
    if (!players) throw new MatchdayError('NAMES_UNAVAILABLE', 'outage', 'Players cannot be read here.');
    if (!this.#loaded) await this.refresh();
    const options = { limit: this.#limits.players, priority: 'background' as const };
    let list: Player[] = [];
    try {
      for await (const player of players.paginate(
        { filter: [['deleted_at', '=', null]], order: 'id-asc' },
        options,
      ))
        list.push(player);
    } catch (error) {
      if (!(error instanceof InvalidQueryError)) throw error;
      const ids = [...new Set([...this.#rosters.values()].flatMap((r) => r.players))];
      list = await players.getMany(ids, { priority: 'background' });
    }
    this.#players = new Map(list.filter((p) => p.deleted_at === null).map((p) => [p.id, p]));
    this.#playersAt = this.#clock.nowMs();
    this.#rebuildPlayers();
  }

  /** A player the index holds (after `ensurePlayers`). */
  player(id: number): Player | undefined {
    return this.#players.get(id);
  }

  /** Ranked matches of `text` in `source` (best first). Empty text lists the most relevant. */
  #rank(source: NameSource, text: string, scope?: ResolveScope): { entry: Entry; score: number }[] {
    const query = normalizeName(text);
    const entries = this.#entries[source];
    const inScope = (e: Entry) =>
      scope?.games && scope.games.length > 0 && e.game !== undefined ? scope.games.includes(e.game) : true;
    const ranked =
      query === ''
        ? entries.map((entry) => ({ entry, score: 1 }))
        : entries
            .map((entry) => ({ entry, score: Math.max(0, ...entry.keys.map((k) => matchScore(query, k))) }))
            .filter((r) => r.score > 0);
    return ranked.sort(
      (a, b) =>
        b.score - a.score ||
        Number(inScope(b.entry)) - Number(inScope(a.entry)) ||
        b.entry.weight - a.entry.weight ||
        a.entry.label.localeCompare(b.entry.label) ||
        a.entry.id - b.entry.id,
    );
  }

  /**
   * Autocomplete: up to `limit` (max 25) choices whose value is the id as a string. Synchronous, from
   * memory: before the first refresh it simply offers nothing.
   */
  search(source: AutocompleteSource, text: string, limit = 25, scope?: ResolveScope): Choice<string>[] {
    const max = Math.max(0, Math.min(25, Math.floor(limit)));
    if (source === 'timezone') return searchTimeZones(text, max);
    if (text.length > MAX_NAME_INPUT) return [];
    // Players load on first use: this search offers nothing yet, the next ones do.
    if (source === 'player') this.ensurePlayers().catch(() => {});
    return this.#rank(source, text, scope)
      .slice(0, max)
      .map(({ entry }) => ({ name: entry.label, value: String(entry.id) }));
  }

  /**
   * Turns what a user typed into an id: an id (digits, as autocomplete sends), an exact name,
   * abbreviation or alias, or a unique fuzzy match. Ambiguous text throws a `UserError` listing the
   * candidates; unknown text throws one suggesting the closest names. Waits for the first refresh.
   */
  async resolve(source: NameSource, text: string, scope?: ResolveScope, notes?: string[]): Promise<number> {
    if (!this.#loaded) {
      try {
        await this.refresh();
      } catch {
        throw new MatchdayError(
          'NAMES_UNAVAILABLE',
          'outage',
          `The list of ${NOUN[source]} names could not be loaded from the data service; try again in a minute.`,
        );
      }
    }
    if (source === 'player') {
      try {
        await this.ensurePlayers();
      } catch (error) {
        if (this.#players.size === 0)
          throw new MatchdayError(
            'NAMES_UNAVAILABLE',
            'outage',
            'The list of players could not be loaded from the data service; try again in a minute.',
          );
        this.#logger?.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'players refresh failed',
        );
      }
    }
    return this.resolveLoaded(source, text, scope, notes);
  }

  /**
   * `resolve` without waiting: for callers that know the index is loaded. Text with no match but
   * one clearly closest name (a typo) resolves to it, and `notes` gets a line saying so.
   */
  resolveLoaded(source: NameSource, text: string, scope?: ResolveScope, notes?: string[]): number {
    const noun = NOUN[source];
    const raw = text.trim();
    if (raw === '') throw new UserError('EMPTY_NAME', `Name a ${noun}: the text is empty.`);
    if (raw.length > MAX_NAME_INPUT) {
      throw new UserError(
        'NAME_TOO_LONG',
        `That ${noun} name is ${raw.length} characters long; names have at most ${MAX_NAME_INPUT}.`,
      );
    }
    if (normalizeName(raw) === '') {
      throw new UserError(
        'EMPTY_NAME',
        `"${clip(raw, 20)}" has no letters or digits: type part of a ${noun} name.`,
      );
    }
    if (/^\d{1,15}$/.test(raw)) {
      const id = Number(raw);
      if (this.#entries[source].some((e) => e.id === id)) return id;
    }
    let ranked = this.#rank(source, raw, scope);
    // A label offered earlier ("A vs B · Event · 15:00 UTC") still names its series once the state
    // part changed (it went live, its time moved): try it without that last part.
    if (ranked.length === 0 && raw.includes(' · '))
      ranked = this.#rank(source, raw.slice(0, raw.lastIndexOf(' · ')), scope);
    const best = ranked[0];
    if (!best) {
      const near = this.#nearest(source, raw);
      const first = near[0];
      const typos = normalizeName(raw).length >= 8 ? 2 : 1;
      if (
        first &&
        first.distance <= typos &&
        (near[1]?.distance ?? Number.POSITIVE_INFINITY) > first.distance
      ) {
        notes?.push(`No ${noun} is called "${clip(raw, 40)}"; showing ${first.entry.label}.`);
        return first.entry.id;
      }
      const suggestions = near.slice(0, 3).map((n) => n.entry.label);
      const hint =
        suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
      throw new UserError(
        `UNKNOWN_${noun.toUpperCase()}`,
        `No ${noun} matches "${clip(raw, 40)}".${hint}`,
        suggestions,
      );
    }
    let top = ranked.filter((r) => r.score === best.score);
    if (top.length > 1 && scope?.games && scope.games.length > 0) {
      const scoped = top.filter((r) => r.entry.game === undefined || scope.games!.includes(r.entry.game));
      if (scoped.length > 0) top = scoped;
    }
    // Among fuzzy (non-exact) matches, a single current or active one beats stale namesakes.
    if (top.length > 1 && best.score < 95) {
      const heaviest = Math.max(...top.map((r) => r.entry.weight));
      const heavy = top.filter((r) => r.entry.weight === heaviest);
      if (heavy.length === 1 && heaviest > 0) top = heavy;
    }
    if (top.length === 1) return top[0]!.entry.id;
    const labels = top.slice(0, 10).map((r) => r.entry.label);
    const more = top.length > labels.length ? ` and ${top.length - labels.length} more` : '';
    throw new UserError(
      `AMBIGUOUS_${noun.toUpperCase()}`,
      `"${clip(raw, 40)}" matches ${top.length} ${noun === 'series' ? 'series' : `${noun}s`}: ${labels.join('; ')}${more}. Pick one from the list or type more of the name.`,
      labels,
    );
  }

  /** The label the index shows for an id ("A vs B · Event · 2026-03-18 15:00 UTC"), if it holds it. */
  labelOf(source: NameSource, id: number): string | undefined {
    return this.#entries[source].find((e) => e.id === id)?.label;
  }

  /** The `count` names closest to `text` by edit distance, for "did you mean". */
  closest(source: NameSource, text: string, count = 3): string[] {
    return this.#nearest(source, text)
      .slice(0, count)
      .map((n) => n.entry.label);
  }

  /**
   * Entries within a few edits of `text`, nearest first. A key is compared whole and cut to the
   * text's length, so a typo in the start of a long name still counts as close.
   */
  #nearest(source: NameSource, text: string): { entry: Entry; distance: number }[] {
    const query = normalizeName(text);
    if (query === '') return [];
    const scored: { entry: Entry; distance: number }[] = [];
    for (const entry of this.#entries[source]) {
      let distance = Number.POSITIVE_INFINITY;
      for (const key of entry.keys)
        distance = Math.min(
          distance,
          editDistance(query, key),
          editDistance(query, key.slice(0, query.length)),
        );
      scored.push({ entry, distance });
    }
    const cutoff = Math.max(2, Math.ceil(query.length * 0.6));
    return scored
      .filter((s) => s.distance <= cutoff)
      .sort((a, b) => a.distance - b.distance || a.entry.label.localeCompare(b.entry.label));
  }

  game(id: number): Game | undefined {
    return this.#games.get(id);
  }

  games(): Game[] {
    return [...this.#games.values()];
  }

  team(id: number): Team | undefined {
    return this.#teams.get(id);
  }

  tournament(id: number): Tournament | undefined {
    return this.#tournaments.get(id);
  }

  /** A substage as of the last refresh (its standings may be old: fetch it for a table). */
  substage(id: number): Substage | undefined {
    return this.#substages.get(id);
  }

  substagesOf(tournamentId: number): Substage[] {
    return [...this.#substages.values()].filter((s) => s.tournament.id === tournamentId);
  }

  organisation(id: number): Organisation | undefined {
    return this.#organisations.get(id);
  }

  /** A map's name, for live cards (`MapNames`). */
  /** A language's name by id (stream languages), when the index holds it. */
  languageName(id: number): string | undefined {
    return this.#languages.get(id)?.name;
  }

  mapName(id: number): string | undefined {
    return this.#maps.get(id)?.name;
  }

  /** A player role's name (e.g. "AWPer"), if the game has roles. */
  roleName(id: number): string | undefined {
    return this.#roles.get(id)?.name;
  }

  roster(id: number): RosterEntry | undefined {
    return this.#rosters.get(id);
  }

  /** The team a roster belongs to, if both are known. */
  teamOfRoster(rosterId: number): Team | undefined {
    const roster = this.#rosters.get(rosterId);
    return roster ? this.#teams.get(roster.team) : undefined;
  }

  /** Every roster of a team the index knows (current and former lineups). */
  rostersOfTeam(teamId: number): number[] {
    return [...(this.#rostersByTeam.get(teamId) ?? [])];
  }

  /**
   * Makes sure the rosters (and their teams) of these series are known, fetching the missing ones
   * with at most one `getMany` each through `data` (the caller's scoped client). Usually a no-op.
   */
  async ensureSeriesLabels(
    data: Pick<NameIndexClient, 'rosters' | 'teams'>,
    series: readonly Series[],
  ): Promise<void> {
    const rosterIds = new Set<number>();
    for (const s of series) for (const p of s.participants) rosterIds.add(p.roster.id);
    await this.ensureRosters(data, [...rosterIds]);
  }

  /** Fetches unknown rosters, then their unknown teams, adding both to the index. */
  async ensureRosters(
    data: Pick<NameIndexClient, 'rosters' | 'teams'>,
    rosterIds: readonly number[],
  ): Promise<void> {
    const missing = [...new Set(rosterIds)].filter((id) => !this.#rosters.has(id));
    if (missing.length > 0) for (const roster of await data.rosters.getMany(missing)) this.#addRoster(roster);
    const teamIds = [
      ...new Set(
        rosterIds.map((id) => this.#rosters.get(id)?.team).filter((t): t is number => t !== undefined),
      ),
    ];
    const missingTeams = teamIds.filter((id) => !this.#teams.has(id));
    if (missingTeams.length > 0) {
      for (const team of await data.teams.getMany(missingTeams)) this.#teams.set(team.id, team);
      this.#rebuild();
    }
  }

  /** Fetches tournaments the index does not hold (outside its window), at most one request. */
  async ensureTournaments(data: Pick<NameIndexClient, 'tournaments'>, ids: readonly number[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.#tournaments.has(id));
    if (missing.length === 0) return;
    for (const t of await data.tournaments.getMany(missing)) this.#tournaments.set(t.id, t);
    this.#rebuild();
  }

  /**
   * Fetches maps the index does not hold, at most one request: a live card names its maps even
   * when it is asked for before the index's first load (`npm start` fills it behind the banner).
   */
  async ensureMaps(data: Pick<NameIndexClient, 'maps'>, ids: readonly number[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.#maps.has(id));
    if (missing.length === 0) return;
    for (const m of await data.maps.getMany(missing)) this.#maps.set(m.id, m);
  }

  /** Fetches substages the index does not hold, at most one request. */
  async ensureSubstages(data: Pick<NameIndexClient, 'substages'>, ids: readonly number[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.#substages.has(id));
    if (missing.length === 0) return;
    for (const s of await data.substages.getMany(missing)) this.#substages.set(s.id, s);
    this.#rebuild();
  }
}

/** Builds the process's name index. Call `refresh()` (and `start()`) to load it. */
export function createNameIndex(options: NameIndexOptions): NameIndex {
  return new NameIndex(options);
}

/** Autocomplete over IANA time zones ("berlin" -> Europe/Berlin). */
export function searchTimeZones(text: string, limit = 25): Choice<string>[] {
  const query = normalizeName(text);
  const ranked = TIME_ZONES.map((zone) => {
    const key = normalizeName(zone);
    const city = normalizeName(zone.split('/').pop() ?? zone);
    return { zone, score: query === '' ? 1 : Math.max(matchScore(query, key), matchScore(query, city)) };
  })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.zone.localeCompare(b.zone));
  return ranked.slice(0, limit).map((r) => ({ name: r.zone, value: r.zone }));
}

/**
 * Common abbreviations, as people type them, mapped to the zone they mean: a zone that follows the
 * region's daylight-saving rules (CET and CEST are both Europe/Berlin's), so times stay right all year.
 */
export const ZONE_ABBREVIATIONS: Record<string, string> = {
  UTC: 'UTC',
  GMT: 'UTC',
  Z: 'UTC',
  WET: 'Europe/Lisbon',
  WEST: 'Europe/Lisbon',
  BST: 'Europe/London',
  CET: 'Europe/Berlin',
  CEST: 'Europe/Berlin',
  MET: 'Europe/Berlin',
  EET: 'Europe/Athens',
  EEST: 'Europe/Athens',
  MSK: 'Europe/Moscow',
  IST: 'Asia/Kolkata',
  SGT: 'Asia/Singapore',
  HKT: 'Asia/Hong_Kong',
  JST: 'Asia/Tokyo',
  KST: 'Asia/Seoul',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
  ACST: 'Australia/Adelaide',
  AWST: 'Australia/Perth',
  NZST: 'Pacific/Auckland',
  NZDT: 'Pacific/Auckland',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  ET: 'America/New_York',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  CT: 'America/Chicago',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  MT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  PT: 'America/Los_Angeles',
  AKST: 'America/Anchorage',
  HST: 'Pacific/Honolulu',
  BRT: 'America/Sao_Paulo',
};

/** Zones for the offsets that are not whole hours (IANA's Etc/GMT zones have whole hours only). */
const PART_HOUR_OFFSETS: Record<string, string> = {
  '-9:30': 'Pacific/Marquesas',
  '-3:30': 'America/St_Johns',
  '+3:30': 'Asia/Tehran',
  '+4:30': 'Asia/Kabul',
  '+5:30': 'Asia/Kolkata',
  '+5:45': 'Asia/Kathmandu',
  '+6:30': 'Asia/Yangon',
  '+9:30': 'Australia/Darwin',
  '+10:30': 'Australia/Lord_Howe',
  '+12:45': 'Pacific/Chatham',
};

/**
 * A fixed offset ("UTC+2", "GMT-5", "+02:00", "UTC+5:30") as an IANA zone: whole hours as
 * `Etc/GMT-2` (IANA's sign is inverted: Etc/GMT-2 is two hours ahead of UTC), the common part-hour
 * offsets as the zone that uses them. Undefined when `text` is not an offset.
 */
function offsetZone(text: string): string | undefined {
  const match = /^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(text);
  if (!match) return undefined;
  const [, sign, h, m] = match;
  const hours = Number(h);
  const minutes = Number(m ?? 0);
  if (hours > 14 || minutes >= 60) return undefined;
  if (minutes === 0) return hours === 0 ? 'UTC' : `Etc/GMT${sign === '+' ? '-' : '+'}${hours}`;
  return PART_HOUR_OFFSETS[`${sign}${hours}:${String(minutes).padStart(2, '0')}`];
}

/**
 * Resolves a time zone: a common abbreviation (CET, EST, PST) or offset (UTC+2, GMT-5) as the zone
 * it means, an exact IANA name (any case), or a unique city match ("berlin").
 * Throws a `UserError` naming close zones otherwise.
 */
export function resolveTimeZone(text: string): string {
  const raw = text.trim();
  if (raw.length > MAX_NAME_INPUT || raw === '') {
    throw new UserError('BAD_TIMEZONE', 'Give a time zone such as Europe/Berlin, America/New_York or UTC.');
  }
  const abbreviation = ZONE_ABBREVIATIONS[raw.toUpperCase()];
  if (abbreviation) return abbreviation;
  const offset = offsetZone(raw);
  if (offset) return offset;
  const exact = TIME_ZONES.find((z) => z.toLowerCase() === raw.toLowerCase());
  if (exact) return exact;
  const choices = searchTimeZones(raw, 10);
  const best = choices[0];
  if (best && choices.length === 1) return best.value;
  if (choices.length > 1) {
    const names = choices.map((c) => c.value);
    throw new UserError(
      'AMBIGUOUS_TIMEZONE',
      `"${clip(raw, 40)}" matches several time zones: ${names.join(', ')}.`,
      names,
    );
  }
  throw new UserError(
    'BAD_TIMEZONE',
    `"${clip(raw, 40)}" is not a time zone; use an IANA name such as Europe/Berlin or UTC.`,
  );
}
