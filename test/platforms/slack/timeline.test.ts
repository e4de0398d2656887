/**
 * Notifications on Slack end to end: the real notifier, ticking through a simulated afternoon on the
 * embedded service, delivers through the Slack platform's delivery to the loopback fake. Reminders,
 * live cards and results must reach the right channels; a live card is edited with chat.update, never
 * posted twice; a 429 is waited out; a channel the bot is not in is turned off and the workspace's
 * admins are told once, in their next /matchday settings answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, settingsSchema } from '../../../src/bot/settings.ts';
import { createClient } from '../../../src/client/client.ts';
import type { EsportsClient } from '../../../src/client/types.ts';
import { createNotifier, type Notifier } from '../../../src/notify/notifier.ts';
import { SqliteLedger } from '../../../src/notify/sqlite-ledger.ts';
import type { ChannelMessage } from '../../fakes/slack.ts';
import { CHANNELS, type Mode, type Rig, startRig, USERS } from './harness.ts';

const TENANT = 'slack:T0MATCHDAY';
const START = Date.parse('2026-03-18T14:00:00.000Z');
// Twenty-four simulated minutes in two-minute ticks: enough for reminders, live cards going final and
// results, while keeping the file to seconds (each notifier tick reads the embedded service).
const END = START + 24 * 60_000;
const TICK = 120_000;

function footer(message: ChannelMessage): string {
  const context = [...(message.blocks ?? [])].reverse().find((b) => b.type === 'context') as
    | { elements: { text: string }[] }
    | undefined;
  return context?.elements.map((e) => e.text).join(' ') ?? '';
}

function seriesId(message: ChannelMessage): string | undefined {
  return /series (\d+)/i.exec(footer(message))?.[1];
}

describe.each(['socket', 'http'] as Mode[])('Slack notifications (%s mode)', (mode) => {
  let rig: Rig;
  let notifier: Notifier;
  let ledger: SqliteLedger;
  let client: EsportsClient;

  beforeAll(async () => {
    rig = await startRig(mode, { at: new Date(START), rateLimitUnitMs: 5 });
    const service = rig.app.service!;
    // The notifier's own client keeps nothing between simulated minutes (its cache runs on real time).
    client = createClient({
      baseUrl: service.url,
      secret: service.secret,
      rate: { perSecond: 100_000, burst: 100_000 },
      ttl: { series: 0, matches: 0, live: 0, streams: 0 },
    });
    ledger = new SqliteLedger(':memory:');
    await rig.app.tenants.save(
      TENANT,
      settingsSchema.parse({
        ...defaultSettings(),
        // Every tier: the embedded world guarantees live and imminent series across tiers, not in each.
        tiers: [1, 2, 3, 4],
        reminderLeads: [15],
        spoilers: 'show',
        channels: [
          { id: CHANNELS.remind.id, name: CHANNELS.remind.name, kinds: ['reminders'] },
          { id: CHANNELS.live.id, name: CHANNELS.live.name, kinds: ['live'] },
          { id: CHANNELS.results.id, name: CHANNELS.results.name, kinds: ['results'] },
          { id: CHANNELS.closed.id, name: CHANNELS.closed.name, kinds: ['reminders', 'live', 'results'] },
        ],
      }),
    );
    notifier = createNotifier({
      client,
      tenants: rig.app.tenants,
      clock: rig.app.clock,
      ledger,
      deliveries: { slack: rig.slack.delivery },
      logger: rig.app.logger,
      editIntervalMs: 0,
    });
    // Slack rate-limits the first reminder: the delivery must wait it out, not lose it.
    rig.fake.fail('chat.postMessage', { retryAfter: 1, channel: CHANNELS.remind.id });
    for (let t = START; t < END; t += TICK) {
      rig.app.clock.set(new Date(t));
      await notifier.tick();
    }
    await notifier.drain();
  }, 120_000);

  afterAll(async () => {
    await notifier?.stop();
    await ledger?.close();
    await client?.close();
    await rig?.close();
  });

  it('posts reminders to the reminders channel only', () => {
    const reminders = rig.fake.messagesIn(CHANNELS.remind.id);
    expect(reminders.length).toBeGreaterThan(0);
    for (const message of reminders) expect(footer(message)).toMatch(/^Reminder 15 min before · series \d+$/);
    for (const channel of [CHANNELS.live.id, CHANNELS.results.id]) {
      for (const message of rig.fake.messagesIn(channel)) expect(footer(message)).not.toMatch(/Reminder/);
    }
    // One reminder per series.
    const ids = reminders.map(seriesId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('waits out a 429 and still delivers the rate-limited reminder', () => {
    const calls = rig.fake.callsOf('chat.postMessage').filter((c) => c.params.channel === CHANNELS.remind.id);
    expect(calls[0]?.status).toBe(429);
    expect(calls[1]?.status).toBe(200);
    expect(rig.slack.delivery.rateLimited).toBeGreaterThanOrEqual(1);
    expect(rig.fake.messagesIn(CHANNELS.remind.id).length).toBe(calls.filter((c) => c.status === 200).length);
  });

  it('posts each live card once and keeps it current with chat.update', () => {
    const cards = rig.fake.messagesIn(CHANNELS.live.id);
    expect(cards.length).toBeGreaterThan(0);
    const ids = cards.map(seriesId);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    expect(new Set(ids).size, 'no series posted twice').toBe(ids.length);
    const updates = rig.fake.callsOf('chat.update');
    expect(updates.length).toBeGreaterThan(0);
    const liveTs = new Set(cards.map((c) => c.ts));
    for (const update of updates) {
      expect(update.params.channel).toBe(CHANNELS.live.id);
      expect(liveTs.has(String(update.params.ts))).toBe(true);
    }
    expect(cards.some((c) => c.history.length > 0)).toBe(true);
    // A series that ended in the window shows its final state on the same message.
    expect(cards.some((c) => /^Final · series \d+$/.test(footer(c)) && c.history.length > 0)).toBe(true);
  });

  it('posts results to the results channel, once per series', async () => {
    const results = rig.fake.messagesIn(CHANNELS.results.id);
    expect(results.length).toBeGreaterThan(0);
    for (const message of results) expect(footer(message)).toMatch(/^Result · series \d+$/);
    const ids = results.map(seriesId);
    expect(new Set(ids).size).toBe(ids.length);
    // Every result is for a series the service says is over.
    const service = rig.app.service!;
    for (const id of ids) {
      const answer = await fetch(`${service.url}/series/${id}`, {
        headers: { 'Service-Secret': service.secret },
      });
      const series = (await answer.json()) as { lifecycle: string };
      expect(series.lifecycle, `series ${id}`).toMatch(/^over/);
    }
  });

  it('turns off a channel the bot is not in after one attempt, and tells the admins once', async () => {
    const attempts = rig.fake
      .callsOf('chat.postMessage')
      .filter((c) => c.params.channel === CHANNELS.closed.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.answer).toMatchObject({ ok: false, error: 'not_in_channel' });
    expect(rig.fake.messagesIn(CHANNELS.closed.id)).toEqual([]);
    const settings = await rig.app.tenants.get(TENANT);
    expect(settings.channels.find((c) => c.id === CHANNELS.closed.id)?.disabled?.reason).toMatch(
      /^NOT_IN_CHANNEL/,
    );
    // The other channels stay on.
    expect(settings.channels.filter((c) => c.disabled)).toHaveLength(1);

    const first = await rig.command('settings show', { user: USERS.admin.id });
    const text = JSON.stringify(first.body.blocks);
    expect(text).toContain('Notifications to channel private-talk were turned off');
    expect(text).toContain('/invite @Matchday');
    const second = await rig.command('settings show', { user: USERS.admin.id });
    expect(JSON.stringify(second.body.blocks)).not.toContain('were turned off');
  });

  it('never lets a notification ping anyone', () => {
    for (const call of [...rig.fake.callsOf('chat.postMessage'), ...rig.fake.callsOf('chat.update')]) {
      const blocks = (JSON.parse(String(call.params.blocks)) as { type: string }[]).filter(
        (b) => b.type !== 'header',
      );
      const parsed = JSON.stringify([call.params.text, blocks]);
      expect(parsed).not.toMatch(/<!channel>|<!here>|<!everyone>|<@U/);
    }
  });
});
