/**
 * The pure part of reading many v2 series by id (`src/client/v2/series-batch.ts`): how ids are cut
 * into clusters of close starts, the listing each cluster asks for, and when a listing is not worth
 * its pages. The listings themselves run against the local service in `v2.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { QueryParams } from '../../src/client/query.ts';
import {
  CLUSTER_GAP_MS,
  clusterParams,
  clusters,
  fitted,
  type ListPage,
  readClusters,
  type SeriesHint,
} from '../../src/client/v2/series-batch.ts';
import type { V2Series } from '../../src/client/v2/shapes.ts';
import { fits, MAX_QUERY_CHARS, queryLength, splitIds } from '../../src/client/v2/url-limit.ts';

const T = Date.parse('2026-11-18T12:00:00Z');
const hints = new Map<number, SeriesHint>([
  [1, { tournament: 10, start: T }],
  [2, { tournament: 11, start: T + 3600_000 }],
  [3, { tournament: 10, start: T + 3600_000 + CLUSTER_GAP_MS + 1 }],
  [4, { tournament: 12, start: T - 60_000 }],
]);

describe('v2 series by id: clusters', () => {
  it('cuts ids sorted by their last start where two starts lie more than the gap apart, and leaves unseen ids out', () => {
    expect(clusters([3, 2, 1, 4, 99], hints)).toEqual([[4, 1, 2], [3]]);
  });

  it('asks each cluster for its tournaments from its first start to one second past its last', () => {
    expect(clusterParams([4, 1, 2], hints)).toEqual({
      'tournaments[]': '10,11,12',
      starts_after: '2026-11-18T11:59:00.000Z',
      starts_before: '2026-11-18T13:00:01.000Z',
      'with[]': 'casters,matches',
    });
  });

  it('reads clusters of two or more, keeps only the wanted series, and stops when pages outnumber the series left', async () => {
    const row = (id: number) => ({ id }) as V2Series;
    const asked: number[] = [];
    // Page 1 holds series 4 and others; the listing has 9 pages: more than the 2 series still wanted.
    const listPage: ListPage = async (_params, page) => {
      asked.push(page);
      return { at: T, lastPage: 9, data: page === 1 ? [row(4), row(50), row(51)] : [] };
    };
    const found = await readClusters([1, 2, 3, 4], hints, listPage);
    expect([...found.keys()]).toEqual([4]);
    expect(asked).toEqual([1]);
  });

  it('reads every page when they are fewer than the series still wanted', async () => {
    const row = (id: number) => ({ id }) as V2Series;
    const pages: Record<number, V2Series[]> = { 1: [row(4)], 2: [row(1), row(60)], 3: [row(2)] };
    const asked: number[] = [];
    const listPage: ListPage = async (_params, page) => {
      asked.push(page);
      return { at: T + page, lastPage: 3, data: pages[page] ?? [] };
    };
    const found = await readClusters([1, 2, 4], hints, listPage);
    expect(asked.sort()).toEqual([1, 2, 3]);
    expect([...found.entries()].map(([id, f]) => [id, f.at]).sort()).toEqual([
      [1, T + 2],
      [2, T + 3],
      [4, T + 1],
    ]);
  });
});

describe('v2 series by id: listings under the URL cap', () => {
  // 400 series, each of its own tournament (7-digit ids, as the local service's), within an hour.
  const many = new Map<number, SeriesHint>(
    Array.from({ length: 400 }, (_, i) => [i + 1, { tournament: 1_300_000 + i, start: T + i * 9000 }]),
  );
  const ids = [...many.keys()];

  it('cuts a cluster of many tournaments into listings that each fit, every series in exactly one', () => {
    expect(clusters(ids, many)).toHaveLength(1);
    expect(fits(clusterParams(ids, many))).toBe(false);
    const parts = fitted(ids, many);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts)
      expect(queryLength(clusterParams(part, many))).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(parts.flat().sort((a, b) => a - b)).toEqual(ids);
  });

  it('leaves a cluster that fits as it is', () => {
    expect(fitted([1, 2, 3], many)).toEqual([[1, 2, 3]]);
  });

  it('asks only for listings that fit, and finds every series in them', async () => {
    const asked: QueryParams[] = [];
    const listPage: ListPage = async (params) => {
      asked.push(params);
      const tournaments = new Set(params['tournaments[]']!.split(',').map(Number));
      const data = ids
        .filter((id) => tournaments.has(many.get(id)!.tournament))
        .map((id) => ({ id }) as V2Series);
      return { at: T, lastPage: 1, data };
    };
    const found = await readClusters(ids, many, listPage);
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.every(fits)).toBe(true);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual(ids);
  });
});

describe('v2 URL cap: splitIds', () => {
  const params = {
    'competitors[]': Array.from({ length: 300 }, (_, i) => 100_000 + i).join(','),
    is_over: 'false',
  };

  it('cuts an id list into the fewest consecutive parts that fit, keeping the other parameters', () => {
    const parts = splitIds(params, 'competitors[]');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(fits(part)).toBe(true);
      expect(part.is_over).toBe('false');
    }
    expect(parts.map((p) => p['competitors[]']).join(',')).toBe(params['competitors[]']);
    // The fewest: two neighbouring parts joined would not fit.
    const joined = {
      ...params,
      'competitors[]': `${parts[0]!['competitors[]']},${parts[1]!['competitors[]']}`,
    };
    expect(fits(joined)).toBe(false);
  });

  it('keeps parameters that fit as one listing', () => {
    const small = { 'competitors[]': '1,2,3' };
    expect(splitIds(small, 'competitors[]')).toEqual([small]);
  });

  it('measures the query as the transport sends it (each id its own parameter)', () => {
    expect(queryLength({ 'games[]': '1,22' })).toBe('games%5B%5D=1&games%5B%5D=22'.length);
  });
});
