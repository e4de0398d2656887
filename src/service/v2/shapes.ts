/**
 * The v2 shapes (the v2 specification, "Resources and their fields"), built from the v3
 * resources the world produces at an instant. One story, two dialects: whatever the world says
 * about a series (lifecycle, scores, postponement, casters) flows into both interfaces, because v2
 * is always derived from the v3 resource and never from the plans directly.
 */
import type {
  Caster,
  Country,
  Game,
  Image,
  Match,
  Player,
  Roster,
  Series,
  Substage,
  Team,
  Tournament,
} from '../../protocol/types.ts';
import type { SeriesPlan } from '../schedule.ts';
import type { World } from '../world.ts';
import { hasPlayByPlay, seriesPlayByPlay } from './play-by-play.ts';
import { seriesPerformance } from './stats.ts';

/** Rows per page of every v2 collection (the spec does not give the page size). */
export const V2_PAGE_SIZE = 50;

/** `{ last_page, current_page, data }`; `page` beyond the last answers an empty `data`. */
export interface Envelope<T> {
  last_page: number;
  current_page: number;
  data: T[];
}

export function envelope<T, U>(items: readonly T[], page: number, map: (item: T) => U): Envelope<U> {
  const lastPage = Math.max(1, Math.ceil(items.length / V2_PAGE_SIZE));
  const from = (page - 1) * V2_PAGE_SIZE;
  return { last_page: lastPage, current_page: page, data: items.slice(from, from + V2_PAGE_SIZE).map(map) };
}

function images(list: readonly Image[]): Record<string, string | boolean> {
  const first = list[0];
  return {
    default: first?.url ?? '',
    thumbnail: first?.thumbnail ?? '',
    fallback: first?.fallback ?? true,
  };
}

/**
 * A tournament's images: `default`, `thumbnail`, `banner` and `fallback` (spec, "Tournament"). The
 * world draws one picture per tournament, so its banner is the full-size one.
 */
function tournamentImages(list: readonly Image[]) {
  const first = list[0];
  return {
    default: first?.url ?? '',
    thumbnail: first?.thumbnail ?? '',
    banner: first?.url ?? '',
    fallback: first?.fallback ?? true,
  };
}

export function countryV2(country: Country | null | undefined) {
  if (!country) return null;
  return {
    name: country.name,
    short_name: country.abbreviation,
    images: { default: country.images[0]?.url ?? '', thumbnail: country.images[0]?.thumbnail ?? '' },
  };
}

/** Game: v2 `title` is the short title (v3 `abbreviation`), `long_title` the full one. */
export function gameV2(game: Game) {
  const first = game.images[0];
  return {
    id: game.id,
    title: game.abbreviation,
    long_title: game.title,
    default_match_type: game.default_match_type,
    deleted_at: game.deleted_at,
    images: { square: first?.url ?? '', circle: first?.thumbnail ?? '', rectangle: first?.url ?? '' },
    color: game.color,
  };
}

function gameOf(world: World, id: number) {
  return gameV2(world.catalog.game(id)!.game);
}

/** Team as listed: id, name, short_name, deleted_at, images, country, game. */
export function teamV2(world: World, team: Team) {
  return {
    id: team.id,
    name: team.name,
    short_name: team.abbreviation,
    deleted_at: team.deleted_at,
    images: images(team.images),
    country: countryV2(team.region?.country),
    game: gameOf(world, team.game.id),
  };
}

export function playerV2(world: World, player: Player) {
  const role = player.role
    ? (world.catalog.game(player.game.id)?.roles.find((r) => r.id === player.role!.id) ?? null)
    : null;
  const team = player.teams[0] ? world.catalog.teamById.get(player.teams[0].id) : undefined;
  return {
    id: player.id,
    first_name: player.first_name,
    last_name: player.last_name,
    nick_name: player.nick_name,
    deleted_at: player.deleted_at,
    images: images(player.images),
    country: countryV2(player.region?.country),
    roles: role ? [{ name: role.name, from: null, to: null }] : [],
    // The world draws no pictures of races: their images object is empty.
    race: player.race
      ? { id: player.race.id, game_id: player.race.game.id, name: player.race.name, images: {} }
      : null,
    team: team ? teamV2(world, team) : null,
    game: gameOf(world, player.game.id),
  };
}

