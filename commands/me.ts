/**
 * `/me` (issue 16, "Follow anywhere"): a person's own follows, wherever they use Matchday. Anyone
 * may use it; what it stores belongs to the person (not the server or workspace) and every answer
 * is private. Teams resolve through the name index exactly as `/team` and `/follow` do (no request);
 * changes go through `ctx.profile.update`, applied atomically to the latest stored profile.
 *
 * The personal calendar (`/me calendar`) is a secret URL serving the followed teams' series as an
 * ICS feed (`src/calendar/`); `/me calendar renew` makes a new one and the old one stops working.
 */

import {
  type CommandContext,
  defineCommand,
  defineSubcommand,
  type ProfileAccess,
  UserError,
} from '../src/bot/command.ts';
import type { Card, Field, Reply, Text } from '../src/bot/reply.ts';
import { COLOURS, messageSpans } from '../src/bot/reply.ts';
import type { SpoilerPolicy } from '../src/bot/settings.ts';
import { resolveTimeZone } from '../src/bot/time-zones.ts';
import { MAX_PERSONAL_FOLLOWS, type PersonalFollow, type Profile } from '../src/bot/users.ts';
import { cmd, type Message } from '../src/core/errors.ts';
import { calendarActionOption, parseLeads, spoilersOption, zoneOption } from './settings-parse.ts';
import { nameATeam, resolveName, scopeOf, teamLabel } from './shared.ts';

const team = {
  type: 'string',
  description: 'Team name, abbreviation or alias',
  autocomplete: 'team',
  max: 100,
} as const;

/** Instead of a team: an organisation, whose teams (one per game) are followed together. */
const organisation = {
  type: 'string',
  description: 'Or an organisation: all its teams, across its games',
  autocomplete: 'organisation',
  max: 100,
} as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export default defineCommand({
  name: 'me',
  description: 'Your own follows, reminders and calendar (private)',
  ephemeral: true,
  subcommands: {
    follow: defineSubcommand({
      description: 'Follow a team, or an organisation across its games, yourself',
      options: {
        team,
        organisation,
        tier: {
          type: 'integer',
          description: 'Only series of this tier or higher (1 is the top)',
          min: 1,
          max: 4,
        },
        qualifiers: { type: 'boolean', description: 'Include qualifiers (default true)' },
      },
      run: (ctx) => follow(ctx, profileOf(ctx), 'follow', ctx.args),
    }),
    unfollow: defineSubcommand({
      description: 'Stop following a team, or an organisation across its games, yourself',
      options: { team, organisation },
      run: (ctx) => follow(ctx, profileOf(ctx), 'unfollow', ctx.args),
    }),
    list: defineSubcommand({
      description: 'What you follow, your reminders and your calendar',
      run: async (ctx) => ({ cards: [profileCard(ctx, await profileOf(ctx).get())] }),
    }),
    reminders: defineSubcommand({
      description: 'Your reminder lead times',
      options: {
        leads: {
          type: 'string',
          description: 'Minutes before start, e.g. "15, 60" (at most 5)',
          required: true,
          max: 50,
        },
      },
      async run(ctx) {
        const profile = profileOf(ctx);
        const leads = parseLeads(String(ctx.args.leads ?? ''), false);
        const saved = await profile.update((current) => ({ ...current, leads }));
        return saidAndShown(ctx, saved, `Your reminders: ${saved.leads.join(', ')} minutes before.`);
      },
    }),
    timezone: defineSubcommand({
      description: 'Your time zone',
      options: { zone: zoneOption },
      async run(ctx) {
        const profile = profileOf(ctx);
        const typed = ctx.args.zone;
        if (!typed) throw new UserError('MISSING_OPTION', 'Give a time zone, e.g. zone:Europe/Berlin.');
        const zone = resolveTimeZone(typed);
        const saved = await profile.update((current) => ({ ...current, timezone: zone }));
        const read = typed.toLowerCase() === zone.toLowerCase() ? '' : ` ("${typed}" read as ${zone})`;
        return saidAndShown(ctx, saved, `Your time zone: ${saved.timezone}${read}.`);
      },
    }),
    quiet: defineSubcommand({
      description: 'Quiet hours for your DMs (no times: off)',
      options: {
        from: { type: 'string', description: 'Start, HH:MM in your time zone, e.g. 23:00', max: 5 },
        to: { type: 'string', description: 'End, HH:MM in your time zone, e.g. 08:00', max: 5 },
      },
      run: (ctx) => quiet(ctx, profileOf(ctx), ctx.args),
    }),
    dms: defineSubcommand({
      description: 'What reaches you by direct message (no option: shows it)',
      options: {
        reminders: { type: 'boolean', description: 'Reminders at your lead times' },
        live: { type: 'boolean', description: 'A live card when a series starts, updated as it plays' },
        results: { type: 'boolean', description: 'The result when a series ends' },
      },
      async run(ctx) {
        const profile = profileOf(ctx);
        const given = DM_KINDS.filter((k) => typeof ctx.args[k] === 'boolean');
        if (given.length === 0) return { cards: [profileCard(ctx, await profile.get())] };
        const saved = await profile.update((current) => ({
          ...current,
          dms: DM_KINDS.filter((k) => {
            const value = ctx.args[k];
            return typeof value === 'boolean' ? value : current.dms.includes(k);
          }),
        }));
        return saidAndShown(ctx, saved, `By direct message: ${dmsLabel(saved)}.`);
      },
    }),
    spoilers: defineSubcommand({
      description: 'How results appear in your direct messages',
      options: { policy: spoilersOption },
      async run(ctx) {
        const profile = profileOf(ctx);
        const policy = ctx.args.policy;
        const saved = await profile.update((current) => ({ ...current, spoilers: policy }));
        return saidAndShown(ctx, saved, `Results in your DMs: ${spoilersLabel(saved.spoilers)}.`);
      },
    }),
    calendar: defineSubcommand({
      description: 'Your private calendar URL',
      options: { action: calendarActionOption },
      run: (ctx) => calendar(profileOf(ctx), ctx.args.action === 'renew'),
    }),
  },
});

