/**
 * The push consumer: one WebSocket to the service's push protocol (`docs/push-protocol.md`), for the
 * process that owns live work (the feed's refresher, the lease holder on a shared store). It
 * registers (or reuses, by name) a subscription over HTTP with the secret, opens the socket, reads
 * the envelopes `{channel, uuid, created, payload}`, checks each payload is a live summary
 * (`protocol/live-summary.ts`) and tracks each match's `latest_states_channel_index` per source:
 * a repeated or older index is dropped, a jump of more than one is a gap (the owner resyncs from
 * REST). It pings the service, reconnects with backoff, resumes with the reconnect token and the
 * last uuid (nothing lost), and after the grace period (close 4012) registers afresh and asks for a
 * resync.
 *
 * Push is an invalidation and a delivery of state, never a second source of truth: the owner (the
 * feed) takes a pushed summary through the same path as a polled one, and polls REST whenever the
 * status is not `up`. A service without push (404 on `limits`, `channels` or the subscription) turns
 * it `off`; the owner then polls as before.
 */
import type WebSocket from 'ws';
import { type LiveSummary, liveSummaryMatch } from '../protocol/live-summary.ts';
import { type Logger, silentLogger } from './logger.ts';

/** `up`: the socket is welcomed; `connecting`/`down`: not (poll); `off`: no push at all (poll). */
export type PushStatus = 'off' | 'connecting' | 'up' | 'down';

/** One pushed live summary, checked. */
export interface PushedSummary {
  source: 'cv' | 'api';
  channel: string;
  uuid: string;
  /** The world's instant of the change (ISO). */
  created: string;
  summary: LiveSummary;
  matchId: number;
  /** `latest_states_channel_index`, when the payload carries it. */
  index: number | undefined;
}

export interface PushHandlers {
  /** A new state (not a repeat, not older than one already delivered for its match and source). */
  onSummary(pushed: PushedSummary): void;
  /** The status changed: poll fast unless `up`. */
  onStatus(status: PushStatus, why: string): void;
  /** Messages may have been missed (a fresh subscriber, a gap, a replay no longer held): read REST. */
  onResync(why: string): void;
}

export interface PushOptions {
  /** The push root over HTTP, e.g. `https://api.example.com/v3/push`. */
  url: string;
  secret: string;
  /** The subscription's name: reused (and its filters replaced) when the secret already holds one. Default `matchday-live`. */
  name?: string;
  logger?: Logger;
  /** Reconnect backoff: the first wait and the longest. Default 250 ms and 30 s (with jitter). */
  backoff?: { baseMs: number; maxMs: number };
  /** Real ms before an HTTP request to the push endpoints gives up. Default 10 000. */
  timeoutMs?: number;
}

/** Close codes of the protocol (`src/service/push/limits.ts`). */
const CODE = {
  BAD_MESSAGE: 4000,
  UNAUTHORIZED: 4001,
  BAD_REQUEST: 4002,
  UNKNOWN_SUBSCRIPTION: 4004,
  RESYNC: 4012,
  REPLACED: 4013,
} as const;

/** Answers that say the service has no push (its subscription endpoints are missing). */
class NoPush extends Error {}

interface Limits {
  websocket_path?: string;
  keepalive_interval_ms?: number;
  keepalive_timeout_ms?: number;
  filters_per_subscription?: number;
}

/** True when a summary says its match is over (a MOBA's timeline or the match's phase). */
export function summaryEnded(summary: LiveSummary): boolean {
  const match = (summary as { match?: { phase?: unknown; timeline?: { phase?: unknown } } }).match;
  return match?.phase === 'post-game' || match?.timeline?.phase === 'post-game';
}

/** The payload as a live summary, or null when it is not one (the socket's words are checked, not trusted). */
export function readPushedSummary(payload: unknown): { summary: LiveSummary; matchId: number } | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const p = payload as Record<string, unknown>;
  if (typeof p.timestamp !== 'string' || typeof p.match !== 'object' || p.match === null) return null;
  const index = p.latest_states_channel_index;
  if (index !== undefined && !(Number.isInteger(index) && (index as number) >= 0)) return null;
  try {
    const { id } = liveSummaryMatch(payload as LiveSummary);
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    return { summary: payload as LiveSummary, matchId: id };
  } catch {
    return null;
  }
}