/**
 * Roster: its team and its lineup's players. Inside a roster a player's team and game are the
 * roster's own, so they are left out (a page of 50 series stays about a third of the size).
 */
export function rosterV2(world: World, roster: Roster) {
  const team = world.catalog.teamById.get(roster.team.id);
  return {
    id: roster.id,
    teams: team ? [teamV2(world, team)] : [],
    players: roster.line_up.players.flatMap((p) => {
      const player = world.catalog.playerById.get(p.id);
      if (!player) return [];
      const { team: _team, game: _game, ...lean } = playerV2(world, player);
      return [lean];
    }),
  };
}

/**
 * A v2 caster per entry of a series or tournament: `primary` belongs to the entry. Every platform
 * of this world is integrated (types 1-7), so `stream` is always a Stream (spec, "Caster"); the
 * spec leaves the Stream fields out, so it carries the v3 stream's, with its platform.
 */
export function casterV2(caster: Caster, primary: boolean) {
  const stream = caster.stream;
  return {
    id: caster.id,
    name: caster.display_name,
    type: caster.platform.id,
    url: `https://stream.matchday.invalid/${caster.username}`,
    primary,
    stream: {
      id: stream.id,
      username: stream.username,
      display_name: stream.display_name,
      status_text: stream.status_text,
      viewer_count: stream.viewer_count,
      online: stream.online,
      last_online: stream.last_online,
      platform: { id: caster.platform.id, name: caster.platform.name, color: caster.platform.color },
    },
    country: countryV2(caster.region.country),
  };
}

const byRoster = <T>(series: { participants: { roster: { id: number } }[] }, value: (i: number) => T) =>
  Object.fromEntries(series.participants.map((p, i) => [String(p.roster.id), value(i)]));

/** Series, v2 shape; `with` names the embedded parts asked for (absent unless asked). */
export function seriesV2(world: World, series: Series, t: number, withParts: ReadonlySet<string>) {
  const body: Record<string, unknown> = {
    id: series.id,
    title: series.title,
    start: series.start,
    end: series.end,
    tier: series.tier,
    bestOf: series.best_of,
    tournament_id: series.tournament.id,
    substage_id: series.substage.id,
    deleted_at: series.deleted_at,
    // The play-by-play coverage the series promises (a coverage value such as expected, available).
    pbp_status: series.coverage.data.live.api.fact,
    postponed_from: series.postponed_from,
    scores: byRoster(series, (i) => series.participants[i]!.score),
    forfeit: byRoster(series, (i) => series.participants[i]!.forfeit),
    chain:
      series.chain.length === 0
        ? null
        : { root_id: series.chain[0]!.id, series_id: series.id, order: series.chain.length + 1 },
    streamed: series.streamed,
    seeding: Object.fromEntries(series.participants.map((p) => [String(p.seed), p.roster.id])),
    game: gameOf(world, series.game.id),
    // v2 counts `offset` from 1 in each part's final (spec, "Bracket position"); the plans and v3
    // count it from 0.
    bracket_pos: series.bracket_position
      ? {
          part: series.bracket_position.part,
          col: series.bracket_position.col,
          offset: series.bracket_position.offset + 1,
          seeding: {
            1: series.participants[0]?.roster.id ?? null,
            2: series.participants[1]?.roster.id ?? null,
          },
        }
      : null,
    rosters: series.participants.flatMap((p) => {
      const roster = world.catalog.rosterById.get(p.roster.id);
      return roster ? [rosterV2(world, roster)] : [];
    }),
  };
  if (withParts.has('tournament')) {
    const plan = world.tournamentPlan(series.tournament.id);
    body.tournament = plan ? tournamentV2(world, world.tournamentAt(plan), t, new Set()) : null;
  }
  if (withParts.has('matches')) {
    const plan = world.seriesPlan(series.id);
    body.matches = plan
      ? plan.matches.map((m) => matchV2(world, world.matchAt(plan, m, t), hasPlayByPlay(plan, m, t)))
      : [];
  }
  if (withParts.has('casters')) {
    body.casters = [...series.casters]
      .sort((a, b) => Number(b.primary) - Number(a.primary) || a.caster.id - b.caster.id)
      .flatMap((entry) => {
        const info = world.catalog.casterById.get(entry.caster.id);
        return info ? [casterV2(world.casterAt(info, t), entry.primary)] : [];
      });
  }
  if (withParts.has('sportsbook_odds')) body.sportsbook_odds = [];
  if (withParts.has('summary')) {
    const plan = world.seriesPlan(series.id);
    body.summary = plan ? seriesPlayByPlay(world, plan, t) : { scoreboard: { 1: [], 2: [] } };
  }
  if (withParts.has('roster_perf') || withParts.has('comp_perf')) {
    const plan = world.seriesPlan(series.id);
    const perf = plan ? seriesPerformance(world, plan, t) : { past_encounters: [], recent_performance: {} };
    const none = new Set<string>();
    const shape = (list: readonly SeriesPlan[]) =>
      list.map((p) => seriesV2(world, world.seriesAt(p, t), t, none));
    body.performance = {
      past_encounters: shape(perf.past_encounters),
      recent_performance: Object.fromEntries(
        Object.entries(perf.recent_performance).map(([roster, list]) => [roster, shape(list)]),
      ),
    };
  }
  return body;
}

