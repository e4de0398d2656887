/**
 * The `/settings` subcommands that add something to a notification channel beyond its filters
 * Discord scheduled events (`events`), a thread per live card (`threads`) and the
 * channel's calendar URL (`calendar`), with the channel helpers `/settings` shares. Each change is
 * a pure edit of the settings (`SettingsChange`), so `/settings` can apply it again to newer settings
 * when another admin saved meanwhile; the platform checks (permissions) happen before it.
 */
import type { CommandContext } from '../src/bot/command.ts';
import type { Card, Reply } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import type { ChannelSubscription, Settings } from '../src/bot/settings.ts';
import { cmd, type Message, UserError } from '../src/core/errors.ts';
import { spanned, type Translate } from '../src/i18n/i18n.ts';

/** An edit of the settings, and what to say once it is stored. */
export interface SettingsChange {
  change: (next: Settings) => void;
  /** What the stored settings say of the change, in their language (`t`). */
  describe: (stored: Settings, t: Translate) => Message;
}

/** The options of `events` and `threads`. */
interface ChannelSwitch {
  channel?: unknown;
  enabled?: unknown;
}

export function channelId(t: Translate, value: unknown): string {
  const id = str(t, value, t('commands.settings.aChannel'));
  // Channel ids from the platforms: Discord snowflakes, Slack C/G ids, the terminal's name.
  if (!/^[A-Za-z0-9_#:-]{1,64}$/.test(id))
    throw new UserError('BAD_CHANNEL', t('commands.settings.badChannel'));
  return id;
}

export function str(t: Translate, value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new UserError('MISSING_OPTION', t('commands.settings.give', { name }));
  return value.trim();
}

export function channelLabel(t: Translate, channel: ChannelSubscription): string {
  return channel.name ? `#${channel.name}` : t('commands.settings.channel', { id: channel.id });
}

/**
 * The channel as a `channel:` option one can type back: `#name` (Discord's picker, Slack's
 * channel link and the terminal all read it), else its id.
 */
export function channelOption(channel: Pick<ChannelSubscription, 'id' | 'name'>): string {
  return `channel:#${(channel.name ?? channel.id).replace(/^#/, '')}`;
}

export function channelUnknown(t: Translate): UserError {
  return new UserError(
    'UNKNOWN_CHANNEL',
    spanned(t, 'commands.settings.channelUnknown', {}, { command: cmd('settings channel-add') }),
  );
}

/** The channel and the state a switch (`events`, `threads`) is turned to, with the settings now. */
function switchOf(
  ctx: CommandContext<unknown>,
  args: ChannelSwitch,
): { id: string; enabled: boolean; current: Settings } {
  const id = channelId(ctx.t, args.channel);
  if (typeof args.enabled !== 'boolean')
    throw new UserError('BAD_BOOLEAN', ctx.t('commands.settings.badBoolean'));
  return { id, enabled: args.enabled, current: ctx.tenant.settings };
}

/** `/settings events`: a channel's followed series as the server's scheduled events (Discord). */
export async function eventsChange(
  ctx: CommandContext<unknown>,
  args: ChannelSwitch,
): Promise<SettingsChange> {
  const { id, enabled, current } = switchOf(ctx, args);
  const t = ctx.t;
  if (ctx.tenant.platform !== 'discord')
    throw new UserError(
      'DISCORD_ONLY',
      spanned(
        t,
        'commands.settings.discordOnly',
        { here: t(`commands.place.${ctx.tenant.platform}.here`) },
        // The channel as given, so the suggestion runs as shown (or says the channel is not set up).
        {
          command: cmd(
            `settings calendar ${channelOption(current.channels.find((c) => c.id === id) ?? { id })}`,
          ),
        },
      ),
    );
  if (!current.channels.some((c) => c.id === id)) throw channelUnknown(t);
  if (enabled && ctx.channels?.events) {
    const check = await ctx.channels.events();
    if (!check.ok)
      throw new UserError(
        'EVENTS_PERMISSION',
        t('commands.settings.eventsPermission', { missing: check.missing.join(', ') }),
        check.missing,
      );
  }
  return channelSwitch(t, id, enabled, 'events', (st, label, channel, stored) => {
    if (!enabled) return st('commands.settings.eventsOff', { label });
    const teams = new Set([...(channel?.teams ?? []), ...stored.follows]).size;
    return teams === 0
      ? spanned(
          st,
          'commands.settings.eventsNoTeam',
          { label },
          { follow: cmd('follow team'), set: cmd('settings channel-set teams:') },
        )
      : st('commands.settings.eventsOn', { label, count: teams });
  });
}

/** `/settings threads`: each finished game as a reply in a thread under the channel's live card. */
export async function threadsChange(
  ctx: CommandContext<unknown>,
  args: ChannelSwitch,
): Promise<SettingsChange> {
  const { id, enabled, current } = switchOf(ctx, args);
  const t = ctx.t;
  if (ctx.tenant.platform === 'terminal') throw new UserError('NO_THREADS', t('commands.settings.noThreads'));
  if (!current.channels.some((c) => c.id === id)) throw channelUnknown(t);
  if (enabled && ctx.channels?.threads) {
    const check = await ctx.channels.threads(id);
    if (!check.ok)
      throw new UserError(
        'THREADS_PERMISSION',
        t('commands.settings.threadsPermission', {
          missing: check.missing.join(` ${t('commands.settings.and')} `),
        }),
        check.missing,
      );
  }
  return channelSwitch(t, id, enabled, 'threads', (st, label, channel, stored) => {
    if (!enabled) return st('commands.settings.threadsOff', { label });
    const live = channel?.kinds.includes('live') && stored.liveUpdates;
    return live
      ? st('commands.settings.threadsOn', { label })
      : spanned(
          st,
          'commands.settings.threadsOnNoLive',
          { label },
          { kinds: cmd('settings channel-set kinds:'), live: cmd('settings live') },
        );
  });
}

/**
 * Turns one of a set-up channel's switches on or off; `say` words the stored result, given the
 * channel's label and the channel as stored.
 */
function channelSwitch(
  t: Translate,
  id: string,
  enabled: boolean,
  flag: 'events' | 'threads',
  say: (t: Translate, label: string, channel: ChannelSubscription | undefined, stored: Settings) => Message,
): SettingsChange {
  return {
    change: (next) => {
      const channel = next.channels.find((c) => c.id === id);
      if (!channel) throw channelUnknown(t);
      if (enabled) channel[flag] = true;
      else delete channel[flag];
    },
    describe: (stored, st) => {
      const channel = stored.channels.find((c) => c.id === id);
      return say(
        st,
        channel ? channelLabel(st, channel) : st('commands.settings.channel', { id }),
        channel,
        stored,
      );
    },
  };
}

/**
 * `/settings calendar`: the channel's calendar URL (no settings change: the token lives beside the
 * profiles, see docs/commands.md, "Follow privately"); `action:renew` replaces it.
 */
export async function calendarReply(
  ctx: CommandContext<unknown>,
  current: Settings,
  args: { channel?: unknown; action?: unknown },
): Promise<Reply> {
  const t = ctx.t;
  const id = channelId(t, args.channel);
  const channel = current.channels.find((c) => c.id === id);
  if (!channel) throw channelUnknown(t);
  const calendars = ctx.channelCalendars;
  if (!calendars || calendars.url('probe') === undefined)
    throw new UserError('NO_CALENDAR', t('commands.me.noCalendar'));
  const renew = args.action === 'renew';
  const url = calendars.url(await calendars.token(id, renew))!;
  const card: Card = {
    title: t('commands.settings.calendarTitle', { label: channelLabel(t, channel) }),
    colour: COLOURS.success,
    description: [
      [{ link: url, label: url }],
      [t('commands.settings.calendarAbout')],
      renew
        ? [t('commands.me.calendar.oldGone')]
        : spanned(
            t,
            'commands.settings.calendarShare',
            {},
            // With the channel: the command runs as shown (channel: is required).
            { command: cmd(`settings calendar ${channelOption(channel)} action:renew`) },
          ),
    ],
  };
  return { cards: [card], ephemeral: true };
}
