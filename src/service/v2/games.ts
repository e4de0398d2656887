/**
 * v2 `/games`, `/games/{id}/assets`, `/matches/{id}`, `/matches/{id}/light_summary`,
 * `/substages/{id}` and `/incidents` (the v2 specification, "Endpoints").
 */
import { mobaLight } from './moba-summary.ts';
import { matchesQ, notFound, readPage, readWith, V2Gone } from './params.ts';
import { hasPlayByPlay, matchPlayByPlay } from './play-by-play.ts';
import type { V2Context } from './series.ts';
import { type Envelope, envelope, gameV2, matchV2, substageV2 } from './shapes.ts';
import { shooterLight } from './shooter-summary.ts';
import { matchPerformance } from './stats.ts';

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
  const body: Record<string, unknown> = matchV2(
    c.world,
    match,
    hasPlayByPlay(found.series, found.match, c.t),
  );
  if (withParts.has('performance')) body.performance = matchPerformance(c.world, found.series.rosters, c.t);
  if (withParts.has('summary')) body.summary = matchPlayByPlay(c.world, found.series, found.match, c.t);
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
  const length = Math.floor((Math.min(c.t, match.end) - match.start) / 1000);
  if (series.kind === 'moba') return mobaLight(c.world, series, match, c.t, ended);
  if (series.kind === 'shooter')
    return shooterLight(c.world, series, match, c.t, { confirmed: true, length, ended });
  const side = (i: number) => ({
    roster: { id: v3.participants[i]!.roster.id },
    is_winner: v3.participants[i]!.winner,
    score: v3.participants[i]!.score,
    player_stats: [],
  });
  return { confirmed: true, length, ended, home: side(0), away: side(1) };
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
