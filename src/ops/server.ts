/**
 * The operations endpoint (docs/operations.md, "Probes and metrics"): off unless METRICS_PORT is set, on
 * 127.0.0.1 unless METRICS_HOST says otherwise.
 *
 *   GET /healthz   200 while the process runs and its event loop answers
 *   GET /readyz    200 when the store, the esports service and the chat platforms are usable and
 *                  the process is not shutting down; 503 with the failing checks otherwise; both
 *                  with what the process reports beside them (whether its notifier is on)
 *   GET /metrics   Prometheus text format (see `metrics.ts`)
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../bot/logger.ts';
import {
  type ConnectionLimits,
  type ConnectionStats,
  guardedServer,
  LISTEN_BACKLOG,
} from '../core/http-guard.ts';
import type { OpsMetrics } from './metrics.ts';

/** One readiness check: resolves when the part is usable, rejects with why not. */
type ReadinessCheck = () => Promise<void>;

export interface OpsServerOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  metrics: OpsMetrics;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Longest a readiness check may take before it counts as failed. Default 2,000 ms. */
  checkTimeoutMs?: number;
  /** Another route served here (the calendar feeds without CALENDAR_PORT); resolves false when the path is not its own. */
  extra?: (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;
  /** Connection cap and timeouts (`core/http-guard.ts`); defaults there. */
  limits?: Partial<ConnectionLimits>;
}

export class OpsServer {
  readonly #server: Server;
  readonly #o: OpsServerOptions;
  /** The connection guard's counts (open, peak, evicted, refused). */
  readonly connections: () => ConnectionStats;
  readonly #checks = new Map<string, ReadinessCheck>();
  /** What /readyz reports beside its checks without failing on it (e.g. `notifier: "off: ..."`). */
  readonly #states = new Map<string, () => string>();
  /** Set at shutdown: /readyz answers 503 so no new work is routed here. */
  draining = false;

  private constructor(server: Server, connections: () => ConnectionStats, options: OpsServerOptions) {
    this.#server = server;
    this.connections = connections;
    this.#o = options;
  }

  static async start(options: OpsServerOptions): Promise<OpsServer> {
    const { server, stats } = guardedServer(undefined, options.limits);
    const ops = new OpsServer(server, stats, options);
    server.on('request', (request, response) => {
      ops.#handle(request, response).catch((error: unknown) => {
        options.logger.warn({ err: error }, 'operations endpoint failed to answer');
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('internal error\n');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    options.logger.info({ url: ops.url }, 'operations endpoint: /healthz, /readyz, /metrics');
    return ops;
  }

  get url(): string {
    const address = this.#server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  /** Adds (or replaces) a readiness check under `name`. */
  check(name: string, check: ReadinessCheck): void {
    this.#checks.set(name, check);
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
      response.end('only GET\n');
      return;
    }
    if (path === '/healthz') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('ok\n');
    } else if (path === '/readyz') {
      const { ready, checks } = await this.readiness();
      response.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
      const states = Object.fromEntries([...this.#states].map(([name, read]) => [name, read()]));
      response.end(
        `${JSON.stringify({ ready, ...(this.draining ? { draining: true } : {}), checks, ...states })}\n`,
      );
    } else if (path === '/metrics') {
      const text = await this.#o.metrics.text();
      response.writeHead(200, { 'content-type': this.#o.metrics.registry.contentType });
      response.end(text);
    } else if (!(await this.#o.extra?.(request, response))) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found: try /healthz, /readyz or /metrics\n');
    }
  }

  /**
   * Reports `name` in /readyz beside the checks, read at each request; it does not decide readiness
   * (a process whose notifier is off still answers commands).
   */
  state(name: string, read: () => string): void {
    this.#states.set(name, read);
  }

  /** Runs every check at once; each says "ok" or why it is not. */
  async readiness(): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const limit = this.#o.checkTimeoutMs ?? 2000;
    const entries = await Promise.all(
      [...this.#checks].map(async ([name, check]): Promise<[string, string]> => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${limit} ms`)), limit);
        });
        try {
          await Promise.race([check(), timeout]);
          return [name, 'ok'];
        } catch (error) {
          return [name, (error as Error).message || String(error)];
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    const ready = !this.draining && entries.every(([, state]) => state === 'ok');
    return { ready, checks };
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
