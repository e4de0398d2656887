import { describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../src/bot/settings.ts';
import { pollBand } from '../../src/feed/poll-band.ts';
import {
  digestSeries,
  digestSlot,
  dueDigest,
  planReminders,
  reminderLastMoment,
  subscriptionsOf,
  unionOf,
  wants,
} from '../../src/notify/plan.ts';
import type { Series } from '../../src/protocol/types.ts';

const T0 = Date.parse('2025-06-01T12:00:00Z');

function series(over: Partial<Series> = {}): Series {
  return {
    id: 1,
    title: 'A vs B',
    start: new Date(T0).toISOString(),
    end: null,
    lifecycle: 'upcoming',
    tier: 1,
    best_of: 3,
    chain: [],
    streamed: true,
    bracket_position: null,
    tournament: { id: 10 },
    substage: { id: 20 },
    game: { id: 1 },
    format: { best_of: 3 },
    postponed_from: null,
    deleted_at: null,
    participants: [],
    matches: [],
    casters: [],
    broadcasters: [],
    has_incident_report: false,
    game_version: null,
    coverage: {} as Series['coverage'],
    resource_version: 1,
    ...over,
  };
}

function settings(over: Partial<Settings>): Settings {
  return { ...defaultSettings(), ...over };
}

const channel = (over: Partial<Settings['channels'][number]> = {}): Settings['channels'][number] => ({
  id: 'c1',
  games: [],
  tiers: [],
  teams: [],
  kinds: ['reminders', 'live', 'results', 'digest'],
  leads: [],
  ...over,
});

describe('subscriptionsOf', () => {
  it('fills channel gaps with the tenant defaults and leaves disabled channels out', () => {
    const subs = subscriptionsOf(
      'discord:1',
      settings({
        games: [1, 2],
        tiers: [1],
        reminderLeads: [10, 60],
        follows: [7],
        channels: [
          channel(),
          channel({ id: 'c2', games: [3], leads: [5], teams: [8] }),
          channel({ id: 'off', disabled: { reason: 'x', at: 'y' } }),
        ],
      }),
    );
    expect(subs.map((s) => s.channelId)).toEqual(['c1', 'c2']);
    expect([...subs[0]!.games!]).toEqual([1, 2]);
    expect(subs[0]!.leads).toEqual([60, 10]);
    expect([...subs[1]!.games!]).toEqual([3]);
    expect(subs[1]!.leads).toEqual([5]);
    expect([...subs[1]!.teams].sort()).toEqual([7, 8]);
    expect(subs[0]!.platform).toBe('discord');
  });

  it('drops live cards everywhere when the tenant turned live updates off', () => {
    const [sub] = subscriptionsOf('slack:T1', settings({ liveUpdates: false, channels: [channel()] }));
    expect(sub!.kinds.has('live')).toBe(false);
    expect(sub!.kinds.has('reminders')).toBe(true);
  });
});

describe('unionOf and wants', () => {
  it('unions games, tiers and teams; an all-games subscription makes the games unbounded', () => {
    const a = subscriptionsOf(
      'discord:1',
      settings({ games: [1], tiers: [1], channels: [channel({ teams: [5] })] }),
    );
    const b = subscriptionsOf('discord:2', settings({ games: [2], tiers: [2, 3], channels: [channel()] }));
    expect(unionOf([...a, ...b])).toEqual({ games: [1, 2], tiers: [1, 2, 3], teams: [5] });
    const c = subscriptionsOf('discord:3', settings({ games: [], tiers: [4], channels: [channel()] }));
    expect(unionOf([...a, ...c]).games).toBeNull();
  });

  it('wants a followed team whatever its tier and game, and otherwise filters by game and tier', () => {
    const [sub] = subscriptionsOf(
      'discord:1',
      settings({ games: [1], tiers: [1], follows: [9], channels: [channel()] }),
    );
    expect(wants(sub!, series({ tier: 1 }), [])).toBe(true);
    expect(wants(sub!, series({ tier: 3 }), [])).toBe(false);
    expect(wants(sub!, series({ game: { id: 2 } }), [])).toBe(false);
    expect(wants(sub!, series({ tier: 4, game: { id: 2 } }), [3, 9])).toBe(true);
  });
});

describe('planReminders', () => {
  const s = series();
  it('waits before the lead, sends at it, and sends only the shortest when several are due', () => {
    expect(planReminders(s, [60, 10], T0 - 61 * 60_000).map((p) => p.action)).toEqual(['wait', 'wait']);
    expect(planReminders(s, [60, 10], T0 - 60 * 60_000).map((p) => p.action)).toEqual(['send', 'wait']);
    // After downtime both are due: only the 10-minute one goes out.
    expect(planReminders(s, [60, 10], T0 - 5 * 60_000).map((p) => p.action)).toEqual(['superseded', 'send']);
  });

  it('drops reminders whose series has started, and those of postponed or deleted series', () => {
    expect(planReminders(s, [15], T0).map((p) => p.action)).toEqual(['drop']);
    expect(planReminders(series({ lifecycle: 'live' }), [15], T0 - 60_000).map((p) => p.action)).toEqual([
      'drop',
    ]);
    const postponed = series({ postponed_from: new Date(T0 - 3600_000).toISOString() });
    expect(planReminders(postponed, [15], T0 - 10 * 60_000).map((p) => p.action)).toEqual(['drop']);
    expect(planReminders(postponed, [15], T0 - 60 * 60_000).map((p) => p.action)).toEqual(['drop']);
    const deleted = series({ deleted_at: new Date(T0 - 3600_000).toISOString() });
    expect(planReminders(deleted, [15], T0 - 10 * 60_000).map((p) => p.action)).toEqual(['drop']);
  });

  it('moves with the start: a later start makes an earlier-due reminder wait again', () => {
    const moved = series({ start: new Date(T0 + 2 * 3600_000).toISOString() });
    expect(planReminders(moved, [15], T0 - 10 * 60_000)[0]).toMatchObject({
      action: 'wait',
      at: T0 + 105 * 60_000,
    });
  });
});

describe('reminderLastMoment', () => {
  it('is the start for the shortest lead, and the next shorter lead’s time for a longer one', () => {
    const start = T0;
    expect(reminderLastMoment(start, 10, [60, 30, 10])).toBe(start);
    expect(reminderLastMoment(start, 30, [60, 30, 10])).toBe(start - 10 * 60_000);
    expect(reminderLastMoment(start, 60, [10, 60, 30])).toBe(start - 30 * 60_000);
    expect(reminderLastMoment(start, 15, [15])).toBe(start);
  });
});

describe('digest slots', () => {
  it('resolves the slot in the zone on ordinary days', () => {
    const slot = digestSlot('2025-06-01', 'Europe/Berlin', '09:00');
    expect(new Date(slot.at).toISOString()).toBe('2025-06-01T07:00:00.000Z');
    expect(slot.dayEnd - slot.dayStart).toBe(24 * 3600_000);
  });

  it('keeps one slot on the spring-forward day, even for a time that does not exist', () => {
    const berlin = digestSlot('2025-03-30', 'Europe/Berlin', '09:00');
    expect(new Date(berlin.at).toISOString()).toBe('2025-03-30T07:00:00.000Z');
    expect(berlin.dayEnd - berlin.dayStart).toBe(23 * 3600_000);
    const gap = digestSlot('2025-03-30', 'Europe/Berlin', '02:30');
    expect(new Date(gap.at).toISOString()).toBe('2025-03-30T01:30:00.000Z'); // 03:30 CEST
    const ny = digestSlot('2025-03-09', 'America/New_York', '02:30');
    expect(new Date(ny.at).toISOString()).toBe('2025-03-09T07:30:00.000Z'); // 03:30 EDT
  });

  it('keeps one slot on the fall-back day, even for a time that happens twice', () => {
    const twice = digestSlot('2025-10-26', 'Europe/Berlin', '02:30');
    expect(new Date(twice.at).toISOString()).toBe('2025-10-26T00:30:00.000Z'); // the first 02:30 (CEST)
    expect(twice.dayEnd - twice.dayStart).toBe(25 * 3600_000);
    // Walking the whole day minute by minute, the digest is due for exactly one local date.
    const dates = new Set<string>();
    for (let t = twice.dayStart; t < twice.dayEnd; t += 60_000) {
      const due = dueDigest(t, 'Europe/Berlin', '02:30');
      if (due) dates.add(`${due.localDate}@${due.at}`);
    }
    expect([...dates].filter((d) => d.startsWith('2025-10-26'))).toEqual([`2025-10-26@${twice.at}`]);
  });

  it('is due from the slot for three hours, then never', () => {
    const slot = digestSlot('2025-06-01', 'America/New_York', '23:00');
    expect(dueDigest(slot.at - 1, 'America/New_York', '23:00')?.localDate).not.toBe('2025-06-01');
    expect(dueDigest(slot.at, 'America/New_York', '23:00')?.localDate).toBe('2025-06-01');
    // After midnight local time yesterday's slot is still the one due.
    expect(dueDigest(slot.at + 3 * 3600_000 - 1, 'America/New_York', '23:00')?.localDate).toBe('2025-06-01');
    expect(dueDigest(slot.at + 3 * 3600_000, 'America/New_York', '23:00')).toBeUndefined();
  });

  it('lists the local day’s unfinished series in start order', () => {
    const slot = digestSlot('2025-06-01', 'UTC', '09:00');
    const list = digestSeries(
      [
        series({ id: 3, start: '2025-06-01T20:00:00Z' }),
        series({ id: 2, start: '2025-06-01T10:00:00Z', lifecycle: 'live' }),
        series({ id: 4, start: '2025-06-02T00:00:00Z' }),
        series({ id: 5, start: '2025-06-01T08:00:00Z', lifecycle: 'over' }),
        series({ id: 6, start: '2025-06-01T12:00:00Z', deleted_at: '2025-05-30T00:00:00Z' }),
      ],
      slot,
    );
    expect(list.map((s) => s.id)).toEqual([2, 3]);
  });
});

describe('pollBand', () => {
  it('reads live series often, imminent ones every minute, near ones every five, far ones rarely', () => {
    expect(pollBand(series({ lifecycle: 'live' }), T0)).toBe('live');
    expect(pollBand(series(), T0 - 10 * 60_000)).toBe('imminent');
    expect(pollBand(series(), T0 - 2 * 3600_000)).toBe('near');
    expect(pollBand(series(), T0 - 5 * 3600_000)).toBe('far');
  });
});