/** The caller's profile; a Matchday without a profile store says personal follows are not available. */
function profileOf(ctx: CommandContext<unknown>): ProfileAccess {
  if (!ctx.profile)
    throw new UserError('NO_PROFILES', 'Personal follows are not available in this Matchday.');
  return ctx.profile;
}

/** `/me quiet`: quiet hours from and to, both or neither (off). */
async function quiet(
  ctx: CommandContext<unknown>,
  profile: ProfileAccess,
  args: { from?: string; to?: string },
): Promise<Reply> {
  const from = args.from;
  const to = args.to;
  if ((from === undefined) !== (to === undefined))
    throw new UserError('BAD_QUIET', [
      'Give both from and to (e.g. ',
      cmd('me quiet from:23:00 to:08:00'),
      '), or neither to turn quiet hours off.',
    ]);
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== undefined && !TIME.test(value))
      throw new UserError('BAD_TIME', `${name}: "${value}" is not a time of day; use HH:MM, e.g. 23:00.`);
  }
  if (from !== undefined && from === to)
    throw new UserError('BAD_QUIET', 'from and to are the same time; quiet hours need a span.');
  const saved = await profile.update((current) => {
    const { quiet: _, ...rest } = current;
    return from && to ? { ...rest, quiet: { from, to } } : rest;
  });
  return saidAndShown(
    ctx,
    saved,
    saved.quiet
      ? `Quiet hours: ${saved.quiet.from} to ${saved.quiet.to} (${saved.timezone}).`
      : 'Quiet hours off.',
  );
}

const DM_KINDS = ['reminders', 'live', 'results'] as const;

/** "reminders, live cards and results", or "nothing". */
function dmsLabel(profile: Profile): string {
  const names = { reminders: 'reminders', live: 'live cards', results: 'results' } as const;
  const on = DM_KINDS.filter((k) => profile.dms.includes(k)).map((k) => names[k]);
  if (on.length === 0) return 'nothing';
  return on.length === 1 ? on[0]! : `${on.slice(0, -1).join(', ')} and ${on.at(-1)}`;
}

function spoilersLabel(policy: SpoilerPolicy): string {
  return policy === 'show' ? 'shown' : policy === 'spoiler' ? 'behind a spoiler' : 'withheld';
}

/** "Team (CS2) · tiers 1-2 only · no qualifiers". */
function followLabel(ctx: CommandContext<unknown>, f: PersonalFollow): string {
  const parts = [teamLabel(ctx, f.team)];
  if (f.tier !== undefined) parts.push(f.tier === 1 ? 'tier 1 only' : `tiers 1-${f.tier} only`);
  if (f.noQualifiers) parts.push('no qualifiers');
  return parts.join(' · ');
}

