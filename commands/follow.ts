/**
 * `/follow`: the teams a tenant (Discord server, Slack workspace, terminal chat) follows, announced
 * in every notification channel whatever their tier. Anyone may list; admins add and remove, a team
 * or an organisation's active teams at once. Names resolve through the name index: no request to
 * the service, except an organisation's teams (`/organisations/{id}`, one request).
 */

import { type CommandContext, defineCommand, defineSubcommand } from '../src/bot/command.ts';
import type { Card, Reply } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { cmd, UserError } from '../src/core/errors.ts';
import { spanned } from '../src/i18n/i18n.ts';
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
          throw new UserError(
            'EMPTY_NAME',
            spanned(
              ctx.t,
              'commands.follow.nameAnOrganisation',
              {},
              { command: cmd(`follow organisation organisation:<${ctx.t('commands.shared.itsName')}>`) },
            ),
          );
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
          throw new UserError(
            'TEAM_OR_ORGANISATION',
            spanned(
              ctx.t,
              'commands.follow.notBoth',
              {},
              {
                team: cmd(`follow remove team:<${ctx.t('commands.follow.name')}>`),
                organisation: cmd(`follow remove organisation:<${ctx.t('commands.follow.name')}>`),
              },
            ),
          );
        return unfollowOrganisation(ctx, await organisationOf(ctx, orgText));
      },
    }),
    list: defineSubcommand({
      description: 'The teams followed here',
      run: async (ctx) => {
        const follows = ctx.tenant.settings.follows;
        const card: Card = {
          title: ctx.t('commands.follow.listTitle'),
          colour: COLOURS.info,
          description:
            follows.length > 0
              ? follows.map((id) => [teamLabel(ctx, id)])
              : [
                  spanned(
                    ctx.t,
                    'commands.follow.none',
                    { Here: placeOf(ctx).Here },
                    { command: cmd('follow team') },
                  ),
                ],
        };
        return { cards: [card] };
      },
    }),
  },
});

/** How this tenant is named: "server" / "This server" (Discord), and so on. */
function placeOf(ctx: CommandContext<unknown>): { noun: string; Here: string } {
  const platform = ctx.tenant.platform;
  return { noun: ctx.t(`commands.place.${platform}.noun`), Here: ctx.t(`commands.place.${platform}.Here`) };
}

/** A done change: what is followed now, and how many. */
function changed(
  ctx: CommandContext<unknown>,
  title: string,
  said: string,
  follows: readonly number[],
): Reply {
  const footer = ctx.t('commands.follow.followed', { count: follows.length });
  return { cards: [{ title, colour: COLOURS.success, description: [[said]], footer }] };
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
      title: ctx.t('commands.follow.alreadyTitle'),
      colour: COLOURS.info,
      description: [[ctx.t('commands.follow.already', { Here, team: teamLabel(ctx, id) })]],
    };
    return { cards: [card] };
  }
  // Applied to the latest stored settings: another admin's follow made meanwhile is kept.
  const saved = await ctx.updateSettings((current) => {
    if (current.follows.includes(id)) return current;
    if (current.follows.length >= MAX_FOLLOWS) {
      throw new UserError('TOO_MANY_FOLLOWS', ctx.t('commands.follow.tooMany', { noun, count: MAX_FOLLOWS }));
    }
    return { ...current, follows: [...current.follows, id] };
  });
  return changed(
    ctx,
    ctx.t('commands.follow.following'),
    ctx.t('commands.follow.nowFollowing', { team: teamLabel(ctx, id) }),
    saved.follows,
  );
}

async function unfollowTeam(ctx: CommandContext<unknown>, id: number): Promise<Reply> {
  const saved = await ctx.updateSettings((current) => {
    if (!current.follows.includes(id)) {
      const values = { Here: placeOf(ctx).Here, team: teamLabel(ctx, id) };
      throw new UserError('NOT_FOLLOWING', ctx.t('commands.follow.notFollowing', values));
    }
    return { ...current, follows: current.follows.filter((f) => f !== id) };
  });
  const said = ctx.t('commands.follow.noLonger', { name: teamLabel(ctx, id) });
  return changed(ctx, ctx.t('commands.follow.unfollowed'), said, saved.follows);
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
  if (teams.length === 0)
    throw new UserError('NO_TEAMS', ctx.t('commands.follow.noTeams', { name: org.name }));
  return { name: org.name, teams, listed: teams.map((id) => teamLabel(ctx, id)).join(', ') };
}

async function followOrganisation(ctx: CommandContext<unknown>, org: Organisation): Promise<Reply> {
  const saved = await ctx.updateSettings((current) => {
    const added = org.teams.filter((t) => !current.follows.includes(t));
    if (current.follows.length + added.length > MAX_FOLLOWS)
      throw new UserError(
        'TOO_MANY_FOLLOWS',
        ctx.t('commands.follow.tooManyOrganisation', {
          name: org.name,
          added: added.length,
          noun: placeOf(ctx).noun,
          count: MAX_FOLLOWS,
          now: current.follows.length,
        }),
      );
    return { ...current, follows: [...current.follows, ...added] };
  });
  return changed(
    ctx,
    ctx.t('commands.follow.following'),
    ctx.t('commands.follow.nowFollowingOrganisation', { name: org.name, listed: org.listed }),
    saved.follows,
  );
}

async function unfollowOrganisation(ctx: CommandContext<unknown>, org: Organisation): Promise<Reply> {
  const saved = await ctx.updateSettings((current) => {
    if (!current.follows.some((f) => org.teams.includes(f)))
      throw new UserError(
        'NOT_FOLLOWING',
        ctx.t('commands.follow.followsNone', { Here: placeOf(ctx).Here, name: org.name, listed: org.listed }),
      );
    return { ...current, follows: current.follows.filter((f) => !org.teams.includes(f)) };
  });
  const said = ctx.t('commands.follow.noLonger', { name: `${org.name}: ${org.listed}` });
  return changed(ctx, ctx.t('commands.follow.unfollowed'), said, saved.follows);
}
