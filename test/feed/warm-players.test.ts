/**
 * A long-running Matchday (`keepNamesShared`) loads every player in one background walk, so a team
 * page reads its players from the name index instead of one request per team.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameIndex } from '../../src/bot/names.ts';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { SqliteSnapshotStore } from '../../src/feed/store.ts';
import { keepNamesShared } from '../../src/feed/warm.ts';
import { type RunningService, startService } from '../../src/service/index.ts';

const AT = new Date('2026-03-18T15:20:00.000Z');
let service: RunningService;
let client: EsportsClient;
let dir: string;

beforeAll(async () => {
  service = await startService({ port: 0, seed: 42, clock: new Clock({ start: AT, frozen: true }), rate: 0 });
  client = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 10_000, burst: 10_000 },
  });
  dir = mkdtempSync(join(tmpdir(), 'matchday-players-'));
});
afterAll(async () => {
  await client.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('keeping the name index shared', () => {
  it('loads every player in the background, then a team page needs no request for its players', async () => {
    const clock = new Clock({ start: AT, frozen: true });
    const names = createNameIndex({ client, clock });
    await names.refresh();
    const store = new SqliteSnapshotStore(join(dir, 'feed.sqlite'));
    const stop = keepNamesShared(names, store, clock, 'one');
    try {
      const player = service.world.catalog.players.find((p) => p.deleted_at === null)!;
      for (let i = 0; i < 100 && names.player(player.id) === undefined; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(names.player(player.id)?.nick_name).toBe(player.nick_name);
    } finally {
      stop();
      await store.close();
    }
  });
});