async function follow(
  ctx: CommandContext<unknown>,
  profile: ProfileAccess,
  sub: 'follow' | 'unfollow',
  args: { team?: string; organisation?: string; tier?: number; qualifiers?: boolean },
): Promise<Reply> {
  const text = args.team;
  const orgText = args.organisation;
  if (text && orgText)
    throw new UserError('TEAM_OR_ORGANISATION', [
      'Give a team or an organisation, not both: ',
      cmd(`me ${sub} team:<name>`),
      ', or ',
      cmd(`me ${sub} organisation:<name>`),
      '.',
    ]);
  if (orgText) return followOrganisation(ctx, profile, sub, orgText, args);
  if (!text) throw nameATeam(ctx.t, `me ${sub}`, `me ${sub}`);
  const id = await resolveName(ctx, 'team', text, scopeOf(ctx));
  if (sub === 'unfollow') {
    const saved = await profile.update((current) => {
      if (!current.follows.some((f) => f.team === id))
        throw new UserError('NOT_FOLLOWING', `You do not follow ${teamLabel(ctx, id)}.`);
      return { ...current, follows: current.follows.filter((f) => f.team !== id) };
    });
    return saidAndShown(ctx, saved, `You no longer follow ${teamLabel(ctx, id)}.`);
  }
  let entry = followEntry(id, args, ctx.now);
  let already = false;
  const saved = await profile.update((current) => {
    const others = current.follows.filter((f) => f.team !== id);
    already = others.length < current.follows.length;
    entry = followEntry(
      id,
      args,
      ctx.now,
      current.follows.find((f) => f.team === id),
    );
    if (!already && current.follows.length >= MAX_PERSONAL_FOLLOWS)
      throw new UserError('TOO_MANY_FOLLOWS', [
        `You follow ${MAX_PERSONAL_FOLLOWS} teams, the most one person can; `,
        cmd('me unfollow'),
        ' one first.',
      ]);
    // Following again replaces the options (tier, qualifiers) and keeps the team's place in the list.
    const follows = already
      ? current.follows.map((f) => (f.team === id ? entry : f))
      : [...current.follows, entry];
    // Following resumes DM reminders paused after closed DMs (the person says they can be reached again).
    const { paused: _, ...rest } = current;
    return { ...rest, follows };
  });
  return saidAndShown(ctx, saved, [
    `${already ? 'Updated' : 'Now following'} ${followLabel(ctx, entry)}, just for you: reminders at ${saved.leads.join(', ')} minutes before`,
    // The calendar is named only where this Matchday serves calendars.
    ...(profile.calendarUrl('probe') === undefined
      ? []
      : [', and in your calendar (', cmd('me calendar'), ')']),
    '.',
  ]);
}

/**
 * An organisation's teams, followed (or unfollowed) together with the same options: the teams it
 * has now, as the data names them (`/organisations/{id}`, one request); its inactive teams are left
 * out (they play no series). A team the organisation adds later is not followed by itself: following
 * the organisation again adds it.
 */
async function followOrganisation(
  ctx: CommandContext<unknown>,
  profile: ProfileAccess,
  sub: 'follow' | 'unfollow',
  text: string,
  args: { tier?: number; qualifiers?: boolean },
): Promise<Reply> {
  const id = await resolveName(ctx, 'organisation', text, scopeOf(ctx));
  const org = await ctx.data.organisations.get(id);
  // Its active teams as the name index holds them (the index reads active teams on every interface).
  const teams = org.teams.map((t) => ctx.names.team(t.id)).flatMap((t) => (t?.active ? [t.id] : []));
  if (teams.length === 0) throw new UserError('NO_TEAMS', `${org.name} has no active teams to follow.`);
  const names = teams.map((t) => teamLabel(ctx, t)).join(', ');
  if (sub === 'unfollow') {
    const saved = await profile.update((current) => {
      if (!current.follows.some((f) => teams.includes(f.team)))
        throw new UserError('NOT_FOLLOWING', `You follow none of ${org.name}'s teams (${names}).`);
      return { ...current, follows: current.follows.filter((f) => !teams.includes(f.team)) };
    });
    return saidAndShown(ctx, saved, `You no longer follow ${org.name}: ${names}.`);
  }
  const saved = await profile.update((current) => {
    const entry = (t: number) =>
      followEntry(
        t,
        args,
        ctx.now,
        current.follows.find((f) => f.team === t),
      );
    const added = teams.filter((t) => !current.follows.some((f) => f.team === t));
    if (current.follows.length + added.length > MAX_PERSONAL_FOLLOWS)
      throw new UserError('TOO_MANY_FOLLOWS', [
        `${org.name} has ${added.length} teams you do not follow yet, and you follow ${current.follows.length} of the ${MAX_PERSONAL_FOLLOWS} one person can; `,
        cmd('me unfollow'),
        ' some first.',
      ]);
    // Teams already followed take the new options in place; the others are added in the data's order.
    const follows = [
      ...current.follows.map((f) => (teams.includes(f.team) ? entry(f.team) : f)),
      ...added.map(entry),
    ];
    const { paused: _, ...rest } = current;
    return { ...rest, follows };
  });
  const options = followLabel(ctx, followEntry(teams[0]!, args, ctx.now))
    .split(' · ')
    .slice(1);
  return saidAndShown(
    ctx,
    saved,
    `Now following ${org.name}, just for you: ${names}${options.length ? ` (${options.join(', ')})` : ''}; reminders at ${saved.leads.join(', ')} minutes before.`,
  );
}

