/**
 * `/settings` (admins only): show and change the tenant's games, tiers, timezone, spoiler policy,
 * reminder lead times, digest, live updates and notification channels. Names are resolved through
 * the name index (no request); every change is validated by the settings schema and saved through
 * `ctx.updateSettings` (applied atomically to the latest stored settings), and the answer shows
 * what was stored.
 */
import { type ArgsOf, type CommandContext, defineCommand, defineSubcommand } from '../src/bot/command.ts';
import type { Card, Field, Reply, Text } from '../src/bot/reply.ts';
import { COLOURS, messageSpans } from '../src/bot/reply.ts';
import {
  type ChannelSubscription,
  channelSubscriptionSchema,
  type Settings,
  type SpoilerPolicy,
  settingsSchema,
} from '../src/bot/settings.ts';
import { zoneName } from '../src/bot/time-format.ts';
import { resolveTimeZone } from '../src/bot/time-zones.ts';
import { cmd, type Message, UserError } from '../src/core/errors.ts';
import { LOCALE_NAMES, type Locale, spanned, type Translate, translator } from '../src/i18n/i18n.ts';
import type { Messages } from '../src/i18n/locales/en.ts';
import {
  calendarReply,
  channelId,
  channelLabel,
  channelUnknown,
  eventsChange,
  type SettingsChange,
  str,
  threadsChange,
} from './settings-channel.ts';
import {
  applyChannelPatch,
  calendarActionOption,
  channelOptions,
  channelPatch,
  clockTime,
  languageOption,
  parseGames,
  parseLeads,
  parseTiers,
  spoilersOption,
  zoneOption,
} from './settings-parse.ts';

/** Most channels one tenant may subscribe (keeps the notifier's fan-out and the card bounded). */
export const MAX_CHANNELS = 25;

/** A channel the admin picks for one of its switches (`events`, `threads`) or its calendar. */
const setUpChannel = {
  type: 'channel',
  description: 'A channel set up with channel-add',
  required: true,
} as const;

/** A set-up channel's switch (`events`, `threads`) on or off. */
const switchOptions = {
  channel: setUpChannel,
  enabled: { type: 'boolean', description: 'On or off', required: true },
} as const;

