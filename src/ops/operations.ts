/**
 * Starts the operations endpoint for a running Matchday: what /metrics reads and what /readyz
 * checks (the store answers, the esports service answers with fresh data, each chat platform says
 * it is connected).
 */
import type { App } from '../app.ts';
import type { Config } from '../config.ts';
import type { OpsMetrics } from './metrics.ts';
import { OpsServer, type OpsServerOptions } from './server.ts';

export { OpsMetrics } from './metrics.ts';
export type { OpsServer } from './server.ts';

export async function startOperations(
  app: App,
  settings: NonNullable<Config['ops']>,
  metrics: OpsMetrics,
  /** The calendar feeds, when they share this port (no CALENDAR_PORT). */
  extra?: OpsServerOptions['extra'],
): Promise<OpsServer> {
  metrics.use({
    clientStats: () => app.client.stats(),
    notifierStats: () => app.notifier?.stats,
    leader: () => app.notifier !== undefined,
  });
  const server = await OpsServer.start({
    ...settings,
    metrics,
    logger: app.logger,
    ...(extra ? { extra } : {}),
  });
  server.check('store', async () => {
    await app.tenants.list();
  });
  // Said, not checked: a process whose notifier is off (or standing by) still answers commands.
  server.state('notifier', () => notifierState(app));
  // The games list is cached for hours: a probe costs at most one request per TTL. A stale answer
  // means the service failed and the cache covered for it.
  server.check('service', async () => {
    const view = app.client.forCaller({ priority: 'interactive', deadlineMs: 2000 });
    await view.games.list();
    if (view.servedStale) throw new Error('the esports service did not answer; serving cached data');
  });
  return server;
}

/** The notifier in a word or a clause: on, standing by for the lease, starting, or off and why. */
export function notifierState(app: Pick<App, 'notifier' | 'lease' | 'notifierOff' | 'storeProblem'>): string {
  if (app.notifier) return 'on';
  if (app.lease && !app.lease.leading) return 'standing by (another process holds the notifier lease)';
  if (app.notifierOff) return `off: ${app.notifierOff}`;
  return app.storeProblem ? 'off: the settings store is unusable' : 'starting';
}
