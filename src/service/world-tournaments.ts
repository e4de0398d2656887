/**
 * The resources around tournaments and casters: the tournament (its fields do not change with the
 * clock), its participants per phase at an instant, its image, and a caster with the stream that
 * is online while one of the caster's series is live.
 */
import type { Caster, Image, Stream, Tournament, TournamentParticipants } from '../protocol/types.ts';
import type { CasterInfo } from './catalog.ts';
import { hash32 } from './random.ts';
import { coverageFor, type TournamentPlan } from './schedule.ts';
import { knownSubstageRosters } from './world-standings.ts';
import type { WorldView } from './world-view.ts';
import { iso } from './world-window.ts';

/** Images of tournaments (which come and go with the window) have ids derived from the tournament id. */
export const TOURNAMENT_IMAGE_BASE = 100_000_000;

/** A tournament's image, its URLs under the catalog's image base (`Catalog.imageUrls`). */
export function tournamentImage(world: WorldView, id: number): Image {
  return {
    id: TOURNAMENT_IMAGE_BASE + id,
    ...world.catalog.imageUrls(`tournaments/${id}`),
    fallback: false,
    type: 'default',
  };
}

function rosterRegion(world: WorldView, roster: number): number {
  const r = world.catalog.rosterById.get(roster)!;
  return world.catalog.teamById.get(r.team.id)!.region.id;
}

/** The tournament resource. */
export function buildTournament(world: WorldView, plan: TournamentPlan): Tournament {
  const info = world.catalog.game(plan.game)!;
  const prize = (n: number) => `$${n.toLocaleString('en-US')}`;
  const host = world.catalog.regions[plan.hostRegion]!;
  return {
    id: plan.id,
    title: plan.title,
    short_title: plan.shortTitle,
    tier: plan.tier,
    copy: {
      general_description: `${plan.title}: a tier ${plan.tier} ${info.game.title} tournament.`,
      short_description: `Tier ${plan.tier} ${info.game.abbreviation}`,
      format_description: plan.stages
        .map((s) => `${s.title} (${s.substages.length} substage${s.substages.length === 1 ? '' : 's'})`)
        .join(', then '),
    },
    links: {
      website: `https://tournaments.matchday.invalid/${plan.id}`,
      wiki: plan.tier <= 2 ? `https://wiki.matchday.invalid/${plan.id}` : null,
    },
    start: iso(plan.start),
    end: iso(plan.end),
    game: { id: plan.game },
    string_prize_pool: {
      total: prize(plan.prize),
      first: prize(Math.round(plan.prize * 0.5)),
      second: prize(Math.round(plan.prize * 0.25)),
      third: prize(Math.round(plan.prize * 0.12)),
    },
    location: {
      host: plan.tier <= 2 ? host : null,
      participants: [...new Set(plan.rosters.map((r) => rosterRegion(world, r)))].map(
        (id) => world.catalog.regions.find((x) => x.id === id)!,
      ),
    },
    deleted_at: null,
    coverage: coverageFor(plan.tier),
    images: [tournamentImage(world, plan.id)],
    stages: plan.stages.map((s) => ({ id: s.id })),
    casters: plan.casters.map((id, i) => ({ primary: i === 0, caster: { id } })),
  };
}

/** Confirmed participants and participants per phase at t. */
export function tournamentParticipants(
  world: WorldView,
  plan: TournamentPlan,
  t: number,
): TournamentParticipants {
  const phases: TournamentParticipants['phase_participants'] = {
    qualifier: [],
    regular: [],
    final: [],
    other: [],
  };
  for (const stage of plan.stages) {
    for (const sub of stage.substages) {
      for (const r of knownSubstageRosters(world, sub, t))
        if (!phases[sub.phase].some((x) => x.roster.id === r)) phases[sub.phase].push({ roster: { id: r } });
    }
  }
  return {
    confirmed_participants: plan.rosters.map((id) => ({ roster: { id } })),
    phase_participants: phases,
  };
}

/** A caster's stream at t: online while one of the caster's series is live. */
export function streamAt(world: WorldView, info: CasterInfo, t: number): Stream {
  const window = world.window(t);
  const list = window.byCaster.get(info.id) ?? [];
  let online = false;
  let lastEnd: number | null = null;
  for (const plan of list) {
    const lifecycle = world.lifecycle(plan, t);
    if (lifecycle === 'live') online = true;
    else if (lifecycle === 'over' && (lastEnd === null || plan.end > lastEnd)) lastEnd = plan.end;
  }
  const minute = Math.floor(t / 60_000);
  const wobble = (hash32(`${world.seed}|viewers|${info.id}|${minute}`) % 1000) / 1000;
  return {
    id: info.streamId,
    username: info.username,
    display_name: info.display_name,
    status_text: info.statusText,
    viewer_count: online ? Math.round(info.baseViewers * (0.7 + 0.6 * wobble)) : 0,
    online,
    last_online: online ? iso(minute * 60_000) : lastEnd === null ? null : iso(lastEnd),
    images: info.streamImages,
    platform: info.platform,
  };
}

/** The caster resource at t. */
export function casterAt(world: WorldView, info: CasterInfo, t: number): Caster {
  return {
    id: info.id,
    display_name: info.display_name,
    username: info.username,
    game: info.game,
    deleted_at: info.deleted_at,
    platform: info.platform,
    stream: world.streamAt(info, t),
    region: info.region,
  };
}