export default defineCommand({
  name: 'settings',
  description: 'Show or change Matchday settings',
  adminOnly: true,
  adminAction: 'view or change Matchday settings',
  ephemeral: true,
  // Each change reads its input and asks the platform first; its `change` then only edits the
  // settings, so it can be applied again to newer settings if another admin saved meanwhile.
  subcommands: {
    show: defineSubcommand({
      description: 'Show the current settings',
      run: (ctx) => settingsReply(ctx, ctx.tenant.settings),
    }),
    games: defineSubcommand({
      description: 'Games to follow',
      options: {
        games: {
          type: 'string',
          description: 'Comma-separated, e.g. "cs2, dota 2", or "all"',
          required: true,
          max: 200,
        },
      },
      async run(ctx) {
        const games = await parseGames(ctx, str(ctx.t, ctx.args.games, 'games'));
        return saved(ctx, {
          change: (next) => {
            next.games = games;
          },
          describe: (stored, t) =>
            t('commands.settings.saidGames', { games: describeGames(ctx, t, stored.games) }),
        });
      },
    }),
    tiers: defineSubcommand({
      description: 'Tiers to follow (1 is the top)',
      options: { tiers: { type: 'string', description: 'e.g. "1,2"', required: true, max: 20 } },
      run: (ctx) => {
        const tiers = parseTiers(ctx.t, str(ctx.t, ctx.args.tiers, 'tiers'), false);
        return saved(ctx, {
          change: (next) => {
            next.tiers = tiers;
          },
          describe: (stored, t) => t('commands.settings.saidTiers', { tiers: stored.tiers.join(', ') }),
        });
      },
    }),
    timezone: defineSubcommand({
      description: 'Timezone for schedules and digests',
      options: { zone: zoneOption },
      run: (ctx) => saved(ctx, timezoneChange(ctx.t, ctx.args)),
    }),
    language: defineSubcommand({
      description: 'Language of replies, cards and notifications',
      options: { code: languageOption },
      run: (ctx) => saved(ctx, languageChange(ctx.args)),
    }),
    spoilers: defineSubcommand({
      description: 'How results are shown',
      options: { policy: spoilersOption },
      run: (ctx) => saved(ctx, spoilersChange(ctx.args)),
    }),
    reminders: defineSubcommand({
      description: 'Reminder lead times',
      options: {
        minutes: {
          type: 'string',
          description: 'Minutes before start, e.g. "15, 60" (at most 5)',
          required: true,
          max: 50,
        },
      },
      run: (ctx) => {
        const leads = parseLeads(ctx.t, str(ctx.t, ctx.args.minutes, 'minutes'), false);
        return saved(ctx, {
          change: (next) => {
            next.reminderLeads = leads;
          },
          describe: (stored, t) =>
            t('commands.settings.saidReminders', { leads: stored.reminderLeads.join(', ') }),
        });
      },
    }),
    digest: defineSubcommand({
      description: 'The daily schedule digest',
      options: {
        time: {
          type: 'string',
          description: 'Time of day HH:MM in the timezone chosen in settings, e.g. 09:00',
          max: 5,
        },
        when_empty: {
          type: 'string',
          description: 'On a day with nothing scheduled',
          choices: [
            { name: 'say so', value: 'say' },
            { name: 'skip', value: 'skip' },
          ],
        },
      },
      run: (ctx) => saved(ctx, digestChange(ctx.t, ctx.args)),
    }),
    live: defineSubcommand({
      description: 'Live score updates on or off',
      options: { enabled: { type: 'boolean', description: 'On or off', required: true } },
      run: (ctx) => saved(ctx, liveChange(ctx.t, ctx.args)),
    }),
    'channel-add': defineSubcommand({
      description: 'Post notifications in a channel',
      options: channelOptions,
      run: async (ctx) => saved(ctx, await channelChange(ctx, 'channel-add', ctx.args)),
    }),
    'channel-set': defineSubcommand({
      description: "Change a notification channel's filters",
      options: channelOptions,
      run: async (ctx) => saved(ctx, await channelChange(ctx, 'channel-set', ctx.args)),
    }),
    'channel-remove': defineSubcommand({
      description: 'Stop posting in a channel',
      options: { channel: { type: 'channel', description: 'The channel', required: true } },
      run: (ctx) => saved(ctx, channelRemoveChange(ctx.t, ctx.args)),
    }),
    events: defineSubcommand({
      description: "Discord: a channel's followed series as scheduled events",
      options: switchOptions,
      run: async (ctx) => saved(ctx, await eventsChange(ctx, ctx.args)),
    }),
    threads: defineSubcommand({
      description: "Each finished game in a thread under a channel's live card",
      options: switchOptions,
      run: async (ctx) => saved(ctx, await threadsChange(ctx, ctx.args)),
    }),
    calendar: defineSubcommand({
      description: "A notification channel's calendar URL",
      options: { channel: setUpChannel, action: calendarActionOption },
      run: (ctx) => calendarReply(ctx, ctx.tenant.settings, ctx.args),
    }),
  },
});

/** Saves `change` and answers with the stored settings, saying what changed. */
async function saved(ctx: CommandContext<unknown>, { change, describe }: SettingsChange): Promise<Reply> {
  // Pending admin notices are shown and cleared by the runtime after any admin command.
  const stored = await save(ctx, change);
  // Said in the stored language: `/settings language` answers in the language just chosen.
  return settingsReply(ctx, stored, describe(stored, translator(stored.language)));
}

