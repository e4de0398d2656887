/**
 * The one clock of a Matchday process: the local service's world, the notifier's ticks and the
 * commands' "now" all read it. Real time by default; it can be frozen at an instant, run faster
 * than real time, or jumped, so a test can play a simulated day in seconds.
 */
interface ClockOptions {
  /** Where the clock starts. Default: the real current time. */
  start?: Date;
  /** How many simulated milliseconds pass per real millisecond. Default 1. Ignored when frozen. */
  speed?: number;
  /** A frozen clock stays at its instant until `set` or `advance` moves it. */
  frozen?: boolean;
  /** The real time source, injectable for tests of the clock itself. */
  realNow?: () => number;
}

export class Clock {
  #anchorReal: number;
  #anchorSim: number;
  #speed: number;
  #frozen: boolean;
  readonly #realNow: () => number;

  constructor(options: ClockOptions = {}) {
    this.#realNow = options.realNow ?? Date.now;
    this.#anchorReal = this.#realNow();
    this.#anchorSim = options.start?.getTime() ?? this.#anchorReal;
    this.#speed = options.speed ?? 1;
    this.#frozen = options.frozen ?? false;
    if (!(this.#speed > 0) || !Number.isFinite(this.#speed))
      throw new RangeError('Clock speed must be a positive number.');
  }

  /** The current simulated instant in epoch milliseconds. */
  nowMs(): number {
    if (this.#frozen) return this.#anchorSim;
    return this.#anchorSim + (this.#realNow() - this.#anchorReal) * this.#speed;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  get speed(): number {
    return this.#speed;
  }

  get frozen(): boolean {
    return this.#frozen;
  }

  /** Jumps to `instant` (forwards or backwards); the clock keeps running (or stays frozen) from there. */
  set(instant: Date): void {
    this.#anchorSim = instant.getTime();
    this.#anchorReal = this.#realNow();
  }

  /** Moves the clock forward by `ms` simulated milliseconds. */
  advance(ms: number): void {
    this.set(new Date(this.nowMs() + ms));
  }

  setSpeed(speed: number): void {
    if (!(speed > 0) || !Number.isFinite(speed))
      throw new RangeError('Clock speed must be a positive number.');
    this.set(this.now());
    this.#speed = speed;
  }

  freeze(): void {
    this.set(this.now());
    this.#frozen = true;
  }

  resume(): void {
    this.set(this.now());
    this.#frozen = false;
  }

  /** Real milliseconds until the clock reads `instant` (0 if past; Infinity if frozen before it). */
  realMsUntil(instant: Date): number {
    const simMs = instant.getTime() - this.nowMs();
    if (simMs <= 0) return 0;
    if (this.#frozen) return Number.POSITIVE_INFINITY;
    return simMs / this.#speed;
  }
}
