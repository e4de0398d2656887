/**
 * v2 answers -> the typed records the v3 transport produces (`src/protocol/types.ts`), so commands,
 * the name index and the notifier never know which interface is behind the client.
 *
 * What v2 cannot provide, and what the records hold instead (docs/data-client.md, "What differs on v2"):
 * - `lifecycle` is derived: deleted, over (an `end`; over-forfeited with a forfeit), live (started
 *   by the service's clock, the `Date` of the answer), else upcoming. Matches: decided, started
 *   (scores present) or upcoming.
 * - winners are derived from the scores (the majority; the side that did not forfeit);
 *   battle-royale kills and placements are absent (`stats: null`).
 * - `coverage`: only live API coverage, from `pbp_status`; computer-vision coverage is unknown, so
 *   live cards use the light summary (score, net worth, structures).
 * - `chain` holds the chain's root only (a preview's bracket stakes then read the bracket's shape:
 *   `src/bot/preview-stakes.ts`); broadcasters, incident flags, game versions, social
 *   accounts, organisations of teams, player roles, goal differences and movements are empty.
 * - ids v2 does not carry (countries, regions, lineups, standing rosters) are 0.
 * - substages embedded in tournaments (stages, substage listings) have no standings; a substage
 *   read by id has them (`tournaments.ts`).
 */
import type {
  Caster,
  Country,
  Coverage,
  CoverageValue,
  Game,
  Image,
  Match,
  Participant,
  Player,
  Region,
  Roster,
  Series,
  Stage,
  Substage,
  Team,
  Tournament,
} from '../../protocol/types.ts';
import type {
  Dict,
  V2Caster,
  V2Country,
  V2Game,
  V2Match,
  V2Player,
  V2Roster,
  V2Series,
  V2Substage,
  V2Team,
  V2Tournament,
} from './shapes.ts';

const UNKNOWN: CoverageValue = 'unknown';
function coverage(api: CoverageValue = UNKNOWN): Coverage {
  const leaf = (v: CoverageValue) => ({ expectation: v, fact: v });
  return {
    data: {
      live: { api: leaf(api), cv: leaf(UNKNOWN) },
      realtime: { api: leaf(UNKNOWN), server: leaf(UNKNOWN) },
      postgame: { api: leaf(UNKNOWN), server: leaf(UNKNOWN) },
    },
  };
}

function image(url: unknown, thumbnail: unknown, fallback: unknown = false): Image[] {
  return typeof url === 'string' && url !== ''
    ? [
        {
          id: 0,
          url,
          thumbnail: typeof thumbnail === 'string' ? thumbnail : url,
          fallback: fallback === true,
        },
      ]
    : [];
}

export function toCountry(c: V2Country): Country {
  return {
    id: 0,
    name: c.name,
    abbreviation: c.short_name,
    images: image(c.images?.default, c.images?.thumbnail),
  };
}

/** v2 has countries, not regions: the region is named after the country. */
export function toRegion(c: V2Country | null | undefined): Region {
  const country = c ? toCountry(c) : { id: 0, name: 'Unknown', abbreviation: '', images: [] };
  return { id: 0, name: country.name, abbreviation: country.abbreviation, country };
}

export function toGame(g: V2Game): Game {
  return {
    id: g.id,
    abbreviation: g.title,
    title: g.long_title,
    default_match_type: g.default_match_type,
    default_map: null,
    defaults: {
      match_type: g.default_match_type,
      lineup_size: 0,
      map: null,
      number_of_match_participants: 0,
      match_roster_lineup_size: 0,
      game_version: null,
    },
    deleted_at: g.deleted_at,
    images: image(g.images?.square, g.images?.circle),
    color: g.color,
  };
}

export function toTeam(t: V2Team, gameId = t.game?.id ?? 0): Team {
  const standing = t.rosters?.[0];
  return {
    id: t.id,
    name: t.name,
    abbreviation: t.short_name,
    also_known_as: [],
    social_media_accounts: [],
    game: { id: gameId },
    organisation: null,
    deleted_at: t.deleted_at,
    active: t.deleted_at === null,
    images: image(t.images?.default, t.images?.thumbnail, t.images?.fallback),
    region: toRegion(t.country),
    standing_roster: standing
      ? { id: 0, from: '', to: null, roster: { id: standing.id }, deleted_at: null }
      : null,
    resource_version: 1,
  };
}

