/**
 * What the local service can do wrong on purpose (latency, 500s, 429 storms, dropped connections,
 * truncated bodies): set at start (`ServiceOptions.faults`; `matchday service --error-rate` and the
 * like, src/service/cli.ts) and read by every request (src/service/index.ts, v3-request.ts).
 */

/** Fault injection, for tests and benchmarks of clients. Mutable at runtime on `RunningService.faults`. */
export interface FaultOptions {
  /** Added to every answer. */
  latencyMs: number;
  /** Share of requests answered 500, 0..1. */
  errorRate: number;
  /** Every request answered 429. */
  rateLimitStorm: boolean;
  /** Share of connections dropped without an answer, 0..1. */
  dropRate: number;
  /** Share of 200 answers with a malformed (truncated) JSON body, 0..1. */
  malformedRate: number;
}

/** No fault at all: what a service starts with unless told otherwise. */
export const NO_FAULTS: FaultOptions = {
  latencyMs: 0,
  errorRate: 0,
  rateLimitStorm: false,
  dropRate: 0,
  malformedRate: 0,
};
