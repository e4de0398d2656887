/**
 * Holding requests in a loopback fake: the requests that match wait, unanswered, until the test
 * lets them go. A test can then act while a request is in flight (a post under way when SIGTERM
 * arrives) without depending on timing.
 */
export class Held {
  readonly #waiting: (() => void)[] = [];
  #released = false;
  /** Requests that arrived while held (answered or not). */
  arrived = 0;

  constructor(readonly matches: (method: string, path: string) => boolean) {}

  /** Requests waiting now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Resolves when the request may be answered (at once once released). */
  wait(): Promise<void> {
    this.arrived++;
    if (this.#released) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Lets every waiting request (and every later one) through. */
  release(): void {
    this.#released = true;
    for (const go of this.#waiting.splice(0)) go();
  }
}

/** The holds of one fake: `wait` holds a request while any hold that matches it is not released. */
export class Holds {
  readonly #holds: Held[] = [];

  add(matches: (method: string, path: string) => boolean): Held {
    const held = new Held(matches);
    this.#holds.push(held);
    return held;
  }

  async wait(method: string, path: string): Promise<void> {
    for (const held of this.#holds) if (held.matches(method, path)) await held.wait();
  }

  /** Releases every hold (a fake closing never leaves a request hanging). */
  releaseAll(): void {
    for (const held of this.#holds) held.release();
  }
}
