/**
 * One active notifier among many processes on one store (docs/operations.md): every process on one
 * Redis, or on one SQLite file (`npm start` beside a headless `matchday start`), shares a lease in
 * that store (src/stores/lease.ts), renewed while held, with a fencing token that grows with every
 * new holder. Only the holder runs the notifier (and
 * so polls the feed); the others stand by and try to take the lease over. When the holder dies its
 * lease runs out after `ttlMs`, and a standby takes over at its next try: within `ttlMs + retryMs`
 * (15 s + 5 s by default, inside 30 s). A holder that cannot renew in time stops
 * its notifier before the lease can have passed to another process.
 *
 * The lease only saves work: the ledger's claim is still what prevents a double send when two
 * processes briefly both believe they lead (src/notify/ledger.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Lease } from '../stores/lease.ts';

export interface LeaseOptions {
  /** The store's lease (src/stores/lease.ts): Redis, or the SQLite file the processes share. Closed by `stop`. */
  lease: Lease;
  /** Starts the work the lease guards (the notifier). */
  lead: (token: number) => Promise<void>;
  /** Stops it: the lease was lost or is being released. */
  resign: () => Promise<void>;
  logger: { info(o: object, m: string): void; warn(o: object, m: string): void };
  /** Lease key. Default `matchday:notifier:lease`. */
  key?: string;
  /** How long a lease lives without renewal. Default 15 s. */
  ttlMs?: number;
  /** Renewal (holder) and takeover attempt (standby) interval. Default 5 s. */
  retryMs?: number;
}

export class NotifierLease {
  readonly owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly #o: Required<LeaseOptions>;
  readonly #lease: Lease;
  #timer: NodeJS.Timeout | undefined;
  #leading = false;
  /** The fencing token of the current term (0 while standing by). */
  token = 0;
  /** `performance.now()` until which our lease surely holds (renewal time + ttl, less a margin). */
  #validUntil = 0;
  #stopped = false;
  #busy: Promise<void> = Promise.resolve();
  #starting: Promise<void> | undefined;
  /** The connection came back while no attempt was scheduled: the next one goes at once. */
  #soon = false;
  /** Whether this process said it stands by (said once per standby, not at every try). */
  #saidStandby = false;

  constructor(options: LeaseOptions) {
    this.#o = {
      key: 'matchday:notifier:lease',
      ttlMs: 15_000,
      retryMs: 5_000,
      ...options,
    };
    this.#lease = options.lease;
    // The store is back (after a Redis outage): try at once instead of at the next `retryMs`, so a holder
    // that stood down takes its lease again, and the notifier resumes, within a reconnect of Redis returning.
    this.#lease.onReconnect?.(() => {
      if (this.#stopped) return;
      if (this.#timer === undefined) this.#soon = true;
      else {
        clearTimeout(this.#timer);
        this.#schedule(0);
      }
    });
  }

  get leading(): boolean {
    return this.#leading;
  }

  /** Connects and makes the first attempt (so start-up knows whether this process leads). */
  async start(): Promise<void> {
    await this.#lease.open();
    await this.#attempt();
    this.#schedule();
    // Start-up waits for the notifier to be running (renewals go on meanwhile).
    await this.#starting;
  }

  #schedule(delayMs = this.#o.retryMs): void {
    if (this.#stopped) return;
    if (this.#soon) delayMs = 0;
    this.#soon = false;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#busy = this.#attempt().finally(() => this.#schedule());
    }, delayMs);
  }

  async #attempt(): Promise<void> {
    const started = performance.now();
    let token = 0;
    try {
      token = await this.#lease.acquire(this.#o.key, this.owner, this.#o.ttlMs);
    } catch (error) {
      // The store did not answer: keep leading only while the last renewal surely still holds.
      if (this.#leading && performance.now() >= this.#validUntil) {
        this.#o.logger.warn({ err: error }, 'could not renew the notifier lease in time; standing down');
        await this.#resign();
      }
      return;
    }
    if (this.#stopped) return;
    if (token > 0) {
      this.#saidStandby = false;
      // The lease runs from when we asked; keep a margin of one retry for a slow answer.
      this.#validUntil = started + this.#o.ttlMs - this.#o.retryMs;
      if (this.#leading && token !== this.token) {
        // A new term while leading: our lease ran out before this renewal (a stalled process), and
        // another may have led meanwhile. Stop the old term's notifier before starting the new one's.
        this.#o.logger.warn(
          { owner: this.owner, term: this.token, next: token },
          'the notifier lease ran out before its renewal; restarting the notifier under a new term',
        );
        await this.#resign();
      }
      if (!this.#leading) {
        this.token = token;
        this.#leading = true;
        this.#o.logger.info(
          { owner: this.owner, term: token },
          'this process holds the notifier lease and runs the notifier',
        );
        // Started beside the renewals, not before them: the notifier's first tick can take longer
        // than the lease lives (a backlog after a takeover), and the lease must be renewed meanwhile.
        this.#starting = this.#o.lead(token).catch(async (error: unknown) => {
          this.#o.logger.warn({ err: error }, 'the notifier failed to start; giving the lease back');
          this.#starting = undefined;
          await this.#resign();
          await this.#release();
        });
      }
    } else if (this.#leading) {
      this.#o.logger.warn(
        { owner: this.owner, term: this.token },
        'the notifier lease passed to another process; standing down',
      );
      await this.#resign();
    }
    if (token === 0 && !this.#saidStandby) {
      this.#saidStandby = true;
      const holder = await this.#lease.holder(this.#o.key).catch(() => undefined);
      this.#o.logger.info(
        { owner: this.owner, holder: holder?.owner, term: holder?.token },
        'another process holds the notifier lease; this process stands by to take the notifier over',
      );
    }
  }

  async #resign(): Promise<void> {
    if (!this.#leading) return;
    this.#leading = false;
    this.token = 0;
    // Let a start under way finish first, so what it opened is what `resign` closes.
    const starting = this.#starting;
    this.#starting = undefined;
    await starting;
    await this.#o.resign();
  }

  async #release(): Promise<void> {
    await this.#lease.release(this.#o.key, this.owner).catch(() => undefined);
  }

  /** Stops trying; if leading, stops the work (posts under way finish) and releases the lease at once. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#busy;
    const wasLeading = this.#leading;
    await this.#resign();
    if (wasLeading) {
      await this.#release();
      this.#o.logger.info({ owner: this.owner }, 'released the notifier lease');
    }
    await this.#lease.close();
  }
}
