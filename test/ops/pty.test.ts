/**
 * `npm start` in a real pseudo-terminal (util-linux `script`), with the clock at 60x real time
 * (CLOCK_SPEED=60, a simulated minute per real second), watched for a simulated hour after the
 * banner: what a person sees in their terminal while series are live. A noisy terminal once printed
 * ~100 lines a minute there, mostly game-clock ticks; the terminal must stay calm and still show live scores.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import { World } from '../../src/service/world.ts';
import { BIN, cleanEnv } from './spawn.ts';

const MINUTE = 60_000;

/**
 * Where the clock starts (CLOCK_START): 5 minutes before the next instant of the default seed's world
 * when several tier 1-2 series start at once, that play on past the simulated hour, while others are
 * live already. The terminal subscribes from its first start, so the series live then end with a
 * result, and those that go live after it bring the live cards and their edits; from the real time
 * the hour could hold no start at all (a quiet morning).
 */
function busyStart(now: number): Date {
  const world = new World(42, 1, new Clock({ start: new Date(now), frozen: true }));
  const series = world
    .window(now)
    .series.filter((s) => s.tier <= 2 && s.deletedAt === null && s.forfeit < 0 && s.postponedFrom === null);
  const starts = new Map<number, number>();
  for (const s of series)
    if (s.start > now && s.start < now + 2 * 24 * 60 * MINUTE && s.end - s.start > SIMULATED_MINUTES * MINUTE)
      starts.set(s.start, (starts.get(s.start) ?? 0) + 1);
  const liveAt = (t: number) => series.filter((s) => s.start < t && s.end > t).length;
  for (const [start, count] of [...starts].sort((a, b) => a[0] - b[0]))
    if (count >= 2 && liveAt(start - 5 * MINUTE) > 0) return new Date(start - 5 * MINUTE);
  throw new Error(
    'the world of seed 42 has no instant with two tier 1-2 series starting at once in two days',
  );
}

/** The util-linux `script` that gives a child a pseudo-terminal, if this machine has one. */
function scriptPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const SCRIPT = scriptPath();
const SIMULATED_MINUTES = 60;
/** Real milliseconds per simulated minute at CLOCK_SPEED=60. */
const MINUTE_REAL_MS = 1000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's escape sequences
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** What a line shows once drawn: what follows its last erase-line (the prompt redrawn over), plain. */
function visible(raw: string): string {
  const erased = raw.lastIndexOf('\x1b[2K');
  return (erased >= 0 ? raw.slice(erased) : raw).replace(ANSI, '').replace(/\r/g, '');
}

interface Line {
  /** Simulated minutes after the banner when the line arrived. */
  minute: number;
  text: string;
}

describe.skipIf(!SCRIPT)(
  'npm start in a pseudo-terminal for a simulated hour (needs util-linux script)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchday-pty-'));
    let child: ChildProcess | undefined;
    afterAll(() => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    it('prints a calm terminal: a few lines a simulated minute while series are live, and live scores among them', async () => {
      const command = `'${process.execPath}' '${BIN}' start`;
      child = spawn(SCRIPT!, ['-qfec', command, '/dev/null'], {
        cwd: dir,
        env: cleanEnv({
          CLOCK_SPEED: '60',
          CLOCK_START: busyStart(Date.now()).toISOString(),
          STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
          TZ: 'UTC',
          COLUMNS: '80',
          LINES: '40',
        }),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let text = '';
      let bannerAt = 0;
      const lines: Line[] = [];
      let partial = '';
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        text += chunk;
        if (!bannerAt && text.includes('Type /help')) bannerAt = Date.now();
        if (!bannerAt) return;
        const minute = (Date.now() - bannerAt) / MINUTE_REAL_MS;
        const parts = (partial + chunk).split(/\r?\n/);
        partial = parts.pop() ?? '';
        for (const part of parts) lines.push({ minute, text: visible(part) });
      });
      const exited = new Promise<number | null>((resolve) => child!.on('close', (code) => resolve(code)));
      // Up to a minute for start-up on a loaded machine, then the simulated hour.
      const started = Date.now();
      while (!bannerAt && Date.now() - started < 90_000 && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 200));
      expect(bannerAt, `no banner; output so far:\n${text.slice(0, 2000)}`).toBeGreaterThan(0);
      expect(text).toContain('clock at 60x real time');
      const live = /live\s+(\d+) series live now/.exec(text.replace(ANSI, ''));
      expect(live, 'the banner says how many series are live').not.toBeNull();
      expect(Number(live![1])).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, SIMULATED_MINUTES * MINUTE_REAL_MS));
      child.stdin!.write('exit\r');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
      expect(code).toBe(0);

      const hour = lines.filter((l) => l.minute < SIMULATED_MINUTES);
      // Positive: the live picture reaches the terminal: live cards with a score, and updates.
      const scores = hour.filter((l) => /Now: game \d|Series: .+ \d+–\d+ /.test(l.text));
      expect(scores.length, 'live scores shown in the hour').toBeGreaterThan(0);
      expect(hour.some((l) => /↻ message \d+ · /.test(l.text))).toBe(true);
      // Negative: calm. Notifications come with the notifier's tick (10 real seconds, 10 simulated
      // minutes), so lines are counted per tick's worth of simulated minutes and over the hour.
      const perTen = new Map<number, number>();
      for (const l of hour)
        perTen.set(Math.floor(l.minute / 10), (perTen.get(Math.floor(l.minute / 10)) ?? 0) + 1);
      const busiest = Math.max(...perTen.values());
      const perMinute = hour.length / SIMULATED_MINUTES;
      // The noisy terminal printed ~100 lines a minute; a card is about ten lines, an update one line.
      expect(perMinute, `${hour.length} lines in ${SIMULATED_MINUTES} simulated minutes`).toBeLessThanOrEqual(
        8,
      );
      expect(busiest, `busiest 10 simulated minutes: ${busiest} lines`).toBeLessThanOrEqual(120);
      // No line wider than the terminal.
      expect(hour.filter((l) => [...l.text].length > 80).map((l) => l.text)).toEqual([]);
      console.log(
        `pty: ${hour.length} lines in ${SIMULATED_MINUTES} simulated minutes (${perMinute.toFixed(1)}/min), busiest 10 min ${busiest}, score lines ${scores.length}`,
      );
    }, 200_000);
  },
);
