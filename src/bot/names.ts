/**
 * The name index: games, teams, tournaments, substages (and the rosters, organisations and nearby
 * series that label them) held in memory, so that commands resolve names to ids and label series
 * without asking the service, and autocomplete answers within Discord's 3 s from memory alone.
 *
 * It is loaded by `refresh()` at background priority with bounded pagination and refreshed
 * periodically (`start()`); `search` never waits on the service; `resolve` waits only for the first
 * load. User text never reaches the service from here: it is matched locally and turned into ids.
 */

import { stoppedByClose } from '../client/errors.ts';
import type { Priority } from '../client/types.ts';
import type { Clock } from '../core/clock.ts';
import { MatchdayError } from '../core/errors.ts';
import type { Translate } from '../i18n/i18n.ts';
import type {
  Game,
  GameMap,
  Language,
  Organisation,
  Player,
  Role,
  Series,
  Substage,
  Team,
  Tournament,
} from '../protocol/types.ts';
import type { AutocompleteSource, Choice } from './choice.ts';
import { buildEntries, type NameRecords, playerEntries, playerLabel } from './name-entries.ts';
import {
  DEFAULT_LIMITS,
  fetchMissing,
  fetchNames,
  fetchPlayers,
  fetchSeriesWindow,
  lookupNamed,
  lookupNear,
  lookupPlayers,
  type NameIndexClient,
  type NameSnapshot,
  type NameWindows,
  type NearFound,
  namesUnavailable,
  type RosterEntry,
  rosterEntry,
} from './name-load.ts';
import {
  clip,
  EN,
  type Entry,
  entryById,
  MAX_NAME_INPUT,
  type NameSource,
  NOUN,
  NOUN_KEY,
  nearestEntries,
  normalizeName,
  pickEntry,
  type ResolveScope,
  rankEntries,
} from './name-match.ts';
import { searchTimeZones } from './time-zones.ts';

interface NameIndexLogger {
  warn(obj: object, msg?: string): void;
  info?(obj: object, msg?: string): void;
}

interface NameIndexOptions {
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

/** Players are loaded when first asked for, and again when this old (they change rarely). */
const PLAYERS_MAX_AGE_MS = 30 * 60 * 1000;

/**
 * How long `resolve` may wait, from when it began, for a name list loading behind it before it says
 * the names are still loading: the rest of the command's 10 s is left for its own reads.
 */
const RESOLVE_WAIT_MS = 6000;
/**
 * Requests of a first load of the index (about 55), and of the players (about 110 pages after the
 * index): with the client's budget per second, how long a load not timed yet should take.
 */
const LOAD_REQUESTS = { names: 55, players: 165 } as const;
/** How long they take when the client does not say its budget (5 requests per second). */
const LOAD_MS = { names: 15_000, players: 35_000 } as const;

const DAY = 24 * 60 * 60 * 1000;

/**
 * The name index. Build one per process with `createNameIndex` and share it between commands and
 * autocomplete; it also labels series (team names from rosters) for cards and notifications.
 */
export class NameIndex {
  readonly #client: NameIndexClient;
  readonly #clock: Clock;
  readonly #logger: NameIndexLogger | undefined;
  readonly #limits: typeof DEFAULT_LIMITS;
  readonly #windows: NameWindows;

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
  /** Players found by nick before the whole list was loaded (`resolve`). */
  readonly #looked = new Map<number, Player>();
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
  /** Wall-clock ms when the running load of the index, and of the players, began. */
  #loadStarted: number | undefined;
  #playersStarted: number | undefined;
  /** How long the last whole load of the index, and of the players, took (wall-clock ms). */
  #loadMs: number | undefined;
  #playersMs: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #seriesTimer: NodeJS.Timeout | undefined;
  #lastRefresh: Date | undefined;

  constructor(options: NameIndexOptions) {
    this.#client = options.client;
    this.#clock = options.clock;
    this.#logger = options.logger;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.#windows = {
      pastMs: options.pastWindowMs ?? 14 * DAY,
      futureMs: options.futureWindowMs ?? 21 * DAY,
      substageMs: options.substageWindowMs ?? 7 * DAY,
    };
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
    for (const entry of snapshot.rosters) this.#addRoster(entry);
    this.#rebuild();
    this.#loaded = true;
    this.#lastRefresh = new Date(snapshot.at);
  }

