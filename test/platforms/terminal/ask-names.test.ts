import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../../src/config.ts';
import { type RunningService, startService } from '../../../src/service/index.ts';

const BIN = join(import.meta.dirname, '../../../bin/matchday.mjs');

/**
 * `matchday ask` with names of several words typed bare, as Tab inserts them, before another name
 * (`/standings SP Lisbon Masters 16 Mar Group A`), on a store that has no names yet and on the same
 * store once warm: the name index settles which words make which name (src/platforms/terminal/ask.ts),
 * as in the chat. Words no name settles are still refused as ambiguous. A real child process
 * against a service started here.
 */
describe('matchday ask with bare names of several words', () => {
  let service: RunningService;
  let dir: string;
  let env: Record<string, string>;

  function ask(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'ask', line], {
        env,
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  beforeAll(async () => {
    service = await startService({ port: 0, seed: 7, rate: 100, burst: 100 });
    dir = mkdtempSync(join(tmpdir(), 'matchday-ask-names-'));
    env = {};
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined && !(CONFIG_VARIABLES as string[]).includes(key)) env[key] = value;
    Object.assign(env, {
      ESPORTS_API_URL: service.url,
      ESPORTS_API_SECRET: service.secret,
      ESPORTS_RATE: '100',
      STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
      LOG_LEVEL: 'warn',
      MATCHDAY_BUNDLE: '0',
    });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/standings <tournament> <group>, both bare, on a new store and then a warm one', async () => {
    const world = service.world;
    const now = world.now();
    const plan = world
      .window(now)
      .tournaments.find((t) => t.start <= now && t.stages[0]!.substages.some((s) => s.type === 1))!;
    const group = plan.stages[0]!.substages.find((s) => s.type === 1)!;
    // The words alone read two ways: tournament "SP" and stage "Lisbon Masters 16 Mar Group A", or one name.
    const line = `/standings ${plan.shortTitle} ${group.title}`;
    expect(plan.shortTitle).toMatch(/ /);
    for (const store of ['new', 'warm']) {
      const answer = await ask(line);
      expect(answer.stderr, `${store} store`).not.toContain('more than one way');
      expect(answer.code, `${store} store: ${answer.stderr}`).toBe(0);
      expect(answer.stdout.split('\n')[0]).toContain(`${plan.title} · ${group.title}`);
    }
    // Words that are no name stay ambiguous, and say so.
    const unknown = await ask('/standings Foo Bar Baz Qux');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('can be read more than one way by /standings');
    expect(unknown.stdout).toBe('');
  }, 120_000);
});
