/**
 * Records seen embedded in v2 answers (rosters with their teams and players, casters, maps), by kind
 * and id, so the name index's `getMany` of rosters, teams, players, casters and maps costs nothing
 * when a listing already carried them; and where each series seen was, to find it again in a
 * listing (`series-batch.ts`). Bounded: the oldest entry of a kind is dropped first.
 */
import type { Caster, GameMap, Player, Roster, Team } from '../../protocol/types.ts';
import { toCaster, toPlayer, toRoster, toTeam } from './records.ts';
import type { SeriesHint } from './series-batch.ts';
import type { V2Roster, V2Series } from './shapes.ts';

const MAX_KEPT = 20_000;

export class Embedded {
  readonly rosters = new Map<number, Roster>();
  readonly teams = new Map<number, Team>();
  readonly players = new Map<number, Player>();
  readonly casters = new Map<number, Caster>();
  readonly maps = new Map<number, GameMap>();
  /**
   * The game of each substage seen in a tournament (a v2 substage does not name its game). Only the
   * game: a tournament embeds its substages without standings (v2 gives standings only by id,
   * `/substages/{id}` with `with[]=standings`), so an embedded substage never answers for a
   * substage; `substages.get` and `getMany` always read it by id, through the cache like v3.
   */
  readonly substageGames = new Map<number, number>();
  /** Where each series seen was (its tournament and start): found again in a listing (`series-batch.ts`). */
  readonly seriesHints = new Map<number, SeriesHint>();

  put<T>(map: Map<number, T>, id: number, value: T): void {
    map.delete(id);
    map.set(id, value);
    if (map.size > MAX_KEPT) map.delete(map.keys().next().value!);
  }

  /**
   * A roster seen in an answer; a team known without its standing roster takes this one (the
   * roster it plays with now: v2 team listings carry no rosters).
   */
  roster(r: V2Roster, gameId: number): void {
    this.put(this.rosters, r.id, toRoster(r, gameId));
    for (const team of r.teams)
      if (!this.teams.get(team.id)?.standing_roster)
        this.put(this.teams, team.id, toTeam({ ...team, rosters: team.rosters ?? [r] }, gameId));
    for (const p of r.players)
      this.put(this.players, p.id, toPlayer({ ...p, team: r.teams[0] ?? null }, gameId));
  }

  series(s: V2Series): void {
    const start = s.start === null ? Number.NaN : Date.parse(s.start);
    if (Number.isFinite(start)) this.put(this.seriesHints, s.id, { tournament: s.tournament_id, start });
    else this.seriesHints.delete(s.id);
    for (const r of s.rosters) this.roster(r, s.game.id);
    for (const c of s.casters ?? []) this.put(this.casters, c.id, toCaster(c, s.game.id));
    for (const m of s.matches ?? [])
      if (m.map)
        this.put(this.maps, m.map.id, {
          id: m.map.id,
          name: m.map.name,
          external_name: m.map.name,
          official: m.map.official,
          game: { id: s.game.id },
        });
  }
}
