/**
 * `/player`: a player's team, role, country and social accounts. Names are
 * matched like teams' (`names.ts`: exact nick or real name, prefix, a one-letter typo taken with a
 * note, "Did you mean" otherwise; namesakes told apart by team and game). The players come from
 * the name index, which loads them on first use (one listing walk, then every half hour); the
 * answer itself needs no request.
 */

import { defineCommand } from '../src/bot/command.ts';
import type { NameIndex } from '../src/bot/names.ts';
import type { Card, Field } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { cmd, UserError } from '../src/core/errors.ts';
import { spanned, type Translate } from '../src/i18n/i18n.ts';
import type { Player } from '../src/protocol/types.ts';
import { placeName, resolveName, scopeOf, unlessBusy } from './shared.ts';

export default defineCommand({
  name: 'player',
  description: 'A player: team, role, country and social accounts',
  usesService: true,
  options: {
    player: {
      type: 'string',
      description: 'Player nickname or real name',
      required: true,
      autocomplete: 'player',
      max: 100,
    },
  },
  async run(ctx) {
    const { args, names } = ctx;
    const text = args.player;
    const t = ctx.t;
    if (!text)
      throw new UserError(
        'EMPTY_NAME',
        spanned(
          t,
          'commands.player.emptyName',
          {},
          {
            command: cmd(`player <${t('commands.player.nickname')}>`),
            team: cmd(`team <${t('commands.player.team')}>`),
          },
        ),
      );
    const id = await resolveName(ctx, 'player', text, scopeOf(ctx));
    const player = names.player(id) ?? (await ctx.data.players.get(id));
    // The teams the card names, read when the index does not hold them yet (a new store).
    await unlessBusy(
      ctx,
      names.ensureTeams(
        ctx.data,
        player.teams.map((t) => t.id),
      ),
    );
    return { cards: [playerCard(t, player, names)] };
  },
});

/** The team a player plays for now, or last played for, and whether it is their current team. */
function teamOf(player: Player, names: NameIndex): { name: string; current: boolean } | undefined {
  for (const ref of player.teams) {
    const team = names.team(ref.id);
    if (!team) continue;
    const active = team.standing_roster ? names.roster(team.standing_roster.roster.id) : undefined;
    return { name: team.name, current: active?.players.includes(player.id) ?? player.active };
  }
  return undefined;
}

/** The player card: nick as title, real name, then team, game, role, country and socials. */
export function playerCard(t: Translate, player: Player, names: NameIndex): Card {
  const real = [player.first_name, player.last_name].filter(Boolean).join(' ');
  const team = teamOf(player, names);
  const game = names.game(player.game.id);
  const role = (player.role ? names.roleName(player.role.id) : undefined) ?? player.race?.name;
  const fields: Field[] = [];
  if (team)
    fields.push({
      name: t(team.current ? 'commands.player.teamField' : 'commands.player.formerTeam'),
      value: [team.name, ' · ', cmd(`team ${team.name}`)],
      inline: true,
    });
  else
    fields.push({ name: t('commands.player.teamField'), value: [t('commands.player.noTeam')], inline: true });
  if (game) fields.push({ name: t('commands.team.game'), value: [game.title], inline: true });
  if (role) fields.push({ name: t('commands.player.role'), value: [role], inline: true });
  // "Region: Western Europe (Germany)", as on /team; "Country: Brazil" where the data's region is the country.
  const { region } = player;
  fields.push({
    name: t(region.name === region.country.name ? 'commands.player.country' : 'commands.team.region'),
    value: [placeName(region.name, region.country.name, ' (', ')')],
    inline: true,
  });
  const accounts = player.social_media_accounts;
  if (accounts.length > 0)
    fields.push({
      name: t('commands.player.socials'),
      // Handles as text; the links are the card's buttons.
      value: [
        accounts
          .map((a) => `${a.platform.name}: ${a.handle.startsWith('@') ? a.handle : `@${a.handle}`}`)
          .join(' · '),
      ],
    });
  const card: Card = {
    title: player.nick_name,
    colour: player.active ? COLOURS.info : COLOURS.finished,
    fields,
    footer: t(player.active ? 'commands.player.footer' : 'commands.player.footerInactive', { id: player.id }),
  };
  if (real) card.description = [[real]];
  const links = accounts.filter((a) => a.url.startsWith('https://')).slice(0, 3);
  if (links.length > 0) card.buttons = links.map((a) => ({ label: a.platform.name, url: a.url }));
  return card;
}
