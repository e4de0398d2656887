/**
 * The local esports data service (v3), in process: `startService()` listens on a loopback port
 * and serves the whole `/v3` interface over a living world generated from a seed. Used by
 * `npm start` (the embedded default), by `matchday service`, by tests and by benchmarks.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Clock } from '../core/clock.ts';
import { type FaultOptions, NO_FAULTS } from './faults.ts';
import { IMAGES_PATH, serveImageFile } from './image-files.ts';
import { send } from './json-answer.ts';
import { answerPush, PUSH_HTTP_PREFIX } from './push/http.ts';
import { PUSH_PATH, PushHub } from './push/hub.ts';
import { SubscriptionStore } from './push/subscriptions.ts';
import { Rng } from './random.ts';
import { RateLimiter } from './rate-limit.ts';
import { type V2Credential, V2Interface } from './v2/index.ts';
import { answerV3, readTarget, type V3Settings } from './v3-request.ts';
import { World } from './world.ts';

export { Clock } from '../core/clock.ts';
export { MAX_URL_LENGTH } from './v3-request.ts';
export { World } from './world.ts';

export interface ServiceOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * The one accepted secret. Default: a random one made for this start (the embedded service of
   * `npm start` hands it to its in-process client only). `matchday service` passes DEFAULT_SECRET.
   */
  secret?: string;
  /** Accept the secret in the `secret` query parameter too (spec, "Authentication"). Default true. */
  querySecret?: boolean;
  /** Default 1. */
  seed?: number;
  /** The shared clock; default a new real-time Clock. */
  clock?: Clock;
  /** Requests per second per secret; 0 turns rate limiting off. Default 5. */
  rate?: number;
  /** Default 5. */
  burst?: number;
  /** Multiplies the number of series per week (benchmarks). Default 1. */
  scale?: number;
  faults?: Partial<FaultOptions>;
  /** Accepted v2 client credentials (`/v2`); default one generated pair (see `RunningService.v2`). */
  v2Clients?: V2Credential[];
  /** v2 requests per minute per client; default 60 x `rate` (300 at the default 5/s); 0: no limit. */
  v2PerMinute?: number;
  /** Push keep-alive and grace deadlines read this (default real time; tests pass their clock's). */
  pushTransportNow?: () => number;
}

export interface RunningService {
  /** e.g. http://127.0.0.1:41234/v3 */
  url: string;
  secret: string;
  clock: Clock;
  world: World;
  /** Mutable at runtime: tests flip faults on and off. */
  faults: FaultOptions;
  /** Requests received so far (every request, answered or not). */
  requests: number;
  /** The `/v2` interface: `v2.url` its root, `v2.clients` the accepted pairs, `v2.tokenRequests`. */
  v2: V2Interface & { url: string };
  /** Push (`docs/push-protocol.md`): `push.url` the WebSocket address, `push.hub` its subscribers and publisher. */
  push: { url: string; hub: PushHub; subscriptions: SubscriptionStore };
  close(): Promise<void>;
}

export const DEFAULT_SECRET = 'matchday-local';

/** The `/v2` interface over the same world and clock, with the accepted pairs and its pace. */
function createV2(options: ServiceOptions, world: World, clock: Clock): V2Interface & { url: string } {
  const rate = options.rate ?? 5;
  return Object.assign(
    new V2Interface({
      world,
      clock,
      clients: options.v2Clients?.length
        ? options.v2Clients
        : [{ id: `matchday-${randomBytes(4).toString('hex')}`, secret: randomBytes(16).toString('hex') }],
      perSecond: rate,
      burst: options.burst ?? 5,
      perMinute: options.v2PerMinute ?? rate * 60,
    }),
    { url: '' },
  );
}

/** Starts the service; resolves once it listens. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const clock = options.clock ?? new Clock();
  const world = new World(options.seed ?? 1, options.scale ?? 1, clock);
  world.window();
  const settings: V3Settings = {
    world,
    clock,
    secret: options.secret ?? randomBytes(24).toString('base64url'),
    querySecret: options.querySecret ?? true,
    limiter: new RateLimiter(options.rate ?? 5, options.burst ?? 5),
    faultRng: new Rng(options.seed ?? 1, 'faults'),
  };
  const sockets = new Set<Socket>();
  const v2 = createV2(options, world, clock);
  const subscriptions = new SubscriptionStore();
  const pushSettings = {
    world,
    clock,
    secret: settings.secret,
    querySecret: settings.querySecret,
    subscriptions,
  };
  const hub = new PushHub({ ...pushSettings, transportNow: options.pushTransportNow });
  const service: RunningService = {
    url: '',
    secret: settings.secret,
    clock,
    world,
    faults: { ...NO_FAULTS, ...options.faults },
    requests: 0,
    v2,
    push: { url: '', hub, subscriptions },
    close: () =>
      new Promise<void>((resolve, reject) => {
        hub.close();
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };

  /** One request: the drop and latency faults, then `/v2` or `/v3`. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const faults = service.faults;
    if (faults.dropRate > 0 && settings.faultRng.chance(faults.dropRate)) {
      req.socket.destroy();
      return;
    }
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
    const target = readTarget(req.url ?? '/');
    const url = target.url;
    if (url && (url.pathname === '/v2' || url.pathname.startsWith('/v2/')))
      return v2.handle(req, res, url, service.faults, settings.faultRng);
    if (url?.pathname.startsWith(PUSH_HTTP_PREFIX)) return answerPush(pushSettings, req, res, url);
    if (url?.pathname.startsWith(`${IMAGES_PATH}/`) && (req.method === 'GET' || req.method === 'HEAD'))
      return serveImageFile(world, url.pathname, res);
    answerV3(settings, req, res, target, faults);
  }

  const server = createServer((req, res) => {
    service.requests++;
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { msg: 'Internal error.' });
      else res.destroy();
    });
  });
  server.on('upgrade', (req, socket, head) => {
    const path = readTarget(req.url ?? '/').url?.pathname.replace(/\/+$/, '');
    if (path === PUSH_PATH) hub.upgrade(req, socket, head);
    else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  service.url = `http://${host}:${address.port}/v3`;
  // Image URLs name the service itself: it serves a PNG for each (`image-files.ts`).
  world.catalog.serveImagesAt(`http://${host}:${address.port}${IMAGES_PATH}`);
  v2.url = `http://${host}:${address.port}/v2`;
  service.push.url = `ws://${host}:${address.port}${PUSH_PATH}`;
  return service;
}
