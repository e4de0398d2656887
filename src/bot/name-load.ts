/**
 * Reading the name index's records from the data service: every walk bounded by a limit and at
 * background priority, so a refresh never competes with a user's command. `fetchNames` returns a
 * `NameSnapshot`, the same plain data the store keeps, which the index takes with `restore`.
 */
import { InvalidQueryError } from '../client/errors.ts';
import type { EsportsClient, Priority } from '../client/types.ts';
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
import { normalizeName } from './name-match.ts';

/** The slice of the data client the index reads. */
export type NameIndexClient = Pick<
  EsportsClient,
  'games' | 'teams' | 'tournaments' | 'substages' | 'rosters' | 'organisations' | 'maps' | 'series'
> &
  Partial<Pick<EsportsClient, 'languages' | 'players' | 'stats'>>;

/** Upper bounds of each walk, so a huge catalogue cannot turn a refresh into thousands of requests. */
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
  players: 10000,
};

/** A roster as the index keeps it: which team, which players. */
export interface RosterEntry {
  id: number;
  team: number;
  players: number[];
  game: number;
}

/** The index as plain data (`NameIndex.snapshot`, `fetchNames`). */
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

/** Which tournaments count as current, and which of them get their substages loaded. */
export interface NameWindows {
  /** Tournaments ending this long before now still count as current. */
  pastMs: number;
  /** Tournaments starting within this long after now count as current. */
  futureMs: number;
  /** Substages are loaded for tournaments running within this long of now. */
  substageMs: number;
}

/** The index's form of a roster. */
export function rosterEntry(roster: Roster): RosterEntry {
  return {
    id: roster.id,
    team: roster.team.id,
    players: roster.line_up.players.map((p) => p.id),
    game: roster.game.id,
  };
}

/** Every item of a walk that `keep` accepts, until `stop` says the rest cannot matter. */
async function collect<T>(
  iterable: AsyncIterable<T>,
  keep: (item: T) => boolean = () => true,
  stop?: (item: T) => boolean,
): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) {
    if (stop?.(item)) break;
    if (keep(item)) items.push(item);
  }
  return items;
}

/**
 * Everything the index holds, read at `now` (clock ms): games, teams, current tournaments (newest
 * end first, stopping at the window), rosters, organisations, maps, then the substages of the
 * tournaments running near now, the series window, player roles and stream languages.
 */
export async function fetchNames(
  client: NameIndexClient,
  now: number,
  limits: typeof DEFAULT_LIMITS,
  windows: NameWindows,
): Promise<NameSnapshot> {
  const opts = (limit: number) => ({ limit, priority: 'background' as const });
  const from = new Date(now - windows.pastMs).toISOString();
  const until = new Date(now + windows.futureMs).toISOString();
  const [games, teams, tournaments, rosters, organisations, maps] = await Promise.all([
    collect(client.games.paginate({ order: 'id-asc' }, opts(limits.games)), (g) => g.deleted_at === null),
    collect(
      client.teams.paginate({ filter: [['deleted_at', '=', null]], order: 'id-asc' }, opts(limits.teams)),
    ),
    // Newest end first; stop once tournaments ended before the window: the "current window".
    collect(
      client.tournaments.paginate(
        { filter: [['deleted_at', '=', null]], order: 'end-desc' },
        opts(limits.tournaments),
      ),
      (t) => t.start <= until,
      (t) => t.end < from,
    ),
    collect(client.rosters.paginate({ order: 'id-asc' }, opts(limits.rosters))),
    collect(client.organisations.paginate({ order: 'id-asc' }, opts(limits.organisations))),
    // Maps rarely change (spec, "Map"): names for live cards without a request per match.
    collect(client.maps.paginate({ order: 'id-asc' }, opts(limits.maps))),
  ]);
  const near = (t: Tournament) =>
    Date.parse(t.start) <= now + windows.substageMs && Date.parse(t.end) >= now - windows.substageMs;
  const tournamentIds = tournaments.filter(near).map((t) => t.id);
  const [substages, series, roles, languages] = await Promise.all([
    tournamentIds.length === 0
      ? Promise.resolve([] as Substage[])
      : collect(
          client.substages.paginate(
            {
              filter: [
                ['tournament.id', '<=', tournamentIds],
                ['deleted_at', '=', null],
              ],
              order: 'id-asc',
            },
            opts(limits.substages),
          ),
        ),
    fetchSeriesWindow(client, limits.series),
    // Player roles per game (one small list each): names for team rosters.
    Promise.all(
      games.map((g) =>
        client.games.roles(g.id, { take: 50 }, { priority: 'background' }).catch(() => [] as Role[]),
      ),
    ).then((lists) => lists.flat()),
    // Stream languages (a short list): named on /casters without a request.
    client.languages
      ? client.languages.list({ take: 50 }, { priority: 'background' }).catch(() => [] as Language[])
      : Promise.resolve([] as Language[]),
  ]);
  return {
    at: now,
    games,
    teams,
    tournaments,
    substages,
    rosters: rosters.map(rosterEntry),
    organisations,
    series,
    maps,
    roles,
    languages,
  };
}

