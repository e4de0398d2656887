/**
 * v2 `/games`, `/games/{id}/assets`, `/matches/{id}`, `/matches/{id}/light_summary`,
 * `/substages/{id}` and `/incidents` (the v2 specification, "Endpoints").
 */
import type { ShooterRound } from '../../protocol/live-summary.ts';
import type { ApiTeamState } from '../../protocol/moba-summary.ts';
import { liveApiSummary } from '../live.ts';
import { shooterState } from '../live-games.ts';
import type { MatchPlan, SeriesPlan } from '../schedule.ts';
import { matchesQ, notFound, readPage, readWith, V2Gone } from './params.ts';
import type { V2Context } from './series.ts';
import { type Envelope, envelope, gameV2, matchV2, substageV2 } from './shapes.ts';

export function listGames(c: V2Context): Envelope<unknown> {
  const page = readPage(c.query);
  const q = c.query.get('q');
  const games = c.world.catalog.games.map((g) => g.game).filter((g) => matchesQ(q, g.abbreviation, g.title));
  return envelope(games, page, gameV2);
}

/** Assets exist for the MOBA games only ("Only some games"). */
export function gameAssets(c: V2Context): unknown {
  const info = c.world.catalog.game(c.ids[0]!) ?? notFound();
  if (info.kind !== 'moba') notFound();
  const of = (category: string) =>
    c.world.catalog.assets.filter((a) => a.game.id === info.game.id && a.category === category);
  const image = (a: { images: { url: string }[] }) => a.images[0]?.url ?? '';
  return {
    items: of('item').map((a) => ({
      id: a.id,
      name: a.name,
      external_id: Number(a.external_id),
      image: image(a),
    })),
    runes: of('rune').map((a) => ({ id: a.id, name: a.name, image: image(a) })),
    spells: of('ability').map((a) => ({ id: a.id, name: a.name, image: image(a) })),
    heroes: of('hero').map((a) => ({
      id: a.id,
      name: a.name,
      external_id: Number(a.external_id),
      large_image: image(a),
      small_image: a.images[0]?.thumbnail ?? '',
    })),
  };
}

export function getMatch(c: V2Context): unknown {
  const withParts = readWith(c.query, ['performance', 'summary']);
  const found = c.world.matchPlan(c.ids[0]!) ?? notFound();
  const match = c.world.matchAt(found.series, found.match, c.t);
  const body: Record<string, unknown> = matchV2(c.world, match);
  if (withParts.has('performance')) body.performance = { winrate: { over_all: null, per_map: [] } };
  if (withParts.has('summary')) body.summary = null;
  if (match.deleted_at !== null) throw new V2Gone(body);
  return body;
}

/**
 * The light summary of a match that went live (404 before): MOBA games in the second shape
 * (`radiant`/`dire`, from the live API summary the v3 interface serves), others in the first
 * (`home`/`away` with their scores).
 */
export function lightSummary(c: V2Context): unknown {
  const found = c.world.matchPlan(c.ids[0]!) ?? notFound();
  const { series, match } = found;
  if (c.t < match.start || c.world.matchLifecycle(series, match, c.t) === 'deleted') notFound();
  const v3 = c.world.matchAt(series, match, c.t);
  const ended = v3.lifecycle === 'over' || v3.lifecycle === 'over-forfeited';
  let length = Math.floor((Math.min(c.t, match.end) - match.start) / 1000);
  if (series.kind === 'moba') {
    const api = liveApiSummary(c.world, series, match, c.t);
    length = Math.floor(api.match.clock.milliseconds / 1000);
    const side = (team: ApiTeamState) => ({
      roster: { id: team.roster.id },
      score: team.score,
      is_winner: team.is_winner,
      structure_status: {
        towers: team.structures_status.towers.map((x) => x.standing),
        barracks: team.structures_status.barracks.map((x) => x.standing),
      },
      player_stats: team.players.map((p, i) => ({
        player: { id: p.id },
        hero: { id: p.hero.id },
        seed: i + 1,
        kills: p.kills.total,
        deaths: p.deaths.total,
        assists: p.assists.total,
        level: p.level,
        networth: p.gold.net_worth,
        gpm: p.gold.per_minute,
        xpm: p.experience.per_minute,
      })),
    });
    return { confirmed: true, length, ended, radiant: side(api.teams.home), dire: side(api.teams.away) };
  }
  if (series.kind === 'shooter') return shooterLight(c, series, match, { confirmed: true, length, ended });
  const side = (i: number) => ({
    roster: { id: v3.participants[i]!.roster.id },
    is_winner: v3.participants[i]!.winner,
    score: v3.participants[i]!.score,
    player_stats: [],
  });
  return { confirmed: true, length, ended, home: side(0), away: side(1) };
}

