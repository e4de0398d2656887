/**
 * `/me` (docs/commands.md, "Follow privately"): a person's own follows, wherever they use Matchday. Anyone
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
} from '../src/bot/command.ts';
import type { Card, Field, Reply, Text } from '../src/bot/reply.ts';
import { COLOURS, messageSpans } from '../src/bot/reply.ts';
import type { SpoilerPolicy } from '../src/bot/settings.ts';
import { zoneName } from '../src/bot/time-format.ts';
import { resolveTimeZone } from '../src/bot/time-zones.ts';
import { MAX_PERSONAL_FOLLOWS, type PersonalFollow, type Profile } from '../src/bot/users.ts';
import { cmd, type Message, UserError } from '../src/core/errors.ts';
import { LOCALE_NAMES, spanned, type Translate, translator } from '../src/i18n/i18n.ts';
import {
  calendarActionOption,
  clockRange,
  clockTime,
  languageOption,
  parseLeads,
  spoilersOption,
  zoneOption,
} from './settings-parse.ts';
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
        const leads = parseLeads(ctx.t, String(ctx.args.leads ?? ''), false);
        const saved = await profile.update((current) => ({ ...current, leads }));
        return saidAndShown(ctx, saved, ctx.t('commands.me.reminders', { leads: saved.leads.join(', ') }));
      },
    }),
    timezone: defineSubcommand({
      description: 'Your time zone',
      options: { zone: zoneOption },
      async run(ctx) {
        const profile = profileOf(ctx);
        const typed = ctx.args.zone;
        if (!typed) throw new UserError('MISSING_OPTION', ctx.t('commands.me.giveZone'));
        const zone = resolveTimeZone(typed);
        const saved = await profile.update((current) => ({ ...current, timezone: zone }));
        const said =
          typed.toLowerCase() === zone.toLowerCase()
            ? ctx.t('commands.me.zone', { zone: zoneName(saved.timezone) })
            : ctx.t('commands.me.zoneRead', { zone: zoneName(saved.timezone), typed });
        return saidAndShown(ctx, saved, said);
      },
    }),
    quiet: defineSubcommand({
      description: 'Quiet hours for your DMs (no times: off)',
      options: {
        from: {
          type: 'string',
          description: 'Start, HH:MM in your time zone, e.g. 23:00 (or the range: 23:00-08:00)',
          max: 16,
          // Bare words: a time, or a range with its dash spaced or not ("22:30 – 7:00").
          bareFits: (value: string) => clockTime(value) !== undefined || clockRange(value) !== undefined,
        },
        to: {
          type: 'string',
          description: 'End, HH:MM in your time zone, e.g. 08:00',
          max: 5,
          bareFits: (value: string) => clockTime(value) !== undefined,
        },
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
        return saidAndShown(ctx, saved, ctx.t('commands.me.byDm', { what: dmsLabel(ctx.t, saved) }));
      },
    }),
    spoilers: defineSubcommand({
      description: 'How results appear in your direct messages',
      options: { policy: spoilersOption },
      async run(ctx) {
        const profile = profileOf(ctx);
        const policy = ctx.args.policy;
        const saved = await profile.update((current) => ({ ...current, spoilers: policy }));
        const said = ctx.t('commands.me.resultsInDms', { how: spoilersLabel(ctx.t, saved.spoilers) });
        return saidAndShown(ctx, saved, said);
      },
    }),
    language: defineSubcommand({
      description: 'The language of your direct messages',
      options: { code: languageOption },
      async run(ctx) {
        const saved = await profileOf(ctx).update((current) => ({ ...current, language: ctx.args.code }));
        const t = translator(saved.language);
        return saidAndShown(ctx, saved, t('commands.me.dmLanguage', { name: LOCALE_NAMES[saved.language] }));
      },
    }),
    calendar: defineSubcommand({
      description: 'Your private calendar URL',
      options: { action: calendarActionOption },
      run: (ctx) => calendar(ctx.t, profileOf(ctx), ctx.args.action === 'renew'),
    }),
  },
});

/** The caller's profile; a Matchday without a profile store says personal follows are not available. */
function profileOf(ctx: CommandContext<unknown>): ProfileAccess {
  if (!ctx.profile) throw new UserError('NO_PROFILES', ctx.t('commands.me.noProfiles'));
  return ctx.profile;
}

/** Text meant as a range of two times ("25:00 - 07:00", "22:30 to"): a dash or a word between. */
const RANGE_LIKE = /\S\s*(?:-|–|—)|\s(?:to|bis|até)(?:\s|$)/i;

