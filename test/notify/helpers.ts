/**
 * Test doubles for the notifier's edges that are not under test here: an in-memory tenant store with
 * the `TenantStore` surface, and a recording `Delivery` (the Discord and Slack deliveries are tested
 * against their loopback fakes by their own suites).
 */
import { appendFileSync } from 'node:fs';
import { type Reply, replyText } from '../../src/bot/reply.ts';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { createClient, type EsportsClient } from '../../src/client/client.ts';
import type { Clock } from '../../src/core/clock.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import {
  type ChannelTarget,
  claimLost,
  type Delivery,
  type Posted,
  type PostOptions,
} from '../../src/notify/delivery.ts';
import { DeliveryError } from '../../src/notify/delivery-error.ts';
import type { Ledger } from '../../src/notify/ledger.ts';
import { createNotifier, type Notifier } from '../../src/notify/notifier.ts';

export class MemoryTenants {
  readonly #docs = new Map<string, Settings>();
  saves = 0;

  set(tenantId: string, settings: Partial<Settings>): void {
    this.#docs.set(tenantId, settingsSchema.parse({ ...defaultSettings(), ...settings }));
  }

  async get(tenantId: string): Promise<Settings> {
    return structuredClone(this.#docs.get(tenantId) ?? defaultSettings());
  }

  async save(tenantId: string, settings: Settings): Promise<Settings> {
    this.saves++;
    const parsed = settingsSchema.parse(settings);
    this.#docs.set(tenantId, parsed);
    return structuredClone(parsed);
  }

  async update(tenantId: string, change: (current: Settings) => Settings): Promise<Settings> {
    return this.save(tenantId, change(await this.get(tenantId)));
  }

  async list(): Promise<string[]> {
    return [...this.#docs.keys()];
  }

  async purge(tenantId: string): Promise<void> {
    this.#docs.delete(tenantId);
  }

  async close(): Promise<void> {}
}

export interface Recorded {
  op: 'post' | 'edit';
  key: string;
  tenantId: string;
  channelId: string;
  messageId: string;
  text: string;
  revealed: string;
  at: number;
  /** The reply itself, for rendering on each platform (not written to the child-process file). */
  readonly reply?: Reply;
}

/**
 * Records every post and edit. Like Discord's nonce with enforce_nonce, a post repeated with the
 * same key returns the first message instead of a second one (counted in `deduped`).
 */
export class RecordingDelivery implements Delivery {
  readonly records: Recorded[] = [];
  readonly byKey = new Map<string, string>();
  deduped = 0;
  #seq = 0;
  /** Makes the next posts/edits to a channel fail: `${tenantId}/${channelId}` -> error. */
  readonly failures = new Map<string, DeliveryError>();
  /** Makes edits of one message fail (e.g. UNKNOWN_MESSAGE after a moderator deleted it): message id -> error. */
  readonly editFailures = new Map<string, DeliveryError>();
  /** Every post and edit tried, failed or not, per `${tenantId}/${channelId}`. */
  readonly attempts = new Map<string, number>();
  /** Real ms each post takes (a platform pacing its posts). */
  postDelayMs = 0;
  /**
   * `nonce` (default): a post repeated with its key returns the first message (Discord's nonce, with an
   * unbounded window). `history`: like Slack, every post makes a new message, unless the notifier asks
   * to `reconcile`, which finds an earlier post by its key (the channel history's metadata).
   */
  dedupe: 'nonce' | 'history' = 'nonce';
  /** Called right after a post is recorded (the crash bench kills the process there). */
  afterPost: (() => void) | undefined;

  constructor(
    readonly platform: Platform,
    private readonly now: () => number,
    private readonly file?: string,
  ) {}

  async post(target: ChannelTarget, reply: Reply, key: string, options: PostOptions = {}): Promise<Posted> {
    if (this.postDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.postDelayMs));
    this.#count(target);
    this.#maybeFail(target);
    if (options.stillOurs && !(await options.stillOurs())) throw claimLost(key);
    const existing = this.byKey.get(key);
    if (existing && (this.dedupe === 'nonce' || options.reconcile)) {
      this.deduped++;
      return { messageId: existing };
    }
    const messageId = `${this.platform}-${process.pid}-${++this.#seq}`;
    this.byKey.set(key, messageId);
    this.#record({ op: 'post', key, target, messageId, reply });
    this.afterPost?.();
    return { messageId };
  }

  async edit(target: ChannelTarget, messageId: string, reply: Reply): Promise<void> {
    this.#count(target);
    this.#maybeFail(target);
    const gone = this.editFailures.get(messageId);
    if (gone) throw gone;
    this.#record({ op: 'edit', key: '', target, messageId, reply });
  }

  posts(): Recorded[] {
    return this.records.filter((r) => r.op === 'post');
  }

  #count(target: ChannelTarget): void {
    const k = `${target.tenantId}/${target.channelId}`;
    this.attempts.set(k, (this.attempts.get(k) ?? 0) + 1);
  }

