/**
 * The `/settings` subcommands that add something to a notification channel beyond its filters
 * (issue 16): Discord scheduled events (`events`), a thread per live card (`threads`) and the
 * channel's calendar URL (`calendar`), with the channel helpers `/settings` shares. Each change is
 * a pure edit of the settings (`SettingsChange`), so `/settings` can apply it again to newer settings
 * when another admin saved meanwhile; the platform checks (permissions) happen before it.
 */
import { type CommandContext, UserError } from '../src/bot/command.ts';
import { tenantPlace } from '../src/bot/format.ts';
import type { Card, Reply } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import type { ChannelSubscription, Settings } from '../src/bot/settings.ts';
import { cmd, type Message } from '../src/core/errors.ts';

/** An edit of the settings, and what to say once it is stored. */
export interface SettingsChange {
  change: (next: Settings) => void;
  describe: (stored: Settings) => Message;
}

/** The options of `events` and `threads`. */
interface ChannelSwitch {
  channel?: unknown;
  enabled?: unknown;
}

export function channelId(value: unknown): string {
  const id = str(value, 'a channel');
  // Channel ids from the platforms: Discord snowflakes, Slack C/G ids, the terminal's name.
  if (!/^[A-Za-z0-9_#:-]{1,64}$/.test(id))
    throw new UserError('BAD_CHANNEL', 'That is not a channel: pick one from the list.');
  return id;
}

export function str(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new UserError('MISSING_OPTION', `Give ${name}.`);
  return value.trim();
}

export function channelLabel(channel: ChannelSubscription): string {
  return channel.name ? `#${channel.name}` : `channel ${channel.id}`;
}

/**
 * The channel as a `channel:` option one can type back: `#name` (Discord's picker, Slack's
 * channel link and the terminal all read it), else its id.
 */
export function channelOption(channel: Pick<ChannelSubscription, 'id' | 'name'>): string {
  return `channel:#${(channel.name ?? channel.id).replace(/^#/, '')}`;
}

export function channelUnknown(): UserError {
  return new UserError('UNKNOWN_CHANNEL', [
    'That channel is not set up; use ',
    cmd('settings channel-add'),
    ' first.',
  ]);
}

/** The channel and the state a switch (`events`, `threads`) is turned to, with the settings now. */
function switchOf(
  ctx: CommandContext<unknown>,
  args: ChannelSwitch,
): { id: string; enabled: boolean; current: Settings } {
  const id = channelId(args.channel);
  if (typeof args.enabled !== 'boolean') throw new UserError('BAD_BOOLEAN', 'enabled must be true or false.');
  return { id, enabled: args.enabled, current: ctx.tenant.settings };
}

/** `/settings events`: a channel's followed series as the server's scheduled events (Discord). */
export async function eventsChange(
  ctx: CommandContext<unknown>,
  args: ChannelSwitch,
): Promise<SettingsChange> {
  const { id, enabled, current } = switchOf(ctx, args);
  if (ctx.tenant.platform !== 'discord')
    throw new UserError('DISCORD_ONLY', [
      `Scheduled events are a Discord feature; ${tenantPlace(ctx.tenant.platform).here} can subscribe to a calendar instead (`,
      // The channel as given, so the suggestion runs as shown (or says the channel is not set up).
      cmd(`settings calendar ${channelOption(current.channels.find((c) => c.id === id) ?? { id })}`),
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
  return channelSwitch(id, enabled, 'events', (label, channel, stored) => {
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
  });
}

/** `/settings threads`: each finished game as a reply in a thread under the channel's live card. */
export async function threadsChange(
  ctx: CommandContext<unknown>,
  args: ChannelSwitch,
): Promise<SettingsChange> {
  const { id, enabled, current } = switchOf(ctx, args);
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
  return channelSwitch(id, enabled, 'threads', (label, channel, stored) => {
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
  });
}

/**
 * Turns one of a set-up channel's switches on or off; `say` words the stored result, given the
 * channel's label and the channel as stored.
 */
function channelSwitch(
  id: string,
  enabled: boolean,
  flag: 'events' | 'threads',
  say: (label: string, channel: ChannelSubscription | undefined, stored: Settings) => Message,
): SettingsChange {
  return {
    change: (next) => {
      const channel = next.channels.find((c) => c.id === id);
      if (!channel) throw channelUnknown();
      if (enabled) channel[flag] = true;
      else delete channel[flag];
    },
    describe: (stored) => {
      const channel = stored.channels.find((c) => c.id === id);
      return say(channel ? channelLabel(channel) : `channel ${id}`, channel, stored);
    },
  };
}

/**
 * `/settings calendar`: the channel's calendar URL (no settings change: the token lives beside the
 * profiles, see README "Follow privately"); `action:renew` replaces it.
 */
export async function calendarReply(
  ctx: CommandContext<unknown>,
  current: Settings,
  args: { channel?: unknown; action?: unknown },
): Promise<Reply> {
  const id = channelId(args.channel);
  const channel = current.channels.find((c) => c.id === id);
  if (!channel) throw channelUnknown();
  const calendars = ctx.channelCalendars;
  if (!calendars || calendars.url('probe') === undefined)
    throw new UserError(
      'NO_CALENDAR',
      'This Matchday serves no calendars. Whoever runs it can turn them on with CALENDAR_PORT (see the README, "Follow privately").',
    );
  const renew = args.action === 'renew';
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
            // With the channel: the command runs as shown (channel: is required).
            cmd(`settings calendar ${channelOption(channel)} action:renew`),
            ' makes a new one and the old one stops working.',
          ],
    ],
  };
  return { cards: [card], ephemeral: true };
}