/** `ac_live_api_states` -> `api`. */
function sourceOf(channel: string): 'cv' | 'api' | undefined {
  const m = /_live_(cv|api)_states$/.exec(channel);
  return m ? (m[1] as 'cv' | 'api') : undefined;
}

/** Indexes kept per match and source (the oldest forgotten past this). */
const MAX_TRACKED = 5000;

export class PushConsumer {
  readonly #o: Required<Omit<PushOptions, 'logger'>> & { logger: Logger };
  readonly #root: URL;
  #handlers: PushHandlers | undefined;
  #status: PushStatus = 'off';
  #socket: WebSocket | undefined;
  #subscription: string | undefined;
  #token: string | undefined;
  #lastUuid: string | undefined;
  #attempt = 0;
  #retry: NodeJS.Timeout | undefined;
  #ping: NodeJS.Timeout | undefined;
  #lastHeard = 0;
  #limits: Limits = {};
  #running = false;
  /** Per `source:match`: the highest index delivered. */
  readonly #index = new Map<string, number>();
  /** Counters, for tests, benches and logs. */
  readonly stats = {
    messages: 0,
    delivered: 0,
    repeats: 0,
    gaps: 0,
    invalid: 0,
    connects: 0,
    resumes: 0,
    resyncs: 0,
    /** HTTP requests to the push endpoints (they do not draw on the REST budget). */
    httpRequests: 0,
  };