  /** Sizes, for logs and the banner. */
  sizes(): Record<string, number> {
    const { at, languages, ...lists } = this.snapshot();
    return Object.fromEntries(Object.entries(lists).map(([name, list]) => [name, list.length]));
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
    // Failures are logged where they happen; the old contents keep serving.
    const every = (ms: number, work: () => Promise<void>) => {
      const timer = setInterval(() => work().catch(() => {}), ms);
      timer.unref();
      return timer;
    };
    this.#timer = every(everyMs, () => this.refresh());
    this.#seriesTimer = every(seriesEveryMs, () => this.refreshSeries());
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
      const series = await fetchSeriesWindow(this.#client, this.#limits.series);
      this.#series = new Map(series.map((s) => [s.id, s]));
      this.#rebuild();
    } catch (error) {
      this.#warn('series window refresh failed', error);
      throw error;
    }
  }

  /** Logs a failed load (the old contents keep serving); one cut short by closing is no failure. */
  #warn(message: string, error: unknown): void {
    if (stoppedByClose(error)) this.#logger?.info?.({ step: message }, 'cut short: Matchday is stopping');
    else this.#logger?.warn({ err: error instanceof Error ? error.message : String(error) }, message);
  }

  /** Adds a roster and indexes it under its team. */
  #addRoster(entry: RosterEntry): void {
    this.#rosters.set(entry.id, entry);
    const list = this.#rostersByTeam.get(entry.team) ?? [];
    if (!list.includes(entry.id)) list.push(entry.id);
    this.#rostersByTeam.set(entry.team, list);
  }

  async #load(): Promise<void> {
    const started = Date.now();
    this.#loadStarted = started;
    try {
      this.restore(await fetchNames(this.#client, this.#clock.nowMs(), this.#limits, this.#windows));
      this.#loadMs = Date.now() - started;
      this.#logger?.info?.({ sizes: this.sizes() }, 'name index refreshed');
    } catch (error) {
      this.#warn('name index refresh failed', error);
      throw error;
    }
  }

  /** The records `buildEntries` and `playerEntries` read. */
  #records(): NameRecords {
    return {
      games: this.#games,
      teams: this.#teams,
      tournaments: this.#tournaments,
      substages: this.#substages,
      organisations: this.#organisations,
      series: this.#series,
      players: this.#players,
      teamOfRoster: (id) => this.teamOfRoster(id),
    };
  }

  #rebuild(): void {
    this.#entries = {
      ...buildEntries(this.#records(), this.#clock.nowMs()),
      player: playerEntries(this.#records()),
    };
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
    return entryById(this.#entries.player, player.id)?.label ?? playerLabel(this.#records(), player);
  }

  /**
   * Loads the players (once, then again when older than half an hour): one listing walk on v3; on an
   * interface without a players listing (v2), the players of the rosters the index holds. Only a
   * first load is waited for, at `priority` ('interactive' when a person waits on it); held players
   * keep answering while a reload runs in the background. Concurrent calls share one load.
   */
  ensurePlayers(priority: Priority = 'background'): Promise<void> {
    const held = this.#players.size > 0;
    if (held && this.#clock.nowMs() - this.#playersAt < PLAYERS_MAX_AGE_MS) return Promise.resolve();
    if (!this.#playersLoading) {
      const loading = this.#loadPlayers(held ? 'background' : priority).finally(() => {
        this.#playersLoading = undefined;
      });
      this.#playersLoading = loading;
      if (held) loading.catch((error: unknown) => this.#warn('players refresh failed', error));
    }
    return held ? Promise.resolve() : this.#playersLoading;
  }

  async #loadPlayers(priority: Priority): Promise<void> {
    const started = Date.now();
    this.#playersStarted = started;
    if (!this.#loaded) await this.refresh();
    const list = await fetchPlayers(
      this.#client,
      [...this.#rosters.values()],
      this.#limits.players,
      priority,
    );
    this.#players = new Map(list.map((p) => [p.id, p]));
    this.#playersAt = this.#clock.nowMs();
    this.#playersMs = Date.now() - started;
    this.#entries.player = playerEntries(this.#records());
  }

  /** A player the index holds (after `ensurePlayers`, or found by nick before it). */
  player(id: number): Player | undefined {
    return this.#players.get(id) ?? this.#looked.get(id);
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
    return rankEntries(this.#entries[source], text, scope)
      .slice(0, max)
      .map(({ entry }) => ({ name: entry.label, value: String(entry.id) }));
  }

  /**
   * Turns what a user typed into an id: an id (digits, as autocomplete sends), an exact name,
   * abbreviation or alias, or a unique fuzzy match. Ambiguous text throws a `UserError` listing the
   * candidates; unknown text throws one suggesting the closest names (in `t`'s language). Waits for
   * the first refresh.
   */
  async resolve(source: NameSource, text: string, scope?: ResolveScope, notes?: string[], t = EN) {
    const started = Date.now();
    const byId = /^\d{1,15}$/.test(text.trim());
    if (source === 'player' && this.#players.size === 0) {
      // Before the players are loaded, the players whose nick or name holds the text (filtered reads),
      // while the whole list loads behind it (a one-shot `matchday ask` need not wait for it).
      const found = await lookupPlayers(this.#client, text).catch(() => []);
      this.ensurePlayers().catch((error: unknown) => this.#warn('players load failed', error));
      if (found.length > 0) return this.#pickPlayers(found, source, text, t, scope, notes);
      // A typo: the players holding a piece of it, ranked by edit distance. An id (digits, as
      // autocomplete sends) is no typo: it waits for the list below.
      const near = byId ? undefined : await lookupNear(this.#client, 'player', text).catch(() => undefined);
      if (near && this.#players.size === 0) {
        const picked = await this.#pickNear(near, source, text, t, scope, notes);
        if (picked !== undefined) return picked;
      }
      // A search that failed (an outage) waits for the load below and says so if that fails too.
      if (near && this.#players.size === 0) {
        // The list may yet load within the command's time; else say so, or (the service's own
        // search of the name and of its pieces found nothing close) that no player matches.
        if (
          await this.#waitFor(
            this.#playersLoading,
            started,
            this.#playersStarted,
            this.#expectedMs('players'),
          )
        )
          return this.resolveLoaded(source, text, scope, notes, t);
        if (near.complete) return pickEntry([], source, text, t, scope, notes);
        throw this.#stillLoading(source, text, t, this.#playersStarted, this.#expectedMs('players'));
      }
    }
    if (!this.#loaded && (source === 'team' || source === 'tournament')) {
      // Before the index is loaded: the names holding the text, read filtered, while the whole
      // index loads behind them (a one-shot `matchday ask` on a new store need not wait for it).
      const found = await lookupNamed(this.#client, source, text).catch(() => undefined);
      const records = found?.[source === 'team' ? 'teams' : 'tournaments'] ?? [];
      if (found && records.length > 0) {
        for (const g of found.games) this.#games.set(g.id, g);
        for (const team of found.teams) this.#teams.set(team.id, team);
        for (const tournament of found.tournaments) this.#tournaments.set(tournament.id, tournament);
        this.refresh().catch((error: unknown) => this.#warn('name index load failed', error));
        const only = {
          ...this.#records(),
          teams: new Map(found.teams.map((x) => [x.id, x])),
          tournaments: new Map(found.tournaments.map((x) => [x.id, x])),
        };
        return pickEntry(buildEntries(only, this.#clock.nowMs())[source], source, text, t, scope, notes);
      }
      if (!this.#loaded) {
        // A typo: the names holding a piece of it, ranked by edit distance.
        this.refresh().catch((error: unknown) => this.#warn('name index load failed', error));
        const near = byId ? undefined : await lookupNear(this.#client, source, text).catch(() => undefined);
        if (near && !this.#loaded) {
          for (const team of near.teams) this.#teams.set(team.id, team);
          for (const tournament of near.tournaments) this.#tournaments.set(tournament.id, tournament);
          const only = {
            ...this.#records(),
            teams: new Map(near.teams.map((x) => [x.id, x])),
            tournaments: new Map(near.tournaments.map((x) => [x.id, x])),
          };
          const entries = buildEntries(only, this.#clock.nowMs())[source];
          if (nearestEntries(entries, text).length > 0)
            return pickEntry(entries, source, text, t, scope, notes, near.complete);
        }
        // Nothing close yet: the index may still load within the command's time; else say so. A
        // search that failed (an outage) waits for the load below and says so if that fails too.
        if (
          near &&
          !this.#loaded &&
          !(await this.#waitFor(this.#refreshing, started, this.#loadStarted, this.#expectedMs('names')))
        )
          throw this.#stillLoading(source, text, t, this.#loadStarted, this.#expectedMs('names'));
      }
    }
    if (!this.#loaded) {
      try {
        await this.refresh();
      } catch {
        throw namesUnavailable(`${NOUN[source]} names`);
      }
    }
    if (source === 'player' && this.#players.size === 0) {
      // Nothing by nick (a typo, a real name): a person waits on the first load, at their priority.
      try {
        await this.ensurePlayers('interactive');
      } catch {
        throw namesUnavailable('players');
      }
    } else if (source === 'player') void this.ensurePlayers();
    return this.resolveLoaded(source, text, scope, notes, t);
  }

  /**
   * One of `found` (players read by a filtered lookup) for `text`, labelled as the loaded index
   * labels them ("Zogalqu (Iron Pilots, SP)": their teams read first, one request), so a label
   * offered now is still accepted once the whole list is loaded, and the other way round.
   */
  async #pickPlayers(
    found: Player[],
    source: NameSource,
    text: string,
    t: Translate,
    scope?: ResolveScope,
    notes?: string[],
    takeClosest = true,
  ): Promise<number> {
    for (const p of found) this.#looked.set(p.id, p);
    const teamIds = found.flatMap((p) => p.teams.map((team) => team.id));
    await fetchMissing(this.#teams, teamIds, (missing) =>
      this.#client.teams.getMany(missing, { priority: 'interactive' }),
    ).catch(() => false);
    const records = { ...this.#records(), players: new Map(found.map((p) => [p.id, p])) };
    return pickEntry(playerEntries(records), source, text, t, scope, notes, takeClosest);
  }

  /**
   * `#pickPlayers` over the players a typo search found; undefined when none of them is close. A
   * search cut short (a piece matched a full page) only offers names: a namesake may be left out.
   */
  async #pickNear(
    near: NearFound,
    source: NameSource,
    text: string,
    t: Translate,
    scope?: ResolveScope,
    notes?: string[],
  ): Promise<number | undefined> {
    const found = near.players;
    const close = playerEntries({ ...this.#records(), players: new Map(found.map((p) => [p.id, p])) });
    const ids = new Set(nearestEntries(close, text).map((n) => n.entry.id));
    if (ids.size === 0) return undefined;
    return this.#pickPlayers(
      found.filter((p) => ids.has(p.id)),
      source,
      text,
      t,
      scope,
      notes,
      near.complete,
    );
  }

  /**
   * Waits for a load running now (the index's or the players', begun at `since` and expected to take
   * `expectMs`) when it should end while the command still has time after it (`RESOLVE_WAIT_MS`
   * from `started`, wall clock); true when it ended loaded. A load that cannot end in time is not
   * waited for: the answer says how long it has left instead.
   */
  async #waitFor(
    loading: Promise<void> | undefined,
    started: number,
    since: number | undefined,
    expectMs: number,
  ): Promise<boolean> {
    const now = Date.now();
    const left = RESOLVE_WAIT_MS - (now - started);
    if (!loading || left <= 0 || expectMs - (now - (since ?? now)) > left) return false;
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      loading.then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), left);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return ended;
  }

  /** How long a whole load of the index or the players takes: as last timed, else by the budget. */
  #expectedMs(kind: 'names' | 'players'): number {
    const timed = kind === 'names' ? this.#loadMs : this.#playersMs;
    if (timed !== undefined) return timed;
    const perSecond = this.#client.stats?.().budget?.perSecond;
    return perSecond ? (LOAD_REQUESTS[kind] / perSecond) * 1000 : LOAD_MS[kind];
  }

  /**
   * The answer while a name cannot be found yet: the list of names is still loading (a new store)
   * and the service's search found nothing close; how long until it is loaded, from when it began.
   */
  #stillLoading(source: NameSource, text: string, t: Translate, since: number | undefined, expectMs: number) {
    const left = expectMs - (since === undefined ? 0 : Date.now() - since);
    const seconds = Math.max(5, Math.ceil(left / 5000) * 5);
    return new MatchdayError(
      'NAMES_LOADING',
      'outage',
      t('platform.names.stillLoading', {
        noun: t(NOUN_KEY[source]),
        text: clip(text.trim(), 40),
        count: seconds,
      }),
    );
  }

  /**
   * `resolve` without waiting: for callers that know the index is loaded. Text with no match but
   * one clearly closest name (a typo) resolves to it, and `notes` gets a line saying so.
   */
  resolveLoaded(source: NameSource, text: string, scope?: ResolveScope, notes?: string[], t = EN): number {
    return pickEntry(this.#entries[source], source, text, t, scope, notes);
  }

  /** The label the index shows for an id ("A vs B · Event · 2026-03-18 15:00 UTC"), if it holds it. */
  labelOf(source: NameSource, id: number): string | undefined {
    return entryById(this.#entries[source], id)?.label;
  }

  /** The `count` names closest to `text` by edit distance, for "did you mean". */
  closest(source: NameSource, text: string, count = 3): string[] {
    return nearestEntries(this.#entries[source], text)
      .slice(0, count)
      .map((n) => n.entry.label);
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
    await this.ensureRosters(
      data,
      series.flatMap((s) => s.participants.map((p) => p.roster.id)),
    );
  }

  /** Fetches unknown rosters, then their unknown teams, adding both to the index. */
  async ensureRosters(
    data: Pick<NameIndexClient, 'rosters' | 'teams'>,
    rosterIds: readonly number[],
  ): Promise<void> {
    const missing = [...new Set(rosterIds)].filter((id) => !this.#rosters.has(id));
    if (missing.length > 0)
      for (const roster of await data.rosters.getMany(missing)) this.#addRoster(rosterEntry(roster));
    const teamIds = rosterIds.flatMap((id) => this.#rosters.get(id)?.team ?? []);
    if (await fetchMissing(this.#teams, teamIds, (missing) => data.teams.getMany(missing))) this.#rebuild();
  }

  /**
   * Reads the games (one request) when the index holds none yet: every card names its game, and
   * a command on a new store runs before the whole index is loaded.
   */
  async ensureGames(data: Pick<NameIndexClient, 'games'>): Promise<void> {
    if (this.#games.size > 0) return;
    const games = await data.games.list({ take: 50 });
    if (this.#games.size > 0) return;
    for (const g of games) if (g.deleted_at === null) this.#games.set(g.id, g);
    this.#rebuild();
  }

  /** Fetches teams the index does not hold, with their standing rosters, at most two requests. */
  async ensureTeams(data: Pick<NameIndexClient, 'rosters' | 'teams'>, ids: readonly number[]): Promise<void> {
    if (await fetchMissing(this.#teams, ids, (missing) => data.teams.getMany(missing))) this.#rebuild();
    const standing = ids.flatMap((id) => this.#teams.get(id)?.standing_roster?.roster.id ?? []);
    await this.ensureRosters(data, standing);
  }

  /** Fetches tournaments the index does not hold (outside its window), at most one request. */
  async ensureTournaments(data: Pick<NameIndexClient, 'tournaments'>, ids: readonly number[]): Promise<void> {
    if (await fetchMissing(this.#tournaments, ids, (missing) => data.tournaments.getMany(missing)))
      this.#rebuild();
  }

  /**
   * Fetches maps the index does not hold, at most one request: a live card names its maps even
   * when it is asked for before the index's first load (`npm start` fills it behind the banner).
   */
  async ensureMaps(data: Pick<NameIndexClient, 'maps'>, ids: readonly number[]): Promise<void> {
    await fetchMissing(this.#maps, ids, (missing) => data.maps.getMany(missing));
  }

  /**
   * Fetches organisations the index does not hold, at most one request: a team's card names its
   * organisation when it is asked for before the index's first load (a new store).
   */
  async ensureOrganisations(
    data: Pick<NameIndexClient, 'organisations'>,
    ids: readonly number[],
  ): Promise<void> {
    if (await fetchMissing(this.#organisations, ids, (missing) => data.organisations.getMany(missing)))
      this.#rebuild();
  }

  /** Fetches substages the index does not hold, at most one request. */
  async ensureSubstages(data: Pick<NameIndexClient, 'substages'>, ids: readonly number[]): Promise<void> {
    if (await fetchMissing(this.#substages, ids, (missing) => data.substages.getMany(missing)))
      this.#rebuild();
  }
}

/** Builds the process's name index. Call `refresh()` (and `start()`) to load it. */
export function createNameIndex(options: NameIndexOptions): NameIndex {
  return new NameIndex(options);
}
