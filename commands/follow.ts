/**
 * `/follow`: the teams a tenant (Discord server, Slack workspace, terminal chat) follows, announced
 * in every notification channel whatever their tier. Anyone may list; admins add and remove, a team
 * or an organisation's active teams at once. Names resolve through the name index: no request to
 * the service, except an organisation's teams (`/organisations/{id}`, one request).
 */

import { defineCommand, UserError } from '../src/bot/command.ts';
import { tenantPlace } from '../src/bot/format.ts';
import type { Card } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { cmd } from '../src/core/errors.ts';
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

const organisationOption = {
  type: 'string',
  description: 'Organisation name: all its active teams, across its games',
  autocomplete: 'organisation',
  max: 100,
} as const;

export default defineCommand({
  name: 'follow',
  description: 'Follow or unfollow a team, or list the followed teams',
  usesSettings: true,
  subcommands: {
    team: { description: 'Follow a team (admins)', options: teamOption },
    organisation: {
      description: "Follow an organisation's teams across its games (admins)",
      options: { organisation: { ...organisationOption, required: true } },
    },
    remove: {
      description: "Stop following a team, or an organisation's teams (admins)",
      options: { team: { ...teamOption.team, required: false }, organisation: organisationOption },
    },
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
            : [[`${Here} follows no teams yet. An admin can add one with `, cmd('follow team'), '.']],
      };
      return { cards: [card] };
    }
    if (ctx.subcommand !== 'team' && ctx.subcommand !== 'remove' && ctx.subcommand !== 'organisation') {
      throw new UserError(
        'UNKNOWN_SUBCOMMAND',
        `Unknown follow subcommand "${String(sub).slice(0, 30)}": use team, organisation, remove or list.`,
      );
    }
    if (!ctx.user.isAdmin)
      throw new UserError('ADMIN_ONLY', `Only admins of ${here} can change the followed teams.`);
    const orgText = textArg('organisation', ctx.subcommand === 'team' ? undefined : ctx.args.organisation);
    if (ctx.subcommand === 'organisation' || orgText) {
      if (ctx.subcommand === 'remove' && textArg('team', ctx.args.team))
        throw new UserError('TEAM_OR_ORGANISATION', [
          'Give a team or an organisation, not both: ',
          cmd('follow remove team:<name>'),
          ', or ',
          cmd('follow remove organisation:<name>'),
          '.',
        ]);
      if (!orgText)
        throw new UserError('EMPTY_NAME', [
          'Name an organisation: ',
          cmd('follow organisation organisation:<its name>'),
          '.',
        ]);
      const orgId = await resolveName(ctx, 'organisation', orgText, scopeOf(ctx));
      const org = await ctx.data.organisations.get(orgId);
      // Its active teams as the name index holds them (as /me follow organisation does).
      const teams = org.teams.map((t) => names.team(t.id)).flatMap((t) => (t?.active ? [t.id] : []));
      if (teams.length === 0) throw new UserError('NO_TEAMS', `${org.name} has no active teams to follow.`);
      const listed = teams.map(label).join(', ');
      if (ctx.subcommand === 'remove') {
        const saved = await ctx.updateSettings((current) => {
          if (!current.follows.some((f) => teams.includes(f)))
            throw new UserError('NOT_FOLLOWING', `${Here} follows none of ${org.name}'s teams (${listed}).`);
          return { ...current, follows: current.follows.filter((f) => !teams.includes(f)) };
        });
        return {
          cards: [
            {
              title: 'Unfollowed',
              colour: COLOURS.success,
              description: [[`No longer following ${org.name}: ${listed}.`]],
              footer: `${saved.follows.length} followed`,
            },
          ],
        };
      }
      const saved = await ctx.updateSettings((current) => {
        const added = teams.filter((t) => !current.follows.includes(t));
        if (current.follows.length + added.length > MAX_FOLLOWS)
          throw new UserError(
            'TOO_MANY_FOLLOWS',
            `${org.name} has ${added.length} teams not followed yet, and a ${noun} follows at most ${MAX_FOLLOWS} teams (${current.follows.length} now); remove some first.`,
          );
        return { ...current, follows: [...current.follows, ...added] };
      });
      return {
        cards: [
          {
            title: 'Following',
            colour: COLOURS.success,
            description: [
              [
                `Now following ${org.name}: ${listed}. Their series are announced in every notification channel.`,
              ],
            ],
            footer: `${saved.follows.length} followed`,
          },
        ],
      };
    }
    const text = textArg('team', ctx.args.team);
    if (!text)
      throw new UserError('EMPTY_NAME', [
        'Name a team: ',
        cmd(`follow ${ctx.subcommand} team:<its name>`),
        ' (a name, tag or id, as ',
        cmd('team'),
        ' shows it)',
        ...(ctx.subcommand === 'remove'
          ? [', or an organisation: ', cmd('follow remove organisation:<its name>')]
          : []),
        '.',
      ]);
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
