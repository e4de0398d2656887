/**
 * A series deleted (cancelled) while no notifier ran: after a restart no listing shows it,
 * so no job sees it. The look-back reads the series deleted while down: each reminder whose moment
 * came after the last run is logged as dropped with its key (once, recorded in the ledger); no
 * reminder, live card or result of it goes out, and the run goes on (the read failing is logged and
 * skips only that part). Real SQLite ledger; the local service on a frozen simulated clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import { REMINDER_STARTED } from '../../src/notify/jobs/reminders.ts';
import { ledgerKey } from '../../src/notify/ledger.ts';
import { subscriptionsOf } from '../../src/notify/plan.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { discordProcess, MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const MINUTE = 60_000;
const HOUR = 3600_000;
const dir = mkdtempSync(join(tmpdir(), 'matchday-deleted-down-'));
let service: RunningService;
const clock = new Clock({ start: new Date(FROM), frozen: true });

beforeAll(async () => {
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A series deleted 2 hours before its start, at least 6 hours into the world. */
function deletedPlan(): SeriesPlan & { deletedAt: number } {
  const plan = service.world
    .window(FROM + 6 * HOUR)
    .series.filter(
      (p): p is SeriesPlan & { deletedAt: number } =>
        p.deletedAt !== null && p.deletedAt > FROM + 6 * HOUR && p.start - p.deletedAt === 2 * HOUR,
    )
    .sort((a, b) => a.start - b.start)[0];
  if (!plan) throw new Error('the seeded world has no such series; pick another seed');
  return plan;
}

function setup(name: string, plan: SeriesPlan, options: { failRemoved?: boolean } = {}) {
  // Leads of 3 hours (due before the deletion), 60 and 10 minutes (due after it).
  const settings: Settings = settingsSchema.parse({
    ...defaultSettings(),
    games: [plan.game],
    tiers: [plan.tier],
    reminderLeads: [180, 60, 10],
    channels: [{ id: 'news', kinds: ['reminders', 'live', 'results'] }],
  });
  const tenants = new MemoryTenants();
  tenants.set('discord:1', settings);
  const sub = subscriptionsOf('discord:1', settings)[0]!;
  const keys = [180, 60, 10].map((lead) =>
    ledgerKey('reminder', plan.id, `${lead}m@${plan.start / MINUTE}`, sub),
  );
  const discord = new RecordingDelivery('discord', () => clock.nowMs());
  const logger = memoryLogger();
  const path = join(dir, `${name}.sqlite`);
  const start = () => {
    const ledger = new SqliteLedger(path);
    const client = uncachedClient(service);
    if (options.failRemoved) {
      // The service refuses the listing of deleted series (as an interface without it would).
      const paginate = client.series.paginate.bind(client.series);
      client.series.paginate = (query, o) => {
        if (JSON.stringify(query.filter).includes('"deleted"')) throw new Error('listing refused');
        return paginate(query, o);
      };
    }
    return discordProcess({ client, ledger, tenants, clock, discord, logger });
  };
  const ofSeries = () => discord.posts().filter((p) => p.key.split(':')[1] === String(plan.id));
  const dropped = () =>
    logger.lines
      .filter((l) => l.msg?.includes(REMINDER_STARTED))
      .flatMap((l) => (l.obj as { keys?: string[] }).keys ?? [])
      .filter((key) => key.split(':')[1] === String(plan.id));
  return { start, keys, logger, ofSeries, dropped };
}

async function play(notifier: { tick(): Promise<void> }, from: number, to: number, step = 5 * MINUTE) {
  for (let t = from; t < to; t += step) {
    clock.set(new Date(t));
    await notifier.tick();
  }
}

describe('a series deleted while no notifier ran', () => {
  it('after a restart: nothing of it is posted, its unsent reminders are logged dropped once, the run goes on', async () => {
    const plan = deletedPlan();
    const d = setup('restart', plan);
    const first = d.start();
    // Runs until 4 hours before the start: no reminder due yet.
    await play(first.notifier, plan.start - 5 * HOUR, plan.start - 4 * HOUR);
    await first.stop();
    // Down over the 3-hour reminder, the deletion and the start; back 30 minutes after the start.
    const second = d.start();
    await play(second.notifier, plan.start + 30 * MINUTE, plan.start + 3 * HOUR);
    expect(d.ofSeries()).toEqual([]);
    expect(d.dropped()).toEqual(d.keys);
    expect(d.logger.lines.some((l) => l.msg?.includes('series deleted while no notifier ran'))).toBe(true);
    expect(d.logger.lines.filter((l) => l.msg === 'notifier tick failed')).toEqual([]);
    expect((await second.ledger.get(d.keys[0]!))?.reason).toMatch(/^dropped: reminder dropped/);
    // Other series still went out meanwhile.
    expect(second.notifier.stats.sent.reminder + second.notifier.stats.sent.live).toBeGreaterThan(0);
    await second.stop();
    // A further restart logs nothing again.
    const third = d.start();
    await play(third.notifier, plan.start + 4 * HOUR, plan.start + 4 * HOUR + 20 * MINUTE);
    expect(d.dropped()).toEqual(d.keys);
    await third.stop();
  }, 120_000);

  it('back before its start: its due reminder is not sent, and the one sent before the downtime is not a drop', async () => {
    const plan = deletedPlan();
    const d = setup('early', plan);
    const first = d.start();
    // Runs past the 3-hour reminder (sent), then down over the deletion; back 30 minutes before the start.
    await play(first.notifier, plan.start - 3 * HOUR - 10 * MINUTE, plan.start - 2.5 * HOUR);
    expect(d.ofSeries().map((p) => p.key)).toEqual([d.keys[0]]);
    await first.stop();
    const second = d.start();
    await play(second.notifier, plan.start - 30 * MINUTE, plan.start + 2 * HOUR);
    expect(d.ofSeries().map((p) => p.key)).toEqual([d.keys[0]]);
    expect(d.dropped()).toEqual([d.keys[1], d.keys[2]]);
    await second.stop();
  }, 120_000);

  it('a failed read of deleted series is logged, and the rest of the look-back and the tick go on', async () => {
    const plan = deletedPlan();
    const d = setup('failing', plan, { failRemoved: true });
    const first = d.start();
    await play(first.notifier, plan.start - 5 * HOUR, plan.start - 4 * HOUR);
    await first.stop();
    const second = d.start();
    await play(second.notifier, plan.start + 30 * MINUTE, plan.start + 3 * HOUR);
    expect(d.ofSeries()).toEqual([]);
    expect(d.dropped()).toEqual([]);
    expect(d.logger.lines.some((l) => l.msg?.includes('series deleted while down could not be read'))).toBe(
      true,
    );
    expect(d.logger.lines.filter((l) => l.msg === 'notifier tick failed')).toEqual([]);
    expect(second.notifier.stats.sent.reminder + second.notifier.stats.sent.live).toBeGreaterThan(0);
    await second.stop();
  }, 120_000);
});