/** Match; `pbp` says whether it has a play-by-play summary (`play-by-play.ts`). */
export function matchV2(world: World, match: Match, pbp: boolean) {
  const info = world.catalog.game(match.game.id)!;
  const map = match.map ? info.maps.find((m) => m.id === match.map!.id) : undefined;
  const winner = match.participants.find((p) => p.winner);
  const decided = match.lifecycle === 'over' || match.lifecycle === 'over-forfeited';
  return {
    id: match.id,
    series_id: match.series.id,
    order: match.order,
    deleted_at: match.deleted_at,
    winner: decided && winner ? winner.roster.id : null,
    scores: match.lifecycle === 'upcoming' ? null : byRoster(match, (i) => match.participants[i]!.score),
    forfeit: byRoster(match, (i) => match.participants[i]!.forfeit),
    seeding: Object.fromEntries(match.participants.map((p) => [String(p.seed), p.roster.id])),
    game: gameV2(info.game),
    has_pbpstats: pbp,
    rosters: match.participants.map((p) => ({ id: p.roster.id })),
    map: map ? { id: map.id, name: map.name, official: map.official, game: gameV2(info.game) } : null,
  };
}

/**
 * Tournament; `with` may hold series, stages.substages, rosters, casters. Its `series` are every
 * series of the tournament by start, or in a list (`inList`) only the upcoming 5 (spec, "Tournament").
 */
export function tournamentV2(
  world: World,
  tournament: Tournament,
  t: number,
  withParts: ReadonlySet<string>,
  inList = false,
) {
  const plan = world.tournamentPlan(tournament.id)!;
  const host = tournament.location.host;
  const all = plan.stages
    .flatMap((s) => s.substages.flatMap((sub) => sub.series))
    .sort((a, b) => world.displayedStart(a, t) - world.displayedStart(b, t) || a.id - b.id);
  const upcoming = all.filter((p) => world.lifecycle(p, t) === 'upcoming');
  const next = upcoming[0];
  const body: Record<string, unknown> = {
    id: tournament.id,
    title: tournament.title,
    short_title: tournament.short_title,
    abbrev: tournament.short_title,
    country: countryV2(host?.country),
    city: tournament.title.split(' ')[1] ?? '',
    tier: tournament.tier,
    description: tournament.copy.general_description,
    short_description: tournament.copy.short_description,
    format: tournament.copy.format_description,
    start: tournament.start,
    end: tournament.end,
    deleted_at: tournament.deleted_at,
    url: tournament.links.website ?? '',
    has_pbpstats: tournament.coverage.data.live.api.fact === 'available',
    images: tournamentImages(tournament.images),
    prizepool_string: Object.fromEntries(
      Object.entries(tournament.string_prize_pool).filter(([, v]) => v !== null),
    ),
    links: Object.fromEntries(Object.entries(tournament.links).filter(([, v]) => v !== null)),
    next_series: next ? { id: next.id, start: new Date(world.displayedStart(next, t)).toISOString() } : null,
    game: gameOf(world, tournament.game.id),
  };
  if (withParts.has('series') || withParts.has('series.casters')) {
    const parts = new Set(withParts.has('series.casters') ? ['casters'] : []);
    body.series = (inList ? upcoming.slice(0, 5) : all).map((p) =>
      seriesV2(world, world.seriesAt(p, t), t, parts),
    );
  }
  if (withParts.has('stages.substages') || withParts.has('stages')) {
    body.stages = plan.stages.map((stage) => ({
      id: stage.id,
      title: world.stageAt(stage, t).title,
      order: world.stageAt(stage, t).order,
      tournament_id: tournament.id,
      substages: stage.substages.map((sub) => substageV2(world, world.substageAt(sub, t), t, new Set())),
    }));
  }
  if (withParts.has('rosters')) {
    body.rosters = plan.rosters.flatMap((id) => {
      const roster = world.catalog.rosterById.get(id);
      return roster ? [rosterV2(world, roster)] : [];
    });
  }
  if (withParts.has('casters')) {
    body.casters = tournament.casters.flatMap((entry) => {
      const info = world.catalog.casterById.get(entry.caster.id);
      return info ? [casterV2(world.casterAt(info, t), entry.primary)] : [];
    });
  }
  return body;
}

