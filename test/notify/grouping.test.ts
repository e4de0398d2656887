/**
 * Reminders due in the same minute for one channel are one message, through the
 * ledger: every key is claimed, the keys won go out together, and each is marked sent with that one
 * message; a key another holder already sent is not in the message, and a second holder posts nothing.
 * The message is then one message on Discord, Slack and the terminal (their renderers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import { combineReminders, groupByBatch, MAX_REMINDERS_PER_MESSAGE } from '../../src/notify/grouping.ts';
import { ledgerKey } from '../../src/notify/ledger.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';
import { renderReply as renderTerminal } from '../../src/platforms/terminal/render.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-grouping-'));
let service: RunningService;
let clock: Clock;

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const reminders = (id: string, tiers: number[] = []) => ({
  id,
  games: [],
  tiers,
  teams: [],
  kinds: ['reminders' as const],
  leads: [15],
});

/** The first minute after FROM + 2 h at which two or more plain series start (of any game and tier). */
function sameMinute(): SeriesPlan[] {
  const from = FROM + 2 * 3600_000;
  const byMinute = new Map<number, SeriesPlan[]>();
  for (const p of service.world.window(from).series) {
    if (p.start < from || p.postponedFrom !== null || p.deletedAt !== null) continue;
    const minute = Math.floor(p.start / 60_000);
    byMinute.set(minute, [...(byMinute.get(minute) ?? []), p]);
  }
  const [first] = [...byMinute].filter(([, ps]) => ps.length >= 2).sort(([a], [b]) => a - b);
  if (!first) throw new Error('the seeded world has no two series in one minute; pick another seed');
  return first[1].sort((a, b) => a.id - b.id);
}

describe('reminders due in the same minute for one channel', () => {
  it('go out as one message, each key marked with it; a key sent elsewhere is left out; a second holder posts nothing', async () => {
    const plans = sameMinute();
    const tiers = [1, 2, 3, 4];
    const tenants = new MemoryTenants();
    const settings = (channels: Settings['channels']): Partial<Settings> => ({ games: [], tiers, channels });
    tenants.set('discord:1', settings([reminders('all')]));
    // Only the first series' tier (when the others have another tier): a lone reminder, no headline.
    const lonely = plans.filter((p) => p.tier === plans[0]!.tier).length === 1;
    tenants.set('discord:2', settings([reminders('one', [plans[0]!.tier])]));
    tenants.set('discord:3', settings([reminders('contested')]));
    const file = join(dir, 'ledger.sqlite');
    const ledger = new SqliteLedger(file, { holder: 'a' });
    const other = new SqliteLedger(file, { holder: 'b' });
    const at = (p: SeriesPlan) => `15m@${p.start / 60_000}`;
    const keyOf = (p: SeriesPlan, tenantId: string, channelId: string) =>
      ledgerKey('reminder', p.id, at(p), { platform: 'discord', tenantId, channelId });
    // Another process already posted the last series' reminder in discord:3.
    const taken = keyOf(plans.at(-1)!, 'discord:3', 'contested');
    expect(await other.claim(taken)).toBe(true);
    await other.markSent(taken, 'posted-elsewhere');

    const discord = new RecordingDelivery('discord', () => clock.nowMs());
    const client = uncachedClient(service);
    const make = (l: SqliteLedger) =>
      createNotifier({
        client,
        tenants,
        clock,
        ledger: l,
        deliveries: { discord },
        logger: memoryLogger() as never,
        editIntervalMs: 0,
      });
    const notifier = make(ledger);
    clock.set(new Date(plans[0]!.start - 15 * 60_000));
    await notifier.tick();
    await notifier.drain();

    const shown = Math.min(plans.length, MAX_REMINDERS_PER_MESSAGE);
    // Posts about these series (a first tick also sends other channels' reminders still due from earlier minutes).
    const about = (channelId: string) =>
      discord
        .posts()
        .filter((p) => p.channelId === channelId && plans.some((pl) => p.text.includes(`series ${pl.id}`)));
    // One message in #all, naming every series (one card each), with the headline.
    const all = about('all');
    expect(all).toHaveLength(Math.ceil(plans.length / MAX_REMINDERS_PER_MESSAGE));
    expect(all[0]!.reply!.cards).toHaveLength(shown);
    expect(all[0]!.text).toContain(`${shown} series start soon`);
    for (const p of plans.slice(0, shown)) expect(all[0]!.text).toContain(`series ${p.id}`);
    // Every key in the ledger points at that one message.
    for (const p of plans.slice(0, shown)) {
      const entry = await ledger.get(keyOf(p, 'discord:1', 'all'));
      expect(entry?.state).toBe('sent');
      expect(entry?.messageId).toBe(all[0]!.messageId);
    }
    // A channel with one reminder due gets it alone, as before (no headline).
    const one = about('one');
    if (lonely) {
      expect(one).toHaveLength(1);
      expect(one[0]!.reply!.cards).toHaveLength(1);
      expect(one[0]!.text).not.toContain('start soon');
    }
    // The key another holder sent is not in discord:3's message, and keeps its message id.
    // (A quarter hour of the world may start more series than one message holds: then several.)
    const contested = about('contested');
    expect(contested).toHaveLength(Math.ceil((plans.length - 1) / MAX_REMINDERS_PER_MESSAGE));
    for (const m of contested) expect(m.text).not.toContain(`series ${plans.at(-1)!.id}`);
    for (const p of plans.slice(0, -1))
      expect(contested.some((m) => m.text.includes(`series ${p.id}`))).toBe(true);
    expect(contested[0]!.text).toContain(`series ${plans[0]!.id}`);
    expect((await ledger.get(taken))?.messageId).toBe('posted-elsewhere');

    // A second holder on the same ledger, at the same minute: every key is done, nothing is posted.
    const before = discord.posts().length;
    const second = make(other);
    await second.tick();
    await second.drain();
    expect(discord.posts().length).toBe(before);

    await notifier.stop();
    await second.stop();
    await ledger.close();
    await other.close();
    await client.close();
  }, 60_000);
});