/** Live, next upcoming and latest finished series: what `series` autocomplete offers. */
export async function fetchSeriesWindow(
  client: Pick<NameIndexClient, 'series'>,
  limit: number,
): Promise<Series[]> {
  const take = Math.min(50, Math.max(1, Math.floor(limit / 3)));
  const background = { priority: 'background' as const };
  const [live, upcoming, recent] = await Promise.all([
    client.series.list({ filter: [['lifecycle', '=', 'live']], order: 'start-asc', take: 50 }, background),
    client.series.list({ filter: [['lifecycle', '=', 'upcoming']], order: 'start-asc', take }, background),
    client.series.list(
      { filter: [['lifecycle', '<=', ['over', 'over-forfeited']]], order: 'end-desc', take },
      background,
    ),
  ]);
  return [...live, ...upcoming, ...recent];
}

/**
 * The players not deleted: one listing walk at `priority`; on an interface without a
 * players listing (v2), the players of `rosters` (records the rosters carried, so no request).
 */
export async function fetchPlayers(
  client: NameIndexClient,
  rosters: readonly RosterEntry[],
  limit: number,
  priority: Priority = 'background',
): Promise<Player[]> {
  const players = client.players;
  if (!players) throw new MatchdayError('NAMES_UNAVAILABLE', 'outage', 'Players cannot be read here.');
  let list: Player[] = [];
  try {
    const walk = players.paginate(
      { filter: [['deleted_at', '=', null]], order: 'id-asc' },
      { limit, priority },
    );
    for await (const player of walk) list.push(player);
  } catch (error) {
    if (!(error instanceof InvalidQueryError)) throw error;
    const ids = [...new Set(rosters.flatMap((r) => r.players))];
    list = await players.getMany(ids, { priority });
  }
  return list.filter((p) => p.deleted_at === null);
}

/** The part of a typed name the service can search: a label's "(team, game)" tail left off. */
function searchable(text: string): string {
  return text.replace(/\s*\([^()]*\)\s*$/, '').trim();
}

/**
 * The players (not deleted) whose nick, last or first name contains `text`: three filtered reads
 * at interactive priority, for a name asked before the whole list is loaded. None where the interface has no
 * players listing (v2) or the text cannot be searched.
 */
export async function lookupPlayers(client: NameIndexClient, text: string): Promise<Player[]> {
  const players = client.players;
  const wanted = searchable(text);
  if (!players || wanted.length < 2 || /^\d+$/.test(wanted)) return [];
  const lists = await Promise.all(
    (['nick_name', 'last_name', 'first_name'] as const).map((field) =>
      players.list({ filter: [[field, '~=', wanted]], take: 50 }, { priority: 'interactive' }),
    ),
  );
  const found = new Map(lists.flat().map((p) => [p.id, p]));
  return [...found.values()].filter((p) => p.deleted_at === null);
}

/**
 * The teams (by name, tag or alias) or tournaments (by title) whose text contains `text`, with the
 * games they belong to: a few filtered reads at interactive priority, for a name asked before the
 * index is loaded (a one-shot `matchday ask` on a new store). None for text that cannot be searched.
 */
export async function lookupNamed(
  client: NameIndexClient,
  source: 'team' | 'tournament',
  text: string,
): Promise<{ teams: Team[]; tournaments: Tournament[]; games: Game[] }> {
  const wanted = searchable(text);
  const none = { teams: [], tournaments: [], games: [] };
  if (wanted.length < 2 || /^\d+$/.test(wanted)) return none;
  const o = { priority: 'interactive' as const };
  const teamsNamed = async (words: string) =>
    Promise.all(
      (['name', 'abbreviation'] as const).map((field) =>
        client.teams.list({ filter: [[field, '~=', words]], take: 50 }, o),
      ),
    ).then((lists) => [...new Map(lists.flat().map((t) => [t.id, t])).values()]);
  const titled = (words: string) =>
    client.tournaments.list({ filter: [['title', '~=', words]], take: 50 }, o);
  // A label as a list shows it ("AC Valencia Open 23 Nov") holds more than the title does: fewer
  // words, up to two tries more, until something is found.
  const named = async <T>(read: (words: string) => Promise<T[]>): Promise<T[]> => {
    const words = wanted.split(/\s+/);
    for (let n = words.length; n >= Math.max(1, words.length - 2); n--) {
      const found = await read(words.slice(0, n).join(' '));
      if (found.length > 0 || n === 1) return found;
    }
    return [];
  };
  const [teams, tournaments, games] = await Promise.all([
    source === 'team' ? named(teamsNamed) : [],
    source === 'tournament' ? named(titled) : [],
    client.games.list({ take: 50 }, o),
  ]);
  return {
    teams: teams.filter((t) => t.deleted_at === null),
    tournaments: tournaments.filter((t) => t.deleted_at === null),
    games: games.filter((g) => g.deleted_at === null),
  };
}

