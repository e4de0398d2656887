/**
 * `matchday start` without a terminal and without a chat platform (a container started without
 * `-it`): it must not run the terminal chat on empty stdin and exit 0, but say what it runs and keep
 * serving notifications until told to stop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { matchday, type Running } from './spawn.ts';

describe('matchday start without a TTY and without a platform token', () => {
  let dir: string;
  let run: Running | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-headless-'));
  });
  afterEach(async () => {
    await run?.stop();
    run = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('with stdin on /dev/null: runs as a notifier-only service, says so, and stops on SIGTERM with 0', async () => {
    run = matchday(['start'], {
      STORE_URL: `sqlite://${join(dir, 'a', 'matchday.sqlite')}`,
      LOG_LEVEL: 'info',
    });
    await run.waitFor((o) => o.stderr.includes('running headless'), 60_000, 'the headless line');
    expect(run.stderr()).toContain(
      'Matchday is running headless (stdin is not a terminal; no DISCORD_TOKEN or SLACK_BOT_TOKEN): notifier-only service',
    );
    expect(run.stderr()).toContain('notifications for the terminal channel are written to stdout');
    expect(run.stdout()).toMatch(/^Matchday is running headless \(notifier only, no chat\)\./);
    expect(run.stdout()).toMatch(/notify\s+reminders, live cards and digests are on/);
    // No chat: no prompt text, no terminal banner; logs are JSON lines on stderr (none in a file).
    expect(run.stdout()).not.toContain('Type /help');
    expect(run.stderr()).toContain('"mode":"headless"');
    // Still running: a service, not a chat that ended.
    expect(run.child.exitCode).toBeNull();
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toContain('shutting down');
  }, 90_000);

  it('with a pipe that ends before any command: keeps serving notifications instead of exiting 0', async () => {
    run = matchday(
      ['start'],
      { STORE_URL: `sqlite://${join(dir, 'b', 'matchday.sqlite')}`, LOG_LEVEL: 'info' },
      'pipe',
    );
    run.child.stdin!.end('');
    await run.waitFor((o) => o.stderr.includes('running headless'), 60_000, 'the headless line');
    expect(run.stderr()).toContain('Matchday is running headless (stdin ended before any command;');
    expect(run.child.exitCode).toBeNull();
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 90_000);

  it('with commands on a pipe: still the scripted chat, which answers and exits 0 at the end of input', async () => {
    run = matchday(
      ['start'],
      { STORE_URL: `sqlite://${join(dir, 'c', 'matchday.sqlite')}`, LOG_LEVEL: 'info' },
      'pipe',
    );
    run.child.stdin!.end('/help\n');
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain('Matchday is running in your terminal.');
    expect(run.stdout()).toContain('Matchday commands');
    expect(run.stderr()).not.toContain('running headless');
  }, 90_000);
});
