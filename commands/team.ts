/**
 * `/team`: a team's organisation, region, active roster (players and roles), and its upcoming and
 * recent series (results under the spoiler policy). Team, organisation and rosters come from the
 * name index; requests: the players (1), upcoming series (1), recent series (1).
 */

import { defineCommand, UserError } from '../src/bot/command.ts';
import { seriesListCard } from '../src/bot/format.ts';
import type { NameIndex } from '../src/bot/names.ts';
import type { Card, Field } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { cmd } from '../src/core/errors.ts';
import type { Player } from '../src/protocol/types.ts';
import {
  fromFeed,
  intArg,
  noteFilling,
  placeName,
  resolveName,
  scopeOf,
  teamRosters,
  textArg,
  visible,
} from './shared.ts';

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
    const { args, tenant } = ctx;
    const { data, names } = ctx;
    const text = textArg('team', args.team);
    if (!text)
      throw new UserError('EMPTY_NAME', [
        'Name a team: ',
        cmd('team team:<its name>'),
        ' (a name, tag or id). ',
        cmd('series'),
        ' lists teams that play today.',
      ]);
    const count = intArg('count', args.count, 1, 10, 5);
    const teamId = await resolveName(ctx, 'team', text, scopeOf(ctx));
    // A listing may carry a team without its standing roster (v2 team listings do): then the team's
    // own answer says it.
    const known = names.team(teamId);
    const team = known?.standing_roster ? known : await data.teams.get(teamId);
    const rosters = await teamRosters(ctx, teamId);
    const active = team.standing_roster?.roster.id;
    const playerIds = active !== undefined ? (names.roster(active)?.players ?? []) : [];

    // Upcoming and recent series from the feed when it holds them; else one request each.
    const heldUpcoming =
      rosters.length > 0
        ? fromFeed(ctx, { rosters, lifecycles: ['upcoming', 'live'], order: 'start-asc', take: count })
        : undefined;
    const heldRecent =
      rosters.length > 0
        ? fromFeed(ctx, { rosters, lifecycles: ['over', 'over-forfeited'], order: 'end-desc', take: count })
        : undefined;
    const [players, upcoming, recent] = await Promise.all([
      playerIds.length > 0 ? data.players.getMany(playerIds) : Promise.resolve([]),
      heldUpcoming
        ? heldUpcoming.series
        : rosters.length > 0
          ? data.series.list({
              filter: [
                ['participants.roster.id', '^', rosters],
                ['lifecycle', '<=', ['upcoming', 'live']],
              ],
              order: 'start-asc',
              take: count,
            })
          : Promise.resolve([]),
      heldRecent
        ? heldRecent.series
        : rosters.length > 0
          ? data.series.list({
              filter: [
                ['participants.roster.id', '^', rosters],
                ['lifecycle', '<=', ['over', 'over-forfeited']],
              ],
              order: 'end-desc',
              take: count,
            })
          : Promise.resolve([]),
    ]);
    await names.ensureSeriesLabels(data, [...upcoming, ...recent]);
    await names.ensureTournaments(
      data,
      [...upcoming, ...recent].map((s) => s.tournament.id),
    );

    const organisation = team.organisation ? names.organisation(team.organisation.id) : undefined;
    const game = names.game(team.game.id);
    const fields: Field[] = [
      { name: 'Game', value: [game?.title ?? `Game ${team.game.id}`], inline: true },
      {
        name: 'Region',
        value: [placeName(team.region.name, team.region.country.name, ' (', ')')],
        inline: true,
      },
    ];
    if (organisation) fields.push({ name: 'Organisation', value: [organisation.name], inline: true });
    if (team.also_known_as.length > 0)
      fields.push({ name: 'Also known as', value: [team.also_known_as.join(', ')], inline: true });
    // One field per player: single-line values render alike on every platform.
    if (players.length > 0) fields.push(...players.map((p) => playerField(p, names)));
    else fields.push({ name: 'Roster', value: ['No active roster on record.'] });
    const card: Card = {
      title:
        team.abbreviation && team.abbreviation !== team.name
          ? `${team.name} (${team.abbreviation})`
          : team.name,
      colour: team.active ? COLOURS.info : COLOURS.finished,
      fields,
      footer: team.active ? `Team ${team.id}` : `Team ${team.id} · inactive`,
    };
    const links = team.social_media_accounts.filter((a) => a.url.startsWith('https://')).slice(0, 3);
    if (links.length > 0) card.buttons = links.map((a) => ({ label: a.platform.name, url: a.url }));
    const options = { spoilers: tenant.settings.spoilers };
    const upcomingCard = seriesListCard(`Upcoming · ${team.name}`, visible(upcoming), names, {
      ...options,
      empty: 'Nothing scheduled.',
      colour: COLOURS.upcoming,
    });
    const recentCard = seriesListCard(`Recent · ${team.name}`, visible(recent), names, {
      ...options,
      empty: 'No finished series yet.',
      colour: COLOURS.finished,
    });
    noteFilling(upcomingCard, heldUpcoming);
    noteFilling(recentCard, heldRecent);
    return { cards: [card, upcomingCard, recentCard] };
  },
});

/**
 * A player as a field: the nick, then "First Last · role" and the `/player` line that shows them
 * (the nick, or with team and game where another player has the same nick).
 */
function playerField(player: Player, names: NameIndex): Field {
  const real = [player.first_name, player.last_name].filter(Boolean).join(' ');
  const role = (player.role ? names.roleName(player.role.id) : undefined) ?? player.race?.name;
  const value = [real, role].filter(Boolean).join(' · ') || 'player';
  const text = names.playerText(player);
  const line = cmd(`player ${/\s/.test(text) ? `"${text}"` : text}`);
  return { name: player.nick_name, value: [value, ' · ', line], inline: true };
}
