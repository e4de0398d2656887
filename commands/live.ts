/**
 * `/live`: the live scoreline of one series, or of every live series in the tenant's games: series
 * score, the current map and its score, earlier maps, and streams (primary first). Requests: the
 * series (1), their matches (1, all series at once), their casters (1, all at once). One named
 * series (or a team's) also gets the live summary's highlights (net worth lead, structures, clock):
 * one more request. The overview leaves them out, because the summary has no batch endpoint and one
 * request per live match would break the budget of 3 per command.
 */
import { defineCommand } from '../src/bot/command.ts';
import { liveCard } from '../src/bot/format.ts';
import { COLOURS } from '../src/bot/reply.ts';
import type { Where } from '../src/client/types.ts';
import type {
  Caster,
  CoverageLeaf,
  LiveApiSummary,
  LiveCvSummary,
  Match,
  Series,
} from '../src/protocol/types.ts';
import {
  dataOf,
  gamesFor,
  gamesLabel,
  isNotFound,
  namesOf,
  scopeOf,
  seriesArg,
  teamRosters,
  textArg,
  visible,
} from './shared.ts';

/** Most series shown at once (one card each; Discord allows 10 embeds, this stays readable). */
export const MAX_LIVE_CARDS = 5;

const HAS_DATA = new Set(['available', 'partial']);
const hasData = (leaf: CoverageLeaf | undefined) =>
  leaf !== undefined && (HAS_DATA.has(leaf.fact) || HAS_DATA.has(leaf.expectation));

export default defineCommand({
  name: 'live',
  description: 'Live scorelines: one series, or everything live in your games',
  usesService: true,
  options: {
    series: {
      type: 'string',
      description: 'A series (default: every live series)',
      autocomplete: 'series',
      max: 100,
    },
    team: { type: 'string', description: 'The live series of this team', autocomplete: 'team', max: 100 },
    game: {
      type: 'string',
      description: 'Game (default: the games in /settings)',
      autocomplete: 'game',
      max: 100,
    },
  },
  async run(ctx) {
    const { args, tenant } = ctx;
    const data = dataOf(ctx);
    const names = namesOf(ctx);
    let series: Series[];
    let detailed = false;
    const seriesText = textArg('series', args.series);
    const teamText = textArg('team', args.team);
    const games = await gamesFor(ctx, args.game);
    if (seriesText) {
      series = [await seriesArg(ctx, seriesText)];
      detailed = true;
    } else {
      const filter: Where<'series'>[] = [['lifecycle', '=', 'live']];
      let who = gamesLabel(ctx, games);
      if (teamText) {
        const teamId = await names.resolve('team', teamText, scopeOf(ctx, games));
        filter.push(['participants.roster.id', '^', await teamRosters(ctx, teamId)]);
        who = names.team(teamId)?.name ?? 'that team';
        detailed = true;
        if (args.game) filter.push(['game.id', '<=', games]);
      } else if (games.length > 0) filter.push(['game.id', '<=', games]);
      series = visible(await data.series.list({ filter, order: 'start-asc', take: MAX_LIVE_CARDS }));
      if (series.length === 0) {
        return {
          cards: [
            {
              title: 'Nothing live',
              colour: COLOURS.info,
              description: [[`No series is live right now for ${who}.`]],
            },
          ],
        };
      }
    }
    const ids = series.map((s) => s.id);
    const casterIds = [...new Set(series.flatMap((s) => s.casters.map((c) => c.caster.id)))];
    const [matches, casters] = await Promise.all([
      data.matches.list({ filter: [['series.id', '<=', ids]], order: 'order-asc', take: 50 }) as Promise<
        Match[]
      >,
      casterIds.length > 0
        ? (data.casters.getMany(casterIds) as Promise<Caster[]>)
        : Promise.resolve([] as Caster[]),
      names.ensureSeriesLabels(data, series),
      names.ensureTournaments(
        data,
        series.map((s) => s.tournament.id),
      ),
    ]);
    // A team's live series is normally one; with more, the overview rule applies.
    if (series.length > 1) detailed = false;
    const live = detailed ? matches.filter((m) => m.lifecycle === 'live' && m.deleted_at === null) : [];
    const summaries = new Map<number, LiveCvSummary | LiveApiSummary>();
    await Promise.all(
      live.map(async (match) => {
        const summary = await liveSummary(ctx, match);
        if (summary) summaries.set(match.series.id, summary);
      }),
    );
    const cards = series.map((s) =>
      liveCard(s, names, {
        spoilers: tenant.settings.spoilers,
        matches: matches.filter((m) => m.series.id === s.id && m.deleted_at === null),
        summary: summaries.get(s.id),
        casters: casters.filter((c) => s.casters.some((e) => e.caster.id === c.id)),
        mapName: (id) => names.mapName(id),
        now: ctx.now,
      }),
    );
    const reply = { cards };
    if (!detailed && cards.length > 0) {
      const last = cards[cards.length - 1]!;
      last.footer = `${last.footer ?? ''} · Net worth, structures and clock: /live series:<id>`.replace(
        /^ · /,
        '',
      );
    }
    return reply;
  },
});

/**
 * The live summary of a match from the source its coverage promises (computer vision first, then
 * the API source); none when neither is covered or the service has no summary yet.
 */
async function liveSummary(
  ctx: Parameters<typeof dataOf>[0],
  match: Match,
): Promise<LiveCvSummary | LiveApiSummary | undefined> {
  const data = dataOf(ctx);
  const live = match.coverage?.data?.live;
  try {
    if (hasData(live?.cv)) return (await data.matches.liveCv(match.id)) as LiveCvSummary;
    if (hasData(live?.api)) return (await data.matches.liveApi(match.id)) as LiveApiSummary;
  } catch (error) {
    // A match that just went live may not have a summary yet: the card shows the match score.
    if (isNotFound(error)) return undefined;
    throw error;
  }
  return undefined;
}