/** The settings card, private to the admin. */
async function settingsReply(
  ctx: CommandContext<unknown>,
  settings: Settings,
  changed: Message = '',
): Promise<Reply> {
  return { cards: [settingsCard(ctx, settings, changed)], ephemeral: true };
}

/** `/settings digest`: its time and what an empty day says. */
function digestChange(t: Translate, args: { time?: string; when_empty?: 'say' | 'skip' }): SettingsChange {
  const typed = args.time;
  const whenEmpty = args.when_empty;
  if (typed === undefined && whenEmpty === undefined) {
    throw new UserError('NOTHING_TO_CHANGE', t('commands.settings.digestNothing'));
  }
  // "9:00" is 09:00.
  const time = typed === undefined ? undefined : clockTime(typed);
  if (typed !== undefined && time === undefined) {
    throw new UserError('BAD_TIME', t('commands.settings.badTime', { time: typed }));
  }
  const change = (next: Settings): void => {
    if (time !== undefined) next.digestTime = time;
    if (whenEmpty !== undefined) next.digestWhenEmpty = whenEmpty;
  };
  const describe = (stored: Settings, st: Translate) =>
    st(
      stored.digestWhenEmpty === 'say'
        ? 'commands.settings.saidDigestSay'
        : 'commands.settings.saidDigestSkip',
      {
        time: stored.digestTime,
        zone: zoneName(stored.timezone),
      },
    );
  return { change, describe };
}

/** `/settings channel-remove`. */
function channelRemoveChange(t: Translate, args: { channel?: unknown }): SettingsChange {
  const id = channelId(t, args.channel);
  let removed: ChannelSubscription | undefined;
  const change = (next: Settings): void => {
    removed = next.channels.find((c) => c.id === id);
    if (!removed) throw new UserError('UNKNOWN_CHANNEL', t('commands.settings.notSetUp'));
    next.channels = next.channels.filter((c) => c.id !== id);
  };
  const describe = (_: Settings, st: Translate) =>
    removed ? st('commands.settings.removed', { label: channelLabel(st, removed) }) : '';
  return { change, describe };
}

/** `/settings timezone`: an IANA name, a city, an abbreviation or an offset. */
function timezoneChange(t: Translate, args: { zone?: string }): SettingsChange {
  const typed = str(t, args.zone, 'zone');
  const zone = resolveTimeZone(typed);
  const change = (next: Settings): void => {
    next.timezone = zone;
  };
  // An abbreviation or offset says which zone it was taken as.
  const read = typed.toLowerCase() !== zone.toLowerCase();
  const describe = (stored: Settings, st: Translate) =>
    read
      ? st('commands.settings.saidZoneRead', { zone: zoneName(stored.timezone), typed, read: zoneName(zone) })
      : st('commands.settings.saidZone', { zone: zoneName(stored.timezone) });
  return { change, describe };
}

/** `/settings language`: replies from now on, and notifications from their next post, in `code`. */
function languageChange(args: { code: Locale }): SettingsChange {
  const code = args.code;
  const change = (next: Settings): void => {
    next.language = code;
  };
  const describe = (stored: Settings, st: Translate) =>
    st('commands.settings.language', { name: LOCALE_NAMES[stored.language] });
  return { change, describe };
}

/** `/settings live`: live score updates on or off, in every channel. */
function liveChange(t: Translate, args: { enabled?: unknown }): SettingsChange {
  const enabled = args.enabled;
  if (typeof enabled !== 'boolean') throw new UserError('BAD_BOOLEAN', t('commands.settings.badBoolean'));
  return {
    change: (next) => {
      next.liveUpdates = enabled;
    },
    describe: (stored, st) =>
      st('commands.settings.saidLive', {
        state: st(stored.liveUpdates ? 'commands.settings.on' : 'commands.settings.off'),
      }),
  };
}