/**
 * A follow with the options given. A new follow starts now (it hears of nothing already live or
 * over); following again changes the options and keeps when it began.
 */
function followEntry(
  team: number,
  args: { tier?: number; qualifiers?: boolean },
  now: Date,
  existing?: PersonalFollow,
): PersonalFollow {
  const since = existing ? existing.since : now.toISOString();
  return {
    team,
    ...(typeof args.tier === 'number' ? { tier: args.tier } : {}),
    noQualifiers: args.qualifiers === false,
    ...(since !== undefined ? { since } : {}),
  };
}

async function calendar(profile: ProfileAccess, renew: boolean): Promise<Reply> {
  // Asked before a token is made: no secret is created for an endpoint that does not exist.
  if (profile.calendarUrl('probe') === undefined)
    throw new UserError(
      'NO_CALENDAR',
      'This Matchday serves no calendars. Whoever runs it can turn them on with CALENDAR_PORT (see the README, "Follow privately").',
    );
  const token = await profile.calendarToken(renew);
  const url = profile.calendarUrl(token)!;
  const card: Card = {
    title: renew ? 'Your new calendar URL' : 'Your calendar URL',
    colour: COLOURS.success,
    description: [
      [{ link: url, label: url }],
      [
        'Subscribe to it in your calendar app (Google Calendar: Other calendars, From URL; Apple Calendar: New Calendar Subscription). It lists the series of the teams you follow, with reminders at your lead times.',
      ],
      [
        renew ? 'The old URL no longer works.' : 'Keep it to yourself; anyone with it sees what you follow. ',
        ...(renew ? [] : [cmd('me calendar renew'), ' makes a new one and the old one stops working.']),
      ],
    ],
  };
  return { cards: [card] };
}

/** What was stored, said first, then the whole profile. */
function saidAndShown(ctx: CommandContext<unknown>, saved: Profile, said: Message): Reply {
  return { cards: [profileCard(ctx, saved, said)] };
}

export function profileCard(ctx: CommandContext<unknown>, profile: Profile, said?: Message): Card {
  const lines: Text[] = [];
  if (said) lines.push(messageSpans(said));
  if (profile.follows.length === 0)
    lines.push([
      'You follow no teams yet. Try ',
      cmd('me follow team:<name>'),
      '; only you see what you follow.',
    ]);
  else lines.push(...profile.follows.map((f) => [followLabel(ctx, f)]));
  const fields: Field[] = [
    { name: 'Reminders', value: [`${profile.leads.join(', ')} min before`], inline: true },
    { name: 'Time zone', value: [profile.timezone], inline: true },
    {
      name: 'Quiet hours',
      value: [profile.quiet ? `${profile.quiet.from} to ${profile.quiet.to}` : 'off'],
      inline: true,
    },
    { name: 'By DM', value: [dmsLabel(profile)], inline: true },
    { name: 'Results', value: [spoilersLabel(profile.spoilers)], inline: true },
  ];
  // Named only where this Matchday serves calendars (else /me calendar would only say it does not).
  if (ctx.profile?.calendarUrl('probe') !== undefined)
    fields.push({
      name: 'Calendar',
      value: profile.calendar
        ? ['on: ', cmd('me calendar'), ' shows its URL']
        : ['off: ', cmd('me calendar')],
      inline: true,
    });
  return {
    title: said ? 'Saved' : 'Your follows',
    colour: said ? COLOURS.success : COLOURS.info,
    description: lines,
    fields,
    footer: `${profile.follows.length} of ${MAX_PERSONAL_FOLLOWS} followed · only you see this`,
  };
}