  #maybeFail(target: ChannelTarget): void {
    const failure = this.failures.get(`${target.tenantId}/${target.channelId}`);
    if (failure) throw failure;
  }

  #record(r: {
    op: 'post' | 'edit';
    key: string;
    target: ChannelTarget;
    messageId: string;
    reply: Reply;
  }): void {
    const reply = r.reply;
    // The texts are rendered when read (assertions, JSON): the bench's fake should cost the tick little.
    const rec: Recorded = {
      op: r.op,
      key: r.key,
      tenantId: r.target.tenantId,
      channelId: r.target.channelId,
      messageId: r.messageId,
      get text() {
        return replyText(reply);
      },
      get revealed() {
        return replyText(reply, true);
      },
      at: this.now(),
    };
    Object.defineProperty(rec, 'reply', { value: reply, enumerable: false });
    this.records.push(rec);
    // The child-process test reads what was delivered from a file, written before the call returns.
    if (this.file) appendFileSync(this.file, `${JSON.stringify(rec)}\n`);
  }
}

export function permanent(code = 'MISSING_PERMISSIONS'): DeliveryError {
  return new DeliveryError('permanent', code, 'The bot may not post in this channel.');
}

export function transient(): DeliveryError {
  return new DeliveryError('transient', 'RATE_LIMITED', 'Slow down.', 1000);
}

/** A silent pino-compatible logger that keeps lines for assertions. */
export function memoryLogger() {
  const lines: { level: string; obj: unknown; msg?: string }[] = [];
  const at =
    (level: string) =>
    (obj: unknown, msg?: string): void => {
      lines.push({ level, obj, ...(msg !== undefined ? { msg } : {}) });
    };
  return { lines, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } as never as {
    lines: { level: string; obj: unknown; msg?: string }[];
    info: (obj: unknown, msg?: string) => void;
    warn: (obj: unknown, msg?: string) => void;
    error: (obj: unknown, msg?: string) => void;
    debug: (obj: unknown, msg?: string) => void;
  };
}

/**
 * A client for a notifier on a simulated clock: no rate limit to wait out, and no cache for the
 * fast-changing families (the cache runs on real time, the world on the simulated clock), lobby
 * standings (substages) included: a tournament's end waits for standings that count every lobby.
 */
export function uncachedClient(service: { url: string; secret: string }): EsportsClient {
  return createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 100_000, burst: 100_000 },
    ttl: { series: 0, matches: 0, live: 0, streams: 0, casters: 0, substages: 0 },
  });
}

/**
 * One notifier process for the downtime tests: a notifier over `ledger` and `client`, posting to a
 * recording Discord, and how to stop it (the notifier, then its ledger and client).
 */
export function discordProcess(parts: {
  client: EsportsClient;
  ledger: Ledger;
  tenants: MemoryTenants;
  clock: Clock;
  discord: RecordingDelivery;
  logger: ReturnType<typeof memoryLogger>;
}): { notifier: Notifier; ledger: Ledger; stop: () => Promise<void> } {
  const { client, ledger, tenants, clock, discord, logger } = parts;
  const notifier = createNotifier({
    client,
    tenants,
    clock,
    ledger,
    deliveries: { discord },
    logger: logger as never,
    editIntervalMs: 0,
  });
  return {
    notifier,
    ledger,
    stop: async () => {
      await notifier.stop();
      await ledger.close();
      await client.close();
    },
  };
}

/**
 * The posts that carry a notification's key: the post made under it or, for reminders due in one
 * minute for one channel (posted as one message keyed by the first, src/notify/grouping.ts), the
 * post of the message the ledger marked the key sent with. A key the ledger holds with another
 * message and no post of that message is carried by nothing.
 */
export async function postsCarrying<P extends Pick<Recorded, 'key' | 'messageId'>>(
  key: string,
  posts: readonly P[],
  ledger: Pick<Ledger, 'get'>,
): Promise<P[]> {
  const own = posts.filter((p) => p.key === key);
  if (own.length > 0) return own;
  const entry = await ledger.get(key);
  if (entry?.state !== 'sent' || entry.messageId === undefined) return [];
  return posts.filter((p) => p.messageId === entry.messageId);
}