describe('grouping', () => {
  const reply = (title: string, role?: string) =>
    combineReminders([
      {
        content: role ? [{ role }, ' ', 'Starts soon'] : ['Starts soon'],
        cards: [{ title, description: [['x']] }],
        ...(role ? { mentionRoles: [role] } : {}),
      },
    ]);

  it('splits a channel-minute of more than five reminders into messages of at most five', () => {
    const items = Array.from({ length: 7 }, (_, i) => ({ batch: 'c@1', i }));
    items.splice(3, 0, { batch: undefined as never, i: 99 });
    const groups = groupByBatch(items);
    expect(groups.map((g) => g.map((x) => x.i))).toEqual([[0, 1, 2, 3, 4], [99], [5, 6]]);
  });

  it('leaves a single reminder as it was, and mentions the role once for several', () => {
    const single = reply('A', 'r1');
    expect(single.content).toEqual([{ role: 'r1' }, ' ', 'Starts soon']);
    const many = combineReminders([reply('A', 'r1'), reply('B', 'r1'), reply('C', 'r1')]);
    expect(many.mentionRoles).toEqual(['r1']);
    expect(many.content).toEqual([{ role: 'r1' }, ' ', '3 series start soon']);
    expect(many.cards.map((c) => c.title)).toEqual(['A', 'B', 'C']);
  });

  it('is one message on Discord, Slack and the terminal', () => {
    const many = combineReminders(['A', 'B', 'C', 'D', 'E'].map((t) => reply(`Series ${t}`)));
    const discord = renderDiscord(many);
    expect(discord).toHaveLength(1);
    expect(discord[0]!.embeds.map((e) => e.title)).toEqual(
      ['A', 'B', 'C', 'D', 'E'].map((t) => `Series ${t}`),
    );
    const slack = renderSlack(many);
    const headers = slack.blocks.filter((b) => JSON.stringify(b).includes('Series '));
    expect(headers.length).toBeGreaterThanOrEqual(5);
    expect(slack.text).toContain('5 series start soon');
    const terminal = renderTerminal(many, { colour: false, timezone: 'UTC', width: 80 });
    for (const t of ['A', 'B', 'C', 'D', 'E']) expect(terminal).toContain(`Series ${t}`);
    expect(terminal.match(/5 series start soon/g)).toHaveLength(1);
  });
});
