import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isTimeZone } from '../../src/bot/settings.ts';
import { resolveTimeZone, searchTimeZones } from '../../src/bot/time-zones.ts';
import { UserError } from '../../src/core/errors.ts';

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

describe('searchTimeZones', () => {
  it('offers the zone an abbreviation or offset means first, and every offer resolves as offered', () => {
    expect(searchTimeZones('cet')[0]?.value).toBe('Europe/Berlin');
    expect(searchTimeZones('PST')[0]?.value).toBe('America/Los_Angeles');
    expect(searchTimeZones('UTC+2')[0]?.value).toBe('Etc/GMT-2');
    expect(searchTimeZones('new york')[0]?.value).toBe('America/New_York');
    for (const typed of ['cet', 'berl', 'new york', 'UTC+5:30', 'ork', 'sao']) {
      const offers = searchTimeZones(typed, 10);
      expect(offers.length, typed).toBeGreaterThan(0);
      for (const offer of offers) expect(resolveTimeZone(offer.value)).toBe(offer.value);
    }
  });

  it('falls back to zones containing the text, and offers nothing for text no zone has', () => {
    expect(searchTimeZones('ork').map((c) => c.value)).toContain('America/New_York');
    expect(searchTimeZones('qqqzzz')).toEqual([]);
    expect(searchTimeZones('', 25)).toHaveLength(25);
  });
});

describe('resolveTimeZone and the names it gives', () => {
  it('takes back every zone it gives, and IANA aliases the runtime knows', () => {
    for (const typed of ['IST', 'UTC+2', 'UTC-5', 'UTC+5:45', 'CET', 'PST']) {
      const zone = resolveTimeZone(typed);
      expect(resolveTimeZone(zone), typed).toBe(zone);
      expect(resolveTimeZone(zone.toLowerCase()), typed).toBe(zone);
    }
    expect(resolveTimeZone('US/Eastern')).toBe('America/New_York');
    expect(() => resolveTimeZone('Etc/GMT+15')).toThrow(UserError);
    expect(() => resolveTimeZone('Europe/Atlantis')).toThrow(/not a time zone/);
  });
});
