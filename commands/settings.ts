/**
 * `/settings` (admins only): show and change the tenant's games, tiers, timezone, spoiler policy,
 * reminder lead times, digest, live updates and notification channels. Names are resolved through
 * the name index (no request); every change is validated by the settings schema and saved through
 * `ctx.updateSettings` (applied atomically to the latest stored settings), and the answer shows
 * what was stored.
 */
import {
  type ArgsOf,
  type CommandContext,
  defineCommand,
  defineSubcommand,
  UserError,
} from '../src/bot/command.ts';
import { tenantPlace } from '../src/bot/format.ts';
import type { Card, Field, Reply, Text } from '../src/bot/reply.ts';
import { COLOURS, messageSpans } from '../src/bot/reply.ts';
import {
  type ChannelSubscription,
  channelSubscriptionSchema,
  type Settings,
  type SpoilerPolicy,
  settingsSchema,
} from '../src/bot/settings.ts';
import { resolveTimeZone } from '../src/bot/time-zones.ts';
import { cmd, type Message } from '../src/core/errors.ts';
import { LOCALE_NAMES, type Locale, translator } from '../src/i18n/i18n.ts';
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
        const games = await parseGames(ctx, str(ctx.args.games, 'games'));
        return saved(ctx, {
          change: (next) => {
            next.games = games;
          },
          describe: (stored) => `Games: ${describeGames(ctx, stored.games)}.`,
        });
      },
    }),
    tiers: defineSubcommand({
      description: 'Tiers to follow (1 is the top)',
      options: { tiers: { type: 'string', description: 'e.g. "1,2"', required: true, max: 20 } },
      run: (ctx) => {
        const tiers = parseTiers(str(ctx.args.tiers, 'tiers'), false);
        return saved(ctx, {
          change: (next) => {
            next.tiers = tiers;
          },
          describe: (stored) => `Tiers: ${stored.tiers.join(', ')}.`,
        });
      },
    }),
    timezone: defineSubcommand({
      description: 'Timezone for schedules and digests',
      options: { zone: zoneOption },
      run: (ctx) => saved(ctx, timezoneChange(ctx.args)),
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
        const leads = parseLeads(str(ctx.args.minutes, 'minutes'), false);
        return saved(ctx, {
          change: (next) => {
            next.reminderLeads = leads;
          },
          describe: (stored) => `Reminders: ${stored.reminderLeads.join(', ')} minutes before.`,
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
      run: (ctx) => saved(ctx, digestChange(ctx.args)),
    }),
    live: defineSubcommand({
      description: 'Live score updates on or off',
      options: { enabled: { type: 'boolean', description: 'On or off', required: true } },
      run: (ctx) => saved(ctx, liveChange(ctx.args)),
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
      run: (ctx) => saved(ctx, channelRemoveChange(ctx.args)),
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
  return settingsReply(ctx, stored, describe(stored));
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
function digestChange(args: { time?: string; when_empty?: 'say' | 'skip' }): SettingsChange {
  const time = args.time;
  const whenEmpty = args.when_empty;
  if (time === undefined && whenEmpty === undefined) {
    throw new UserError('NOTHING_TO_CHANGE', 'Give a time (HH:MM) or when_empty (say or skip).');
  }
  if (time !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) {
    throw new UserError('BAD_TIME', `"${time}" is not a time of day: use HH:MM in 24-hour form, e.g. 09:00.`);
  }
  const change = (next: Settings): void => {
    if (time !== undefined) next.digestTime = time;
    if (whenEmpty !== undefined) next.digestWhenEmpty = whenEmpty;
  };
  const describe = (stored: Settings) =>
    `Digest: ${stored.digestTime} (${stored.timezone}), on empty days ${stored.digestWhenEmpty === 'say' ? 'say so' : 'skip'}.`;
  return { change, describe };
}

/** `/settings channel-remove`. */
function channelRemoveChange(args: { channel?: unknown }): SettingsChange {
  const id = channelId(args.channel);
  let removed: ChannelSubscription | undefined;
  const change = (next: Settings): void => {
    removed = next.channels.find((c) => c.id === id);
    if (!removed) throw new UserError('UNKNOWN_CHANNEL', 'That channel is not set up for notifications.');
    next.channels = next.channels.filter((c) => c.id !== id);
  };
  const describe = () => (removed ? `Removed ${channelLabel(removed)}.` : '');
  return { change, describe };
}

/** `/settings timezone`: an IANA name, a city, an abbreviation or an offset. */
function timezoneChange(args: { zone?: string }): SettingsChange {
  const typed = str(args.zone, 'zone');
  const zone = resolveTimeZone(typed);
  const change = (next: Settings): void => {
    next.timezone = zone;
  };
  // An abbreviation or offset says which zone it was taken as.
  const read = typed.toLowerCase() === zone.toLowerCase() ? '' : ` ("${typed}" read as ${zone})`;
  const describe = (stored: Settings) => `Timezone: ${stored.timezone}${read}.`;
  return { change, describe };
}

/** `/settings language`: replies from now on, and notifications from their next post, in `code`. */
function languageChange(args: { code: Locale }): SettingsChange {
  const code = args.code;
  const change = (next: Settings): void => {
    next.language = code;
  };
  const describe = (stored: Settings) =>
    translator(stored.language)('commands.settings.language', { name: LOCALE_NAMES[stored.language] });
  return { change, describe };
}

/** `/settings live`: live score updates on or off, in every channel. */
function liveChange(args: { enabled?: unknown }): SettingsChange {
  const enabled = args.enabled;
  if (typeof enabled !== 'boolean') throw new UserError('BAD_BOOLEAN', 'enabled must be true or false.');
  return {
    change: (next) => {
      next.liveUpdates = enabled;
    },
    describe: (stored) => `Live updates: ${stored.liveUpdates ? 'on' : 'off'}.`,
  };
}

/** `/settings spoilers`. */
function spoilersChange(args: { policy: SpoilerPolicy }): SettingsChange {
  const policy = args.policy;
  const change = (next: Settings): void => {
    next.spoilers = policy;
  };
  const describe = (stored: Settings) => `Spoilers: ${stored.spoilers}.`;
  return { change, describe };
}

/** `/settings channel-add` and `channel-set`: a channel's filters, checked with the platform first. */
async function channelChange(
  ctx: CommandContext<unknown>,
  sub: 'channel-add' | 'channel-set',
  args: ArgsOf<typeof channelOptions>,
): Promise<SettingsChange> {
  const id = channelId(args.channel);
  const seen = ctx.tenant.settings.channels.find((c) => c.id === id);
  if (sub === 'channel-add' && seen) throw channelExists();
  if (sub === 'channel-set' && !seen) throw channelUnknown();
  let name: string | undefined;
  if (ctx.channels) {
    const check = await ctx.channels.check(id);
    if (!check.ok) {
      throw new UserError(
        'CHANNEL_PERMISSIONS',
        `Matchday cannot post in that channel: it is missing ${check.missing.join(', ')}. Grant those permissions and try again.`,
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
    if (sub === 'channel-add' && existing) throw channelExists();
    if (sub === 'channel-set' && !existing) throw channelUnknown();
    if (!existing && next.channels.length >= MAX_CHANNELS) {
      throw new UserError(
        'TOO_MANY_CHANNELS',
        `At most ${MAX_CHANNELS} notification channels; remove one first.`,
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
  const describe = (): Message => (updated ? `${added ? 'Added' : 'Updated'} ${channelLabel(updated)}.` : '');
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
        `That change is not valid: ${issue?.path.join('.') || 'settings'}: ${issue?.message ?? 'invalid'}.`,
      );
    }
    return parsed.data;
  });
}

function channelExists(): UserError {
  return new UserError('CHANNEL_EXISTS', [
    'That channel is already set up; use ',
    cmd('settings channel-set'),
    ' to change it.',
  ]);
}

function describeGames(ctx: CommandContext<unknown>, games: readonly number[]): string {
  if (games.length === 0) return 'all';
  const names = ctx.names;
  return games.map((id) => names.game(id)?.title ?? `game ${id}`).join(', ');
}

/** The settings as a card; `changed` says what this command just changed. */
export function settingsCard(ctx: CommandContext<unknown>, settings: Settings, changed: Message = ''): Card {
  const { noun } = tenantPlace(ctx.tenant.platform);
  const names = ctx.names;
  const teamList = (ids: readonly number[]) =>
    ids.map((id) => names.team(id)?.name ?? `team ${id}`).join(', ');
  const fields: Field[] = [
    { name: 'Games', value: [describeGames(ctx, settings.games)], inline: true },
    { name: 'Tiers', value: [settings.tiers.join(', ')], inline: true },
    { name: 'Timezone', value: [settings.timezone], inline: true },
    { name: 'Spoilers', value: [settings.spoilers], inline: true },
    { name: 'Language', value: [LOCALE_NAMES[settings.language]], inline: true },
    { name: 'Reminders', value: [`${settings.reminderLeads.join(', ')} min before`], inline: true },
    {
      name: 'Digest',
      value: [
        `${settings.digestTime}, ${settings.digestWhenEmpty === 'say' ? 'also on empty days' : 'skipped on empty days'}`,
      ],
      inline: true,
    },
    { name: 'Live updates', value: [settings.liveUpdates ? 'on' : 'off'], inline: true },
    {
      name: 'Following',
      value: [settings.follows.length > 0 ? teamList(settings.follows) : 'no teams'],
      inline: true,
    },
  ];
  // One field per channel: single-line values render alike on every platform.
  for (const c of settings.channels.slice(0, 15)) {
    const parts = [
      `games ${c.games.length > 0 ? describeGames(ctx, c.games) : `(${noun} default)`}`,
      `tiers ${c.tiers.length > 0 ? c.tiers.join(',') : `(${noun} default)`}`,
      ...(c.teams.length > 0 ? [`teams ${teamList(c.teams)}`] : []),
      c.kinds.join(', '),
      ...(c.leads.length > 0 ? [`reminders ${c.leads.join(', ')} min`] : []),
      ...(c.events ? ['scheduled events'] : []),
      ...(c.threads ? ['threads'] : []),
    ];
    const value: Text = [parts.join('; ')];
    if (c.role) value.push('; mentions ', { role: c.role });
    if (c.disabled) value.push(` (off: ${c.disabled.reason})`);
    fields.push({ name: `Channel ${channelLabel(c)}`, value });
  }
  if (settings.channels.length === 0) {
    fields.push({
      name: 'Notification channels',
      value: ['none: add one with ', cmd('settings channel-add')],
    });
  }
  const card: Card = { title: 'Matchday settings', colour: changed ? COLOURS.success : COLOURS.info, fields };
  if (changed) card.description = [['Saved. ', ...messageSpans(changed)]];
  return card;
}