const WIN_REASONS: Record<ShooterRound['win_reason'], { id: number; name: string }> = {
  elimination: { id: 1, name: 'enemy_elimination' },
  detonated: { id: 2, name: 'exploded' },
  defused: { id: 3, name: 'defused' },
  time: { id: 4, name: 'time_limit' },
};

/**
 * A shooter's light summary, the first game shape: `home`/`away` with their players' kills,
 * assists and deaths, and the rounds played (sides, winner, cash spent, win reason), from the same
 * account of the map as the v3 summary (`live-games.ts`).
 */
function shooterLight(
  c: V2Context,
  series: SeriesPlan,
  match: MatchPlan,
  root: { confirmed: boolean; length: number; ended: boolean },
): unknown {
  const { summary, spends } = shooterState(c.world, series, match, Math.min(c.t, match.end));
  const { home, away } = summary.teams;
  const side = (team: typeof home, key: 'home' | 'away', round: ShooterRound) => {
    const spent = spends[round.number - 1]?.[key === 'home' ? 0 : 1] ?? 0;
    return {
      roster: { id: team.roster.id },
      is_winner: round.winner === key,
      player_stats: team.players.map((p) => ({
        player: { id: p.player.id },
        cash: { spent: Math.round(spent / Math.max(1, team.players.length)) },
      })),
    };
  };
  const lightSide = (team: typeof home) => ({
    roster: { id: team.roster.id },
    is_winner: summary.match.phase === 'post-game' && team.score >= summary.rounds_to_win,
    score: team.score,
    player_stats: team.players.map((p) => ({
      player: { id: p.player.id },
      kills: p.kills,
      assists: p.assists,
      deaths: p.deaths,
    })),
  });
  return {
    ...root,
    home: lightSide(home),
    away: lightSide(away),
    rounds: summary.rounds.map((round) => {
      // The side that attacked this round: the winner's if it won on attack, else the loser's.
      const winnerKey = round.winner;
      const loserKey = winnerKey === 'home' ? 'away' : 'home';
      const attackerKey = round.winner_side === 'attack' ? winnerKey : loserKey;
      const defenderKey = attackerKey === 'home' ? 'away' : 'home';
      return {
        round_nr: round.number,
        t_side: side(summary.teams[attackerKey], attackerKey, round),
        ct_side: side(summary.teams[defenderKey], defenderKey, round),
        bomb_events: [],
        kills: [],
        win_reason: { ...WIN_REASONS[round.win_reason], images: [] },
      };
    }),
  };
}

export function getSubstage(c: V2Context): unknown {
  const withParts = readWith(c.query, ['standings', 'rosters', 'series']);
  const plan = c.world.substagePlan(c.ids[0]!) ?? notFound();
  return substageV2(c.world, c.world.substageAt(plan, c.t), c.t, withParts);
}

export function listIncidents(c: V2Context): Envelope<unknown> {
  const page = readPage(c.query);
  return envelope(c.world.incidentsAt(c.t), page, (i) => ({
    id: i.id,
    series_id: i.series.id,
    match_id: i.match?.id ?? null,
    comment: i.comment,
    created_at: i.created_at,
    updated_at: i.created_at,
  }));
}

export function seriesIncidents(c: V2Context): unknown {
  const plan = c.world.seriesPlan(c.ids[0]!) ?? notFound();
  const found = c.world.incidentsAt(c.t).filter((i) => i.series.id === plan.id);
  const row = (i: (typeof found)[number]) => ({
    series_id: i.series.id,
    match_id: i.match?.id ?? null,
    comment: i.comment,
    created_at: i.created_at,
    updated_at: i.created_at,
    incident_id: i.id,
  });
  return {
    series_incidents: found.filter((i) => i.match === null).map(row),
    match_incidents: found.filter((i) => i.match !== null).map(row),
  };
}
