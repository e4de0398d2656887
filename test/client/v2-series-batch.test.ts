/**
 * The pure part of reading many v2 series by id (`src/client/v2/series-batch.ts`): how ids are cut
 * into clusters of close starts, the listing each cluster asks for, and when a listing is not worth
 * its pages. The listings themselves run against the local service in `v2.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import {
  CLUSTER_GAP_MS,
  clusterParams,
  clusters,
  type ListPage,
  readClusters,
  type SeriesHint,
} from '../../src/client/v2/series-batch.ts';
import type { V2Series } from '../../src/client/v2/shapes.ts';

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
