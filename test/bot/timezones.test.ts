import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/bot/command.ts';
import { resolveTimeZone } from '../../src/bot/names.ts';
import { isTimeZone } from '../../src/bot/settings.ts';

describe('resolveTimeZone', () => {
  it('takes common abbreviations as the zone they mean, daylight saving included', () => {
    expect(resolveTimeZone('CET')).toBe('Europe/Berlin');
    expect(resolveTimeZone('cest')).toBe('Europe/Berlin');
    expect(resolveTimeZone('EST')).toBe('America/New_York');
    expect(resolveTimeZone('PST')).toBe('America/Los_Angeles');
    expect(resolveTimeZone('JST')).toBe('Asia/Tokyo');
    expect(resolveTimeZone('GMT')).toBe('UTC');
  });

  it('takes offsets as a zone with that offset all year', () => {
    for (const [typed, hours] of [
      ['UTC+2', 2],
      ['GMT-5', -5],
      ['+02:00', 2],
      ['utc-11', -11],
      ['UTC+5:30', 5.5],
      ['UTC+0', 0],
    ] as const) {
      const zone = resolveTimeZone(typed);
      expect(isTimeZone(zone), zone).toBe(true);
      for (const month of [1, 7])
        expect(DateTime.fromObject({ year: 2026, month, day: 15 }, { zone }).offset, typed).toBe(hours * 60);
    }
  });

  it('still takes IANA names and cities, and refuses an offset no zone has', () => {
    expect(resolveTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(resolveTimeZone('Tokyo')).toBe('Asia/Tokyo');
    expect(() => resolveTimeZone('UTC+5:15')).toThrow(UserError);
    expect(() => resolveTimeZone('UTC+25')).toThrow(/not a time zone/);
  });
});
