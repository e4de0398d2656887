/**
 * The limits of every public HTTP port of Matchday (the calendar feeds, the operations endpoint,
 * Slack's HTTP mode): these face the internet by design, and a flood of idle connections must not
 * take the file descriptors the notifier's upstream reads and the chat connections need.
 *
 * - At most `maxConnections` open sockets per server and `perAddress` per remote address. A new
 *   connection over a limit takes the place of the oldest idle one (connected but no request under
 *   way: a flood's sockets, a slow client's half-sent headers, a finished keep-alive); when every
 *   socket is answering a request, the new one is closed at once. So the cap always holds, and a
 *   real request (a probe's `/healthz`, a calendar app) still gets through a flood of idle sockets.
 * - Short timeouts: headers within `headersTimeoutMs`, the whole request within `requestTimeoutMs`,
 *   a keep-alive connection closed after `keepAliveMs` without a new request, any socket after
 *   `idleMs` without traffic. Node's defaults keep an idle socket for up to 60 s and a request for
 *   300 s.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Most open connections on the server. Default 512. */
  maxConnections: number;
  /** Most open connections from one remote address. Default 64. */
  perAddress: number;
  /** Default 5,000 ms. */
  headersTimeoutMs: number;
  /** Default 15,000 ms. */
  requestTimeoutMs: number;
  /** Default 3,000 ms. */
  keepAliveMs: number;
  /** A socket without any traffic this long is closed. Default 10,000 ms. */
  idleMs: number;
}

/**
 * The listen backlog of these servers (Node's default is 511): under a connection flood the kernel's
 * queue of finished handshakes fills while the process is busy, and a probe whose SYN finds it full
 * waits for a retransmission (1 s, then 3 s). Linux caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 512,
  perAddress: 64,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 15_000,
  keepAliveMs: 3_000,
  idleMs: 10_000,
};

/** What the guard did, for tests, benchmarks and metrics. */
export interface ConnectionStats {
  /** Sockets open now. */
  open: number;
  /** Most sockets open at once so far. */
  peak: number;
  /** Idle sockets closed to make room for a new connection. */
  evicted: number;
  /** New connections closed at once (every socket was answering a request). */
  refused: number;
}

export interface GuardedServer {
  server: Server;
  stats(): ConnectionStats;
}

interface Tracked {
  address: string;
  /** Requests under way on this socket (more than one only with pipelining). */
  busy: number;
}

/** A node:http server for `listener` with the limits above (each default overridable). */
export function guardedServer(
  listener: RequestListener | undefined,
  limits: Partial<ConnectionLimits> = {},
): GuardedServer {
  const l = { ...DEFAULT_CONNECTION_LIMITS, ...limits };
  const server = createServer({
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    keepAliveTimeout: l.keepAliveMs,
    // How often Node checks the header and request timeouts (default 30 s, longer than they are).
    connectionsCheckingInterval: Math.max(250, Math.min(1_000, l.headersTimeoutMs / 2)),
  });
  if (listener) server.on('request', listener);
  server.timeout = l.idleMs;
  // Sockets in order of arrival (a Map keeps insertion order): the oldest idle one goes first.
  const sockets = new Map<Socket, Tracked>();
  const byAddress = new Map<string, Set<Socket>>();
  const stats: ConnectionStats = { open: 0, peak: 0, evicted: 0, refused: 0 };

  const forget = (socket: Socket) => {
    const tracked = sockets.get(socket);
    if (!tracked) return;
    sockets.delete(socket);
    const same = byAddress.get(tracked.address);
    same?.delete(socket);
    if (same?.size === 0) byAddress.delete(tracked.address);
    stats.open = sockets.size;
  };
  /** Closes the oldest idle socket among `candidates`; false when every one is answering. */
  const evictOldestIdle = (candidates: Iterable<Socket>): boolean => {
    for (const socket of candidates) {
      if (sockets.get(socket)?.busy === 0) {
        forget(socket);
        socket.destroy();
        stats.evicted++;
        return true;
      }
    }
    return false;
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const same = byAddress.get(address);
    const roomHere = (same?.size ?? 0) < l.perAddress || evictOldestIdle(same ?? []);
    const room = roomHere && (sockets.size < l.maxConnections || evictOldestIdle(sockets.keys()));
    if (!room) {
      stats.refused++;
      socket.destroy();
      return;
    }
    sockets.set(socket, { address, busy: 0 });
    const set = byAddress.get(address) ?? new Set<Socket>();
    byAddress.set(address, set);
    set.add(socket);
    stats.open = sockets.size;
    stats.peak = Math.max(stats.peak, stats.open);
    socket.once('close', () => forget(socket));
  });
  server.prependListener('request', (request, response) => {
    const tracked = sockets.get(request.socket);
    if (!tracked) return;
    tracked.busy++;
    response.once('close', () => {
      tracked.busy = Math.max(0, tracked.busy - 1);
    });
  });
  // A socket without traffic for `idleMs` is closed, unless a request on it is still being answered
  // (a calendar waiting for the data service); the timer runs again with its next write.
  server.on('timeout', (socket: Socket) => {
    if ((sockets.get(socket)?.busy ?? 0) === 0) socket.destroy();
  });
  return { server, stats: () => ({ ...stats }) };
}
