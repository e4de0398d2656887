/**
 * The first reminder of a series carries a compact match preview (form of both
 * teams and head-to-head in a line or two, what is at stake); later reminders of the same series
 * do not repeat it. Form follows the channel's spoiler policy. Run through the real notifier
 * against the local service over HTTP, the world's truth giving the expected form.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import type { Series } from '../../src/protocol/types.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { byEndDescThenId, FINISHED } from '../commands/truth.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T10:00:00Z');
const TICK = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'matchday-preview-'));
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

function settings(over: Partial<Settings>): Settings {
  return settingsSchema.parse({ ...defaultSettings(), ...over });
}

/** "WWLWL": a team's last five finished series (any lineup of the team) before `at`, newest first. */
function marks(rosterId: number, at: number, except: number): string {
  const world = service.world;
  const catalog = world.catalog;
  const team = catalog.rosterById.get(rosterId)!.team.id;
  const rosters = catalog.rosters.filter((r) => r.team.id === team).map((r) => r.id);
  return world
    .window(at)
    .series.map((plan) => world.seriesAt(plan, at))
    .filter((s: Series) => s.deleted_at === null && FINISHED.includes(s.lifecycle) && s.id !== except)
    .filter((s) => s.participants.some((p) => rosters.includes(p.roster.id)))
    .sort(byEndDescThenId)
    .slice(0, 5)
    .map((s) => (s.participants.find((p) => rosters.includes(p.roster.id))!.winner ? 'W' : 'L'))
    .join('');
}

describe('the first reminder of a series', () => {
  it('carries form, head-to-head and what is at stake; the later reminder does not; hidden results stay hidden', async () => {
    const channel = (id: string) => ({
      id,
      games: [],
      tiers: [],
      teams: [],
      kinds: ['reminders' as const],
      leads: [],
    });
    const tenants = new MemoryTenants();
    tenants.set(
      'discord:1',
      settings({
        games: [],
        tiers: [1],
        reminderLeads: [30, 5],
        spoilers: 'show',
        channels: [channel('shown')],
      }),
    );
    tenants.set(
      'discord:2',
      settings({
        games: [],
        tiers: [1],
        reminderLeads: [30],
        spoilers: 'hide',
        channels: [channel('hidden')],
      }),
    );
    const delivery = new RecordingDelivery('discord', () => clock.nowMs());
    const ledger = new SqliteLedger(join(dir, 'ledger.sqlite'));
    const notifier = createNotifier({
      client: uncachedClient(service),
      tenants,
      clock,
      ledger,
      deliveries: { discord: delivery },
      logger: memoryLogger() as never,
      editIntervalMs: 0,
    });
    try {
      for (let t = FROM; t < FROM + 90 * 60_000; t += TICK) {
        clock.set(new Date(t));
        await notifier.tick();
      }
      await notifier.drain();
    } finally {
      await notifier.stop();
      await ledger.close();
    }
    const posts = delivery.posts().filter((p) => p.key.startsWith('reminder:'));
    const shown = posts.filter((p) => p.channelId === 'shown');
    const first = shown.filter((p) => p.key.includes(':30m@'));
    const later = shown.filter((p) => p.key.includes(':5m@'));
    expect(first.length).toBeGreaterThan(0);
    expect(later.length).toBeGreaterThan(0);
    let checked = 0;
    for (const post of first) {
      const id = Number(post.key.split(':')[1]);
      const plan = service.world.window(post.at).series.find((p) => p.id === id)!;
      const series = service.world.seriesAt(plan, post.at);
      expect(post.text).toContain('At stake:');
      if (series.participants.length !== 2) continue;
      const [home, away] = [...series.participants].sort((a, b) => a.seed - b.seed);
      const line = post.text.split('\n').find((l) => l.startsWith('Form (last 5, newest first): '));
      expect(line, post.text).toBeDefined();
      for (const side of [home!, away!]) {
        const expected = marks(side.roster.id, post.at, id);
        if (expected) expect(line).toContain(` ${expected}`);
      }
      expect(post.text).toMatch(/Head-to-head: .* in \d+ series|Head-to-head: first meeting on record/);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    // The reminder 5 minutes before: the card without the preview (it was in the first one).
    for (const post of later) {
      expect(post.text).not.toContain('Form (last 5');
      expect(post.text).not.toContain('At stake:');
    }
    // A channel that hides results: the first reminder says form is hidden and shows no marks.
    const hidden = posts.filter((p) => p.channelId === 'hidden');
    expect(hidden.length).toBeGreaterThan(0);
    for (const post of hidden) {
      expect(post.revealed).not.toContain('Form (last 5');
      expect(post.revealed).not.toContain('Head-to-head:');
    }
    expect(
      hidden.some((p) => p.text.includes('Form and head-to-head are hidden by the spoiler policy here.')),
    ).toBe(true);
  });
});
