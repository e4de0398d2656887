/**
 * The push side of the local service (`docs/push-protocol.md`): WebSocket subscribers on
 * `/v3/push/ws`, and the publisher that turns every change of a live match's state in the world
 * (`push/channels.ts`) into one message on each channel of its game, delivered to the subscribers
 * whose subscription matches. A subscriber's messages are kept (up to `replay_buffer`) so that a
 * reconnect with its token within the grace period replays what it missed; after the grace period
 * the token is refused with 4012 and the client resyncs from REST.
 *
 * Times: the world's instants come from the service's clock; keep-alive and grace deadlines from
 * `transportNow` (real time unless a test injects its clock).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { Clock } from '../../core/clock.ts';
import { liveSummary } from '../live.ts';
import type { MatchPlan, SeriesPlan } from '../schedule.ts';
import type { World } from '../world.ts';
import { channelName, type PushSource, SOURCES, stateInstants } from './channels.ts';
import { CLOSE, PUSH_LIMITS } from './limits.ts';
import { type MessageKey, type SubscriptionStore, subscriptionMatches } from './subscriptions.ts';

export const PUSH_PATH = '/v3/push/ws';

/** One data message: `{ channel, uuid, created, payload }`. */
export interface PushEnvelope {
  channel: string;
  uuid: string;
  created: string;
  payload: unknown;
}

interface Subscriber {
  id: string;
  token: string;
  secret: string;
  subscription: string;
  socket: WebSocket | null;
  /** When the client last said anything (transport time). */
  lastSeen: number;
  /** When the socket closed (transport time), or null while connected. */
  disconnectedAt: number | null;
  /** Messages sent or held, oldest first (at most `replay_buffer`). */
  sent: PushEnvelope[];
  /** Messages published while disconnected that fell out of the buffer: a resume cannot replay them. */
  overflowed: boolean;
}

export interface PushHubOptions {
  world: World;
  clock: Clock;
  secret: string;
  querySecret: boolean;
  subscriptions: SubscriptionStore;
  transportNow?: () => number;
}

export class PushHub {
  readonly #o: PushHubOptions;
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  readonly #subscribers = new Map<string, Subscriber>();
  readonly #byToken = new Map<string, Subscriber>();
  readonly #now: () => number;
  /** The world instant published up to (inclusive). */
  #cursor: number;
  #timer: NodeJS.Timeout | null = null;
  #keepalive: NodeJS.Timeout;
  #closed = false;
  /** Messages published (all subscribers), for tests and logs. */
  published = 0;

