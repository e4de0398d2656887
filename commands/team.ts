/**
 * `/team`: a team's organisation, region, active roster (players and roles), and its upcoming and
 * recent series (results under the spoiler policy). Team, organisation and rosters come from the
 * name index; requests: the players (1, none once the index holds them), upcoming series (1),
 * recent series (1), each none when the feed holds them.
 */

import { defineCommand } from '../src/bot/command.ts';
import { seriesListCard } from '../src/bot/format.ts';
import type { NameIndex } from '../src/bot/names.ts';
import type { Card, Field } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { cmd, UserError } from '../src/core/errors.ts';
import { spanned, type Translate } from '../src/i18n/i18n.ts';
import type { Player, Team } from '../src/protocol/types.ts';
import { placeName, resolveName, scopeOf, teamRosters, unlessBusy, visible } from './shared.ts';

export default defineCommand({
  name: 'team',
  description: 'A team: organisation, region, roster, upcoming and recent series',
  usesService: true,
  options: {
    team: {
      type: 'string',
      description: 'Team name, abbreviation or alias',
      required: true,
      autocomplete: 'team',
      max: 100,
    },
    count: { type: 'integer', description: 'Series to show each way (1 to 10, default 5)', min: 1, max: 10 },
  },
  async run(ctx) {
    const { args } = ctx;
    const { data, names } = ctx;
    const text = args.team;
    const t = ctx.t;
    if (!text)
      throw new UserError(
        'EMPTY_NAME',
        spanned(
          t,
          'commands.team.emptyName',
          {},
          { command: cmd(`team team:<${t('commands.shared.itsName')}>`), series: cmd('series') },
        ),
      );
    const count = args.count ?? 5;
    const teamId = await resolveName(ctx, 'team', text, scopeOf(ctx));
    // A listing may carry a team without its standing roster (v2 team listings do): then the team's
    // own answer says it.
    const known = names.team(teamId);
    const team = known?.standing_roster ? known : await data.teams.get(teamId);
    const rosters = await teamRosters(ctx, teamId);
    const active = team.standing_roster?.roster.id;
    const playerIds = active !== undefined ? (names.roster(active)?.players ?? []) : [];

    // The players from the name index when it holds them all (once `/player` loaded them), else one request.
    const held = playerIds.flatMap((id) => names.player(id) ?? []);
    const playersRead =
      held.length === playerIds.length ? Promise.resolve(held) : data.players.getMany(playerIds);
    const upcoming = ctx.reads.series({
      rosters,
      lifecycles: ['upcoming', 'live'],
      order: 'start-asc',
      take: count,
    });
    const recent = ctx.reads.series({
      rosters,
      lifecycles: ['over', 'over-forfeited'],
      order: 'end-desc',
      take: count,
    });
    // The team stands without its players and series: while the service is busy or down, what
    // could not be read is said so (and noted above the reply) instead of failing the command.
    // Its organisation, when the index does not hold it yet (a new store): one request.
    const organisation = team.organisation
      ? unlessBusy(ctx, names.ensureOrganisations(data, [team.organisation.id]))
      : undefined;
    const [players, upcomingSeries, recentSeries] = await Promise.all([
      unlessBusy(ctx, playersRead),
      unlessBusy(ctx, upcoming),
      unlessBusy(ctx, recent),
      organisation,
    ]);
    const listed = [...(upcomingSeries ?? []), ...(recentSeries ?? [])];
    await unlessBusy(ctx, names.ensureSeriesLabels(data, listed));
    await unlessBusy(
      ctx,
      names.ensureTournaments(
        data,
        listed.map((s) => s.tournament.id),
      ),
    );

    const options = { spoilers: ctx.tenant.settings.spoilers, t: ctx.t };
    const notRead = t('commands.shared.notRead');
    const upcomingTitle = `${t('commands.team.upcoming')} · ${team.name}`;
    const upcomingCard = seriesListCard(upcomingTitle, visible(upcomingSeries ?? []), names, {
      ...options,
      empty: upcomingSeries ? t('commands.team.nothingScheduled') : notRead,
      colour: COLOURS.upcoming,
    });
    const recentCard = seriesListCard(
      `${t('commands.team.recent')} · ${team.name}`,
      visible(recentSeries ?? []),
      names,
      {
        ...options,
        empty: recentSeries ? t('commands.series.noFinished') : notRead,
        colour: COLOURS.finished,
      },
    );
    return { cards: [teamCard(t, team, players, names), upcomingCard, recentCard] };
  },
});

/**
 * The team's own card: game, region, organisation, aliases, one field per player (undefined: they
 * could not be read), its links.
 */
function teamCard(t: Translate, team: Team, players: readonly Player[] | undefined, names: NameIndex): Card {
  const organisation = team.organisation ? names.organisation(team.organisation.id) : undefined;
  const game = names.game(team.game.id);
  const fields: Field[] = [
    {
      name: t('commands.team.game'),
      value: [game?.title ?? t('commands.team.gameId', { id: team.game.id })],
      inline: true,
    },
    {
      name: t('commands.team.region'),
      value: [placeName(team.region.name, team.region.country.name, ' (', ')')],
      inline: true,
    },
  ];
  if (organisation)
    fields.push({ name: t('commands.team.organisation'), value: [organisation.name], inline: true });
  if (team.also_known_as.length > 0)
    fields.push({
      name: t('commands.team.alsoKnownAs'),
      value: [team.also_known_as.join(', ')],
      inline: true,
    });
  // One field per player: single-line values render alike on every platform.
  const roster = t('commands.team.roster');
  if (!players) fields.push({ name: roster, value: [t('commands.shared.notRead')] });
  else if (players.length > 0) fields.push(...players.map((p) => playerField(t, p, names)));
  else fields.push({ name: roster, value: [t('commands.team.noRoster')] });
  const card: Card = {
    title:
      team.abbreviation && team.abbreviation !== team.name
        ? `${team.name} (${team.abbreviation})`
        : team.name,
    colour: team.active ? COLOURS.info : COLOURS.finished,
    fields,
    footer: t(team.active ? 'commands.team.footer' : 'commands.team.footerInactive', { id: team.id }),
  };
  const links = team.social_media_accounts.filter((a) => a.url.startsWith('https://')).slice(0, 3);
  if (links.length > 0) card.buttons = links.map((a) => ({ label: a.platform.name, url: a.url }));
  return card;
}

/**
 * A player as a field: the nick, then "First Last · role" and the `/player` line that shows them
 * (the nick, or with team and game where another player has the same nick).
 */
function playerField(t: Translate, player: Player, names: NameIndex): Field {
  const real = [player.first_name, player.last_name].filter(Boolean).join(' ');
  const role = (player.role ? names.roleName(player.role.id) : undefined) ?? player.race?.name;
  const value = [real, role].filter(Boolean).join(' · ') || t('commands.team.player');
  const text = names.playerText(player);
  const line = cmd(`player ${/\s/.test(text) ? `"${text}"` : text}`);
  return { name: player.nick_name, value: [value, ' · ', line], inline: true };
}
