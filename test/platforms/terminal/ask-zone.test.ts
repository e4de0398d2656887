import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../../src/config.ts';
import { type RunningService, startService } from '../../../src/service/index.ts';

const BIN = join(import.meta.dirname, '../../../bin/matchday.mjs');

/**
 * `matchday ask` as a real child process on a new store: the terminal tenant it creates is in the
 * system's time zone (`TZ`), as `matchday start` creates it, and a zone chosen later is kept.
 */
describe('matchday ask on a new store', () => {
  let service: RunningService;
  let dir: string;
  let env: Record<string, string>;

  function ask(line: string, tz: string): Promise<{ code: number | null; stdout: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'ask', line], {
        env: { ...env, TZ: tz },
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.resume();
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
  }

  beforeAll(async () => {
    service = await startService({ port: 0, seed: 7, rate: 100, burst: 100 });
    dir = mkdtempSync(join(tmpdir(), 'matchday-ask-zone-'));
    env = {};
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined && !(CONFIG_VARIABLES as string[]).includes(key) && key !== 'TZ')
        env[key] = value;
    Object.assign(env, {
      ESPORTS_API_URL: service.url,
      ESPORTS_API_SECRET: service.secret,
      ESPORTS_RATE: '100',
      STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
      LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the terminal tenant in TZ, and keeps a zone chosen later', async () => {
    const first = await ask('/settings show', 'Europe/Berlin');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Timezone\s+Europe\/Berlin/);
    expect(first.stdout).not.toMatch(/Timezone\s+UTC/);
    // Not new any more: another TZ does not move what is stored.
    const again = await ask('/settings show', 'Asia/Tokyo');
    expect(again.stdout).toMatch(/Timezone\s+Europe\/Berlin/);
  }, 120_000);
});
