/**
 * `/follow`: the teams a tenant (Discord server, Slack workspace, terminal chat) follows, announced
 * in every notification channel whatever their tier. Anyone may list; admins add and remove. Names
 * resolve through the name index: no request to the service.
 */
import { defineCommand, UserError } from '../src/bot/command.ts';
import { tenantPlace } from '../src/bot/format.ts';
import type { Card } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { resolveName, scopeOf, textArg } from './shared.ts';

/** Most teams a tenant follows. */
export const MAX_FOLLOWS = 50;

const teamOption = {
  team: {
    type: 'string',
    description: 'Team name, abbreviation or alias',
    required: true,
    autocomplete: 'team',
    max: 100,
  },
} as const;

export default defineCommand({
  name: 'follow',
  description: 'Follow or unfollow a team, or list the followed teams',
  usesSettings: true,
  subcommands: {
    team: { description: 'Follow a team (admins)', options: teamOption },
    remove: { description: 'Stop following a team (admins)', options: teamOption },
    list: { description: 'The teams followed here' },
  },
  async run(ctx) {
    const names = ctx.names;
    const settings = ctx.tenant.settings;
    // For messages only: `ctx.subcommand` itself types `ctx.args` below.
    const sub: string | undefined = ctx.subcommand;
    const { noun, here } = tenantPlace(ctx.tenant.platform);
    const Here = here.charAt(0).toUpperCase() + here.slice(1);
    const label = (id: number) => {
      const team = names.team(id);
      return team
        ? `${team.name} (${names.game(team.game.id)?.abbreviation.toUpperCase() ?? 'game'})`
        : `team ${id}`;
    };
    if (ctx.subcommand === 'list' || ctx.subcommand === undefined) {
      const card: Card = {
        title: 'Followed teams',
        colour: COLOURS.info,
        description:
          settings.follows.length > 0
            ? settings.follows.map((id) => [label(id)])
            : [[`${Here} follows no teams yet. An admin can add one with /follow team.`]],
      };
      return { cards: [card] };
    }
    if (ctx.subcommand !== 'team' && ctx.subcommand !== 'remove') {
      throw new UserError(
        'UNKNOWN_SUBCOMMAND',
        `Unknown follow subcommand "${String(sub).slice(0, 30)}": use team, remove or list.`,
      );
    }
    if (!ctx.user.isAdmin)
      throw new UserError('ADMIN_ONLY', `Only admins of ${here} can change the followed teams.`);
    const text = textArg('team', ctx.args.team);
    if (!text)
      throw new UserError(
        'EMPTY_NAME',
        'Name a team: /follow team team:<its name> (a name, tag or id, as /team shows it).',
      );
    const id = await resolveName(ctx, 'team', text, scopeOf(ctx));
    if (ctx.subcommand === 'team') {
      if (settings.follows.includes(id)) {
        return {
          cards: [
            {
              title: 'Already following',
              colour: COLOURS.info,
              description: [[`${Here} already follows ${label(id)}.`]],
            },
          ],
        };
      }
      // Applied to the latest stored settings: another admin's follow made meanwhile is kept.
      const saved = await ctx.updateSettings((current) => {
        if (current.follows.includes(id)) return current;
        if (current.follows.length >= MAX_FOLLOWS) {
          throw new UserError(
            'TOO_MANY_FOLLOWS',
            `A ${noun} follows at most ${MAX_FOLLOWS} teams; remove one first.`,
          );
        }
        return { ...current, follows: [...current.follows, id] };
      });
      return {
        cards: [
          {
            title: 'Following',
            colour: COLOURS.success,
            description: [
              [`Now following ${label(id)}: its series are announced in every notification channel.`],
            ],
            footer: `${saved.follows.length} followed`,
          },
        ],
      };
    }
    const saved = await ctx.updateSettings((current) => {
      if (!current.follows.includes(id)) {
        throw new UserError('NOT_FOLLOWING', `${Here} does not follow ${label(id)}.`);
      }
      return { ...current, follows: current.follows.filter((f) => f !== id) };
    });
    return {
      cards: [
        {
          title: 'Unfollowed',
          colour: COLOURS.success,
          description: [[`No longer following ${label(id)}.`]],
          footer: `${saved.follows.length} followed`,
        },
      ],
    };
  },
});
