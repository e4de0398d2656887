import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../../src/client/errors.ts';
import { buildFilter, canonicalQuery, listParams } from '../../src/client/query.ts';
import type { Where } from '../../src/client/types.ts';
import { parseFilter, UnsafeFilterTextError } from '../../src/protocol/filter.ts';

describe('buildFilter', () => {
  it('writes ids, sets, booleans and null the way the service parses them', () => {
    const filter = buildFilter('series', [
      ['game.id', '=', 3],
      ['participants.roster.id', '^', [4, 5]],
      ['lifecycle', '<=', ['upcoming', 'live']],
      ['streamed', '=', true],
      ['has_incident_report', '=', false],
      ['deleted_at', '=', null],
    ]);
    expect(filter).toBe(
      'game.id=3,participants.roster.id^{4,5},lifecycle<={upcoming,live},streamed=1,has_incident_report=0,deleted_at=null',
    );
    expect(parseFilter(filter)).toHaveLength(6);
  });

  it('sends ~= text trimmed and wrapped as a contains match', () => {
    expect(buildFilter('teams', [['name', '~=', '  Team Liquid ']])).toBe('name~=*Team Liquid*');
  });

  it('refuses a field that is not in the resource list', () => {
    expect(() => buildFilter('teams', [['secret' as never, '=', 1]])).toThrow(InvalidQueryError);
    expect(() => buildFilter('teams', [['secret' as never, '=', 1]])).toThrow(
      /not a filterable field of teams/,
    );
  });

  it('refuses ids that are not non-negative integers, in sets too', () => {
    for (const bad of [-1, 1.5, Number.NaN, '7', '1,2']) {
      expect(() => buildFilter('series', [['game.id', '=', bad as number]])).toThrow(UnsafeFilterTextError);
      expect(() => buildFilter('series', [['id', '<=', [1, bad as number]]])).toThrow(UnsafeFilterTextError);
    }
  });

  it('refuses the injection attempts of the issue before anything is sent', () => {
    const attempts = [
      '1,2',
      'x},id<={1',
      '*',
      'Fnatic,G2',
      'a\u0000b',
      'tab\there',
      'x'.repeat(1000),
      '   ',
      'Na_Vi',
    ];
    for (const text of attempts) {
      expect(() => buildFilter('teams', [['name', '~=', text]]), JSON.stringify(text)).toThrow(
        UnsafeFilterTextError,
      );
    }
    // exact values reject grammar characters too (with the library's own class)
    for (const text of ['1,2', 'x},id<={1', '*', 'live\n']) {
      expect(() => buildFilter('series', [['lifecycle', '=', text]]), JSON.stringify(text)).toThrow(
        InvalidQueryError,
      );
    }
  });

  it('refuses operators used with the wrong kind of value', () => {
    expect(() => buildFilter('series', [['id', '<=', 1]])).toThrow(/takes a set/);
    expect(() => buildFilter('series', [['id', '<=', null]])).toThrow(/null works with = and != only/);
    expect(() => buildFilter('series', [['title', '~=', 5 as never]])).toThrow(/as a string/);
    expect(() => buildFilter('series', [['id', '~=', '5']])).toThrow(/is an id/);
    expect(() => buildFilter('series', [['title', '=', 'null']])).toThrow(/pass null/);
    expect(() => buildFilter('series', [['title', '===' as never, 'x']])).toThrow(/not a filter operator/);
  });

  it('returns an empty filter for no conditions', () => {
    expect(buildFilter('series', [])).toBe('');
    expect(buildFilter('series', undefined)).toBe('');
  });
});

describe('listParams', () => {
  it('checks order keys, skip and take', () => {
    expect(listParams('series', { order: 'start-asc', skip: 50, take: 50 })).toEqual({
      order: 'start-asc',
      skip: '50',
      take: '50',
    });
    expect(listParams('series', { order: ['tier-desc', 'start-asc'] }).order).toBe('tier-desc,start-asc');
    expect(() => listParams('series', { order: 'start' as never })).toThrow(/not an order of series/);
    expect(() => listParams('series', { order: 'nope-asc' as never })).toThrow(InvalidQueryError);
    expect(() => listParams('series', { take: 51 })).toThrow(/take must be a whole number from 0 to 50/);
    expect(() => listParams('series', { skip: -1 })).toThrow(/skip/);
  });

  it('puts endpoint conditions first', () => {
    const extra: Where<'series'>[] = [['id', '<=', [1, 2]]];
    expect(listParams('series', { filter: [['tier', '=', 1]] }, extra).filter).toBe('id<={1,2},tier=1');
  });

  it('gives equal queries equal canonical strings whatever the key order', () => {
    expect(canonicalQuery({ take: '5', filter: 'a=1' })).toBe(canonicalQuery({ filter: 'a=1', take: '5' }));
    expect(canonicalQuery({ filter: 'id<={1,2}' })).toBe('filter=id%3C%3D%7B1%2C2%7D');
  });
});
