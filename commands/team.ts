/**
 * `/team`: a team's organisation, region, active roster (players and roles), and its upcoming and
 * recent series (results under the spoiler policy). Team, organisation and rosters come from the
 * name index; requests: the players (1), upcoming series (1), recent series (1).
 */
import { defineCommand, UserError } from '../src/bot/command.ts';
import { joinLines, seriesLine } from '../src/bot/format.ts';
import type { NameIndex } from '../src/bot/names.ts';
import type { Card, Field, Text } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import type { Player } from '../src/protocol/types.ts';
import { dataOf, intArg, namesOf, scopeOf, teamRosters, textArg, visible } from './shared.ts';

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
    const data = dataOf(ctx);
    const names = namesOf(ctx);
    const text = textArg('team', args.team);
    if (!text) throw new UserError('EMPTY_NAME', 'Name a team, e.g. /team team:Liquid.');
    const count = intArg('count', args.count, 1, 10, 5);
    const teamId = await names.resolve('team', text, scopeOf(ctx));
    const team = names.team(teamId) ?? (await data.teams.get(teamId));
    const rosters = await teamRosters(ctx, teamId);
    const active = team.standing_roster?.roster.id;
    const playerIds = active !== undefined ? (names.roster(active)?.players ?? []) : [];

    const [players, upcoming, recent] = await Promise.all([
      playerIds.length > 0
        ? (data.players.getMany(playerIds) as Promise<Player[]>)
        : Promise.resolve([] as Player[]),
      rosters.length > 0
        ? data.series.list({
            filter: [
              ['participants.roster.id', '^', rosters],
              ['lifecycle', '<=', ['upcoming', 'live']],
            ],
            order: 'start-asc',
            take: count,
          })
        : Promise.resolve([]),
      rosters.length > 0
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
      { name: 'Region', value: [`${team.region.name} (${team.region.country.name})`], inline: true },
    ];
    if (organisation) fields.push({ name: 'Organisation', value: [organisation.name], inline: true });
    if (team.also_known_as.length > 0)
      fields.push({ name: 'Also known as', value: [team.also_known_as.join(', ')], inline: true });
    fields.push({
      name: 'Roster',
      value:
        players.length > 0
          ? joinLines(players.map((p) => playerLine(p, names)))
          : ['No active roster on record.'],
    });
    const options = { spoilers: tenant.settings.spoilers };
    const up = visible(upcoming);
    const down = visible(recent);
    fields.push({
      name: 'Upcoming',
      value: up.length > 0 ? joinLines(up.map((s) => seriesLine(s, names, options))) : ['Nothing scheduled.'],
    });
    fields.push({
      name: 'Recent',
      value:
        down.length > 0
          ? joinLines(down.map((s) => seriesLine(s, names, options)))
          : ['No finished series yet.'],
    });
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
    return { cards: [card] };
  },
});

/** "nick (First Last) · role". */
function playerLine(player: Player, names: NameIndex): Text {
  const line: Text = [{ text: player.nick_name, bold: true }];
  const real = [player.first_name, player.last_name].filter(Boolean).join(' ');
  if (real) line.push(` (${real})`);
  const role = (player.role ? names.roleName(player.role.id) : undefined) ?? player.race?.name;
  if (role) line.push(` · ${role}`);
  return line;
}