  constructor(options: PushOptions) {
    this.#o = {
      name: 'matchday-live',
      backoff: { baseMs: 250, maxMs: 30_000 },
      timeoutMs: 10_000,
      ...options,
      logger: options.logger ?? silentLogger,
    };
    this.#root = new URL(options.url.replace(/\/+$/, ''));
  }

  get status(): PushStatus {
    return this.#status;
  }

  /** True while the socket is welcomed and heard from. */
  get healthy(): boolean {
    return this.#status === 'up';
  }

  /** Registers the subscription and opens the socket; a failure leaves it retrying (or `off`). */
  start(handlers: PushHandlers): void {
    if (this.#running) return;
    this.#running = true;
    this.#handlers = handlers;
    this.#attempt = 0;
    this.#setStatus('connecting', 'starting');
    void this.#connect(false);
  }

  /** Closes the socket; the subscription stays for the next holder (reused by name). */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#stopPings();
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket && socket.readyState !== 3 /* CLOSED */) {
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.close(1000, 'The client stops.');
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      socket.terminate();
    }
    this.#token = undefined;
    this.#setStatus('off', 'stopped');
  }

  /** Drops the socket as a network failure would (tests, benches): the consumer resumes with its token. */
  dropForTest(): void {
    this.#socket?.terminate();
  }

  // ---- HTTP ---------------------------------------------------------------------------------------

  async #call(method: string, path: string, body?: unknown): Promise<{ status: number; value: unknown }> {
    const { request } = await import('undici');
    this.stats.httpRequests++;
    const answer = await request(`${this.#root.href}/${path}`, {
      method: method as 'GET',
      headers: {
        'service-secret': this.#o.secret,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headersTimeout: this.#o.timeoutMs,
      bodyTimeout: this.#o.timeoutMs,
    });
    const text = await answer.body.text();
    let value: unknown = null;
    try {
      value = text === '' ? null : JSON.parse(text);
    } catch {
      value = null;
    }
    if (answer.statusCode === 404 || answer.statusCode === 405)
      throw new NoPush(`${method} ${path} answered ${answer.statusCode}`);
    if (answer.statusCode >= 400)
      throw Object.assign(new Error(`${method} ${path} answered ${answer.statusCode}`), {
        status: answer.statusCode,
      });
    return { status: answer.statusCode, value };
  }

  /** Reuses this name's subscription (its filters replaced: every live channel) or registers one. */
  async #register(): Promise<string> {
    this.#limits = ((await this.#call('GET', 'limits')).value ?? {}) as Limits;
    const channels = (await this.#call('GET', 'channels')).value as { name?: unknown }[] | null;
    const names = (Array.isArray(channels) ? channels : [])
      .map((c) => c?.name)
      .filter((n): n is string => typeof n === 'string' && sourceOf(n) !== undefined);
    if (names.length === 0) throw new NoPush('the service lists no live channels');
    const most = this.#limits.filters_per_subscription ?? 20;
    if (names.length > most)
      this.#o.logger.warn(
        { channels: names.length, most },
        'push: more channels than one subscription holds; the rest are polled',
      );
    const body = { name: this.#o.name, filters: names.slice(0, most).map((channel) => ({ channel })) };
    const listed = (await this.#call('GET', 'subscriptions')).value;
    const mine = (Array.isArray(listed) ? listed : []).find(
      (s: { id?: unknown; name?: unknown }) => s?.name === this.#o.name && typeof s.id === 'string',
    ) as { id: string } | undefined;
    if (mine) {
      await this.#call('PUT', `subscriptions/${encodeURIComponent(mine.id)}`, body);
      return mine.id;
    }
    const made = (await this.#call('POST', 'subscriptions', body)).value as { id?: unknown } | null;
    if (typeof made?.id !== 'string') throw new Error('push: the subscription answer has no id');
    return made.id;
  }

  // ---- the socket -------------------------------------------------------------------------------

  #socketUrl(query: Record<string, string>): string {
    const path = this.#limits.websocket_path ?? `${this.#root.pathname}/ws`;
    const url = new URL(path, this.#root);
    url.protocol = this.#root.protocol === 'https:' ? 'wss:' : 'ws:';
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url.href;
  }

  /** Opens the socket: resumes with the token when one is held, else subscribes (registering first if needed). */
  async #connect(fresh: boolean): Promise<void> {
    if (!this.#running) return;
    if (fresh) {
      this.#token = undefined;
      this.#lastUuid = undefined;
    }
    try {
      if (!this.#token && !this.#subscription) this.#subscription = await this.#register();
    } catch (error) {
      if (error instanceof NoPush) {
        this.#o.logger.info({ why: error.message }, 'push: the service has no push; polling as before');
        this.#running = false;
        this.#setStatus('off', 'the service has no push');
        return;
      }
      const status = (error as { status?: unknown }).status;
      if (status === 401 || status === 403) {
        this.#o.logger.warn({ status }, 'push: the service refused the secret; polling as before');
        this.#running = false;
        this.#setStatus('off', 'refused');
        return;
      }
      this.#o.logger.warn({ err: error }, 'push: subscription could not be registered; retrying');
      this.#setStatus('down', 'subscription not registered');
      this.#later(false);
      return;
    }
    if (!this.#running) return;
    const query: Record<string, string> = this.#token
      ? { resume: this.#token, ...(this.#lastUuid ? { last_uuid: this.#lastUuid } : {}) }
      : { subscription: this.#subscription! };
    this.stats.connects++;
    // Loaded with the first socket: a process without push (`matchday ask`) never loads ws.
    const { default: Socket } = await import('ws');
    if (!this.#running) return;
    const ws = new Socket(this.#socketUrl(query), {
      headers: { 'Service-Secret': this.#o.secret },
      handshakeTimeout: this.#o.timeoutMs,
      maxPayload: 4 * 1024 * 1024,
    });
    this.#socket = ws;
    this.#lastHeard = Date.now();
    ws.on('message', (data, binary) => {
      if (this.#socket !== ws) return;
      this.#lastHeard = Date.now();
      this.#message(binary ? '' : String(data));
    });
    ws.on('unexpected-response', (_req, res) => {
      // An upgrade answered with HTTP: 404 means no push here.
      const code = res.statusCode ?? 0;
      res.resume();
      ws.terminate();
      if (code === 404) {
        this.#running = false;
        this.#setStatus('off', 'no push socket (404)');
      }
    });
    ws.on('error', (error) => {
      if (this.#socket === ws) this.#o.logger.debug?.({ err: error }, 'push: socket error');
    });
    ws.on('close', (code, reason) => {
      if (this.#socket !== ws) return;
      this.#socket = undefined;
      this.#closed(code, String(reason));
    });
  }

  #message(text: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text);
      if (typeof message !== 'object' || message === null) throw new Error('not an object');
    } catch {
      this.stats.invalid++;
      return;
    }
    if (message.type === 'welcome') {
      this.#welcome(message);
      return;
    }
    if (message.type === 'ping') this.#send({ type: 'pong' });
    if (message.type !== undefined) return;
    this.stats.messages++;
    const { channel, uuid, created, payload } = message as Record<string, unknown>;
    const source = typeof channel === 'string' ? sourceOf(channel) : undefined;
    const read = readPushedSummary(payload);
    if (!source || typeof uuid !== 'string' || typeof created !== 'string' || !read) {
      this.stats.invalid++;
      this.#o.logger.debug?.({ channel }, 'push: a message that is not a live summary envelope; ignored');
      return;
    }
    this.#lastUuid = uuid;
    const index = read.summary.latest_states_channel_index;
    const key = `${source}:${read.matchId}`;
    const held = this.#index.get(key);
    if (index !== undefined && held !== undefined) {
      if (index <= held) {
        this.stats.repeats++;
        return;
      }
      if (index > held + 1) {
        this.stats.gaps++;
        this.#handlers?.onResync(`gap on match ${read.matchId}: index ${held} then ${index}`);
      }
    }
    if (index !== undefined) {
      this.#index.delete(key);
      this.#index.set(key, index);
      if (this.#index.size > MAX_TRACKED) this.#index.delete(this.#index.keys().next().value!);
    }
    this.stats.delivered++;
    this.#handlers?.onSummary({
      source,
      channel: channel as string,
      uuid,
      created,
      summary: read.summary,
      matchId: read.matchId,
      index,
    });
  }

  #welcome(message: Record<string, unknown>): void {
    if (typeof message.reconnect_token === 'string') this.#token = message.reconnect_token;
    const limits = message.limits as Limits | undefined;
    if (limits) this.#limits = { ...this.#limits, ...limits };
    this.#attempt = 0;
    const resumed = message.resumed === true;
    if (resumed) this.stats.resumes++;
    this.#startPings();
    this.#setStatus('up', resumed ? `resumed (${String(message.replayed)} replayed)` : 'subscribed');
    // A fresh subscriber has nothing from before its welcome: what changed meanwhile is read from REST.
    if (!resumed) {
      this.stats.resyncs++;
      this.#handlers?.onResync('new subscriber');
    }
  }

  #closed(code: number, reason: string): void {
    this.#stopPings();
    if (!this.#running) return;
    this.#setStatus('down', `closed ${code}${reason ? `: ${reason}` : ''}`);
    switch (code) {
      case CODE.UNAUTHORIZED:
      case CODE.BAD_MESSAGE:
      case CODE.BAD_REQUEST:
        this.#o.logger.warn({ code, reason }, 'push: the service refused the client; polling as before');
        this.#running = false;
        this.#setStatus('off', `refused (${code})`);
        return;
      case CODE.REPLACED:
        // Another connection resumed this subscriber: it owns the stream now.
        this.#o.logger.warn({ code }, 'push: resumed elsewhere; this socket stops');
        this.#running = false;
        this.#setStatus('off', 'resumed elsewhere');
        return;
      case CODE.UNKNOWN_SUBSCRIPTION:
        this.#subscription = undefined;
        this.#later(true);
        return;
      case CODE.RESYNC:
        // The grace period is over (or the replay is gone): subscribe afresh; the welcome asks REST.
        this.#later(true);
        return;
      default:
        // A drop, the service going away, a keep-alive timeout, too many subscribers: resume with the token.
        this.#later(false);
    }
  }

  #later(fresh: boolean): void {
    if (!this.#running) return;
    const { baseMs, maxMs } = this.#o.backoff;
    const wait = Math.min(maxMs, baseMs * 2 ** Math.min(this.#attempt, 16));
    this.#attempt++;
    const jittered = Math.round(wait / 2 + Math.random() * (wait / 2));
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#connect(fresh);
    }, jittered);
    this.#retry.unref();
  }

  #send(message: object): void {
    const socket = this.#socket;
    if (socket?.readyState === 1 /* OPEN */) socket.send(JSON.stringify(message));
  }

  /** Keep-alive both ways: a ping every interval; a service silent past its own timeout is dropped. */
  #startPings(): void {
    this.#stopPings();
    const every = this.#limits.keepalive_interval_ms ?? 15_000;
    const silent = this.#limits.keepalive_timeout_ms ?? 3 * every;
    this.#ping = setInterval(() => {
      if (Date.now() - this.#lastHeard > silent) {
        this.#o.logger.warn({ silentMs: Date.now() - this.#lastHeard }, 'push: the service went silent');
        this.#socket?.terminate();
        return;
      }
      this.#send({ type: 'ping' });
    }, every);
    this.#ping.unref();
  }

  #stopPings(): void {
    if (this.#ping) clearInterval(this.#ping);
    this.#ping = undefined;
  }

  #setStatus(status: PushStatus, why: string): void {
    if (this.#status === status) return;
    this.#status = status;
    this.#o.logger.info({ status, why }, 'push status');
    this.#handlers?.onStatus(status, why);
  }
}
