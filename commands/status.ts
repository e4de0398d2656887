/**
 * `/status` (admins only): is Matchday healthy here? Whether the esports data
 * service answers (one request: the next series in this server's games and tiers, which also says
 * whether live data is expected for it), when the feed last read the live listing, how much of the
 * upstream budget this process uses, this server's notification channels that miss a permission,
 * paused subscriptions and why, and the bot's version.
 */

import { type ChannelCheck, defineCommand } from '../src/bot/command.ts';
import { COLOURS, type Field, type Text } from '../src/bot/reply.ts';
import type { ChannelSubscription } from '../src/bot/settings.ts';
import type { ProcessStatus } from '../src/bot/status.ts';
import { VERSION } from '../src/bot/status.ts';
import type { Where } from '../src/client/types.ts';
import { cmd } from '../src/core/errors.ts';
import { INTL_TAGS, spanned, type Translate } from '../src/i18n/i18n.ts';
import type { Series } from '../src/protocol/types.ts';
import { visible } from './shared.ts';

/**
 * A feed whose last successful poll is older than this, in real time, is reported as behind (on a
 * clock running 30 times faster, 2 real minutes are an hour of the service's time).
 */
export const FEED_STALE_MS = 2 * 60_000;

type Health = 'ok' | 'warning' | 'error';

export default defineCommand({
  name: 'status',
  description: 'Is Matchday healthy here: data service, feed, budget, channels, version',
  adminOnly: true,
  ephemeral: true,
  usesService: true,
  async run(ctx) {
    const { tenant, data, now, t } = ctx;
    const status = ctx.status?.();
    const fields: Field[] = [];
    const worst: Health[] = [];

    // The next series here: the one request /status makes, so it also tells whether the service answers.
    // The client may answer from its cache (series are fresh for 30 s): the upstream failures of the
    // last minute below tell whether the service is failing even then.
    const filter: Where<'series'>[] = [['lifecycle', '=', 'upcoming']];
    if (tenant.settings.games.length > 0) filter.push(['game.id', '<=', tenant.settings.games]);
    if (tenant.settings.tiers.length > 0) filter.push(['tier', '<=', tenant.settings.tiers]);
    let next: Series | undefined;
    let serviceLine: Text;
    try {
      [next] = visible(await data.series.list({ filter, order: 'start-asc', take: 1 }));
      if (data.servedStale) {
        serviceLine = [t('commands.status.stale')];
        worst.push('error');
      } else if (
        status &&
        status.upstream.failed > 0 &&
        status.upstream.failed >= status.upstream.requests / 2
      ) {
        const { failed, requests, seconds } = status.upstream;
        serviceLine = [t('commands.status.failing', { failed, count: requests, seconds })];
        worst.push('error');
      } else serviceLine = [t('commands.status.answering')];
    } catch (error) {
      const reason = error instanceof Error ? error.message : t('commands.status.noAnswer');
      serviceLine = [t('commands.status.notAnswering', { reason })];
      worst.push('error');
    }
    fields.push({ name: t('commands.status.field.service'), value: serviceLine });
    if (status) {
      const feed = feedLine(t, status, now.getTime());
      worst.push(feed.health);
      fields.push({ name: t('commands.status.field.feed'), value: feed.text });
      const budget = budgetLine(t, status);
      worst.push(budget.health);
      fields.push({ name: t('commands.status.field.budget'), value: budget.text });
    }
    fields.push({ name: t('commands.status.field.next'), value: nextLine(t, next) });

    // Channels: the platform says what Matchday lacks in each subscribed channel.
    const channels = tenant.settings.channels;
    const paused = channels.filter((c) => c.disabled);
    const channelLines = await channelsLine(t, channels, ctx.channels);
    if (channelLines.health !== 'ok') worst.push(channelLines.health);
    const lines = channelLines.lines;
    const channelsValue = lines.flatMap((line, i) => [...(i > 0 ? ['\n'] : []), ...line]);
    fields.push({ name: t('commands.status.field.channels'), value: channelsValue });
    if (paused.length > 0) worst.push('warning');
    fields.push(pausedField(t, paused));
    const notifier = status?.notifier ? ` · ${t('commands.status.notifierHere')}` : '';
    fields.push({
      name: t('commands.status.field.version'),
      value: [`Matchday ${status?.version ?? VERSION}${notifier}`],
    });

    const health: Health = worst.includes('error') ? 'error' : worst.includes('warning') ? 'warning' : 'ok';
    return {
      cards: [
        {
          title: t(`commands.status.title.${health}`),
          colour: health === 'ok' ? COLOURS.success : health === 'warning' ? COLOURS.warning : COLOURS.error,
          fields,
        },
      ],
      ephemeral: true,
    };
  },
});

/** The paused subscriptions, since when and why, and how to resume them. */
function pausedField(t: Translate, paused: readonly ChannelSubscription[]): Field {
  return {
    name: t('commands.status.field.paused'),
    value:
      paused.length === 0
        ? [t('commands.status.none')]
        : paused.flatMap((c, i) => [
            ...(i > 0 ? ['\n'] : []),
            ...spanned(
              t,
              'commands.status.pausedLine',
              { name: `#${c.name ?? c.id}`, reason: c.disabled!.reason },
              {
                time: { time: new Date(c.disabled!.at), style: 'full' as const },
                command: cmd('settings channel-add'),
              },
            ),
          ]),
  };
}

