/**
 * The operations endpoint in-process: a real Matchday (`createApp`: embedded service, SQLite store)
 * with /healthz, /readyz and /metrics on a loopback port, scraped over HTTP and parsed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { OpsMetrics, type OpsServer, startOperations } from '../../src/ops/operations.ts';
import { captureLogs } from '../bot/helpers.ts';
import { parsePrometheus } from './prometheus.ts';

const USER = { id: 'u1', name: 'ann', isAdmin: true };

describe('operations endpoint', () => {
  let dir: string;
  let app: App;
  let metrics: OpsMetrics;
  let ops: OpsServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-ops-'));
    const config = loadConfig({ STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`, LOG_LEVEL: 'silent' });
    metrics = new OpsMetrics();
    app = await createApp(config, { logger: captureLogs().logger, onCommand: metrics.observeCommand });
    ops = await startOperations(app, { host: '127.0.0.1', port: 0 }, metrics);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await ops?.close();
    metrics?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /healthz, and /readyz with every check ok', async () => {
    const health = await fetch(`${ops.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok\n');
    const ready = await fetch(`${ops.url}/readyz`);
    expect(ready.status).toBe(200);
    // No notifier is attached in this process: said beside the checks, not counted against readiness.
    expect(await ready.json()).toEqual({
      ready: true,
      checks: { store: 'ok', service: 'ok' },
      notifier: 'starting',
    });
  });

  it('listens on loopback only, refuses other methods and names the paths it has', async () => {
    expect(new URL(ops.url).hostname).toBe('127.0.0.1');
    const post = await fetch(`${ops.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    const missing = await fetch(`${ops.url}/admin`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('/healthz, /readyz or /metrics');
  });

  it('serves /metrics in Prometheus format: upstream by family, budget, cache, commands, event-loop lag', async () => {
    const help = await app.runtime.run({
      platform: 'terminal',
      tenantKey: 'local',
      command: 'help',
      args: {},
      user: USER,
      channel: { id: 'terminal', name: 'terminal' },
    });
    expect(help.outcome).toBe('ok');
    const unknown = await app.runtime.run({
      platform: 'terminal',
      tenantKey: 'local',
      command: 'seires',
      args: {},
      user: USER,
      channel: { id: 'terminal', name: 'terminal' },
    });
    expect(unknown.outcome).toBe('user-error');

    const response = await fetch(`${ops.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const m = parsePrometheus(await response.text());

    // The name index loaded teams, tournaments and games at start: real upstream requests, all 200.
    const upstream = m.find('matchday_upstream_requests_total', { status: '200' });
    expect(upstream.length).toBeGreaterThan(0);
    const families = upstream.map((s) => s.labels.family);
    expect(families).toContain('teams');
    const total = upstream.reduce((sum, s) => sum + s.value, 0);
    expect(total).toBe(app.client.stats().upstream.teams!['200']! + sumOthers(app, 'teams'));
    expect(m.types.get('matchday_upstream_requests_total')).toBe('counter');
    // No 429 happened: the counter is there, per family, at 0.
    const limited = m.find('matchday_upstream_rate_limited_total');
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.every((s) => s.value === 0)).toBe(true);

    expect(m.find('matchday_rate_budget_per_second')[0]?.value).toBe(50);
    expect(m.types.get('matchday_rate_budget_in_use_ratio')).toBe('gauge');
    const ratio = m.find('matchday_cache_hit_ratio')[0]!.value;
    expect(ratio).toBeGreaterThanOrEqual(0);
    expect(ratio).toBeLessThanOrEqual(1);

    // One histogram observation per call, labelled by command (unknown names pooled) and outcome.
    expect(m.types.get('matchday_command_duration_seconds')).toBe('histogram');
    expect(
      m.find('matchday_command_duration_seconds_count', { command: 'help', outcome: 'ok' })[0]?.value,
    ).toBe(1);
    expect(
      m.find('matchday_command_duration_seconds_count', { command: 'unknown', outcome: 'user-error' })[0]
        ?.value,
    ).toBe(1);
    expect(m.find('matchday_command_duration_seconds_count', { command: 'seires' })).toEqual([]);
    const inf = m.find('matchday_command_duration_seconds_bucket', { command: 'help', le: '+Inf' })[0];
    expect(inf?.value).toBe(1);

    expect(m.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(m.find('nodejs_eventloop_lag_seconds')[0]!.value).toBeGreaterThanOrEqual(0);
    // No notifier runs in this app: not the leader, no deliveries yet.
    expect(m.find('matchday_notifier_leader')[0]?.value).toBe(0);
    expect(m.find('matchday_deliveries_total')).toEqual([]);
    expect(m.find('matchday_feed_last_read_age_seconds')).toEqual([]);
  });

  it('at shutdown answers new commands with a short notice instead of running them', async () => {
    app.runtime.closing = true;
    try {
      const call = await app.runtime.run({
        platform: 'terminal',
        tenantKey: 'local',
        command: 'help',
        args: {},
        user: USER,
        channel: { id: 'terminal', name: 'terminal' },
      });
      expect(call.outcome).toBe('error');
      expect(call.code).toBe('SHUTTING_DOWN');
      expect(call.message).toBe('Matchday is restarting. Please try again in a few seconds.');
      ops.draining = true;
      const ready = await fetch(`${ops.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ ready: false, draining: true });
    } finally {
      app.runtime.closing = false;
      ops.draining = false;
    }
  });

  it('says not ready, naming the check, when the store is closed', async () => {
    await app.tenants.close();
    const ready = await fetch(`${ops.url}/readyz`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { ready: boolean; checks: Record<string, string> };
    expect(body.ready).toBe(false);
    expect(body.checks.service).toBe('ok');
    expect(body.checks.store).not.toBe('ok');
    expect(body.checks.store!.length).toBeGreaterThan(0);
    // Alive all the same: liveness is not readiness.
    expect((await fetch(`${ops.url}/healthz`)).status).toBe(200);
  });
});

function sumOthers(app: App, except: string): number {
  let sum = 0;
  for (const [family, byStatus] of Object.entries(app.client.stats().upstream))
    if (family !== except) sum += byStatus['200'] ?? 0;
  return sum;
}
