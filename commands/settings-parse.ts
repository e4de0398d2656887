/**
 * The `/settings` options and their parsing (split out of `settings.ts`): games through
 * the name index, tiers, reminder lead times (also `/me reminders`), and a notification channel's
 * options as a patch applied to its subscription; the spoiler and calendar options `/me` shares.
 * Nothing here changes settings.
 */
import type { ArgsOf, CommandContext } from '../src/bot/command.ts';
import {
  type ChannelSubscription,
  NOTIFICATION_KINDS,
  type NotificationKind,
  SPOILER_POLICIES,
} from '../src/bot/settings.ts';
import { UserError } from '../src/core/errors.ts';
import { LOCALE_NAMES, LOCALES, type Translate } from '../src/i18n/i18n.ts';
import { resolveName, scopeOf } from './shared.ts';

/** The time zone of `/settings timezone` and `/me timezone`. */
export const zoneOption = {
  type: 'string',
  description: 'e.g. Europe/Berlin',
  required: true,
  autocomplete: 'timezone',
  max: 64,
} as const;

/** The spoiler policy of `/settings spoilers` and `/me spoilers`. */
export const spoilersOption = {
  type: 'string',
  description: 'show, spoiler (hidden until revealed) or hide',
  required: true,
  choices: SPOILER_POLICIES.map((p) => ({ name: p, value: p })),
} as const;

/** The language of `/settings language`: each locale by its own name. */
export const languageOption = {
  type: 'string',
  description: 'en, pt or de',
  required: true,
  choices: LOCALES.map((code) => ({ name: `${LOCALE_NAMES[code]} (${code})`, value: code })),
} as const;

/** What `/settings calendar` and `/me calendar` do with the calendar URL. */
export const calendarActionOption = {
  type: 'string',
  description: 'show (default) or renew (the old URL stops working)',
  choices: [
    { name: 'show', value: 'show' },
    { name: 'renew', value: 'renew' },
  ],
} as const;

