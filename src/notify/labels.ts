/**
 * Names for the notifier's cards when it reads the service itself (`ClientSource`): teams by
 * roster, tournaments, stages, games, casters and maps, each read once per id in batches (they
 * rarely change). Over a feed, the name index plays this part (`FeedSource`).
 */
import type { SeriesLabels } from '../bot/format.ts';
import type { PreviewLabels } from '../bot/preview.ts';
import type { CallOptions } from '../client/types.ts';
import type { Caster, Game, Match, Roster, Series, Substage, Team, Tournament } from '../protocol/types.ts';
import type { NotifyClient } from './client-source.ts';
import type { NotifyLogger } from './jobs/context.ts';

const BACKGROUND: CallOptions = { priority: 'background' };

export class ClientLabels {
  readonly #client: NotifyClient;
  /** Called once per upstream read (the notifier's `reads` figure). */
  readonly #counted: () => void;
  readonly #rosterTeam = new Map<number, number>();
  readonly #teams = new Map<number, Team>();
  readonly #tournaments = new Map<number, Tournament | undefined>();
  readonly #casters = new Map<number, Caster>();
  readonly #games = new Map<number, Game | undefined>();
  readonly #substages = new Map<number, Substage | undefined>();
  /** Map names by id, for live cards (read once per map: maps rarely change). */
  readonly #maps = new Map<number, string | undefined>();

  readonly labels: SeriesLabels = {
    teamOfRoster: (rosterId) => {
      const teamId = this.#rosterTeam.get(rosterId);
      const team = teamId === undefined ? undefined : this.#teams.get(teamId);
      return team ? { name: team.name, abbreviation: team.abbreviation } : undefined;
    },
    tournament: (id) => this.#tournaments.get(id),
    substage: (id) => this.#substages.get(id),
    game: (id) => this.#games.get(id),
  };

  /** The labels and the rosters a match preview needs (a team's rosters: those seen so far). */
  readonly previewLabels: PreviewLabels = {
    ...this.labels,
    roster: (rosterId) => {
      const team = this.#rosterTeam.get(rosterId);
      return team === undefined ? undefined : { team };
    },
    rostersOfTeam: (teamId) =>
      [...this.#rosterTeam.entries()].filter(([, team]) => team === teamId).map(([roster]) => roster),
  };

  constructor(client: NotifyClient, counted: () => void) {
    this.#client = client;
    this.#counted = counted;
  }

  teamOfRoster(rosterId: number): number | undefined {
    return this.#rosterTeam.get(rosterId);
  }

  caster(id: number): Caster | undefined {
    return this.#casters.get(id);
  }

  mapName(id: number): string | undefined {
    return this.#maps.get(id);
  }

  async #read<T>(read: () => Promise<T>): Promise<T> {
    this.#counted();
    return read();
  }

  /**
   * Names for the cards and rosters for team follows (those of the series, and `moreRosters`):
   * batched, only for ids not seen before.
   */
  async load(series: Iterable<Series>, moreRosters: Iterable<number> = []): Promise<void> {
    const client = this.#client;
    const rosters = new Set<number>([...moreRosters].filter((id) => !this.#rosterTeam.has(id)));
    const tournaments = new Set<number>();
    const casters = new Set<number>();
    const games = new Set<number>();
    const substages = new Set<number>();
    for (const s of series) {
      for (const p of s.participants) if (!this.#rosterTeam.has(p.roster.id)) rosters.add(p.roster.id);
      if (!this.#tournaments.has(s.tournament.id)) tournaments.add(s.tournament.id);
      for (const c of s.casters) if (!this.#casters.has(c.caster.id)) casters.add(c.caster.id);
      if (!this.#games.has(s.game.id)) games.add(s.game.id);
      if (!this.#substages.has(s.substage.id)) substages.add(s.substage.id);
    }
    // Games and substages change rarely (the client caches them long): read once per id, so cards
    // name the game and the stage instead of "Game 1".
    const [gameList, substageList] = await Promise.all([
      games.size > 0
        ? this.#read(() => client.games.getMany([...games], BACKGROUND)).catch(() => [] as Game[])
        : ([] as Game[]),
      substages.size > 0
        ? this.#read(() => client.substages.getMany([...substages], BACKGROUND)).catch(() => [] as Substage[])
        : ([] as Substage[]),
    ]);
    for (const g of gameList) this.#games.set(g.id, g);
    for (const id of games) if (!this.#games.has(id)) this.#games.set(id, undefined);
    for (const st of substageList) this.#substages.set(st.id, st);
    for (const id of substages) if (!this.#substages.has(id)) this.#substages.set(id, undefined);
    const [rosterList, tournamentList, casterList] = await Promise.all([
      rosters.size > 0
        ? this.#read(() => client.rosters.getMany([...rosters], BACKGROUND))
        : ([] as Roster[]),
      tournaments.size > 0
        ? this.#read(() => client.tournaments.getMany([...tournaments], BACKGROUND))
        : ([] as Tournament[]),
      casters.size > 0
        ? this.#read(() => client.casters.getMany([...casters], BACKGROUND))
        : ([] as Caster[]),
    ]);
    for (const r of rosterList) this.#rosterTeam.set(r.id, r.team.id);
    for (const t of tournamentList) this.#tournaments.set(t.id, t);
    for (const c of casterList) this.#casters.set(c.id, c);
    // Ids the service does not know are remembered as absent so they are not asked for every tick.
    for (const id of rosters) if (!this.#rosterTeam.has(id)) this.#rosterTeam.set(id, -1);
    for (const id of tournaments) if (!this.#tournaments.has(id)) this.#tournaments.set(id, undefined);
    const teams = new Set<number>();
    for (const r of rosterList) if (!this.#teams.has(r.team.id)) teams.add(r.team.id);
    if (teams.size > 0) {
      const teamList = await this.#read(() => client.teams.getMany([...teams], BACKGROUND));
      for (const t of teamList) this.#teams.set(t.id, t);
    }
  }

  /** Reads these casters again (their streams' online state), one batched read. */
  async readCasters(ids: number[]): Promise<void> {
    const casters = await this.#read(() => this.#client.casters.getMany(ids, BACKGROUND));
    for (const c of casters) this.#casters.set(c.id, c);
  }

  /** The names of maps not seen before (one batched read); a failure leaves "Map 2" until the next new map. */
  async loadMaps(matches: Match[], logger: NotifyLogger): Promise<void> {
    const newMaps = [...new Set(matches.flatMap((m) => (m.map ? [m.map.id] : [])))].filter(
      (id) => !this.#maps.has(id),
    );
    if (newMaps.length === 0) return;
    for (const id of newMaps) this.#maps.set(id, undefined);
    try {
      const found = await this.#read(() => this.#client.maps.getMany(newMaps, BACKGROUND));
      for (const map of found) this.#maps.set(map.id, map.name);
    } catch (error) {
      // Cards say "Map 2" instead of the name; the next new map tries again.
      for (const id of newMaps) this.#maps.delete(id);
      logger.warn({ err: error }, 'map names could not be read');
    }
  }
}
