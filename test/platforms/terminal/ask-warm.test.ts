import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../../src/config.ts';
import { type RunningService, startService } from '../../../src/service/index.ts';

const BIN = join(import.meta.dirname, '../../../bin/matchday.mjs');

/**
 * `matchday ask` as a real child process (bin/matchday.mjs, which runs dist/cli.mjs) against a
 * service started here, with a SQLite store in a temporary directory: once the store is warm, an
 * `ask` sends at most 3 upstream requests, counted by the service. No timing is asserted.
 */
describe('matchday ask with a warm store', () => {
  let service: RunningService;
  let dir: string;
  let env: Record<string, string>;

  function ask(line: string): Promise<{ code: number | null; stdout: string; requests: number }> {
    const before = service.requests;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'ask', line], {
        env,
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.resume();
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, requests: service.requests - before }));
    });
  }

  beforeAll(async () => {
    // A generous budget: the test counts requests, it does not wait out 5 per second.
    service = await startService({ port: 0, seed: 7, rate: 100, burst: 100 });
    dir = mkdtempSync(join(tmpdir(), 'matchday-ask-warm-'));
    env = {};
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined && !(CONFIG_VARIABLES as string[]).includes(key)) env[key] = value;
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

  it('/help sends nothing; /series live sends at most 3 requests once the store is warm', async () => {
    const help = await ask('/help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Matchday commands');
    expect(help.requests).toBe(0);
    // stdout is a pipe here: nothing is wrapped, so a long line stays one line (a copied link works).
    const long = help.stdout.split('\n').filter((line) => [...line].length > 80);
    expect(long.length).toBeGreaterThan(0);
    // The first data command fills the store (the name index and the feed's live listing).
    const cold = await ask('/series live');
    expect(cold.code).toBe(0);
    expect(cold.requests).toBeGreaterThan(3);
    for (let i = 0; i < 2; i++) {
      const warm = await ask('/series live');
      expect(warm.code).toBe(0);
      expect(warm.stdout).toContain('Live');
      expect(warm.requests).toBeLessThanOrEqual(3);
    }
  }, 120_000);
});
