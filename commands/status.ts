/**
 * `/status` (admins only; issue 17, item 5): is Matchday healthy here? Whether the esports data
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
    const { tenant, data, now } = ctx;
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
        serviceLine = ['Not answering: showing what was read before it failed'];
        worst.push('error');
      } else if (
        status &&
        status.upstream.failed > 0 &&
        status.upstream.failed >= status.upstream.requests / 2
      ) {
        serviceLine = [
          `Failing: ${status.upstream.failed} of ${status.upstream.requests} requests failed in the last ${status.upstream.seconds} s`,
        ];
        worst.push('error');
      } else serviceLine = ['Answering'];
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'no answer';
      serviceLine = [`Not answering: ${reason}`];
      worst.push('error');
    }
    fields.push({ name: 'Esports data service', value: serviceLine });
    if (status) {
      const feed = feedLine(status, now.getTime());
      worst.push(feed.health);
      fields.push({ name: 'Feed', value: feed.text });
      const budget = budgetLine(status);
      worst.push(budget.health);
      fields.push({ name: 'Upstream budget', value: budget.text });
    }
    fields.push({ name: 'Next series', value: nextLine(next) });

    // Channels: the platform says what Matchday lacks in each subscribed channel.
    const channels = tenant.settings.channels;
    const paused = channels.filter((c) => c.disabled);
    const channelLines = await channelsLine(channels, ctx.channels);
    if (channelLines.health !== 'ok') worst.push(channelLines.health);
    const lines = channelLines.lines;
    fields.push({ name: 'Channels', value: lines.flatMap((line, i) => [...(i > 0 ? ['\n'] : []), ...line]) });
    if (paused.length > 0) worst.push('warning');
    fields.push(pausedField(paused));
    fields.push({
      name: 'Version',
      value: [`Matchday ${status?.version ?? VERSION}${status?.notifier ? ' · notifier running here' : ''}`],
    });

    const health: Health = worst.includes('error') ? 'error' : worst.includes('warning') ? 'warning' : 'ok';
    return {
      cards: [
        {
          title:
            health === 'ok'
              ? 'Matchday status: all good'
              : health === 'warning'
                ? 'Matchday status: needs a look'
                : 'Matchday status: something is wrong',
          colour: health === 'ok' ? COLOURS.success : health === 'warning' ? COLOURS.warning : COLOURS.error,
          fields,
        },
      ],
      ephemeral: true,
    };
  },
});

/** The paused subscriptions, since when and why, and how to resume them. */
function pausedField(paused: readonly ChannelSubscription[]): Field {
  return {
    name: 'Paused subscriptions',
    value:
      paused.length === 0
        ? ['None']
        : paused.flatMap((c, i) => [
            ...(i > 0 ? ['\n'] : []),
            `#${c.name ?? c.id} since `,
            { time: new Date(c.disabled!.at), style: 'full' as const },
            `: ${c.disabled!.reason} (fix it, then `,
            cmd('settings channel-add'),
            ' to resume)',
          ]),
  };
}

/** One line per notification channel: OK, paused, or what Matchday lacks there. */
async function channelsLine(
  channels: readonly ChannelSubscription[],
  checks: ChannelCheck | undefined,
): Promise<{ lines: Text[]; health: Health }> {
  const lines: Text[] = [];
  let health: Health = 'ok';
  if (channels.length === 0) lines.push(['No notification channels (', cmd('settings channel-add'), ').']);
  else if (!checks) lines.push([`${channels.length} channel(s); nothing to check on this platform.`]);
  else {
    const found = await Promise.all(
      channels.map(async (c) => [c, c.disabled ? undefined : await checkChannel(checks, c)] as const),
    );
    for (const [c, check] of found) {
      const name = `#${c.name ?? c.id}`;
      if (c.disabled) lines.push([`${name}: paused (below)`]);
      else if (!check) lines.push([`${name}: could not be checked right now`]);
      else if (check.ok) lines.push([`${name}: OK`]);
      else {
        lines.push([`${name}: missing ${check.missing.join(', ')}`]);
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
  checks: ChannelCheck,
  channel: ChannelSubscription,
): Promise<CheckResult | undefined> {
  try {
    const posting = await checks.check(channel.id);
    const missing = posting.ok ? [] : [...posting.missing];
    if (channel.events && checks.events) {
      const events = await checks.events();
      if (!events.ok) missing.push(...events.missing.map((m) => `${m} (scheduled events are on)`));
    }
    if (channel.threads && checks.threads) {
      const threads = await checks.threads(channel.id);
      if (!threads.ok) missing.push(...threads.missing.map((m) => `${m} (threads are on)`));
    }
    return missing.length === 0 ? posting : { ok: false, missing };
  } catch {
    return undefined;
  }
}

function feedLine(status: ProcessStatus, now: number): { text: Text; health: Health } {
  if (!status.hasFeed)
    return { text: ['No feed in this process: each command asks the service'], health: 'ok' };
  if (status.lastPollAt === undefined) return { text: ['No successful poll yet'], health: 'warning' };
  const age = Math.max(0, now - status.lastPollAt);
  const text: Text = ['Last successful poll ', { time: new Date(status.lastPollAt), style: 'relative' }];
  if (status.feedFilling) text.push('; still reading the schedule');
  if (age / status.clockSpeed > FEED_STALE_MS) {
    text.push(`; ${formatAge(age)} behind: the service may be failing`);
    return { text, health: 'error' };
  }
  return { text, health: 'ok' };
}

function budgetLine(status: ProcessStatus): { text: Text; health: Health } {
  const u = status.upstream;
  const rate = u.requests / Math.max(1, u.seconds);
  const parts = [
    u.perSecond !== undefined && u.inUseRatio !== undefined
      ? `${rate.toFixed(1)} of ${u.perSecond} requests/s (${Math.round(u.inUseRatio * 100)}%)`
      : `${rate.toFixed(1)} requests/s`,
    `over the last ${u.seconds} s`,
  ];
  const extra: string[] = [];
  if (u.failed > 0) extra.push(`${u.failed} failed`);
  if (u.rateLimited > 0) extra.push(`${u.rateLimited} rate-limited`);
  if (u.queueLength > 0) extra.push(`${u.queueLength} waiting`);
  const text = `${parts.join(' ')}${extra.length > 0 ? `; ${extra.join(', ')}` : ''}`;
  const health: Health =
    u.failed > 0 && u.failed >= u.requests / 2 ? 'error' : u.rateLimited > 0 ? 'warning' : 'ok';
  return { text: [text], health };
}

function nextLine(next: Series | undefined): Text {
  if (!next) return ['Nothing upcoming in your games and tiers'];
  const live = next.coverage?.data?.live;
  const expected = (leaf: { expectation: string } | undefined) =>
    leaf?.expectation === 'available' || leaf?.expectation === 'partial';
  const source = expected(live?.cv) ? 'computer vision' : expected(live?.api) ? 'the live API' : undefined;
  const when: Text = next.start ? [' ', { time: new Date(next.start), style: 'relative' }] : [];
  return [
    `${next.title} (series ${next.id})`,
    ...when,
    source ? `: live data expected (${source})` : ': no live data expected; scores update after each map',
  ];
}

function formatAge(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${Math.round(m / 60)} h`;
}