export const channelOptions = {
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

function splitList(text: string): string[] {
  return text
    .split(/[,;\n]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const ALL = new Set(['all', 'any', 'every', '*']);
const NONE = new Set(['none', 'no', '-']);

/** "cs2, dota 2" -> game ids through the name index; "all" -> []. */
export async function parseGames(ctx: CommandContext<unknown>, text: string): Promise<number[]> {
  if (ALL.has(text.toLowerCase())) return [];
  const items = splitList(text);
  if (items.length > 20)
    throw new UserError('TOO_MANY', ctx.t('commands.settings.parse.tooManyGames', { count: 20 }));
  const ids: number[] = [];
  for (const item of items) ids.push(await resolveName(ctx, 'game', item));
  return [...new Set(ids)];
}

/** "1,2" -> [1, 2]; "1-3" -> [1, 2, 3]; "all" -> [1,2,3,4] for the tenant, [] (the tenant's) for a channel. */
export function parseTiers(t: Translate, text: string, forChannel: boolean): number[] {
  if (ALL.has(text.toLowerCase())) return forChannel ? [] : [1, 2, 3, 4];
  const items = text.split(/[\s,;]+/).filter((s) => s !== '');
  const tiers = items.flatMap((item) => {
    const range = /^([1-4])\s*[-–]\s*([1-4])$/.exec(item);
    if (range) {
      const [low, high] = [Number(range[1]), Number(range[2])].sort() as [number, number];
      return Array.from({ length: high - low + 1 }, (_, i) => low + i);
    }
    if (!/^[1-4]$/.test(item))
      throw new UserError('BAD_TIER', t('commands.settings.parse.badTier', { item: item.slice(0, 10) }));
    return [Number(item)];
  });
  if (tiers.length === 0) throw new UserError('BAD_TIER', t('commands.settings.parse.noTier'));
  return [...new Set(tiers)].sort();
}

/** "15, 60, 2h" -> [15, 60, 120] minutes, 1 to 1440, at most 5. */
export function parseLeads(t: Translate, text: string, forChannel: boolean): number[] {
  if (forChannel && ALL.has(text.toLowerCase())) return [];
  const leads = text
    .split(/[\s,;]+/)
    .filter((s) => s !== '')
    .map((item) => {
      const match = /^(\d{1,5})\s*(m|min|mins|minutes|h|hr|hours)?$/i.exec(item);
      const minutes = match ? Number(match[1]) * (match[2] && /^h/i.test(match[2]) ? 60 : 1) : Number.NaN;
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440) {
        throw new UserError('BAD_LEAD', t('commands.settings.parse.badLead', { item: item.slice(0, 10) }));
      }
      return minutes;
    });
  const unique = [...new Set(leads)].sort((a, b) => a - b);
  if (unique.length === 0) throw new UserError('BAD_LEAD', t('commands.settings.parse.noLead'));
  if (unique.length > 5)
    throw new UserError('BAD_LEAD', t('commands.settings.parse.tooManyLeads', { count: 5 }));
  return unique;
}

/** A channel's options as given: only what the admin set (`role: null` removes the role). */
export type ChannelPatch = Partial<Omit<ChannelSubscription, 'role'>> & { role?: string | null };

/** Parses the channel options (names resolved through the index); nothing is changed yet. */
export async function channelPatch(
  ctx: CommandContext<unknown>,
  channelGames: readonly number[],
  args: ArgsOf<typeof channelOptions>,
): Promise<ChannelPatch> {
  const patch: ChannelPatch = {};
  const games = args.games;
  if (games !== undefined) patch.games = await parseGames(ctx, games);
  const tiers = args.tiers;
  if (tiers !== undefined) patch.tiers = parseTiers(ctx.t, tiers, true);
  const teams = args.teams;
  if (teams !== undefined) {
    if (NONE.has(teams.toLowerCase())) patch.teams = [];
    else {
      const items = splitList(teams);
      if (items.length > 25)
        throw new UserError('TOO_MANY', ctx.t('commands.settings.parse.tooManyTeams', { count: 25 }));
      const scope = scopeOf(ctx, patch.games ?? channelGames);
      const ids: number[] = [];
      for (const item of items) ids.push(await resolveName(ctx, 'team', item, scope));
      patch.teams = [...new Set(ids)];
    }
  }
  const kinds = args.kinds;
  if (kinds !== undefined) {
    if (ALL.has(kinds.toLowerCase())) patch.kinds = [...NOTIFICATION_KINDS];
    else {
      const list: NotificationKind[] = [];
      for (const k of splitList(kinds.replace(/\s+/g, ',')).map((k) => k.toLowerCase())) {
        const kind = NOTIFICATION_KINDS.find((known) => known === k);
        if (!kind) {
          throw new UserError(
            'BAD_KIND',
            ctx.t('commands.settings.parse.badKind', {
              kind: k.slice(0, 20),
              kinds: NOTIFICATION_KINDS.join(', '),
            }),
          );
        }
        list.push(kind);
      }
      if (list.length === 0)
        throw new UserError(
          'BAD_KIND',
          ctx.t('commands.settings.parse.noKind', { kinds: NOTIFICATION_KINDS.join(', ') }),
        );
      patch.kinds = [...new Set(list)];
    }
  }
  const leads = args.leads;
  if (leads !== undefined) patch.leads = parseLeads(ctx.t, leads, true);
  const role = args.role;
  if (typeof role === 'string' && role.trim() !== '') {
    const id = role.trim();
    if (NONE.has(id.toLowerCase())) patch.role = null;
    else if (!/^[A-Za-z0-9_:-]{1,64}$/.test(id))
      throw new UserError('BAD_ROLE', ctx.t('commands.settings.parse.badRole'));
    else patch.role = id;
  }
  return patch;
}

export function applyChannelPatch(base: ChannelSubscription, patch: ChannelPatch): ChannelSubscription {
  const { role, ...rest } = patch;
  const next: ChannelSubscription = { ...structuredClone(base), ...structuredClone(rest) };
  if (role === null) delete next.role;
  else if (role !== undefined) next.role = role;
  return next;
}

/** A time of day as typed, "9:00" or "09:00", as HH:MM ("09:00"); undefined when it is none. */
export function clockTime(text: string): string | undefined {
  const match = /^(\d{1,2})[:.h]([0-5]\d)$/.exec(text.trim());
  if (!match || Number(match[1]) > 23) return undefined;
  return `${match[1]!.padStart(2, '0')}:${match[2]}`;
}

/**
 * Quiet hours typed as one range, "23:00-08:00" (or with "–", "to", spaces), as from and to in
 * HH:MM; undefined when the text is no such range.
 */
export function clockRange(text: string): { from: string; to: string } | undefined {
  const match = /^(\S+?)\s*(?:-|–|—|\bto\b|\bbis\b|\baté\b)\s*(\S+)$/i.exec(text.trim());
  const from = match ? clockTime(match[1]!) : undefined;
  const to = match ? clockTime(match[2]!) : undefined;
  return from && to ? { from, to } : undefined;
}