/** `/me quiet`: quiet hours from and to, both or neither (off). */
async function quiet(
  ctx: CommandContext<unknown>,
  profile: ProfileAccess,
  args: { from?: string; to?: string },
): Promise<Reply> {
  // "23:00-08:00" in one: both ends.
  const range = args.to === undefined && args.from !== undefined ? clockRange(args.from) : undefined;
  const typedFrom = range?.from ?? args.from;
  const typedTo = range?.to ?? args.to;
  const from = typedFrom === undefined ? undefined : (clockTime(typedFrom) ?? typedFrom);
  const to = typedTo === undefined ? undefined : (clockTime(typedTo) ?? typedTo);
  // One text that is neither a time nor a range ("25:00-08:00") is named as such.
  if (from !== undefined && to === undefined && clockTime(from) === undefined)
    throw new UserError(
      'BAD_TIME',
      RANGE_LIKE.test(from.trim())
        ? ctx.t('commands.me.badRange', { value: from })
        : ctx.t('commands.me.badTime', { name: 'from', value: from }),
    );
  if ((from === undefined) !== (to === undefined))
    throw new UserError(
      'BAD_QUIET',
      spanned(ctx.t, 'commands.me.quietBoth', {}, { command: cmd('me quiet from:23:00 to:08:00') }),
    );
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== undefined && !TIME.test(value))
      throw new UserError('BAD_TIME', ctx.t('commands.me.badTime', { name, value }));
  }
  if (from !== undefined && from === to) throw new UserError('BAD_QUIET', ctx.t('commands.me.sameTime'));
  const saved = await profile.update((current) => {
    const { quiet: _, ...rest } = current;
    return from && to ? { ...rest, quiet: { from, to } } : rest;
  });
  return saidAndShown(
    ctx,
    saved,
    saved.quiet
      ? ctx.t('commands.me.quiet', {
          from: saved.quiet.from,
          to: saved.quiet.to,
          zone: zoneName(saved.timezone),
        })
      : ctx.t('commands.me.quietOff'),
  );
}

const DM_KINDS = ['reminders', 'live', 'results'] as const;

/** "reminders, live cards and results", or "nothing". */
function dmsLabel(t: Translate, profile: Profile): string {
  const on = DM_KINDS.filter((k) => profile.dms.includes(k)).map((k) => t(`commands.me.dm.${k}`));
  if (on.length === 0) return t('commands.me.dm.nothing');
  return on.length === 1
    ? on[0]!
    : t('commands.me.and', { list: on.slice(0, -1).join(', '), last: on.at(-1)! });
}

function spoilersLabel(t: Translate, policy: SpoilerPolicy): string {
  return t(`commands.me.spoilers.${policy}`);
}