/** `/settings spoilers`. */
function spoilersChange(args: { policy: SpoilerPolicy }): SettingsChange {
  const policy = args.policy;
  const change = (next: Settings): void => {
    next.spoilers = policy;
  };
  const describe = (stored: Settings, st: Translate) =>
    st('commands.settings.saidSpoilers', { policy: st(`commands.settings.spoilers.${stored.spoilers}`) });
  return { change, describe };
}

/** `/settings channel-add` and `channel-set`: a channel's filters, checked with the platform first. */
async function channelChange(
  ctx: CommandContext<unknown>,
  sub: 'channel-add' | 'channel-set',
  args: ArgsOf<typeof channelOptions>,
): Promise<SettingsChange> {
  const t = ctx.t;
  const id = channelId(t, args.channel);
  const seen = ctx.tenant.settings.channels.find((c) => c.id === id);
  if (sub === 'channel-add' && seen) throw channelExists(t);
  if (sub === 'channel-set' && !seen) throw channelUnknown(t);
  let name: string | undefined;
  if (ctx.channels) {
    const check = await ctx.channels.check(id);
    if (!check.ok) {
      throw new UserError(
        'CHANNEL_PERMISSIONS',
        t('commands.settings.channelPermissions', { missing: check.missing.join(', ') }),
        check.missing,
      );
    }
    name = check.name;
  }
  const patch = await channelPatch(ctx, seen?.games ?? [], args);
  let updated: ChannelSubscription | undefined;
  let added = false;
  const change = (next: Settings): void => {
    const existing = next.channels.find((c) => c.id === id);
    if (sub === 'channel-add' && existing) throw channelExists(t);
    if (sub === 'channel-set' && !existing) throw channelUnknown(t);
    if (!existing && next.channels.length >= MAX_CHANNELS) {
      throw new UserError(
        'TOO_MANY_CHANNELS',
        t('commands.settings.tooManyChannels', { count: MAX_CHANNELS }),
      );
    }
    // A new channel hears of nothing already over (no flood of earlier results).
    const channel = applyChannelPatch(
      existing ?? channelSubscriptionSchema.parse({ id, since: ctx.now.toISOString() }),
      patch,
    );
    const label = name ?? existing?.name;
    if (label) channel.name = label;
    // A re-enabled or re-checked channel starts delivering again.
    delete channel.disabled;
    next.channels = existing
      ? next.channels.map((c) => (c.id === id ? channel : c))
      : [...next.channels, channel];
    updated = channel;
    added = !existing;
  };
  const describe = (_: Settings, st: Translate): Message =>
    updated
      ? st(added ? 'commands.settings.added' : 'commands.settings.updated', {
          label: channelLabel(st, updated),
        })
      : '';
  return { change, describe };
}

/** Applies `edit` to the latest stored settings (again if another admin saved meanwhile), validated. */
function save(ctx: CommandContext<unknown>, edit: (next: Settings) => void): Promise<Settings> {
  return ctx.updateSettings((latest) => {
    const next = structuredClone(latest);
    edit(next);
    const parsed = settingsSchema.safeParse(next);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(
        'BAD_SETTINGS',
        ctx.t('commands.settings.invalid', {
          path: issue?.path.join('.') || 'settings',
          message: issue?.message ?? 'invalid',
        }),
      );
    }
    return parsed.data;
  });
}

function channelExists(t: Translate): UserError {
  return new UserError(
    'CHANNEL_EXISTS',
    spanned(t, 'commands.settings.channelExists', {}, { command: cmd('settings channel-set') }),
  );
}

function describeGames(ctx: CommandContext<unknown>, t: Translate, games: readonly number[]): string {
  if (games.length === 0) return t('commands.settings.all');
  const names = ctx.names;
  return games.map((id) => names.game(id)?.title ?? t('commands.shared.game', { id })).join(', ');
}