/** Longest piece searched for a typo; shorter than 3 letters a piece matches half the catalogue. */
const PIECE_MIN = 3;

/**
 * The pieces of a typed name that a typo or two leaves whole, for a search that can only find
 * names holding a text (`~=`): each word of three letters or more of a name of several words, the
 * halves of a single word (its thirds from nine letters, where two typos are accepted), or its first
 * and last three letters when it is shorter. Longest first, at most four.
 */
export function typoPieces(text: string): string[] {
  const words = normalizeName(searchable(text))
    .split(' ')
    .filter((w) => w.length >= PIECE_MIN);
  let pieces: string[] = words;
  if (words.length === 1) {
    const word = words[0]!;
    if (word.length < 6)
      pieces = word.length > PIECE_MIN ? [word.slice(0, PIECE_MIN), word.slice(-PIECE_MIN)] : [];
    else {
      const size = Math.ceil(word.length / (word.length >= 9 ? 3 : 2));
      pieces = [];
      for (let at = 0; at < word.length; at += size) pieces.push(word.slice(at, at + size));
      // A last piece shorter than three letters is joined to the one before it.
      if (pieces.length > 1 && pieces.at(-1)!.length < PIECE_MIN) {
        const last = pieces.pop()!;
        pieces.push(`${pieces.pop()!}${last}`);
      }
    }
  }
  return [...new Set(pieces)].sort((a, b) => b.length - a.length).slice(0, 4);
}

/** What a typo search found, and whether it is the whole answer (no piece filled its page). */
export interface NearFound {
  teams: Team[];
  tournaments: Tournament[];
  players: Player[];
  /** True when every piece's list came back shorter than a page: nothing it could find was left out. */
  complete: boolean;
}

/**
 * The teams (by name), tournaments (by title) or players (by nick) holding a piece of `text` that a
 * typo leaves whole (`typoPieces`): one filtered read per piece at interactive priority, for a
 * misspelt name asked before the index is loaded. The caller ranks them by edit distance.
 */
export async function lookupNear(
  client: NameIndexClient,
  source: 'team' | 'tournament' | 'player',
  text: string,
): Promise<NearFound> {
  const pieces = typoPieces(text);
  const found: NearFound = { teams: [], tournaments: [], players: [], complete: true };
  const o = { priority: 'interactive' as const };
  const take = 50;
  const players = client.players;
  if (source === 'player' && !players) return { ...found, complete: false };
  const lists = await Promise.all(
    pieces.map(async (piece) => {
      if (source === 'team') return client.teams.list({ filter: [['name', '~=', piece]], take }, o);
      if (source === 'tournament')
        return client.tournaments.list({ filter: [['title', '~=', piece]], take }, o);
      return players!.list({ filter: [['nick_name', '~=', piece]], take }, o);
    }),
  );
  found.complete = lists.every((list) => list.length < take);
  const distinct = <T extends { id: number; deleted_at: string | null }>(items: T[]) =>
    [...new Map(items.map((x) => [x.id, x])).values()].filter((x) => x.deleted_at === null);
  const all = lists.flat();
  if (source === 'team') found.teams = distinct(all as Team[]);
  else if (source === 'tournament') found.tournaments = distinct(all as Tournament[]);
  else found.players = distinct(all as Player[]);
  return found;
}

/** The error when a list of names cannot be read: an outage, not the user's mistake. */
export function namesUnavailable(what: string): MatchdayError {
  return new MatchdayError(
    'NAMES_UNAVAILABLE',
    'outage',
    `The list of ${what} could not be loaded from the data service; try again in a minute.`,
  );
}

/** Reads the records of `ids` that `held` lacks (one `getMany`) into it; true when it read any. */
export async function fetchMissing<T extends { id: number }>(
  held: Map<number, T>,
  ids: readonly number[],
  getMany: (missing: number[]) => Promise<T[]>,
): Promise<boolean> {
  const missing = [...new Set(ids)].filter((id) => !held.has(id));
  if (missing.length === 0) return false;
  for (const item of await getMany(missing)) held.set(item.id, item);
  return true;
}