/** "Team (CS2) · tiers 1-2 only · no qualifiers". */
function followLabel(ctx: CommandContext<unknown>, f: PersonalFollow): string {
  const parts = [teamLabel(ctx, f.team)];
  if (f.tier !== undefined)
    parts.push(
      f.tier === 1 ? ctx.t('commands.me.tierOnly') : ctx.t('commands.me.tiersOnly', { tier: f.tier }),
    );
  if (f.noQualifiers) parts.push(ctx.t('commands.me.noQualifiers'));
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
    throw new UserError(
      'TEAM_OR_ORGANISATION',
      spanned(
        ctx.t,
        'commands.follow.notBoth',
        {},
        {
          team: cmd(`me ${sub} team:<${ctx.t('commands.follow.name')}>`),
          organisation: cmd(`me ${sub} organisation:<${ctx.t('commands.follow.name')}>`),
        },
      ),
    );
  if (orgText) return followOrganisation(ctx, profile, sub, orgText, args);
  if (!text) throw nameATeam(ctx.t, `me ${sub}`, `me ${sub}`);
  const id = await resolveName(ctx, 'team', text, scopeOf(ctx));
  if (sub === 'unfollow') {
    const saved = await profile.update((current) => {
      if (!current.follows.some((f) => f.team === id))
        throw new UserError('NOT_FOLLOWING', ctx.t('commands.me.notFollowing', { team: teamLabel(ctx, id) }));
      return { ...current, follows: current.follows.filter((f) => f.team !== id) };
    });
    return saidAndShown(ctx, saved, ctx.t('commands.me.noLonger', { name: teamLabel(ctx, id) }));
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
      throw new UserError(
        'TOO_MANY_FOLLOWS',
        spanned(
          ctx.t,
          'commands.me.tooMany',
          { count: MAX_PERSONAL_FOLLOWS },
          { command: cmd('me unfollow') },
        ),
      );
    // Following again replaces the options (tier, qualifiers) and keeps the team's place in the list.
    const follows = already
      ? current.follows.map((f) => (f.team === id ? entry : f))
      : [...current.follows, entry];
    // Following resumes DM reminders paused after closed DMs (the person says they can be reached again).
    const { paused: _, ...rest } = current;
    return { ...rest, follows };
  });
  const values = { follow: followLabel(ctx, entry), leads: saved.leads.join(', ') };
  // The calendar is named only where this Matchday serves calendars.
  const key =
    profile.calendarUrl('probe') === undefined
      ? already
        ? 'commands.me.updated'
        : 'commands.me.nowFollowing'
      : already
        ? 'commands.me.updatedCalendar'
        : 'commands.me.nowFollowingCalendar';
  return saidAndShown(ctx, saved, spanned(ctx.t, key, values, { command: cmd('me calendar') }));
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
  if (teams.length === 0)
    throw new UserError('NO_TEAMS', ctx.t('commands.follow.noTeams', { name: org.name }));
  const names = teams.map((t) => teamLabel(ctx, t)).join(', ');
  if (sub === 'unfollow') {
    const saved = await profile.update((current) => {
      if (!current.follows.some((f) => teams.includes(f.team)))
        throw new UserError(
          'NOT_FOLLOWING',
          ctx.t('commands.me.followsNone', { name: org.name, listed: names }),
        );
      return { ...current, follows: current.follows.filter((f) => !teams.includes(f.team)) };
    });
    return saidAndShown(ctx, saved, ctx.t('commands.me.noLonger', { name: `${org.name}: ${names}` }));
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
      throw new UserError(
        'TOO_MANY_FOLLOWS',
        spanned(
          ctx.t,
          'commands.me.tooManyOrganisation',
          { name: org.name, added: added.length, now: current.follows.length, count: MAX_PERSONAL_FOLLOWS },
          { command: cmd('me unfollow') },
        ),
      );
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
    ctx.t('commands.me.nowFollowingOrganisation', {
      name: org.name,
      listed: `${names}${options.length ? ` (${options.join(', ')})` : ''}`,
      leads: saved.leads.join(', '),
    }),
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

async function calendar(t: Translate, profile: ProfileAccess, renew: boolean): Promise<Reply> {
  // Asked before a token is made: no secret is created for an endpoint that does not exist.
  if (profile.calendarUrl('probe') === undefined)
    throw new UserError('NO_CALENDAR', t('commands.me.noCalendar'));
  const token = await profile.calendarToken(renew);
  const url = profile.calendarUrl(token)!;
  const card: Card = {
    title: t(renew ? 'commands.me.calendar.newTitle' : 'commands.me.calendar.title'),
    colour: COLOURS.success,
    description: [
      [{ link: url, label: url }],
      [t('commands.me.calendar.subscribe')],
      renew
        ? [t('commands.me.calendar.oldGone')]
        : spanned(t, 'commands.me.calendar.keep', {}, { command: cmd('me calendar renew') }),
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
    lines.push(
      spanned(
        ctx.t,
        'commands.me.none',
        {},
        { command: cmd(`me follow team:<${ctx.t('commands.follow.name')}>`) },
      ),
    );
  else lines.push(...profile.follows.map((f) => [followLabel(ctx, f)]));
  const t = ctx.t;
  const quiet = profile.quiet;
  const fields: Field[] = [
    {
      name: t('commands.me.field.reminders'),
      value: [t('commands.me.minBefore', { leads: profile.leads.join(', ') })],
      inline: true,
    },
    { name: t('commands.me.field.zone'), value: [zoneName(profile.timezone)], inline: true },
    {
      name: t('commands.me.field.quiet'),
      value: [quiet ? t('commands.me.fromTo', { from: quiet.from, to: quiet.to }) : t('commands.me.off')],
      inline: true,
    },
    { name: t('commands.me.field.dms'), value: [dmsLabel(t, profile)], inline: true },
    { name: t('commands.me.field.results'), value: [spoilersLabel(t, profile.spoilers)], inline: true },
  ];
  // Named only where this Matchday serves calendars (else /me calendar would only say it does not).
  if (ctx.profile?.calendarUrl('probe') !== undefined)
    fields.push({
      name: t('commands.me.field.calendar'),
      value: spanned(
        t,
        profile.calendar ? 'commands.me.calendarOn' : 'commands.me.calendarOff',
        {},
        {
          command: cmd('me calendar'),
        },
      ),
      inline: true,
    });
  return {
    title: t(said ? 'commands.me.saved' : 'commands.me.title'),
    colour: said ? COLOURS.success : COLOURS.info,
    description: lines,
    fields,
    footer: t('commands.me.footer', { count: profile.follows.length, most: MAX_PERSONAL_FOLLOWS }),
  };
}
