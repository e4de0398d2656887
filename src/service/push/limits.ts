/**
 * The published limits and close codes of the local service's push protocol
 * (`docs/push-protocol.md`). `GET /v3/push/limits` answers `PUSH_LIMITS`.
 */
export const PUSH_LIMITS = {
  /** Subscriptions one secret may hold (a 409 past it). */
  subscriptions_per_secret: 10,
  /** WebSocket subscribers one secret may have open at once (close 4029 past it). */
  concurrent_subscribers: 5,
  /** Filters in one subscription. */
  filters_per_subscription: 20,
  /** The server sends `{type:"ping"}` this often; a client should too. */
  keepalive_interval_ms: 15_000,
  /** A subscriber silent for this long is closed with 4011 (and may resume within the grace period). */
  keepalive_timeout_ms: 45_000,
  /** How long after a disconnect a reconnect token resumes the subscriber with nothing lost. */
  reconnect_grace_ms: 120_000,
  /** Messages kept per subscriber for replay after a reconnect. */
  replay_buffer: 2_000,
} as const;

/** WebSocket close codes (4000-4999 are the application's own, RFC 6455 section 7.4.2). */
export const CLOSE = {
  /** The service stops. */
  GOING_AWAY: 1001,
  /** A client message that is not JSON `{type: "ping"|"pong"}`. */
  BAD_MESSAGE: 4000,
  /** Missing or wrong secret. */
  UNAUTHORIZED: 4001,
  /** Neither `subscription` nor `resume` given, or both. */
  BAD_REQUEST: 4002,
  /** The subscription named does not exist (or was deleted while connected). */
  UNKNOWN_SUBSCRIPTION: 4004,
  /** No message from the client within `keepalive_timeout_ms`; resumable within the grace period. */
  KEEPALIVE_TIMEOUT: 4011,
  /** The reconnect token is unknown or its grace period is over: resync from REST, then subscribe anew. */
  RESYNC: 4012,
  /** The subscriber was taken over by a resume with its token on another connection. */
  REPLACED: 4013,
  /** The secret already has `concurrent_subscribers` sockets open. */
  TOO_MANY_SUBSCRIBERS: 4029,
} as const;