export function toPlayer(p: V2Player, gameId = p.game?.id ?? 0): Player {
  return {
    id: p.id,
    first_name: p.first_name,
    last_name: p.last_name,
    nick_name: p.nick_name,
    active: p.deleted_at === null,
    images: image(p.images?.default, p.images?.thumbnail, p.images?.fallback),
    region: toRegion(p.country),
    game: { id: gameId },
    race: p.race ? { id: p.race.id, name: p.race.name, game: { id: p.race.game_id } } : null,
    role: null,
    teams: p.team ? [{ id: p.team.id }] : [],
    social_media_accounts: [],
    deleted_at: p.deleted_at,
  };
}

export function toRoster(r: V2Roster, gameId = r.teams[0]?.game?.id ?? 0): Roster {
  return {
    id: r.id,
    team: { id: r.teams[0]?.id ?? 0 },
    line_up: { id: 0, players: r.players.map((p) => ({ id: p.id })) },
    game: { id: gameId },
  };
}

export function toCaster(c: V2Caster, gameId: number): Caster {
  const platform = c.stream?.platform ?? { id: c.type ?? 0, name: 'Stream', color: '' };
  const username = c.stream?.username ?? c.url.split('/').filter(Boolean).at(-1) ?? c.name;
  return {
    id: c.id,
    display_name: c.name,
    username,
    game: { id: gameId },
    deleted_at: null,
    platform: { id: platform.id, name: platform.name, color: platform.color, images: [] },
    stream: {
      id: c.stream?.id ?? 0,
      username,
      display_name: c.stream?.display_name ?? c.name,
      status_text: c.stream?.status_text ?? '',
      viewer_count: c.stream?.viewer_count ?? 0,
      online: c.stream?.online ?? false,
      last_online: c.stream?.last_online ?? null,
      images: [],
      platform: { id: platform.id, name: platform.name, color: platform.color, images: [] },
    },
    region: toRegion(c.country),
    ...(c.url ? { url: c.url } : {}),
  };
}

/** Participants in seed order; winners from the scores once decided. */
function participants(
  seeding: Dict<number | null>,
  scores: Dict<number> | null,
  forfeit: Dict<boolean>,
  decided: boolean,
  winnerId: number | null,
): Participant[] {
  const seeded = Object.entries(seeding)
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .sort((a, b) => Number(a[0]) - Number(b[0]));
  const score = (id: number) => scores?.[String(id)] ?? 0;
  const forfeited = seeded.some(([, id]) => forfeit[String(id)] === true);
  let winner = winnerId;
  if (decided && winner === null && seeded.length > 0) {
    if (forfeited) winner = seeded.find(([, id]) => forfeit[String(id)] !== true)?.[1] ?? null;
    else {
      const best = Math.max(...seeded.map(([, id]) => score(id)));
      const leaders = seeded.filter(([, id]) => score(id) === best);
      winner = leaders.length === 1 ? leaders[0]![1] : null;
    }
  }
  return seeded.map(([seed, id]) => ({
    seed: Number(seed),
    score: score(id),
    forfeit: forfeit[String(id)] === true,
    roster: { id },
    winner: decided && winner === id,
    stats: null,
  }));
}

/** A series as v3 shows it; `at` is the service's clock when it answered. */
export function toSeries(s: V2Series, at: number): Series {
  const forfeited = Object.values(s.forfeit).some((f) => f);
  const lifecycle: Series['lifecycle'] =
    s.deleted_at !== null
      ? 'deleted'
      : s.end !== null
        ? forfeited
          ? 'over-forfeited'
          : 'over'
        : s.start !== null && Date.parse(s.start) <= at
          ? 'live'
          : 'upcoming';
  const over = lifecycle === 'over' || lifecycle === 'over-forfeited';
  return {
    id: s.id,
    title: s.title,
    start: s.start,
    end: s.end,
    lifecycle,
    tier: s.tier,
    best_of: s.bestOf,
    chain: s.chain ? [{ id: s.chain.root_id }] : [],
    streamed: s.streamed,
    bracket_position: s.bracket_pos
      ? // v2 counts the offset from 1 (service-v2.md, "Bracket position"); v3 records from 0.
        { part: s.bracket_pos.part, col: s.bracket_pos.col, offset: s.bracket_pos.offset - 1 }
      : null,
    tournament: { id: s.tournament_id },
    substage: { id: s.substage_id },
    game: { id: s.game.id },
    format: { best_of: s.bestOf },
    postponed_from: s.postponed_from,
    deleted_at: s.deleted_at,
    participants: participants(s.seeding, s.scores, s.forfeit, over, null),
    matches: (s.matches ?? []).map((m) => ({ id: m.id })),
    casters: (s.casters ?? []).map((c) => ({ primary: c.primary, caster: { id: c.id } })),
    broadcasters: [],
    has_incident_report: false,
    game_version: null,
    coverage: coverage(s.pbp_status as CoverageValue),
    resource_version: 1,
  };
}