  constructor(options: PushHubOptions) {
    this.#o = options;
    this.#now = options.transportNow ?? Date.now;
    this.#cursor = options.clock.nowMs();
    options.subscriptions.onChange = (secret, id, deleted) => {
      if (!deleted) return;
      for (const s of this.#subscribers.values())
        if (s.secret === secret && s.subscription === id)
          this.#drop(s, CLOSE.UNKNOWN_SUBSCRIPTION, 'subscription deleted');
    };
    this.#keepalive = setInterval(() => this.sweep(), PUSH_LIMITS.keepalive_interval_ms);
    this.#keepalive.unref();
    this.#schedule();
  }

  /** Subscribers connected now (tests, limits). */
  connected(secret = this.#o.secret): number {
    return [...this.#subscribers.values()].filter((s) => s.secret === secret && s.socket !== null).length;
  }

  /** Takes over an HTTP upgrade to `PUSH_PATH`. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#open(ws, req));
  }

  #open(ws: WebSocket, req: IncomingMessage): undefined {
    const url = new URL(req.url ?? '/', 'http://local');
    const header = req.headers['service-secret'];
    const presented =
      typeof header === 'string' ? header : this.#o.querySecret ? url.searchParams.get('secret') : null;
    if (presented !== this.#o.secret)
      return this.#refuse(
        ws,
        CLOSE.UNAUTHORIZED,
        presented ? 'Invalid secret.' : 'Missing secret: send the Service-Secret header.',
      );
    const subscription = url.searchParams.get('subscription');
    const resume = url.searchParams.get('resume');
    if ((subscription === null) === (resume === null))
      return this.#refuse(
        ws,
        CLOSE.BAD_REQUEST,
        'Give either ?subscription=<id> or ?resume=<reconnect token>.',
      );
    if (this.connected(presented) >= PUSH_LIMITS.concurrent_subscribers)
      return this.#refuse(
        ws,
        CLOSE.TOO_MANY_SUBSCRIBERS,
        `At most ${PUSH_LIMITS.concurrent_subscribers} subscribers per secret are open at once.`,
      );
    if (resume !== null) return void this.#resume(ws, presented, resume, url.searchParams.get('last_uuid'));
    if (!this.#o.subscriptions.get(presented, subscription!))
      return this.#refuse(ws, CLOSE.UNKNOWN_SUBSCRIPTION, `No subscription ${subscription}.`);
    const sub: Subscriber = {
      id: randomBytes(8).toString('hex'),
      token: '',
      secret: presented,
      subscription: subscription!,
      socket: null,
      lastSeen: this.#now(),
      disconnectedAt: null,
      sent: [],
      overflowed: false,
    };
    this.#subscribers.set(sub.id, sub);
    this.#attach(sub, ws, { resumed: false, replayed: 0 });
  }

  #resume(ws: WebSocket, secret: string, token: string, lastUuid: string | null): undefined {
    const sub = this.#byToken.get(token);
    const now = this.#now();
    if (!sub || sub.secret !== secret)
      return this.#refuse(
        ws,
        CLOSE.RESYNC,
        'Unknown or expired reconnect token: read the live summaries from REST, then subscribe again.',
      );
    if (sub.disconnectedAt !== null && now - sub.disconnectedAt > PUSH_LIMITS.reconnect_grace_ms) {
      this.#forget(sub);
      return this.#refuse(
        ws,
        CLOSE.RESYNC,
        'The grace period is over: read the live summaries from REST, then subscribe again.',
      );
    }
    let from = sub.sent.length;
    if (lastUuid !== null) {
      const at = sub.sent.findIndex((m) => m.uuid === lastUuid);
      if (at < 0 || sub.overflowed) {
        this.#forget(sub);
        return this.#refuse(
          ws,
          CLOSE.RESYNC,
          'Messages since last_uuid are no longer held: resync from REST, then subscribe again.',
        );
      }
      from = at + 1;
    } else if (sub.overflowed) {
      this.#forget(sub);
      return this.#refuse(
        ws,
        CLOSE.RESYNC,
        'Messages were dropped while disconnected: resync from REST, then subscribe again.',
      );
    }
    if (sub.socket) {
      const old = sub.socket;
      sub.socket = null;
      old.close(CLOSE.REPLACED, 'Resumed on another connection.');
    }
    this.#byToken.delete(sub.token);
    this.#attach(sub, ws, { resumed: true, replayed: sub.sent.length - from });
    for (const message of sub.sent.slice(from)) ws.send(JSON.stringify(message));
  }

  #attach(sub: Subscriber, ws: WebSocket, how: { resumed: boolean; replayed: number }): void {
    sub.socket = ws;
    sub.disconnectedAt = null;
    sub.lastSeen = this.#now();
    sub.token = randomBytes(18).toString('base64url');
    this.#byToken.set(sub.token, sub);
    // Messages a resume replays are still held: `overflowed` only counts while disconnected.
    sub.overflowed = false;
    ws.send(
      JSON.stringify({
        type: 'welcome',
        subscriber_id: sub.id,
        reconnect_token: sub.token,
        subscription: sub.subscription,
        ...how,
        limits: PUSH_LIMITS,
      }),
    );
    ws.on('message', (data, binary) => {
      sub.lastSeen = this.#now();
      let message: unknown;
      try {
        message = binary ? null : JSON.parse(String(data));
      } catch {
        message = null;
      }
      const type = (message as { type?: unknown } | null)?.type;
      if (type === 'ping')
        ws.send(JSON.stringify({ type: 'pong', at: new Date(this.#o.clock.nowMs()).toISOString() }));
      else if (type !== 'pong') ws.close(CLOSE.BAD_MESSAGE, 'Send only {"type":"ping"} or {"type":"pong"}.');
    });
    ws.on('close', () => {
      if (sub.socket !== ws) return;
      sub.socket = null;
      sub.disconnectedAt = this.#now();
    });
    ws.on('error', () => ws.terminate());
  }

  /** Closes a connection it will not serve. */
  #refuse(ws: WebSocket, code: number, reason: string): undefined {
    ws.close(code, reason);
    return undefined;
  }

  /** Closes a subscriber for good (its token no longer resumes). */
  #drop(sub: Subscriber, code: number, reason: string): void {
    const socket = sub.socket;
    this.#forget(sub);
    socket?.close(code, reason);
  }

