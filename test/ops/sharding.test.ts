/**
 * Discord sharding across processes: `matchday start` with DISCORD_SHARDS / DISCORD_SHARD_COUNT
 * identifies as its shards (discord.js `shards`, `shardCount`) to the loopback Discord fake, which
 * routes each guild to its shard as Discord does; the process answers its own guilds' commands and
 * reports its shards on /readyz and /metrics.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, shardOf } from '../fakes/discord.ts';
import { GUILD, GUILD_SEED } from '../platforms/discord/rig.ts';
import { parsePrometheus } from './prometheus.ts';
import { freePort, matchday, type Running } from './spawn.ts';

// One bit above the 22 timestamp-free bits: the guild on the other shard of two.
const OTHER = String(BigInt(GUILD) + (1n << 22n));

describe('matchday start with DISCORD_SHARDS and DISCORD_SHARD_COUNT', () => {
  let fake: FakeDiscord;
  let run: Running | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'matchday-shards-'));
  beforeAll(async () => {
    fake = await FakeDiscord.start({
      guilds: [
        GUILD_SEED,
        { id: OTHER, name: 'Other Hub', channels: [{ id: '900000000000000001', name: 'general' }] },
      ],
    });
  });
  afterAll(async () => {
    await run?.stop();
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('identifies as its shard, gets only that shard’s guilds, answers there, and reports the shard', async () => {
    const mine = shardOf(GUILD, 2);
    expect(shardOf(OTHER, 2)).toBe(1 - mine);
    const port = await freePort();
    run = matchday(['start'], {
      DISCORD_TOKEN: fake.token,
      DISCORD_APP_ID: fake.appId,
      DISCORD_API_URL: fake.apiUrl,
      DISCORD_SHARDS: String(mine),
      DISCORD_SHARD_COUNT: '2',
      STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
      ESPORTS_RATE: '10000',
      METRICS_PORT: String(port),
      LOG_LEVEL: 'info',
    });
    await run.waitFor((o) => o.stdout.includes('Matchday is running'), 60_000, 'the start-up banner');
    expect(run.stdout()).toContain(`shards  Discord shards ${mine} of 2`);
    expect(fake.identifies.map((identify) => identify.shard)).toEqual([[mine, 2]]);
    // Only this shard's guild was sent to the process.
    const created = fake.frames
      .filter((f) => f.direction === 'out' && f.t === 'GUILD_CREATE')
      .map((f) => f.d.id);
    expect(created).toEqual([GUILD]);

    const answer = await fake.answer({ command: 'help', guildId: GUILD }, 15_000);
    expect(answer.callbackTypes).toEqual([4]);

    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({
      ready: true,
      checks: { store: 'ok', service: 'ok', discord: 'ok' },
      notifier: 'on',
    });
    const m = parsePrometheus(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    expect(m.find('matchday_discord_shard_status').map((s) => [s.labels.shard, s.value])).toEqual([
      [String(mine), 0],
    ]);
    expect(
      m.find('matchday_command_duration_seconds_count', { command: 'help', outcome: 'ok' })[0]?.value,
    ).toBe(1);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 120_000);

  it('refuses shard ids outside the count before connecting', async () => {
    const bad = matchday(['start'], {
      DISCORD_TOKEN: fake.token,
      DISCORD_SHARDS: '2',
      DISCORD_SHARD_COUNT: '2',
      STORE_URL: `sqlite://${join(dir, 'b.sqlite')}`,
    });
    expect(await bad.exited).toBe(1);
    expect(bad.stderr()).toContain(
      'Configuration error: DISCORD_SHARDS must list shard ids below DISCORD_SHARD_COUNT (2); got 2',
    );
    expect(fake.identifies).toHaveLength(1);
  }, 60_000);
});