/** The settings as a card; `changed` says what this command just changed. */
export function settingsCard(ctx: CommandContext<unknown>, settings: Settings, changed: Message = ''): Card {
  // In the settings' own language: right after `/settings language`, the one just chosen.
  const t = translator(settings.language);
  const f = (key: SettingsField) => t(`commands.settings.field.${key}`);
  const names = ctx.names;
  const teamList = (ids: readonly number[]) =>
    ids.map((id) => names.team(id)?.name ?? t('commands.shared.team', { id })).join(', ');
  const fields: Field[] = [
    { name: f('games'), value: [describeGames(ctx, t, settings.games)], inline: true },
    { name: f('tiers'), value: [settings.tiers.join(', ')], inline: true },
    { name: f('timezone'), value: [zoneName(settings.timezone)], inline: true },
    { name: f('spoilers'), value: [t(`commands.settings.spoilers.${settings.spoilers}`)], inline: true },
    { name: f('language'), value: [LOCALE_NAMES[settings.language]], inline: true },
    {
      name: f('reminders'),
      value: [t('commands.me.minBefore', { leads: settings.reminderLeads.join(', ') })],
      inline: true,
    },
    {
      name: f('digest'),
      value: [
        t(
          settings.digestWhenEmpty === 'say' ? 'commands.settings.digestSay' : 'commands.settings.digestSkip',
          {
            time: settings.digestTime,
          },
        ),
      ],
      inline: true,
    },
    {
      name: f('live'),
      value: [t(settings.liveUpdates ? 'commands.settings.on' : 'commands.settings.off')],
      inline: true,
    },
    {
      name: f('following'),
      value: [settings.follows.length > 0 ? teamList(settings.follows) : t('commands.settings.noTeams')],
      inline: true,
    },
  ];
  // One field per channel: single-line values render alike on every platform.
  for (const c of settings.channels.slice(0, 15)) fields.push(channelField(ctx, t, c, teamList));
  if (settings.channels.length === 0) {
    fields.push({
      name: f('channels'),
      value: spanned(t, 'commands.settings.noChannels', {}, { command: cmd('settings channel-add') }),
    });
  }
  const title = t('commands.settings.title');
  const card: Card = { title, colour: changed ? COLOURS.success : COLOURS.info, fields };
  if (changed) card.description = [[`${t('commands.settings.saved')} `, ...messageSpans(changed)]];
  return card;
}

type SettingsField = keyof Messages['commands']['settings']['field'];

/** One notification channel of the settings card, on one line. */
function channelField(
  ctx: CommandContext<unknown>,
  t: Translate,
  c: ChannelSubscription,
  teamList: (ids: readonly number[]) => string,
): Field {
  const byDefault = t('commands.settings.channelDefault', {
    noun: t(`commands.place.${ctx.tenant.platform}.noun`),
  });
  const parts = [
    t('commands.settings.channelGames', {
      games: c.games.length > 0 ? describeGames(ctx, t, c.games) : byDefault,
    }),
    t('commands.settings.channelTiers', { tiers: c.tiers.length > 0 ? c.tiers.join(',') : byDefault }),
    ...(c.teams.length > 0 ? [t('commands.settings.channelTeams', { teams: teamList(c.teams) })] : []),
    // The kinds in the reader's words ("Erinnerungen, Live-Karten"); typed as reminders, live, ...
    c.kinds.map((kind) => t(`commands.settings.kind.${kind}`)).join(', '),
    ...(c.leads.length > 0 ? [t('commands.settings.channelReminders', { leads: c.leads.join(', ') })] : []),
    ...(c.events ? [t('commands.settings.channelEvents')] : []),
    ...(c.threads ? [t('commands.settings.channelThreads')] : []),
  ];
  const value: Text = [parts.join('; ')];
  if (c.role) value.push(`; ${t('commands.settings.mentions')} `, { role: c.role });
  if (c.disabled) value.push(` (${t('commands.settings.off')}: ${c.disabled.reason})`);
  return { name: t('commands.settings.channelField', { label: channelLabel(t, c) }), value };
}
