/**
 * `/settings` (admins only): show and change the tenant's games, tiers, timezone, spoiler policy,
 * reminder lead times, digest, live updates and notification channels. Names are resolved through
 * the name index (no request); every change is validated by the settings schema and saved through
 * `ctx.updateSettings` (applied atomically to the latest stored settings), and the answer shows
 * what was stored.
 */
import { type ArgsOf, type CommandContext, defineCommand, UserError } from '../src/bot/command.ts';
import { tenantPlace } from '../src/bot/format.ts';
import { resolveTimeZone } from '../src/bot/time-zones.ts';
import type { Card, Field, Reply, Text } from '../src/bot/reply.ts';
import { COLOURS, messageSpans } from '../src/bot/reply.ts';
import {
  type ChannelSubscription,
  channelSubscriptionSchema,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type Settings,
  SPOILER_POLICIES,
  settingsSchema,
} from '../src/bot/settings.ts';
import { cmd, type Message } from '../src/core/errors.ts';
import { resolveName, scopeOf, textArg } from './shared.ts';

/** Most channels one tenant may subscribe (keeps the notifier's fan-out and the card bounded). */
export const MAX_CHANNELS = 25;

const channelOptions = {
  channel: { type: 'channel', description: 'The channel', required: true },
  games: {
    type: 'string',
    description: 'Games, comma-separated, or "all" (default: the games chosen in settings)',
    max: 200,
  },
  tiers: {
    type: 'string',
    description: 'Tiers, e.g. "1,2", or "all" (default: the tiers chosen in settings)',
    max: 20,
  },
  teams: {
    type: 'string',
    description: 'Teams announced whatever their tier, comma-separated, or "none"',
    max: 300,
  },
  kinds: {
    type: 'string',
    description: `What to post: ${NOTIFICATION_KINDS.join(', ')} (default: all)`,
    max: 100,
  },
  leads: {
    type: 'string',
    description: 'Reminder minutes before start, e.g. "15, 60" (default: the reminders chosen in settings)',
    max: 50,
  },
  role: { type: 'role', description: 'A role to mention on notifications' },
} as const;

