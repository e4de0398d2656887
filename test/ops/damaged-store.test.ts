/**
 * `matchday start` on a damaged SQLite settings file, as a container runs it (no TTY, no platform
 * token, METRICS_PORT set): it starts (commands that need no settings still answer), its banner
 * says the store is damaged and notifications are off, stderr says why, and /readyz names the
 * damaged store and the notifier that is off, instead of a banner saying notifications are on while
 * every tick fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, matchday, type Running } from './spawn.ts';

describe('matchday start on a damaged settings file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-damaged-start-'));
  let run: Running | undefined;
  afterAll(async () => {
    await run?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says so in the banner, on stderr and in /readyz, with the notifier off', async () => {
    const data = join(dir, 'data');
    mkdirSync(data);
    const path = join(data, 'matchday.sqlite');
    writeFileSync(path, 'this is not a SQLite database\n'.repeat(200));
    const port = await freePort();
    run = matchday(['start'], {
      STORE_URL: `sqlite://${path}`,
      METRICS_PORT: String(port),
      LOG_LEVEL: 'info',
    });
    await run.waitFor(
      (o) => o.stderr.includes('running headless') && o.stdout.includes('ops '),
      60_000,
      'the banner and the headless line',
    );
    // The banner wraps at 80 columns: read it as one line.
    const banner = run.stdout().replace(/\s+/g, ' ');
    expect(banner).toContain(
      `store sqlite://${path} (the settings store is damaged: settings are unavailable; see the log)`,
    );
    expect(banner).toContain('notify off (the settings store is damaged)');
    expect(banner).not.toContain('reminders, live cards and digests are on');
    expect(run.stderr()).toContain('Notifications are off: ');
    expect(run.stderr()).toContain('restore a backup');

    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { ready: boolean; checks: Record<string, string>; notifier: string };
    expect(body.ready).toBe(false);
    expect(body.checks.store).toMatch(/damaged/);
    expect(body.checks.service).toBe('ok');
    expect(body.notifier).toBe('off: the settings store is damaged');
    // Alive all the same.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 90_000);
});
