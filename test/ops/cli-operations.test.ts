/**
 * `matchday start` with METRICS_PORT, as a container runs it (no TTY, no platform token): the real
 * CLI serves the probes and metrics of its notifier, and a SIGTERM drains it (not ready, commands
 * refused) and ends it with 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePrometheus } from './prometheus.ts';
import { freePort, matchday, type Running } from './spawn.ts';

describe('matchday start with METRICS_PORT', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-cli-ops-'));
  let run: Running | undefined;
  afterAll(async () => {
    await run?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves /healthz, /readyz and /metrics of the running notifier, then stops on SIGTERM with 0', async () => {
    const port = await freePort();
    run = matchday(['start'], {
      STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
      METRICS_PORT: String(port),
      LOG_LEVEL: 'info',
    });
    await run.waitFor((o) => o.stderr.includes('running headless'), 60_000, 'the headless line');
    expect(run.stdout()).toContain(`ops     http://127.0.0.1:${port} (/healthz, /readyz, /metrics)`);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(await ready.json()).toEqual({
      ready: true,
      checks: { store: 'ok', service: 'ok' },
      notifier: 'on',
    });

    const m = parsePrometheus(await (await fetch(`${base}/metrics`)).text());
    expect(m.find('matchday_notifier_leader')[0]?.value).toBe(1);
    // The notifier ticked once at start (it reconciles at once) and read the feed through the client.
    expect(m.find('matchday_upstream_requests_total', { family: 'series' }).length).toBeGreaterThan(0);
    expect(m.find('matchday_deliveries_total', { kind: 'reminder', outcome: 'sent' })).toHaveLength(1);
    expect(m.find('matchday_notify_backlog')[0]?.value).toBeGreaterThanOrEqual(0);
    expect(m.types.get('process_resident_memory_bytes')).toBe('gauge');

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toContain('shutting down');
    expect(run.stderr()).not.toContain('shutdown did not finish in time');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  }, 90_000);

  it('refuses to start, naming the variable, when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const taken = matchday(['start'], {
        STORE_URL: `sqlite://${join(dir, 'b', 'matchday.sqlite')}`,
        METRICS_PORT: String(port),
        LOG_LEVEL: 'silent',
      });
      expect(await taken.exited).toBe(1);
      expect(taken.stderr()).toContain(
        `the operations endpoint (METRICS_PORT=${port}) could not listen on 127.0.0.1`,
      );
      expect(taken.stderr()).toContain('EADDRINUSE');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 90_000);
});
