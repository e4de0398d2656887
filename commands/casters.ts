/**
 * `/casters`: who casts a series and where to watch: platform, online and viewers, links, the
 * primary caster first. The series is the one named, else the live (or next) series of the team
 * named, else the biggest live series in the chat's games and tiers (the next one when none is
 * live). Reads through the read model (src/reads/reads.ts).
 */
import { type CommandContext, defineCommand } from '../src/bot/command.ts';
import { gameTag, matchup, tournamentName } from '../src/bot/format.ts';
import {
  broadcastLines,
  casterLine,
  orderCasters,
  seriesAhead,
  seriesOver,
  streamButtons,
} from '../src/bot/format-streams.ts';
import type { NameIndex } from '../src/bot/names.ts';
import type { Card, Text } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import type { Translate } from '../src/i18n/i18n.ts';
import type { Caster, Series } from '../src/protocol/types.ts';
import { gamesFor, gamesLabel, resolveName, scopeOf, seriesArg, teamRosters } from './shared.ts';

/** Casters listed in full; the rest are counted. */
const MAX_CASTERS = 15;

export default defineCommand({
  name: 'casters',
  description: "A series' casters and streams, primary first",
  usesService: true,
  options: {
    series: {
      type: 'string',
      description: 'A series (default: the next one)',
      autocomplete: 'series',
      max: 100,
    },
    team: { type: 'string', description: "This team's live or next series", autocomplete: 'team', max: 100 },
    game: {
      type: 'string',
      description: 'Game (default: the games chosen in settings)',
      autocomplete: 'game',
      max: 100,
    },
  },
  async run(ctx) {
    const { args } = ctx;
    const { data, names } = ctx;
    const seriesText = args.series;
    const teamText = args.team;
    let series: Series | undefined;
    if (seriesText) {
      series = await seriesArg(ctx, seriesText);
    } else {
      const games = await gamesFor(ctx, args.game);
      const wanted: { games?: number[]; tiers?: number[]; rosters?: number[] } = {};
      let who = gamesLabel(ctx, games);
      if (teamText) {
        const teamId = await resolveName(ctx, 'team', teamText, scopeOf(ctx, games));
        wanted.rosters = await teamRosters(ctx, teamId);
        who = names.team(teamId)?.name ?? ctx.t('commands.live.thatTeam');
      } else {
        if (games.length > 0) wanted.games = games;
        if (ctx.tenant.settings.tiers.length > 0) wanted.tiers = [...ctx.tenant.settings.tiers];
      }
      series = await biggestSeries(ctx, wanted);
      if (!series) {
        return {
          cards: [
            {
              title: ctx.t('commands.casters.noSeries'),
              colour: COLOURS.info,
              description: [[ctx.t('commands.casters.nothing', { who })]],
            },
          ],
        };
      }
    }
    const [casters] = await Promise.all([
      ctx.reads.casters(series.casters.map((c) => c.caster.id)),
      names.ensureSeriesLabels(data, [series]),
      names.ensureTournaments(data, [series.tournament.id]),
    ]);
    return { cards: [castersCard(ctx.t, series, casters, names, ctx.now)] };
  },
});

/**
 * The series a fan means by `/casters` alone: the biggest live one in these conditions (the
 * highest tier, then the most casters, then the earliest start), else the next to start.
 */
async function biggestSeries(
  ctx: CommandContext<unknown>,
  wanted: { games?: number[]; tiers?: number[]; rosters?: number[] },
): Promise<Series | undefined> {
  const live = await ctx.reads.series({ ...wanted, lifecycles: ['live'], order: 'start-asc', take: 50 });
  if (live.length > 0)
    return [...live].sort((a, b) => a.tier - b.tier || b.casters.length - a.casters.length)[0];
  const [next] = await ctx.reads.series({ ...wanted, lifecycles: ['upcoming'], order: 'start-asc', take: 1 });
  return next;
}

/** The casters card: one line per caster, primary first, then online by viewers. */
export function castersCard(
  t: Translate,
  series: Series,
  casters: readonly Caster[],
  names: NameIndex,
  /** The instant of the answer: a stream on air hours before the series is on something else. */
  now?: Date,
): Card {
  const primary = new Set(series.casters.filter((e) => e.primary).map((e) => e.caster.id));
  const ordered = orderCasters(casters, series.casters);
  const head: Text = [
    tournamentName(names, series.tournament.id, t),
    ` · ${gameTag(names, series.game.id)}`,
    ...(series.lifecycle === 'live'
      ? [' · ', { text: t('commands.standings.live'), bold: true }]
      : series.start
        ? [' · ', { time: new Date(series.start), style: 'full' as const }]
        : []),
  ];
  const lines: Text[] = ordered
    .slice(0, MAX_CASTERS)
    .map((c) =>
      casterLine(
        c,
        { primary: primary.has(c.id), over: seriesOver(series), ahead: seriesAhead(series, now) },
        t,
      ),
    );
  const card: Card = {
    title: `${t('commands.casters.title')} · ${matchup(series, names, t)}`,
    colour: series.lifecycle === 'live' ? COLOURS.live : COLOURS.upcoming,
    description: [
      head,
      ...(lines.length > 0 ? lines : [[t('commands.casters.none')]]),
      ...broadcastLines(series, (id) => names.languageName(id), MAX_CASTERS, t),
    ],
    footer:
      ordered.length > MAX_CASTERS
        ? `${t('commands.shared.series', { id: series.id })} · ${t('commands.casters.more', { count: ordered.length - MAX_CASTERS })}`
        : t('commands.shared.series', { id: series.id }),
  };
  // A finished series has nothing live to watch: no buttons to streams showing something else.
  const buttons = seriesOver(series) ? [] : streamButtons(ordered, t);
  if (buttons.length > 0) card.buttons = buttons;
  return card;
}