  #forget(sub: Subscriber): void {
    this.#subscribers.delete(sub.id);
    this.#byToken.delete(sub.token);
    sub.socket = null;
  }

  /**
   * Keep-alive both ways and the grace period: pings every open subscriber, closes one silent past
   * `keepalive_timeout_ms` (4011, resumable) and forgets one disconnected past the grace period.
   */
  sweep(): void {
    const now = this.#now();
    for (const sub of [...this.#subscribers.values()]) {
      if (sub.socket) {
        if (now - sub.lastSeen > PUSH_LIMITS.keepalive_timeout_ms) {
          const socket = sub.socket;
          sub.socket = null;
          sub.disconnectedAt = now;
          socket.close(CLOSE.KEEPALIVE_TIMEOUT, 'No message from the client within the keep-alive timeout.');
        } else
          sub.socket.send(
            JSON.stringify({ type: 'ping', at: new Date(this.#o.clock.nowMs()).toISOString() }),
          );
      } else if (sub.disconnectedAt !== null && now - sub.disconnectedAt > PUSH_LIMITS.reconnect_grace_ms)
        this.#forget(sub);
    }
  }

  /**
   * Publishes every state change in (cursor, now] of the world, in time order, and moves the
   * cursor. The publisher's timer calls it at each next change; a test calls it after moving its clock.
   */
  tick(): number {
    const t = this.#o.clock.nowMs();
    const from = this.#cursor;
    this.#cursor = t;
    // A clock set back (tests, a replayed day) publishes again from there when it moves on.
    if (t <= from) return 0;
    if (this.#subscribers.size === 0) return 0;
    const due: { at: number; plan: SeriesPlan; m: MatchPlan }[] = [];
    for (const plan of this.#o.world.window(t).series) {
      if (plan.start > t || plan.end + 60_000 < from) continue;
      for (const m of plan.matches) {
        if (m.start > t || m.end <= from) continue;
        for (const at of stateInstants(this.#o.world, plan, m))
          if (at > from && at <= t) due.push({ at, plan, m });
      }
    }
    due.sort((a, b) => a.at - b.at || a.m.id - b.m.id);
    let count = 0;
    for (const { at, plan, m } of due)
      for (const source of SOURCES) count += this.#publish(plan, m, at, source);
    this.published += count;
    return count;
  }

  /** One state of a match on one channel, to every subscriber whose subscription matches it. */
  #publish(plan: SeriesPlan, m: MatchPlan, at: number, source: PushSource): number {
    const game = this.#o.world.catalog.game(plan.game)!.game;
    const key: MessageKey = {
      channel: channelName(game.abbreviation, source),
      game: game.id,
      series: plan.id,
      match: m.id,
    };
    const to = [...this.#subscribers.values()].filter((s) => {
      const subscription = this.#o.subscriptions.get(s.secret, s.subscription);
      return subscription !== undefined && subscriptionMatches(subscription, key);
    });
    if (to.length === 0) return 0;
    // One message per change and channel: every subscriber gets the same envelope (and uuid).
    const envelope: PushEnvelope = {
      channel: key.channel,
      uuid: randomUUID(),
      created: new Date(at).toISOString(),
      payload: liveSummary(this.#o.world, plan, m, at, source),
    };
    const text = JSON.stringify(envelope);
    for (const sub of to) {
      sub.sent.push(envelope);
      if (sub.sent.length > PUSH_LIMITS.replay_buffer) {
        sub.sent.shift();
        if (sub.socket === null) sub.overflowed = true;
      }
      sub.socket?.send(text);
    }
    return to.length;
  }

  /** The next instant a state changes after the cursor (within a day), or null. */
  #next(): number | null {
    const t = this.#cursor;
    let next: number | null = null;
    for (const plan of this.#o.world.window(t).series) {
      if (plan.end < t || plan.start > t + 86_400_000) continue;
      for (const m of plan.matches) {
        if (m.end <= t) continue;
        const at = stateInstants(this.#o.world, plan, m).find((x) => x > t);
        if (at !== undefined && (next === null || at < next)) next = at;
      }
    }
    return next;
  }

  /** Runs `tick` at each next change (re-reading the clock at least every second: it may jump). */
  #schedule(): void {
    if (this.#closed) return;
    const next = this.#subscribers.size > 0 ? this.#next() : null;
    const wait = next === null ? 1000 : Math.min(1000, this.#o.clock.realMsUntil(new Date(next)));
    this.#timer = setTimeout(
      () => {
        try {
          this.tick();
        } finally {
          this.#schedule();
        }
      },
      Math.max(1, wait),
    );
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    clearInterval(this.#keepalive);
    for (const sub of this.#subscribers.values()) sub.socket?.close(CLOSE.GOING_AWAY, 'The service stops.');
    this.#subscribers.clear();
    this.#byToken.clear();
    this.#wss.close();
  }
}
