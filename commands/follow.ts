/**
 * `/follow`: the teams a tenant (Discord server, Slack workspace, terminal chat) follows, announced
 * in every notification channel whatever their tier. Anyone may list; admins add and remove, a team
 * or an organisation's active teams at once. Names resolve through the name index: no request to
 * the service, except an organisation's teams (`/organisations/{id}`, one request).
 */

import { type CommandContext, defineCommand, defineSubcommand, UserError } from '../src/bot/command.ts';
import { tenantPlace } from '../src/bot/format.ts';
import type { Card, Reply } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { cmd } from '../src/core/errors.ts';
import { nameATeam, resolveName, scopeOf, teamLabel } from './shared.ts';

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
  adminAction: 'change the followed teams',
  subcommands: {
    team: defineSubcommand({
      description: 'Follow a team (admins)',
      options: teamOption,
      adminOnly: true,
      run: async (ctx) => followTeam(ctx, await teamOf(ctx, 'team', ctx.args.team)),
    }),
    organisation: defineSubcommand({
      description: "Follow an organisation's teams across its games (admins)",
      options: { organisation: { ...organisationOption, required: true } },
      adminOnly: true,
      async run(ctx) {
        const orgText = ctx.args.organisation;
        if (!orgText)
          throw new UserError('EMPTY_NAME', [
            'Name an organisation: ',
            cmd('follow organisation organisation:<its name>'),
            '.',
          ]);
        return followOrganisation(ctx, await organisationOf(ctx, orgText));
      },
    }),
    remove: defineSubcommand({
      description: "Stop following a team, or an organisation's teams (admins)",
      options: { team: { ...teamOption.team, required: false }, organisation: organisationOption },
      adminOnly: true,
      async run(ctx) {
        const orgText = ctx.args.organisation;
        if (!orgText) return unfollowTeam(ctx, await teamOf(ctx, 'remove', ctx.args.team));
        if (ctx.args.team)
          throw new UserError('TEAM_OR_ORGANISATION', [
            'Give a team or an organisation, not both: ',
            cmd('follow remove team:<name>'),
            ', or ',
            cmd('follow remove organisation:<name>'),
            '.',
          ]);
        return unfollowOrganisation(ctx, await organisationOf(ctx, orgText));
      },
    }),
    list: defineSubcommand({
      description: 'The teams followed here',
      run: async (ctx) => {
        const follows = ctx.tenant.settings.follows;
        const card: Card = {
          title: 'Followed teams',
          colour: COLOURS.info,
          description:
            follows.length > 0
              ? follows.map((id) => [teamLabel(ctx, id)])
              : [
                  [
                    `${placeOf(ctx).Here} follows no teams yet. An admin can add one with `,
                    cmd('follow team'),
                    '.',
                  ],
                ],
        };
        return { cards: [card] };
      },
    }),
  },
});

/** How this tenant is named: "server" / "this server" / "This server" (Discord), and so on. */
function placeOf(ctx: CommandContext<unknown>): { noun: string; Here: string } {
  const { noun, here } = tenantPlace(ctx.tenant.platform);
  return { noun, Here: here.charAt(0).toUpperCase() + here.slice(1) };
}

/** A done change: what is followed now, and how many. */
function changed(title: string, said: string, follows: readonly number[]): Reply {
  return {
    cards: [{ title, colour: COLOURS.success, description: [[said]], footer: `${follows.length} followed` }],
  };
}

/** The team the user named for `/follow team` or `/follow remove`, as an id. */
async function teamOf(
  ctx: CommandContext<unknown>,
  sub: 'team' | 'remove',
  typed: string | undefined,
): Promise<number> {
  const text = typed;
  if (!text) throw nameATeam(ctx.t, `follow ${sub}`, sub === 'remove' ? 'follow remove' : undefined);
  return resolveName(ctx, 'team', text, scopeOf(ctx));
}

async function followTeam(ctx: CommandContext<unknown>, id: number): Promise<Reply> {
  const { noun, Here } = placeOf(ctx);
  if (ctx.tenant.settings.follows.includes(id)) {
    const card: Card = {
      title: 'Already following',
      colour: COLOURS.info,
      description: [[`${Here} already follows ${teamLabel(ctx, id)}.`]],
    };
    return { cards: [card] };
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
  return changed(
    'Following',
    `Now following ${teamLabel(ctx, id)}: its series are announced in every notification channel.`,
    saved.follows,
  );
}

async function unfollowTeam(ctx: CommandContext<unknown>, id: number): Promise<Reply> {
  const saved = await ctx.updateSettings((current) => {
    if (!current.follows.includes(id)) {
      throw new UserError('NOT_FOLLOWING', `${placeOf(ctx).Here} does not follow ${teamLabel(ctx, id)}.`);
    }
    return { ...current, follows: current.follows.filter((f) => f !== id) };
  });
  return changed('Unfollowed', `No longer following ${teamLabel(ctx, id)}.`, saved.follows);
}

/** An organisation the user named: its name, its active teams and their labels. */
interface Organisation {
  name: string;
  teams: number[];
  listed: string;
}

async function organisationOf(ctx: CommandContext<unknown>, text: string): Promise<Organisation> {
  const orgId = await resolveName(ctx, 'organisation', text, scopeOf(ctx));
  const org = await ctx.data.organisations.get(orgId);
  // Its active teams as the name index holds them (as /me follow organisation does).
  const teams = org.teams.map((t) => ctx.names.team(t.id)).flatMap((t) => (t?.active ? [t.id] : []));
  if (teams.length === 0) throw new UserError('NO_TEAMS', `${org.name} has no active teams to follow.`);
  return { name: org.name, teams, listed: teams.map((id) => teamLabel(ctx, id)).join(', ') };
}

async function followOrganisation(ctx: CommandContext<unknown>, org: Organisation): Promise<Reply> {
  const saved = await ctx.updateSettings((current) => {
    const added = org.teams.filter((t) => !current.follows.includes(t));
    if (current.follows.length + added.length > MAX_FOLLOWS)
      throw new UserError(
        'TOO_MANY_FOLLOWS',
        `${org.name} has ${added.length} teams not followed yet, and a ${placeOf(ctx).noun} follows at most ${MAX_FOLLOWS} teams (${current.follows.length} now); remove some first.`,
      );
    return { ...current, follows: [...current.follows, ...added] };
  });
  return changed(
    'Following',
    `Now following ${org.name}: ${org.listed}. Their series are announced in every notification channel.`,
    saved.follows,
  );
}

async function unfollowOrganisation(ctx: CommandContext<unknown>, org: Organisation): Promise<Reply> {
  const saved = await ctx.updateSettings((current) => {
    if (!current.follows.some((f) => org.teams.includes(f)))
      throw new UserError(
        'NOT_FOLLOWING',
        `${placeOf(ctx).Here} follows none of ${org.name}'s teams (${org.listed}).`,
      );
    return { ...current, follows: current.follows.filter((f) => !org.teams.includes(f)) };
  });
  return changed('Unfollowed', `No longer following ${org.name}: ${org.listed}.`, saved.follows);
}