export default defineCommand({
  name: 'settings',
  description: 'Show or change Matchday settings',
  adminOnly: true,
  ephemeral: true,
  subcommands: {
    show: { description: 'Show the current settings' },
    games: {
      description: 'Games to follow',
      options: {
        games: {
          type: 'string',
          description: 'Comma-separated, e.g. "cs2, dota 2", or "all"',
          required: true,
          max: 200,
        },
      },
    },
    tiers: {
      description: 'Tiers to follow (1 is the top)',
      options: { tiers: { type: 'string', description: 'e.g. "1,2"', required: true, max: 20 } },
    },
    timezone: {
      description: 'Timezone for schedules and digests',
      options: {
        zone: {
          type: 'string',
          description: 'e.g. Europe/Berlin',
          required: true,
          autocomplete: 'timezone',
          max: 64,
        },
      },
    },
    spoilers: {
      description: 'How results are shown',
      options: {
        policy: {
          type: 'string',
          description: 'show, spoiler (hidden until revealed) or hide',
          required: true,
          choices: SPOILER_POLICIES.map((p) => ({ name: p, value: p })),
        },
      },
    },
    reminders: {
      description: 'Reminder lead times',
      options: {
        minutes: {
          type: 'string',
          description: 'Minutes before start, e.g. "15, 60" (at most 5)',
          required: true,
          max: 50,
        },
      },
    },
    digest: {
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
    },
    live: {
      description: 'Live score updates on or off',
      options: { enabled: { type: 'boolean', description: 'On or off', required: true } },
    },
    'channel-add': { description: 'Post notifications in a channel', options: channelOptions },
    'channel-set': { description: "Change a notification channel's filters", options: channelOptions },
    'channel-remove': {
      description: 'Stop posting in a channel',
      options: { channel: { type: 'channel', description: 'The channel', required: true } },
    },
    events: {
      description: "Discord: a channel's followed series as scheduled events",
      options: {
        channel: { type: 'channel', description: 'A channel set up with channel-add', required: true },
        enabled: { type: 'boolean', description: 'On or off', required: true },
      },
    },
    threads: {
      description: "Each finished game in a thread under a channel's live card",
      options: {
        channel: { type: 'channel', description: 'A channel set up with channel-add', required: true },
        enabled: { type: 'boolean', description: 'On or off', required: true },
      },
    },
    calendar: {
      description: "A notification channel's calendar URL",
      options: {
        channel: { type: 'channel', description: 'A channel set up with channel-add', required: true },
        action: {
          type: 'string',
          description: 'show (default) or renew (the old URL stops working)',
          choices: [
            { name: 'show', value: 'show' },
            { name: 'renew', value: 'renew' },
          ],
        },
      },
    },
  },
  async run(ctx) {
    if (!ctx.user.isAdmin)
      throw new UserError(
        'ADMIN_ONLY',
        `Only admins of ${tenantPlace(ctx.tenant.platform).here} can view or change Matchday settings.`,
      );
    const current = ctx.tenant.settings;
    // For the message below only: `switch (ctx.subcommand)` types `ctx.args` per subcommand.
    const sub: string | undefined = ctx.subcommand;
    // Everything that reads input or asks a platform happens first; `change` then only edits the
    // settings, so it can be applied again to newer settings if another admin saved meanwhile.
    let change: ((next: Settings) => void) | undefined;
    let describe: (stored: Settings) => Message = () => '';
    switch (ctx.subcommand) {
      case 'show':
        break;
      case 'games': {
        const games = await parseGames(ctx, str(ctx.args.games, 'games'));
        change = (next) => {
          next.games = games;
        };
        describe = (stored) => `Games: ${describeGames(ctx, stored.games)}.`;
        break;
      }
      case 'tiers': {
        const tiers = parseTiers(str(ctx.args.tiers, 'tiers'), false);
        change = (next) => {
          next.tiers = tiers;
        };
        describe = (stored) => `Tiers: ${stored.tiers.join(', ')}.`;
        break;
      }
      case 'timezone': {
        const typed = str(ctx.args.zone, 'zone');
        const zone = resolveTimeZone(typed);
        change = (next) => {
          next.timezone = zone;
        };
        // An abbreviation or offset says which zone it was taken as.
        const read = typed.toLowerCase() === zone.toLowerCase() ? '' : ` ("${typed}" read as ${zone})`;
        describe = (stored) => `Timezone: ${stored.timezone}${read}.`;
        break;
      }
      case 'spoilers': {
        // One of SPOILER_POLICIES by type; checked again for a call that skipped the runtime.
        const policy = ctx.args.policy;
        if (!SPOILER_POLICIES.includes(policy)) {
          throw new UserError('BAD_CHOICE', `policy must be one of ${SPOILER_POLICIES.join(', ')}.`);
        }
        change = (next) => {
          next.spoilers = policy;
        };
        describe = (stored) => `Spoilers: ${stored.spoilers}.`;
        break;
      }
      case 'reminders': {
        const leads = parseLeads(str(ctx.args.minutes, 'minutes'), false);
        change = (next) => {
          next.reminderLeads = leads;
        };
        describe = (stored) => `Reminders: ${stored.reminderLeads.join(', ')} minutes before.`;
        break;
      }
      case 'digest': {
        const time = textArg('time', ctx.args.time, 5);
        const whenEmpty = ctx.args.when_empty;
        if (time === undefined && whenEmpty === undefined) {
          throw new UserError('NOTHING_TO_CHANGE', 'Give a time (HH:MM) or when_empty (say or skip).');
        }
        if (time !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) {
          throw new UserError(
            'BAD_TIME',
            `"${time}" is not a time of day: use HH:MM in 24-hour form, e.g. 09:00.`,
          );
        }
        if (whenEmpty !== undefined && whenEmpty !== 'say' && whenEmpty !== 'skip')
          throw new UserError('BAD_CHOICE', 'when_empty must be say or skip.');
        change = (next) => {
          if (time !== undefined) next.digestTime = time;
          if (whenEmpty !== undefined) next.digestWhenEmpty = whenEmpty;
        };
        describe = (stored) =>
          `Digest: ${stored.digestTime} (${stored.timezone}), on empty days ${stored.digestWhenEmpty === 'say' ? 'say so' : 'skip'}.`;
        break;
      }
      case 'live': {
        const enabled = ctx.args.enabled;
        if (typeof enabled !== 'boolean')
          throw new UserError('BAD_BOOLEAN', 'enabled must be true or false.');
        change = (next) => {
          next.liveUpdates = enabled;
        };
        describe = (stored) => `Live updates: ${stored.liveUpdates ? 'on' : 'off'}.`;
        break;
      }
      case 'channel-add':
      case 'channel-set': {
        const id = channelId(ctx.args.channel);
        const seen = current.channels.find((c) => c.id === id);
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
        const patch = await channelPatch(ctx, seen?.games ?? [], ctx.args);
        let updated: ChannelSubscription | undefined;
        let added = false;
        change = (next) => {
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
        describe = () => (updated ? `${added ? 'Added' : 'Updated'} ${channelLabel(updated)}.` : '');
        break;
      }
      case 'events': {
        const id = channelId(ctx.args.channel);
        const enabled = ctx.args.enabled;
        if (typeof enabled !== 'boolean')
          throw new UserError('BAD_BOOLEAN', 'enabled must be true or false.');
        if (ctx.tenant.platform !== 'discord')
          throw new UserError('DISCORD_ONLY', [
            `Scheduled events are a Discord feature; ${tenantPlace(ctx.tenant.platform).here} can subscribe to a calendar instead (`,
            cmd('settings calendar'),
            ').',
          ]);
        if (!current.channels.some((c) => c.id === id)) throw channelUnknown();
        if (enabled && ctx.channels?.events) {
          const check = await ctx.channels.events();
          if (!check.ok)
            throw new UserError(
              'EVENTS_PERMISSION',
              `Matchday cannot make scheduled events here: it is missing ${check.missing.join(', ')}. Give its role Manage Events in Server Settings > Roles, then try again.`,
              check.missing,
            );
        }
        change = (next) => {
          const channel = next.channels.find((c) => c.id === id);
          if (!channel) throw channelUnknown();
          if (enabled) channel.events = true;
          else delete channel.events;
        };
        describe = (stored) => {
          const channel = stored.channels.find((c) => c.id === id);
          const label = channel ? channelLabel(channel) : `channel ${id}`;
          if (!enabled) return `Scheduled events from ${label}: off (Matchday removes its upcoming events).`;
          const teams = new Set([...(channel?.teams ?? []), ...stored.follows]).size;
          return teams === 0
            ? [
                `Scheduled events from ${label}: on, but it follows no team yet: add teams with `,
                cmd('follow team'),
                ' or ',
                cmd('settings channel-set teams:'),
                '.',
              ]
            : `Scheduled events from ${label}: on, for the series of ${teams} followed team${teams === 1 ? '' : 's'} in the next 26 hours (at most 100 events in the server).`;
        };
        break;
      }
      case 'threads': {
        const id = channelId(ctx.args.channel);
        const enabled = ctx.args.enabled;
        if (typeof enabled !== 'boolean')
          throw new UserError('BAD_BOOLEAN', 'enabled must be true or false.');
        if (ctx.tenant.platform === 'terminal')
          throw new UserError('NO_THREADS', 'The terminal has no threads; this works on Discord and Slack.');
        if (!current.channels.some((c) => c.id === id)) throw channelUnknown();
        if (enabled && ctx.channels?.threads) {
          const check = await ctx.channels.threads(id);
          if (!check.ok)
            throw new UserError(
              'THREADS_PERMISSION',
              `Matchday cannot use threads in that channel: it is missing ${check.missing.join(' and ')}. Give Matchday’s role those permissions in the channel (Edit Channel > Permissions) or in Server Settings > Roles, then turn threads on again.`,
              check.missing,
            );
        }
        change = (next) => {
          const channel = next.channels.find((c) => c.id === id);
          if (!channel) throw channelUnknown();
          if (enabled) channel.threads = true;
          else delete channel.threads;
        };
        describe = (stored) => {
          const channel = stored.channels.find((c) => c.id === id);
          const label = channel ? channelLabel(channel) : `channel ${id}`;
          if (!enabled) return `Threads in ${label}: off.`;
          const live = channel?.kinds.includes('live') && stored.liveUpdates;
          const on = `Threads in ${label}: on; each finished game is posted in a thread under the live card`;
          return live
            ? `${on}.`
            : [
                `${on} (live cards are off for this channel: turn them on with `,
                cmd('settings channel-set kinds:'),
                ' or ',
                cmd('settings live'),
                ').',
              ];
        };
        break;
      }
      case 'calendar': {
        // No settings change: the token lives beside the profiles (see README "Follow privately").
        const id = channelId(ctx.args.channel);
        const channel = current.channels.find((c) => c.id === id);
        if (!channel) throw channelUnknown();
        const calendars = ctx.channelCalendars;
        if (!calendars || calendars.url('probe') === undefined)
          throw new UserError(
            'NO_CALENDAR',
            'This Matchday serves no calendars. Whoever runs it can turn them on with CALENDAR_PORT (see the README, "Follow privately").',
          );
        const renew = ctx.args.action === 'renew';
        const url = calendars.url(await calendars.token(id, renew))!;
        const card: Card = {
          title: `Calendar of ${channelLabel(channel)}`,
          colour: COLOURS.success,
          description: [
            [{ link: url, label: url }],
            [
              "The channel's series (its games, tiers and teams) as a calendar to subscribe to, with reminders at its lead times.",
            ],
            renew
              ? ['The old URL no longer works.']
              : [
                  'Share it with the people who should have it; ',
                  cmd('settings calendar action:renew'),
                  ' makes a new one and the old one stops working.',
                ],
          ],
        };
        return { cards: [card], ephemeral: true };
      }
      case 'channel-remove': {
        const id = channelId(ctx.args.channel);
        let removed: ChannelSubscription | undefined;
        change = (next) => {
          removed = next.channels.find((c) => c.id === id);
          if (!removed)
            throw new UserError('UNKNOWN_CHANNEL', 'That channel is not set up for notifications.');
          next.channels = next.channels.filter((c) => c.id !== id);
        };
        describe = () => (removed ? `Removed ${channelLabel(removed)}.` : '');
        break;
      }
      default:
        throw new UserError(
          'UNKNOWN_SUBCOMMAND',
          `Unknown settings subcommand "${String(sub).slice(0, 30)}".`,
        );
    }
    // Pending admin notices are shown and cleared by the runtime after any admin command.
    let stored = current;
    if (change) {
      const edit = change;
      stored = await ctx.updateSettings((latest) => {
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
    const reply: Reply = { cards: [settingsCard(ctx, stored, describe(stored))], ephemeral: true };
    return reply;
  },
});

function channelExists(): UserError {
  return new UserError('CHANNEL_EXISTS', [
    'That channel is already set up; use ',
    cmd('settings channel-set'),
    ' to change it.',
  ]);
}

function channelUnknown(): UserError {
  return new UserError('UNKNOWN_CHANNEL', [
    'That channel is not set up; use ',
    cmd('settings channel-add'),
    ' first.',
  ]);
}

function str(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new UserError('MISSING_OPTION', `Give ${name}.`);
  return value.trim();
}

function channelId(value: unknown): string {
  const id = str(value, 'a channel');
  // Channel ids from the platforms: Discord snowflakes, Slack C/G ids, the terminal's name.
  if (!/^[A-Za-z0-9_#:-]{1,64}$/.test(id))
    throw new UserError('BAD_CHANNEL', 'That is not a channel: pick one from the list.');
  return id;
}

function splitList(text: string): string[] {
  return text
    .split(/[,;\n]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const ALL = new Set(['all', 'any', 'every', '*']);
const NONE = new Set(['none', 'no', '-']);

/** "cs2, dota 2" -> game ids through the name index; "all" -> []. */
async function parseGames(ctx: CommandContext<unknown>, text: string): Promise<number[]> {
  if (ALL.has(text.toLowerCase())) return [];
  const items = splitList(text);
  if (items.length > 20) throw new UserError('TOO_MANY', 'At most 20 games.');
  const ids: number[] = [];
  for (const item of items) ids.push(await resolveName(ctx, 'game', item));
  return [...new Set(ids)];
}

/** "1,2" -> [1, 2]; "all" -> [1,2,3,4] for the tenant, [] (the tenant's) for a channel. */
function parseTiers(text: string, forChannel: boolean): number[] {
  if (ALL.has(text.toLowerCase())) return forChannel ? [] : [1, 2, 3, 4];
  const items = text.split(/[\s,;]+/).filter((s) => s !== '');
  const tiers = items.map((item) => {
    if (!/^[1-4]$/.test(item))
      throw new UserError('BAD_TIER', `"${item.slice(0, 10)}" is not a tier: tiers are 1 (top) to 4.`);
    return Number(item);
  });
  if (tiers.length === 0) throw new UserError('BAD_TIER', 'Give at least one tier, e.g. "1,2".');
  return [...new Set(tiers)].sort();
}

/** "15, 60, 2h" -> [15, 60, 120] minutes, 1 to 1440, at most 5. */
export function parseLeads(text: string, forChannel: boolean): number[] {
  if (forChannel && ALL.has(text.toLowerCase())) return [];
  const leads = text
    .split(/[\s,;]+/)
    .filter((s) => s !== '')
    .map((item) => {
      const match = /^(\d{1,5})\s*(m|min|mins|minutes|h|hr|hours)?$/i.exec(item);
      const minutes = match ? Number(match[1]) * (match[2] && /^h/i.test(match[2]) ? 60 : 1) : Number.NaN;
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440) {
        throw new UserError(
          'BAD_LEAD',
          `"${item.slice(0, 10)}" is not a lead time: use minutes from 1 to 1440, e.g. "15, 60".`,
        );
      }
      return minutes;
    });
  const unique = [...new Set(leads)].sort((a, b) => a - b);
  if (unique.length === 0)
    throw new UserError('BAD_LEAD', 'Give at least one lead time in minutes, e.g. 15.');
  if (unique.length > 5) throw new UserError('BAD_LEAD', 'At most 5 reminder lead times.');
  return unique;
}

/** A channel's options as given: only what the admin set (`role: null` removes the role). */
type ChannelPatch = Partial<Omit<ChannelSubscription, 'role'>> & { role?: string | null };

/** Parses the channel options (names resolved through the index); nothing is changed yet. */
async function channelPatch(
  ctx: CommandContext<unknown>,
  channelGames: readonly number[],
  args: ArgsOf<typeof channelOptions>,
): Promise<ChannelPatch> {
  const patch: ChannelPatch = {};
  const games = textArg('games', args.games, 200);
  if (games !== undefined) patch.games = await parseGames(ctx, games);
  const tiers = textArg('tiers', args.tiers, 20);
  if (tiers !== undefined) patch.tiers = parseTiers(tiers, true);
  const teams = textArg('teams', args.teams, 300);
  if (teams !== undefined) {
    if (NONE.has(teams.toLowerCase())) patch.teams = [];
    else {
      const items = splitList(teams);
      if (items.length > 25) throw new UserError('TOO_MANY', 'At most 25 teams per channel.');
      const scope = scopeOf(ctx, patch.games ?? channelGames);
      const ids: number[] = [];
      for (const item of items) ids.push(await resolveName(ctx, 'team', item, scope));
      patch.teams = [...new Set(ids)];
    }
  }
  const kinds = textArg('kinds', args.kinds, 100);
  if (kinds !== undefined) {
    if (ALL.has(kinds.toLowerCase())) patch.kinds = [...NOTIFICATION_KINDS];
    else {
      const list: NotificationKind[] = [];
      for (const k of splitList(kinds.replace(/\s+/g, ',')).map((k) => k.toLowerCase())) {
        const kind = NOTIFICATION_KINDS.find((known) => known === k);
        if (!kind) {
          throw new UserError(
            'BAD_KIND',
            `"${k.slice(0, 20)}" is not a notification kind: use ${NOTIFICATION_KINDS.join(', ')}.`,
          );
        }
        list.push(kind);
      }
      if (list.length === 0)
        throw new UserError('BAD_KIND', `Give at least one of ${NOTIFICATION_KINDS.join(', ')}.`);
      patch.kinds = [...new Set(list)];
    }
  }
  const leads = textArg('leads', args.leads, 50);
  if (leads !== undefined) patch.leads = parseLeads(leads, true);
  const role = args.role;
  if (typeof role === 'string' && role.trim() !== '') {
    const id = role.trim();
    if (NONE.has(id.toLowerCase())) patch.role = null;
    else if (!/^[A-Za-z0-9_:-]{1,64}$/.test(id))
      throw new UserError('BAD_ROLE', 'That is not a role: pick one from the list.');
    else patch.role = id;
  }
  return patch;
}

function applyChannelPatch(base: ChannelSubscription, patch: ChannelPatch): ChannelSubscription {
  const { role, ...rest } = patch;
  const next: ChannelSubscription = { ...structuredClone(base), ...structuredClone(rest) };
  if (role === null) delete next.role;
  else if (role !== undefined) next.role = role;
  return next;
}

function describeGames(ctx: CommandContext<unknown>, games: readonly number[]): string {
  if (games.length === 0) return 'all';
  const names = ctx.names;
  return games.map((id) => names.game(id)?.title ?? `game ${id}`).join(', ');
}

function channelLabel(channel: ChannelSubscription): string {
  return channel.name ? `#${channel.name}` : `channel ${channel.id}`;
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