export function toMatch(m: V2Match): Match {
  const forfeited = Object.values(m.forfeit).some((f) => f);
  const lifecycle: Match['lifecycle'] =
    m.deleted_at !== null
      ? 'deleted'
      : m.winner !== null || (forfeited && m.scores !== null)
        ? forfeited
          ? 'over-forfeited'
          : 'over'
        : m.scores !== null
          ? 'live'
          : 'upcoming';
  const decided = lifecycle === 'over' || lifecycle === 'over-forfeited';
  return {
    id: m.id,
    map: m.map ? { id: m.map.id } : null,
    lifecycle,
    order: m.order,
    series: { id: m.series_id },
    deleted_at: m.deleted_at,
    game: { id: m.game.id },
    participants: participants(m.seeding, m.scores, m.forfeit, decided, m.winner),
    coverage: coverage(m.has_pbpstats ? 'available' : UNKNOWN),
    format: { esoccer: null },
    resource_version: 1,
  };
}

function ruleOf(rule: { number: number | null; substage_id: number | null }) {
  return rule.number === null
    ? null
    : { number: rule.number, substage: rule.substage_id === null ? null : { id: rule.substage_id } };
}

export function toSubstage(s: V2Substage, gameId: number): Substage {
  const p = s.rules.points;
  const points = p.win === null ? null : { win: p.win, draw: p.draw ?? 0, loss: p.loss ?? 0, scope: p.scope };
  return {
    id: s.id,
    stage: { id: s.stage_id },
    tournament: { id: s.tournament_id },
    game: { id: gameId },
    title: s.title,
    tier: s.tier,
    type: s.type,
    phase: s.type === 2 ? 'final' : 'regular',
    default_series_format: { best_of: 0 },
    order: s.order,
    rosters: (s.rosters ?? []).map((r) => ({ id: r.id })),
    start: s.start,
    deleted_at: s.deleted_at,
    standings: (s.standings ?? []).map((x) => ({
      roster: { id: x.roster_id },
      points: x.points ?? 0,
      wins: x.wins,
      draws: x.draws,
      losses: x.losses,
      match_diff: null,
      score_diff: null,
    })),
    rules: { advance: ruleOf(s.rules.advance), descend: ruleOf(s.rules.descend), points },
    defaults: { game_version: null, series_format: { best_of: 0 }, match_format: { esoccer: null } },
    format: { points, movements: [] },
    coverage: coverage(),
    resource_version: 1,
  };
}

export function toStage(
  stage: { id: number; title: string; order: number; substages: V2Substage[] },
  tournamentId: number,
  gameId: number,
): Stage {
  return {
    id: stage.id,
    title: stage.title,
    tournament: { id: tournamentId },
    order: stage.order,
    substages: stage.substages.map((s) => toSubstage(s, gameId)),
    deleted_at: null,
    defaults: { game_version: null },
    coverage: coverage(),
    resource_version: 1,
  };
}

export function toTournament(t: V2Tournament): Tournament {
  return {
    id: t.id,
    title: t.title,
    short_title: t.short_title ?? t.abbrev ?? t.title,
    tier: t.tier,
    copy: {
      general_description: t.description,
      short_description: t.short_description,
      format_description: t.format,
    },
    links: { website: t.links.website ?? null, wiki: t.links.wiki ?? null },
    start: t.start,
    end: t.end,
    game: { id: t.game.id },
    string_prize_pool: {
      total: t.prizepool_string.total ?? null,
      first: t.prizepool_string.first ?? null,
      second: t.prizepool_string.second ?? null,
      third: t.prizepool_string.third ?? null,
    },
    location: { host: t.country ? toRegion(t.country) : null, participants: [] },
    deleted_at: t.deleted_at,
    coverage: coverage(),
    images: image(t.images?.default, t.images?.thumbnail, t.images?.fallback),
    stages: (t.stages ?? []).map((s) => ({ id: s.id })),
    casters: (t.casters ?? []).map((c) => ({ primary: c.primary, caster: { id: c.id } })),
  };
}