/** One line per notification channel: OK, paused, or what Matchday lacks there. */
async function channelsLine(
  t: Translate,
  channels: readonly ChannelSubscription[],
  checks: ChannelCheck | undefined,
): Promise<{ lines: Text[]; health: Health }> {
  const lines: Text[] = [];
  let health: Health = 'ok';
  if (channels.length === 0)
    lines.push(spanned(t, 'commands.status.noChannels', {}, { command: cmd('settings channel-add') }));
  else if (!checks) lines.push([t('commands.status.nothingToCheck', { count: channels.length })]);
  else {
    const found = await Promise.all(
      channels.map(async (c) => [c, c.disabled ? undefined : await checkChannel(t, checks, c)] as const),
    );
    for (const [c, check] of found) {
      const name = `#${c.name ?? c.id}`;
      if (c.disabled) lines.push([t('commands.status.channelPaused', { name })]);
      else if (!check) lines.push([t('commands.status.channelUnchecked', { name })]);
      else if (check.ok) lines.push([t('commands.status.channelOk', { name })]);
      else {
        lines.push([t('commands.status.channelMissing', { name, missing: check.missing.join(', ') })]);
        health = 'error';
      }
    }
  }
  return { lines, health };
}

type CheckResult = Awaited<ReturnType<ChannelCheck['check']>>;

/**
 * What Matchday lacks in a channel: to post there, and what the channel turned on needs (Discord:
 * Manage Events for its scheduled events, the thread permissions for its threads). Undefined when
 * the platform could not be asked.
 */
async function checkChannel(
  t: Translate,
  checks: ChannelCheck,
  channel: ChannelSubscription,
): Promise<CheckResult | undefined> {
  try {
    const posting = await checks.check(channel.id);
    const missing = posting.ok ? [] : [...posting.missing];
    if (channel.events && checks.events) {
      const events = await checks.events();
      if (!events.ok)
        missing.push(...events.missing.map((m) => t('commands.status.eventsOn', { missing: m })));
    }
    if (channel.threads && checks.threads) {
      const threads = await checks.threads(channel.id);
      if (!threads.ok)
        missing.push(...threads.missing.map((m) => t('commands.status.threadsOn', { missing: m })));
    }
    return missing.length === 0 ? posting : { ok: false, missing };
  } catch {
    return undefined;
  }
}

function feedLine(t: Translate, status: ProcessStatus, now: number): { text: Text; health: Health } {
  if (!status.hasFeed) return { text: [t('commands.status.noFeed')], health: 'ok' };
  if (status.lastPollAt === undefined) return { text: [t('commands.status.noPoll')], health: 'warning' };
  const age = Math.max(0, now - status.lastPollAt);
  const polled = { time: new Date(status.lastPollAt), style: 'relative' as const };
  const text: Text = spanned(t, 'commands.status.lastPoll', {}, { time: polled });
  if (status.feedFilling) text.push(`; ${t('commands.status.filling')}`);
  if (age / status.clockSpeed > FEED_STALE_MS) {
    text.push(`; ${t('commands.status.behind', { age: formatAge(age) })}`);
    return { text, health: 'error' };
  }
  return { text, health: 'ok' };
}

function budgetLine(t: Translate, status: ProcessStatus): { text: Text; health: Health } {
  const u = status.upstream;
  // `matchday ask` is a process of its own, started for this one answer: its figures are not the bot's.
  if (status.oneShot)
    return { text: [t('commands.status.oneShotBudget', { count: u.requests })], health: 'ok' };
  const rate = oneDecimal(t, u.requests / Math.max(1, u.seconds));
  const parts = [
    u.perSecond !== undefined && u.inUseRatio !== undefined
      ? t('commands.status.rateOf', { rate, most: u.perSecond, percent: Math.round(u.inUseRatio * 100) })
      : t('commands.status.rate', { rate }),
    t('commands.status.over', { seconds: u.seconds }),
  ];
  const extra: string[] = [];
  if (u.failed > 0) extra.push(t('commands.status.failed', { count: u.failed }));
  if (u.rateLimited > 0) extra.push(t('commands.status.rateLimited', { count: u.rateLimited }));
  if (u.queueLength > 0) extra.push(t('commands.status.waiting', { count: u.queueLength }));
  const text = `${parts.join(' ')}${extra.length > 0 ? `; ${extra.join(', ')}` : ''}`;
  const health: Health =
    u.failed > 0 && u.failed >= u.requests / 2 ? 'error' : u.rateLimited > 0 ? 'warning' : 'ok';
  return { text: [text], health };
}

/** "2.5" / "2,5": one decimal, as the locale writes it. */
function oneDecimal(t: Translate, n: number): string {
  return n.toLocaleString(INTL_TAGS[t.locale], {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    useGrouping: false,
  });
}

function nextLine(t: Translate, next: Series | undefined): Text {
  if (!next) return [t('commands.status.nothingUpcoming')];
  const live = next.coverage?.data?.live;
  const expected = (leaf: { expectation: string } | undefined) =>
    leaf?.expectation === 'available' || leaf?.expectation === 'partial';
  const source = expected(live?.cv)
    ? t('commands.status.cv')
    : expected(live?.api)
      ? t('commands.status.api')
      : undefined;
  const when: Text = next.start ? [' ', { time: new Date(next.start), style: 'relative' }] : [];
  return [
    t('commands.status.nextSeries', { title: next.title, id: next.id }),
    ...when,
    source ? t('commands.status.liveExpected', { source }) : t('commands.status.noLiveExpected'),
  ];
}

function formatAge(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${Math.round(m / 60)} h`;
}