/** A substage ends when its last series does: null while any is still to play (or none is planned). */
function substageEnd(world: World, series: readonly SeriesPlan[], t: number): string | null {
  const done = (p: SeriesPlan) => ['over', 'over-forfeited', 'deleted'].includes(world.lifecycle(p, t));
  if (series.length === 0 || !series.every(done)) return null;
  const ends = series.filter((p) => world.lifecycle(p, t) !== 'deleted').map((p) => p.end);
  return ends.length === 0 ? null : new Date(Math.max(...ends)).toISOString();
}

/** Substage type 3: a battle-royale lobby group (many teams per series, ranked by points). */
const LOBBY_TYPE = 3;

export function substageV2(world: World, substage: Substage, t: number, withParts: ReadonlySet<string>) {
  const rules = substage.rules;
  const plan = world.substagePlan(substage.id);
  const body: Record<string, unknown> = {
    id: substage.id,
    stage_id: substage.stage.id,
    tier: substage.tier,
    title: substage.title,
    deleted_at: substage.deleted_at,
    type: substage.type,
    tournament_id: substage.tournament.id,
    order: substage.order,
    start: substage.start,
    end: substageEnd(world, plan?.series ?? [], t),
    rules: {
      advance: {
        number: rules.advance?.number ?? null,
        substage_id: rules.advance?.substage?.id ?? null,
      },
      descend: {
        number: rules.descend?.number ?? null,
        substage_id: rules.descend?.substage?.id ?? null,
      },
      points: {
        win: rules.points?.win ?? null,
        draw: rules.points?.draw ?? null,
        loss: rules.points?.loss ?? null,
        scope: rules.points?.scope ?? 'series',
      },
    },
  };
  if (withParts.has('standings')) {
    // Points wherever the table is ranked by points: a win/draw/loss system (`rules.points`), or a
    // battle-royale lobby's placement points (the sum of its series' scores, which `scores` carries
    // too). Null only where the substage has no point system at all.
    const hasPoints = Boolean(rules.points) || substage.type === LOBBY_TYPE;
    body.standings = substage.standings.map((s) => ({
      roster_id: s.roster.id,
      points: hasPoints ? s.points : null,
      wins: s.wins,
      draws: s.draws,
      losses: s.losses,
    }));
  }
  if (withParts.has('rosters')) {
    body.rosters = substage.rosters.flatMap((r) => {
      const roster = world.catalog.rosterById.get(r.id);
      return roster ? [rosterV2(world, roster)] : [];
    });
  }
  if (withParts.has('series')) {
    const list = plan ? [...plan.series].sort((a, b) => a.start - b.start || a.id - b.id) : [];
    body.series = list.map((p) => seriesV2(world, world.seriesAt(p, t), t, new Set()));
  }
  return body;
}
