/**
 * The freshness family of a request (`src/client/ttl.ts`): a listing that holds live series is
 * fresh for the live TTL only, on v3 (a lifecycle filter with live) and on v2 (series not over,
 * not bounded to start after now: the v2 live listing of `v2/clock-window.ts`).
 */
import { describe, expect, it } from 'vitest';
import { familyOf } from '../../src/client/ttl.ts';

describe('familyOf', () => {
  it('gives the live family to listings that hold live series, on v3 and v2', () => {
    expect(familyOf('/series', { filter: 'lifecycle=live' })).toBe('live');
    expect(familyOf('/series', { filter: 'lifecycle<={upcoming,live}' })).toBe('live');
    // v2: the live listing (not over, by start), with or without the old starts_before bound.
    expect(familyOf('/series', { is_deleted: 'false', is_over: 'false', order: 'start', sort: 'ASC' })).toBe(
      'live',
    );
    expect(familyOf('/series', { starts_before: 'now', is_over: 'false' })).toBe('live');
  });

  it('keeps the series family for listings that cannot hold a live series', () => {
    expect(familyOf('/series', { filter: 'lifecycle=upcoming' })).toBe('series');
    // v2: upcoming (starts after now), over, or a window of starts that also lifts is_over.
    expect(familyOf('/series', { starts_after: 'now', is_over: 'false' })).toBe('series');
    expect(familyOf('/series', { is_over: 'true' })).toBe('series');
    expect(
      familyOf('/series', {
        starts_after: '2026-11-18T12:00:00.000Z',
        starts_before: '2026-11-18T13:00:01.000Z',
      }),
    ).toBe('series');
  });
});
