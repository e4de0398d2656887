/**
 * What the tournament-end job (`jobs/tournament-end.ts`) reads when a series that may close a
 * tournament ends: the tournament's stages (once per tournament), to know its final substage, then
 * the outcome through `readPlacements` (src/bot/outcome.ts), the one reading `/tournament` uses. The
 * notifier's source (`feed-source.ts`) reads through this, with the name index for the teams placed.
 */
import { finalSubstage, type Placement, readPlacements } from '../bot/outcome.ts';
import type { CallOptions } from '../client/types.ts';
import type { Series, Substage, Tournament } from '../protocol/types.ts';
import type { NotifyClient } from './service-reads.ts';

/** A tournament whose final substage is over: its outcome and when its last series ended. */
export interface TournamentEnd {
  tournament: Tournament;
  placements: Placement[];
  /** The final substage's series (not deleted): their teams are the ones placed. */
  series: Series[];
  /**
   * Every roster entered in the tournament (confirmed or in a phase), the final's and those out
   * before it: the followers of each hear who won.
   */
  entrants: number[];
  /** Epoch ms of the end of the final substage's last series. */
  endedAt: number;
}

const BACKGROUND: CallOptions = { priority: 'background' };

export class TournamentReads {
  readonly #client: Pick<NotifyClient, 'tournaments' | 'substages'>;
  readonly #loadLabels: (series: Series[], rosters: number[]) => Promise<void>;
  readonly #counted: () => void;
  /** The final substage of each tournament looked at, its id and type only (null: it has none). */
  readonly #finals = new Map<number, Pick<Substage, 'id' | 'type'> | null>();

  constructor(
    client: Pick<NotifyClient, 'tournaments' | 'substages'>,
    loadLabels: (series: Series[], rosters: number[]) => Promise<void>,
    counted: () => void,
  ) {
    this.#client = client;
    this.#loadLabels = loadLabels;
    this.#counted = counted;
  }

  /** Is `series` in its tournament's final substage? Reads the stages once per tournament. */
  async inFinal(series: Series): Promise<boolean> {
    const id = series.tournament.id;
    let final = this.#finals.get(id);
    if (final === undefined) {
      this.#counted();
      const stages = await this.#client.tournaments.stages(id, { order: 'order-asc', take: 50 }, BACKGROUND);
      const found = finalSubstage(stages);
      final = found ? { id: found.id, type: found.type } : null;
      this.#finals.set(id, final);
    }
    return final !== null && final.id === series.substage.id;
  }

  /**
   * The end of `series`' tournament when `series` is in its final substage and that substage is
   * decided (the grand final, or every lobby, over); else null. Rejects when it cannot be read.
   */
  async read(series: Series): Promise<TournamentEnd | null> {
    if (!(await this.inFinal(series))) return null;
    const final = this.#finals.get(series.tournament.id)!;
    this.#counted();
    const tournament = await this.#client.tournaments.get(series.tournament.id, BACKGROUND);
    this.#counted();
    // A lobby is placed by its standings as they are now (those embedded in the stages read earlier
    // are old, and not kept): `readPlacements` reads the substage when the one given carries none.
    const { placements, series: list } = await readPlacements(this.#client, tournament, {
      ...final,
      standings: [],
    });
    if (!placements) return null;
    const played = list.filter((s) => s.lifecycle !== 'deleted' && s.deleted_at === null);
    this.#counted();
    const participants = await this.#client.tournaments.participants(tournament.id, BACKGROUND);
    const entrants = [
      ...new Set([
        ...participants.confirmed_participants.map((p) => p.roster.id),
        ...Object.values(participants.phase_participants).flatMap((list) => list.map((p) => p.roster.id)),
      ]),
    ];
    await this.#loadLabels(played, entrants);
    const endedAt = Math.max(...played.map((s) => Date.parse(s.end ?? s.start ?? tournament.end)));
    return { tournament, placements, series: played, entrants, endedAt };
  }
}
