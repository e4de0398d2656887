/**
 * The scale-out run of `bench/scale.ts`, bounded for CI: 3 real processes on one Redis and one
 * rate-limited local service (5 requests/s for the one secret), users' commands in every process,
 * the lease holder killed with SIGKILL mid-run. Asserts the goals of `npm run bench:scale`
 * (docs/benchmarks.md): one
 * budget, no failure reaching a user, takeover within 30 s, no notification posted twice, none lost.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const URL = process.env.REDIS_URL;

describe.skipIf(!URL)(`scale-out on one Redis${URL ? '' : ' (skipped: REDIS_URL is not set)'}`, () => {
  it('3 processes keep one budget and one notifier; the holder killed, another takes over within 30 s', async () => {
    const bench = join(import.meta.dirname, '../../bench/scale.ts');
    // 50 s: the successor takes over ~15 s after the kill at 8 s, and on a loaded CI machine its
    // first ticks (and the killed holder's start-up) can take several seconds; 30 s left it too
    // little time to post anything (notifications 0 in one CI run).
    const child = spawn(process.execPath, ['--import', 'tsx', bench, '--seconds', '50', '--kill-at', '8'], {
      env: { ...process.env, REDIS_URL: URL },
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
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, stderr.slice(-2000)).toBe(0);
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result.processes).toBe(3);
    // One budget for the secret: the service saw no more than it allows, and no user saw a failure.
    expect(result.upstream_per_s).toBeLessThanOrEqual(result.budget_per_s * 1.1);
    expect(result.rate_limited_to_callers).toBe(0);
    expect(result.commands).toBeGreaterThan(0);
    // The holder was killed and another process took the notifier over within 30 s.
    expect(result.takeover_s).not.toBeNull();
    expect(result.takeover_s).toBeLessThanOrEqual(30);
    expect(stderr).toMatch(/killed the lease holder \(pid \d+\)/);
    expect(result.notifications).toBeGreaterThan(0);
    // Nothing twice (a key posted by the killed holder and again by its successor would count), nothing lost.
    expect(result.duplicates).toBe(0);
    expect(result.lost).toBe(0);
  }, 200_000);
});
