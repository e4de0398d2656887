/**
 * A loopback fake of Discord: the REST API under `/api/v10` and a gateway WebSocket, on 127.0.0.1
 * port 0. The real discord.js client connects to it with one option (`rest: { api: fake.apiUrl }`)
 * and cannot tell the difference for what Matchday uses. It records every request and every frame,
 * keeps messages per channel, answers 400 where Discord would (limits, empty messages, bad command
 * JSON), honours `nonce` + `enforce_nonce`, enforces the 3 s interaction deadline, and can be
 * scripted to fail (429 with retry_after, 500 after the message was created, 50001/50013/10003).
 *
 * It speaks the parts of Discord's REST API and gateway that discord.js uses (src/platforms/discord/).
 */
/* biome-ignore-all lint/suspicious/noExplicitAny: the fake speaks untyped JSON */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { EventRefusal, FakeScheduledEvents } from './discord/scheduled-events.ts';
import { choiceProblems, commandProblems, messageProblems } from './discord/validate.ts';
import { type Held, Holds } from './hold.ts';

/** Permission bits the fake understands (https://discord.com/developers/docs/topics/permissions). */
export const PERMISSIONS = {
  ADMINISTRATOR: 1n << 3n,
  MANAGE_GUILD: 1n << 5n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  MANAGE_EVENTS: 1n << 33n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  CREATE_EVENTS: 1n << 44n,
} as const;
export type PermissionName = keyof typeof PERMISSIONS;

/** What members without special roles may do: view, send, embed, attach, read history, use commands, threads. */
export const MEMBER_PERMISSIONS =
  PERMISSIONS.VIEW_CHANNEL |
  PERMISSIONS.SEND_MESSAGES |
  PERMISSIONS.CREATE_PUBLIC_THREADS |
  PERMISSIONS.SEND_MESSAGES_IN_THREADS |
  PERMISSIONS.EMBED_LINKS |
  PERMISSIONS.ATTACH_FILES |
  PERMISSIONS.READ_MESSAGE_HISTORY |
  PERMISSIONS.USE_APPLICATION_COMMANDS;

/** Intents that need approval in the developer portal: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT. */
const PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15);
/** GUILD_SCHEDULED_EVENTS: the sessions that receive GUILD_SCHEDULED_EVENT_* dispatches. */
const SCHEDULED_EVENTS_INTENT = 1 << 16;

export interface FakeChannelSeed {
  id: string;
  name: string;
  /** Permissions denied to the bot in this channel (a member overwrite, as a server admin would set). */
  denyBot?: PermissionName[];
}

export interface FakeGuildSeed {
  id: string;
  name: string;
  channels: FakeChannelSeed[];
  roles?: { id: string; name: string }[];
  /** Server-wide permissions granted to the bot's own role (e.g. MANAGE_EVENTS). */
  botPermissions?: PermissionName[];
}

export interface FakeDiscordOptions {
  token?: string;
  botId?: string;
  appId?: string;
  guilds?: FakeGuildSeed[];
  heartbeatIntervalMs?: number;
  /** How long an interaction token accepts its first answer (Discord: 3 s). */
  interactionDeadlineMs?: number;
  /** Window in which `enforce_nonce` returns the earlier message (Discord: "a few minutes"). */
  nonceWindowMs?: number;
  /** The fake's "now" for scheduled events (a start must be in the future). Default `Date.now`. */
  now?: () => number;
}

export interface RecordedRequest {
  at: number;
  method: string;
  /** Decoded path after `/api/v10`, e.g. `/webhooks/1/abc/messages/@original`. */
  path: string;
  query: Record<string, string>;
  /** Whether `Authorization: Bot <token>` carried the right token (the token itself is never recorded). */
  authorized: boolean;
  body: any;
  files: { field: string; name: string; size: number }[];
  status: number;
}

export interface RecordedFrame {
  at: number;
  direction: 'in' | 'out';
  op: number;
  t?: string | null;
  d: any;
}

export interface FakeMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: {
    id: string;
    username: string;
    discriminator: string;
    bot: boolean;
    global_name: null;
    avatar: null;
  };
  content: string;
  embeds: any[];
  components: any[];
  attachments: {
    id: string;
    filename: string;
    size: number;
    url: string;
    proxy_url: string;
    description?: string;
  }[];
  allowed_mentions: any;
  nonce?: string;
  flags: number;
  timestamp: string;
  edited_timestamp: string | null;
  /** How many times it was edited. */
  edits: number;
  /** Who Discord would have pinged with this content and these allowed_mentions. */
  pinged: { everyone: boolean; roles: string[]; users: string[] };
  /** True when the message answers an interaction (or is a follow-up); false for channel posts. */
  viaInteraction: boolean;
  type: number;
  tts: boolean;
  mention_everyone: boolean;
  mentions: never[];
  mention_roles: string[];
  pinned: boolean;
}

/** One failure script: the next `times` requests matching `method` and `path` fail this way. */
export interface FailureRule {
  method?: string;
  /** Matched against the decoded path after `/api/v10`. */
  path: RegExp | string;
  status: 429 | 500 | 502 | 403 | 404;
  /** Discord's JSON error code (50001 Missing Access, 50013 Missing Permissions, 10003 Unknown Channel). */
  code?: number;
  /** For 429: seconds, sent as `Retry-After` and `retry_after`. */
  retryAfter?: number;
  /** For 5xx on a message post: perform the request first, then answer the error (the message exists). */
  afterEffect?: boolean;
  /** Default 1; `Infinity` for a permanent failure. */
  times?: number;
}

interface InteractionState {
  id: string;
  token: string;
  /** 2 a slash command, 3 a click on a message component (a button), 4 autocomplete. */
  type: 2 | 3 | 4;
  guildId?: string;
  channelId: string;
  createdAt: number;
  callbacks: { at: number; type: number; data: any }[];
  original?: FakeMessage;
  followups: FakeMessage[];
  /** Every body PATCHed onto @original, in order. */
  edits: any[];
  /** The original answer was deleted (a deferred public reply replaced by an ephemeral follow-up). */
  deletedOriginal?: boolean;
  /** For a component click: the message the component is on (its @original). */
  componentMessageId?: string;
}

/** What a test reads back about one interaction it sent. */
export interface InteractionResult {
  id: string;
  /** Callback types in order: 4 reply, 5 deferred, 8 autocomplete. */
  callbackTypes: number[];
  /** The final visible answer: the reply, or the deferred reply's last edit. */
  message?: FakeMessage;
  followups: FakeMessage[];
  /** Autocomplete choices. */
  choices?: { name: string; value: string | number }[];
  ephemeral: boolean;
  /** Milliseconds from dispatch to the first callback. */
  firstAnswerMs?: number;
  /** The original answer was deleted (then the visible answer is the first follow-up). */
  deletedOriginal: boolean;
}

export interface InteractionInput {
  command: string;
  subcommand?: string;
  /** Values by option name; typed from the registered command when there is one. */
  options?: Record<string, string | number | boolean>;
  /** For autocomplete: the option being typed. */
  focused?: string;
  guildId?: string;
  /** Sent from a direct message with the bot (no guild, no member). */
  dm?: boolean;
  channelId?: string;
  user?: { id: string; username: string };
  /** The member's permissions in the channel (a bitfield); default: ordinary member. */
  permissions?: bigint;
  locale?: string;
}

const EPOCH = 1420070400000n;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: unknown,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class FakeDiscord {
  readonly token: string;
  readonly botId: string;
  readonly appId: string;
  readonly requests: RecordedRequest[] = [];
  readonly frames: RecordedFrame[] = [];
  /** Identify payloads received (token redacted). */
  readonly identifies: any[] = [];
  /** Registered commands: key `global` or the guild id. */
  readonly commands = new Map<string, any[]>();
  readonly guilds = new Map<string, FakeGuildSeed>();
  readonly #messages = new Map<string, FakeMessage[]>();
  readonly #nonces = new Map<string, { messageId: string; at: number }>();
  /** DM channels the bot opened (`POST /users/@me/channels`): channel id -> user id. */
  readonly #dmChannels = new Map<string, string>();
  /** Threads started on a message (`POST /channels/{c}/messages/{m}/threads`): thread id -> channel id. */
  readonly #threads = new Map<string, { channelId: string; name: string }>();
  /** Users who do not accept DMs from the bot: posting to them answers 50007. */
  readonly #closedDms = new Set<string>();
  readonly #interactions = new Map<string, InteractionState>();
  readonly #interactionsByToken = new Map<string, InteractionState>();
  readonly #rules: (FailureRule & { left: number })[] = [];
  readonly #sockets = new Set<WebSocket>();
  readonly #holds = new Holds();
  /** The shard each session identified as ([id, count]); absent: one session for every guild. */
  readonly #shards = new WeakMap<WebSocket, [number, number]>();
  /** The intents each session identified with. */
  readonly #intents = new WeakMap<WebSocket, number>();
  readonly #events = new EventEmitter();
  /** Guild scheduled events (`test/fakes/discord/scheduled-events.ts`). */
  readonly scheduledEvents: FakeScheduledEvents;
  readonly #now: () => number;
  readonly #options: Required<
    Pick<FakeDiscordOptions, 'heartbeatIntervalMs' | 'interactionDeadlineMs' | 'nonceWindowMs'>
  >;
  #seq = 0;
  #snowflakeCounter = 0n;
  #server!: Server;
  #wss!: WebSocketServer;
  #port = 0;

  private constructor(options: FakeDiscordOptions) {
    this.token = options.token ?? 'fake-bot-token.XXXX.secret';
    this.botId = options.botId ?? '900000000000000001';
    this.appId = options.appId ?? '900000000000000002';
    this.#options = {
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
      interactionDeadlineMs: options.interactionDeadlineMs ?? 3000,
      nonceWindowMs: options.nonceWindowMs ?? 5 * 60_000,
    };
    for (const guild of options.guilds ?? []) this.guilds.set(guild.id, structuredClone(guild));
    this.#now = options.now ?? Date.now;
    this.scheduledEvents = new FakeScheduledEvents(
      () => this.#snowflake(),
      this.botId,
      (t, event) => this.dispatch(`GUILD_SCHEDULED_EVENT_${t}`, event, SCHEDULED_EVENTS_INTENT),
    );
    this.#events.setMaxListeners(100);
  }

  /** Starts a fake on 127.0.0.1 with a free port. */
  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const fake = new FakeDiscord(options);
    await fake.#listen();
    return fake;
  }

  /** The value for discord.js `rest.api` (and Matchday's DISCORD_API_URL). */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.#port}/api`;
  }

  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.#port}/gateway`;
  }

  async #listen(): Promise<void> {
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `fake crashed: ${String(error)}`, code: 0 }));
      });
    });
    this.#wss = new WebSocketServer({ noServer: true });
    this.#server.on('upgrade', (req, socket, head) => {
      if (!req.url?.startsWith('/gateway')) {
        socket.destroy();
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onSocket(ws));
    });
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  /** Closes every gateway socket gracefully and stops the server. */
  /**
   * Holds the requests whose method and decoded path (after `/api/v10`) match, unanswered, until
   * `release()` on the returned hold: a request in flight for as long as the test needs.
   */
  hold(method: string, path: RegExp): Held {
    return this.#holds.add((m, p) => m === method && path.test(p));
  }

  /** Gateway sessions connected now (WebSockets open to the fake's gateway). */
  get sessions(): number {
    return [...this.#sockets].filter((ws) => ws.readyState === ws.OPEN).length;
  }

  async close(): Promise<void> {
    this.#holds.releaseAll();
    for (const ws of this.#sockets) ws.close(1000);
    await new Promise<void>((resolve) => setTimeout(resolve, 5));
    for (const ws of this.#sockets) ws.terminate();
    this.#wss.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---------------------------------------------------------------- test controls

  /** Scripts failures for matching requests (checked in order; each rule is used `times` times). */
  fail(rule: FailureRule): void {
    this.#rules.push({ ...rule, left: rule.times ?? 1 });
  }

  /** Removes every failure script. */
  clearFailures(): void {
    this.#rules.length = 0;
  }

  /** Denies (or with `[]`, restores) the bot's permissions in a channel, and tells the gateway (CHANNEL_UPDATE). */
  denyBotAndTell(channelId: string, permissions: PermissionName[]): void {
    this.denyBot(channelId, permissions);
    const found = this.#findChannel(channelId)!;
    const position = found.guild.channels.indexOf(found.channel);
    this.dispatch('CHANNEL_UPDATE', this.#channelObject(found.guild, found.channel, position));
  }

  /** Denies (or with `[]`, restores) the bot's permissions in a channel, without telling the gateway. */
  denyBot(channelId: string, permissions: PermissionName[]): void {
    const channel = this.#findChannel(channelId)?.channel;
    if (!channel) throw new Error(`fake: no channel ${channelId}`);
    channel.denyBot = permissions;
  }

  /** Sets the bot role's server-wide permissions and tells the gateway (GUILD_ROLE_UPDATE). */
  grantBot(guildId: string, permissions: PermissionName[]): void {
    const guild = this.guilds.get(guildId);
    if (!guild) throw new Error(`fake: no guild ${guildId}`);
    guild.botPermissions = permissions;
    this.dispatch('GUILD_ROLE_UPDATE', { guild_id: guildId, role: this.#botRole(guild) });
  }

  /** The user closes (or opens again) their DMs to the bot: posting to them answers 50007. */
  closeDms(userId: string, closed = true): void {
    if (closed) this.#closedDms.add(userId);
    else this.#closedDms.delete(userId);
  }

  /** The bot's direct messages to a user. */
  directMessages(userId: string): FakeMessage[] {
    const channel = [...this.#dmChannels].find(([, user]) => user === userId)?.[0];
    return channel ? [...(this.#messages.get(channel) ?? [])] : [];
  }

  /** Channel messages (posts by the bot through REST, and interaction answers in that channel). */
  messages(channelId: string, { includeInteractions = false } = {}): FakeMessage[] {
    const all = this.#messages.get(channelId) ?? [];
    return includeInteractions ? [...all] : all.filter((m) => !m.viaInteraction);
  }

  /** Every message the fake holds, in every channel. */
  allMessages(): FakeMessage[] {
    return [...this.#messages.values()].flat();
  }

  /** Requests whose method and path match. */
  requestsTo(method: string, path: RegExp | string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && matches(path, r.path));
  }

  /**
   * Resolves when `predicate` holds, re-checked after every request and frame and every 10 ms (for
   * state the client updates after the fake answered); rejects after `timeoutMs`.
   */
  async waitFor<T>(
    predicate: () => T | undefined | false,
    timeoutMs = 5000,
    what = 'a condition',
  ): Promise<T> {
    const first = predicate();
    if (first) return first;
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        let value: T | undefined | false;
        try {
          value = predicate();
        } catch (error) {
          cleanup();
          reject(error);
          return;
        }
        if (value) {
          cleanup();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`fake Discord: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const poll = setInterval(check, 10);
      const cleanup = () => {
        clearTimeout(timer);
        clearInterval(poll);
        this.#events.off('change', check);
      };
      this.#events.on('change', check);
    });
  }

  /**
   * Sends a gateway dispatch to every connected session, or, for a guild's event, to the sessions of
   * that guild's shard (Discord: shard_id = (guild_id >> 22) % num_shards); with `intent`, only to
   * the sessions that identified with it (Discord sends an intent's events to those only).
   */
  dispatch(t: string, d: unknown, intent?: number): void {
    const body = d as { guild_id?: string; id?: string } | null;
    const guildId = body?.guild_id ?? (t.startsWith('GUILD_') ? body?.id : undefined);
    for (const ws of this.#sockets)
      if (guildId === undefined || this.#onShard(ws, guildId))
        if (intent === undefined || ((this.#intents.get(ws) ?? 0) & intent) !== 0)
          this.#send(ws, { op: 0, t, s: ++this.#seq, d });
  }

  #onShard(ws: WebSocket, guildId: string): boolean {
    const shard = this.#shards.get(ws);
    return !shard || shardOf(guildId, shard[1]) === shard[0];
  }

  /** The bot was added to another guild: GUILD_CREATE, as Discord sends on a new invite. */
  addGuild(seed: FakeGuildSeed): void {
    this.guilds.set(seed.id, seed);
    this.dispatch('GUILD_CREATE', this.#guildObject(seed));
  }

  /** The bot was removed from a guild (or the guild deleted): GUILD_DELETE without `unavailable`. */
  removeGuild(guildId: string): void {
    this.guilds.delete(guildId);
    this.dispatch('GUILD_DELETE', { id: guildId });
  }

  /** A channel was deleted: CHANNEL_DELETE. */
  deleteChannel(channelId: string): void {
    const found = this.#findChannel(channelId);
    if (!found) throw new Error(`fake: no channel ${channelId}`);
    found.guild.channels = found.guild.channels.filter((c) => c.id !== channelId);
    this.dispatch('CHANNEL_DELETE', {
      id: channelId,
      type: 0,
      guild_id: found.guild.id,
      name: found.channel.name,
      position: 0,
    });
  }

  /**
   * Sends INTERACTION_CREATE for a slash command (type 2) or, with `focused`, an autocomplete
   * (type 4), and returns its id. Read the answer with `interactionResult` or `answer`.
   */
  sendInteraction(input: InteractionInput): string {
    const guildId = input.dm ? undefined : (input.guildId ?? [...this.guilds.keys()][0]);
    const guild = guildId ? this.guilds.get(guildId) : undefined;
    const channelId = input.channelId ?? guild?.channels[0]?.id ?? '1';
    const channel = guild?.channels.find((c) => c.id === channelId);
    const id = this.#snowflake();
    const token = `itoken-${id}-${Math.random().toString(36).slice(2)}`;
    const type = input.focused ? 4 : 2;
    const user = input.user ?? { id: '700000000000000001', username: 'fan' };
    const permissions = (input.permissions ?? MEMBER_PERMISSIONS).toString();
    const registered = this.#registeredCommand(input.command, guildId);
    const data = {
      id: registered?.id ?? this.#snowflake(),
      name: input.command,
      type: 1,
      guild_id: registered?.guild_id,
      options: this.#buildOptions(input, registered),
      resolved: this.#resolved(input, registered, guildId),
    };
    const state: InteractionState = {
      id,
      token,
      type,
      channelId,
      createdAt: Date.now(),
      callbacks: [],
      followups: [],
      edits: [],
    };
    if (guildId) state.guildId = guildId;
    this.#interactions.set(id, state);
    this.#interactionsByToken.set(token, state);
    const userObject = {
      id: user.id,
      username: user.username,
      global_name: user.username,
      discriminator: '0',
      avatar: null,
    };
    const payload: any = {
      id,
      application_id: this.appId,
      type,
      token,
      version: 1,
      data,
      channel_id: channelId,
      channel: guildId
        ? { id: channelId, type: 0, name: channel?.name ?? 'channel', guild_id: guildId }
        : { id: channelId, type: 1, recipients: [] },
      app_permissions: this.#botPermissions(channelId).toString(),
      locale: input.locale ?? 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': guildId ?? '0' },
      context: guildId ? 0 : 1,
      attachment_size_limit: 10_485_760,
    };
    if (guildId) {
      payload.guild_id = guildId;
      payload.guild = { id: guildId, locale: 'en-US', features: [] };
      payload.member = {
        user: userObject,
        roles: [],
        permissions,
        joined_at: new Date(0).toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
        nick: null,
        avatar: null,
      };
    } else {
      payload.user = userObject;
    }
    this.dispatch('INTERACTION_CREATE', payload);
    return id;
  }

  /** What the bot answered to an interaction so far. */
  interactionResult(id: string): InteractionResult {
    const state = this.#interactions.get(id);
    if (!state) throw new Error(`fake: no interaction ${id}`);
    const first = state.callbacks[0];
    const auto = state.callbacks.find((c) => c.type === 8);
    const result: InteractionResult = {
      id,
      callbackTypes: state.callbacks.map((c) => c.type),
      followups: [...state.followups],
      ephemeral: ((state.original?.flags ?? first?.data?.flags ?? 0) & 64) === 64,
      deletedOriginal: state.deletedOriginal === true,
    };
    if (state.deletedOriginal && state.followups[0]) {
      result.message = state.followups[0];
      result.ephemeral = (state.followups[0].flags & 64) === 64;
    }
    if (state.original) result.message = state.original;
    if (auto) result.choices = auto.data?.choices ?? [];
    if (first) result.firstAnswerMs = first.at - state.createdAt;
    return result;
  }

  /**
   * Sends an interaction and waits until it has a visible answer: a reply, an edit of a deferred
   * reply, or autocomplete choices.
   */
  async answer(input: InteractionInput, timeoutMs = 5000): Promise<InteractionResult> {
    const id = this.sendInteraction(input);
    return this.waitFor(
      () => {
        const result = this.interactionResult(id);
        if (result.choices) return result;
        if (result.callbackTypes.includes(4) && result.message) return result;
        if (result.callbackTypes.includes(5) && this.#interactions.get(id)!.edits.length > 0) return result;
        if (result.deletedOriginal && result.followups.length > 0) return result;
        return undefined;
      },
      timeoutMs,
      `an answer to /${input.command}${input.subcommand ? ` ${input.subcommand}` : ''}`,
    );
  }

  /**
   * Sends INTERACTION_CREATE for a click on a button (type 3) of a message the bot sent, as Discord
   * does: `data.custom_id`, `data.component_type` 2 and the whole message. Refuses a custom_id the
   * message has no button for (Discord only delivers clicks on buttons it shows).
   */
  sendComponent(input: {
    message: FakeMessage;
    customId: string;
    user?: { id: string; username: string };
    permissions?: bigint;
  }): string {
    const message = this.#messages.get(input.message.channel_id)?.find((m) => m.id === input.message.id);
    if (!message) throw new Error(`fake: no message ${input.message.id}`);
    const buttons = message.components.flatMap((row: any) => row.components ?? []);
    if (!buttons.some((b: any) => b.custom_id === input.customId))
      throw new Error(`fake: message ${message.id} has no button ${input.customId}`);
    const guildId = message.guild_id;
    const id = this.#snowflake();
    const token = `itoken-${id}-${Math.random().toString(36).slice(2)}`;
    const user = input.user ?? { id: '700000000000000001', username: 'fan' };
    const state: InteractionState = {
      id,
      token,
      type: 3,
      channelId: message.channel_id,
      createdAt: Date.now(),
      callbacks: [],
      followups: [],
      edits: [],
      componentMessageId: message.id,
    };
    if (guildId) state.guildId = guildId;
    this.#interactions.set(id, state);
    this.#interactionsByToken.set(token, state);
    const userObject = {
      id: user.id,
      username: user.username,
      global_name: user.username,
      discriminator: '0',
      avatar: null,
    };
    const channel = guildId
      ? this.guilds.get(guildId)?.channels.find((c) => c.id === message.channel_id)
      : undefined;
    const payload: any = {
      id,
      application_id: this.appId,
      type: 3,
      token,
      version: 1,
      data: { custom_id: input.customId, component_type: 2 },
      message: publicMessage(message),
      channel_id: message.channel_id,
      channel: { id: message.channel_id, type: 0, name: channel?.name ?? 'channel', guild_id: guildId },
      app_permissions: this.#botPermissions(message.channel_id).toString(),
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': guildId ?? '0' },
      context: 0,
      attachment_size_limit: 10_485_760,
    };
    if (guildId) {
      payload.guild_id = guildId;
      payload.guild = { id: guildId, locale: 'en-US', features: [] };
      payload.member = {
        user: userObject,
        roles: [],
        permissions: (input.permissions ?? MEMBER_PERMISSIONS).toString(),
        joined_at: new Date(0).toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
        nick: null,
        avatar: null,
      };
    } else payload.user = userObject;
    this.dispatch('INTERACTION_CREATE', payload);
    return id;
  }

  /** Clicks a button and waits until the bot updated the message or answered the clicker. */
  async click(
    input: Parameters<FakeDiscord['sendComponent']>[0],
    timeoutMs = 5000,
  ): Promise<InteractionResult> {
    const id = this.sendComponent(input);
    return this.waitFor(
      () => {
        const state = this.#interactions.get(id)!;
        const result = this.interactionResult(id);
        if (state.callbacks.some((c) => c.type === 7)) return result;
        if (state.edits.length > 0 || state.followups.length > 0) return result;
        return undefined;
      },
      timeoutMs,
      `an answer to a click on ${input.customId}`,
    );
  }

  #componentMessage(state: InteractionState): FakeMessage {
    const message = this.#messages.get(state.channelId)?.find((m) => m.id === state.componentMessageId);
    if (!message) throw new ApiError(404, 10008, 'Unknown Message');
    return message;
  }

  // ---------------------------------------------------------------- gateway

  #onSocket(ws: WebSocket): void {
    this.#sockets.add(ws);
    ws.on('close', () => this.#sockets.delete(ws));
    ws.on('message', (raw) => {
      let frame: any;
      try {
        frame = JSON.parse(String(raw));
      } catch {
        ws.close(4002, 'Decode error');
        return;
      }
      this.#record({
        at: Date.now(),
        direction: 'in',
        op: frame.op,
        d: frame.op === 2 ? redactIdentify(frame.d) : frame.d,
      });
      this.#onFrame(ws, frame);
    });
    this.#send(ws, { op: 10, d: { heartbeat_interval: this.#options.heartbeatIntervalMs } });
  }

  #onFrame(ws: WebSocket, frame: any): void {
    switch (frame.op) {
      case 1:
        this.#send(ws, { op: 11 });
        return;
      case 2: {
        this.identifies.push(redactIdentify(frame.d));
        if (frame.d?.token !== this.token && frame.d?.token !== `Bot ${this.token}`) {
          ws.close(4004, 'Authentication failed.');
          return;
        }
        if ((Number(frame.d?.intents) & PRIVILEGED_INTENTS) !== 0) {
          ws.close(4014, 'Disallowed intent(s).');
          return;
        }
        this.#intents.set(ws, Number(frame.d?.intents) || 0);
        const shard = frame.d?.shard;
        if (shard !== undefined) {
          const valid =
            Array.isArray(shard) &&
            shard.length === 2 &&
            shard.every((n: unknown) => Number.isInteger(n) && (n as number) >= 0) &&
            shard[0] < shard[1];
          if (!valid) {
            ws.close(4010, 'Invalid shard.');
            return;
          }
          this.#shards.set(ws, [shard[0], shard[1]]);
        }
        const guilds = [...this.guilds.values()].filter((g) => this.#onShard(ws, g.id));
        this.#send(ws, {
          op: 0,
          t: 'READY',
          s: ++this.#seq,
          d: {
            v: 10,
            user: {
              id: this.botId,
              username: 'Matchday',
              discriminator: '0',
              bot: true,
              global_name: null,
              avatar: null,
            },
            guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
            session_id: `session-${this.#seq}`,
            ...(shard !== undefined ? { shard } : {}),
            resume_gateway_url: this.gatewayUrl,
            application: { id: this.appId, flags: 0 },
            private_channels: [],
          },
        });
        for (const guild of guilds)
          this.#send(ws, { op: 0, t: 'GUILD_CREATE', s: ++this.#seq, d: this.#guildObject(guild) });
        return;
      }
      case 6:
        this.#send(ws, { op: 0, t: 'RESUMED', s: ++this.#seq, d: {} });
        return;
      default:
        return;
    }
  }

  #send(ws: WebSocket, frame: { op: number; t?: string; s?: number; d?: unknown }): void {
    this.#record({ at: Date.now(), direction: 'out', op: frame.op, t: frame.t ?? null, d: frame.d });
    ws.send(JSON.stringify({ t: null, s: null, d: null, ...frame }));
  }

  #record(frame: RecordedFrame): void {
    this.frames.push(frame);
    this.#events.emit('change');
  }

  #guildObject(guild: FakeGuildSeed): any {
    return {
      id: guild.id,
      name: guild.name,
      icon: null,
      owner_id: '700000000000000000',
      unavailable: false,
      member_count: 2,
      large: false,
      features: [],
      preferred_locale: 'en-US',
      roles: [
        {
          id: guild.id,
          name: '@everyone',
          permissions: MEMBER_PERMISSIONS.toString(),
          position: 0,
          color: 0,
          hoist: false,
          managed: false,
          mentionable: false,
          flags: 0,
        },
        this.#botRole(guild),
        ...(guild.roles ?? []).map((role, i) => ({
          id: role.id,
          name: role.name,
          permissions: '0',
          position: i + 1,
          color: 0,
          hoist: false,
          managed: false,
          mentionable: true,
          flags: 0,
        })),
      ],
      channels: guild.channels.map((channel, position) => this.#channelObject(guild, channel, position)),
      members: [
        {
          user: {
            id: this.botId,
            username: 'Matchday',
            discriminator: '0',
            bot: true,
            global_name: null,
            avatar: null,
          },
          roles: [botRoleId(guild)],
          joined_at: new Date(0).toISOString(),
          deaf: false,
          mute: false,
          flags: 0,
        },
      ],
      threads: [],
      emojis: [],
      stickers: [],
      voice_states: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: this.scheduledEvents.list(guild.id),
      soundboard_sounds: [],
    };
  }

  /** The bot's managed role: its server-wide grants (`botPermissions`). */
  #botRole(guild: FakeGuildSeed): any {
    const bits = (guild.botPermissions ?? []).reduce((all, name) => all | PERMISSIONS[name], 0n);
    return {
      id: botRoleId(guild),
      name: 'Matchday',
      permissions: bits.toString(),
      position: 1,
      color: 0,
      hoist: false,
      managed: true,
      mentionable: false,
      flags: 0,
      tags: { bot_id: this.botId },
    };
  }

  /** May the bot manage scheduled events in the guild (Manage Events, or Create Events for its own)? */
  #canManageEvents(guildId: string): boolean {
    const granted = this.guilds.get(guildId)?.botPermissions ?? [];
    return (
      granted.includes('MANAGE_EVENTS') ||
      granted.includes('CREATE_EVENTS') ||
      granted.includes('ADMINISTRATOR')
    );
  }

  #events_(
    guildId: string,
    run: () => { status?: number; body?: unknown },
  ): { status?: number; body?: unknown } {
    if (!this.guilds.has(guildId)) throw new ApiError(404, 10004, 'Unknown Guild');
    try {
      return run();
    } catch (error) {
      if (error instanceof EventRefusal) throw new ApiError(error.status, error.code, error.message);
      throw error;
    }
  }

  #channelObject(guild: FakeGuildSeed, channel: FakeChannelSeed, position = 0): any {
    const deny = (channel.denyBot ?? []).reduce((bits, name) => bits | PERMISSIONS[name], 0n);
    return {
      id: channel.id,
      type: 0,
      guild_id: guild.id,
      name: channel.name,
      position,
      parent_id: null,
      nsfw: false,
      topic: null,
      permission_overwrites: deny ? [{ id: this.botId, type: 1, allow: '0', deny: deny.toString() }] : [],
    };
  }

  // ---------------------------------------------------------------- REST

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    const prefix = '/api/v10';
    const path = decodeURIComponent(
      url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname,
    );
    const method = (req.method ?? 'GET').toUpperCase();
    const record: RecordedRequest = {
      at: Date.now(),
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      authorized: req.headers.authorization === `Bot ${this.token}`,
      body: undefined,
      files: [],
      status: 0,
    };
    let status = 200;
    let payload: unknown;
    let headers: Record<string, string> = {};
    await this.#holds.wait(method, path);
    try {
      const parsed = await parseBody(req.headers['content-type'] ?? '', raw);
      record.body = parsed.body;
      record.files = parsed.files;
      if (!url.pathname.startsWith(prefix)) throw new ApiError(404, 0, '404: Not Found');
      const rule = this.#takeRule(method, path);
      if (rule && !rule.afterEffect) throw ruleError(rule);
      const result = this.#route(method, path, record, url.searchParams);
      status = result.status ?? 200;
      payload = result.body;
      if (rule?.afterEffect) throw ruleError(rule);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      headers = error.headers;
      payload = {
        message: error.message,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
      };
    }
    record.status = status;
    this.requests.push(record);
    if (status === 204) res.writeHead(204, headers).end();
    else
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(payload ?? null));
    this.#events.emit('change');
  }

  #takeRule(method: string, path: string): (FailureRule & { left: number }) | undefined {
    const rule = this.#rules.find(
      (r) => r.left > 0 && (!r.method || r.method === method) && matches(r.path, path),
    );
    if (rule) rule.left -= 1;
    return rule;
  }

  #route(
    method: string,
    path: string,
    request: RecordedRequest,
    query: URLSearchParams,
  ): { status?: number; body?: unknown } {
    const parts = path.split('/').filter(Boolean);
    const is = (m: string, pattern: string): string[] | undefined => {
      if (m !== method) return undefined;
      const want = pattern.split('/').filter(Boolean);
      if (want.length !== parts.length) return undefined;
      const params: string[] = [];
      for (let i = 0; i < want.length; i++) {
        if (want[i] === '*') params.push(parts[i]!);
        else if (want[i] !== parts[i]) return undefined;
      }
      return params;
    };
    const needAuth = <T>(value?: T): T | undefined => {
      if (!request.authorized) throw new ApiError(401, 0, '401: Unauthorized');
      return value;
    };
    type Handler = (params: string[]) => { status?: number; body?: unknown };
    const bot = {
      id: this.botId,
      username: 'Matchday',
      discriminator: '0',
      bot: true,
      global_name: null,
      avatar: null,
    };
    const routes: [string, string, Handler][] = [
      [
        'GET',
        '/gateway/bot',
        () => {
          needAuth();
          const session_start_limit = { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 };
          return { body: { url: this.gatewayUrl, shards: 1, session_start_limit } };
        },
      ],
      ['GET', '/gateway', () => ({ body: { url: this.gatewayUrl } })],
      ['GET', '/users/@me', () => ({ body: needAuth(bot) })],
      [
        'GET',
        '/applications/@me',
        () => ({ body: needAuth({ id: this.appId, name: 'Matchday', bot_public: true, flags: 0 }) }),
      ],
      ['PUT', '/applications/*/commands', ([app]) => this.#putCommands(request, app!, undefined)],
      [
        'PUT',
        '/applications/*/guilds/*/commands',
        ([app, guild]) => this.#putCommands(request, app!, guild!),
      ],
      ['GET', '/applications/*/commands', () => ({ body: this.commands.get('global') ?? [] })],
      [
        'GET',
        '/channels/*',
        ([channelId]) => {
          needAuth();
          const found = this.#findChannel(channelId!);
          if (!found) throw new ApiError(404, 10003, 'Unknown Channel');
          if (!(this.#botPermissions(channelId!) & PERMISSIONS.VIEW_CHANNEL))
            throw new ApiError(403, 50001, 'Missing Access');
          return { body: this.#channelObject(found.guild, found.channel) };
        },
      ],
      [
        'GET',
        '/guilds/*/members/*',
        ([guildId, userId]) => {
          needAuth();
          const guild = this.guilds.get(guildId!);
          if (!guild) throw new ApiError(404, 10004, 'Unknown Guild');
          if (userId !== this.botId) throw new ApiError(404, 10007, 'Unknown Member');
          return { body: this.#guildObject(guild).members[0] };
        },
      ],
      ['POST', '/users/@me/channels', () => this.#openDm(request)],
      [
        'GET',
        '/guilds/*/scheduled-events',
        ([g]) => this.#events_(g!, () => ({ body: needAuth(this.scheduledEvents.list(g!)) })),
      ],
      [
        'POST',
        '/guilds/*/scheduled-events',
        ([g]) =>
          this.#events_(g!, () => ({
            body: needAuth(
              this.scheduledEvents.create(g!, request.body, this.#canManageEvents(g!), this.#now()),
            ),
          })),
      ],
      [
        'GET',
        '/guilds/*/scheduled-events/*',
        ([g, id]) => this.#events_(g!, () => ({ body: needAuth(this.scheduledEvents.get(g!, id!)) })),
      ],
      [
        'PATCH',
        '/guilds/*/scheduled-events/*',
        ([g, id]) =>
          this.#events_(g!, () => ({
            body: needAuth(
              this.scheduledEvents.modify(g!, id!, request.body, this.#canManageEvents(g!), this.#now()),
            ),
          })),
      ],
      [
        'DELETE',
        '/guilds/*/scheduled-events/*',
        ([g, id]) =>
          this.#events_(g!, () => {
            needAuth();
            this.scheduledEvents.remove(g!, id!, this.#canManageEvents(g!));
            return { status: 204 };
          }),
      ],
      [
        'POST',
        '/channels/*/messages/*/threads',
        ([channelId, messageId]) => this.#startThread(request, channelId!, messageId!),
      ],
      ['POST', '/channels/*/messages', ([channelId]) => this.#createMessage(request, channelId!)],
      ['PATCH', '/channels/*/messages/*', ([channelId, id]) => this.#editMessage(request, channelId!, id!)],
      [
        'GET',
        '/channels/*/messages/*',
        ([channelId, id]) => {
          needAuth();
          const message = this.#messages.get(channelId!)?.find((m) => m.id === id);
          if (!message) throw new ApiError(404, 10008, 'Unknown Message');
          return { body: publicMessage(message) };
        },
      ],
      ['POST', '/interactions/*/*/callback', ([id, token]) => this.#callback(request, id!, token!, query)],
      [
        'PATCH',
        '/webhooks/*/*/messages/@original',
        ([app, token]) => this.#editOriginal(request, app!, token!),
      ],
      [
        'GET',
        '/webhooks/*/*/messages/@original',
        ([app, token]) => {
          const state = this.#interactionForWebhook(app!, token!);
          if (!state.original) throw new ApiError(404, 10008, 'Unknown Message');
          return { body: publicMessage(state.original) };
        },
      ],
      [
        'DELETE',
        '/webhooks/*/*/messages/@original',
        ([app, token]) => {
          const state = this.#interactionForWebhook(app!, token!);
          if (!state.original) throw new ApiError(404, 10008, 'Unknown Message');
          const list = this.#messages.get(state.channelId) ?? [];
          this.#messages.set(
            state.channelId,
            list.filter((m) => m !== state.original),
          );
          state.deletedOriginal = true;
          delete state.original;
          return { status: 204 };
        },
      ],
      ['POST', '/webhooks/*/*', ([app, token]) => this.#followup(request, app!, token!)],
    ];
    for (const [m, pattern, handler] of routes) {
      const params = is(m, pattern);
      if (params) return handler(params);
    }
    throw new ApiError(404, 0, `404: Not Found (the fake has no route ${method} ${path})`);
  }

  #putCommands(request: RecordedRequest, appId: string, guildId: string | undefined): { body: unknown } {
    if (!request.authorized) throw new ApiError(401, 0, '401: Unauthorized');
    if (appId !== this.appId) throw new ApiError(403, 50001, 'Missing Access');
    if (guildId && !this.guilds.has(guildId)) throw new ApiError(403, 50001, 'Missing Access');
    const problems = commandProblems(request.body);
    if (problems.length > 0) throw invalidForm(problems);
    const stored = (request.body as any[]).map((command) => ({
      ...command,
      id: this.#snowflake(),
      application_id: this.appId,
      version: this.#snowflake(),
      type: command.type ?? 1,
      ...(guildId ? { guild_id: guildId } : {}),
    }));
    this.commands.set(guildId ?? 'global', stored);
    return { body: stored };
  }

  /** Opens (or returns) the DM channel with a user, as Discord does. */
  #openDm(request: RecordedRequest): { body: unknown } {
    if (!request.authorized) throw new ApiError(401, 0, '401: Unauthorized');
    const userId = request.body?.recipient_id;
    if (typeof userId !== 'string' || !/^\d{1,20}$/.test(userId))
      throw invalidForm(['recipient_id: Value is not snowflake.']);
    let id = [...this.#dmChannels].find(([, user]) => user === userId)?.[0];
    if (!id) {
      id = this.#snowflake();
      this.#dmChannels.set(id, userId);
    }
    return { body: { id, type: 1, recipients: [{ id: userId, username: `user-${userId}` }] } };
  }

  /** A message to a DM channel: refused with 50007 when the user's DMs are closed. */
  #createDirectMessage(request: RecordedRequest, channelId: string, userId: string): { body: unknown } {
    if (this.#closedDms.has(userId)) throw new ApiError(403, 50007, 'Cannot send messages to this user');
    const body = request.body ?? {};
    const problems = messageProblems(body, { create: true });
    if (problems.length > 0) throw invalidForm(problems);
    if (body.enforce_nonce && body.nonce !== undefined) {
      const seen = this.#nonces.get(`${channelId}:${body.nonce}`);
      const existing = seen && this.#messages.get(channelId)?.find((m) => m.id === seen.messageId);
      if (existing && Date.now() - seen.at < this.#options.nonceWindowMs)
        return { body: publicMessage(existing) };
    }
    const message = this.#newMessage(channelId, undefined, body, request.files, false);
    if (body.nonce !== undefined)
      this.#nonces.set(`${channelId}:${body.nonce}`, { messageId: message.id, at: Date.now() });
    return { body: publicMessage(message) };
  }

  /** A thread on a message: its id is the message's; a second one answers 160004, as Discord does. */
  #startThread(request: RecordedRequest, channelId: string, messageId: string): { body: unknown } {
    if (!request.authorized) throw new ApiError(401, 0, '401: Unauthorized');
    const found = this.#findChannel(channelId);
    if (!found) throw new ApiError(404, 10003, 'Unknown Channel');
    if (!(this.#botPermissions(channelId) & PERMISSIONS.CREATE_PUBLIC_THREADS))
      throw new ApiError(403, 50013, 'Missing Permissions');
    if (!this.#messages.get(channelId)?.some((m) => m.id === messageId))
      throw new ApiError(404, 10008, 'Unknown Message');
    if (this.#threads.has(messageId))
      throw new ApiError(400, 160004, 'A thread has already been created for this message');
    const name = String(request.body?.name ?? '');
    if (name.length < 1 || name.length > 100)
      throw invalidForm(['name: Must be between 1 and 100 in length.']);
    this.#threads.set(messageId, { channelId, name });
    return {
      body: {
        id: messageId,
        type: 11,
        guild_id: found.guild.id,
        parent_id: channelId,
        name,
        owner_id: this.botId,
      },
    };
  }

  /** The thread started on a message, if any: its name and its messages. */
  thread(messageId: string): { name: string; channelId: string; messages: FakeMessage[] } | undefined {
    const thread = this.#threads.get(messageId);
    return thread ? { ...thread, messages: [...(this.#messages.get(messageId) ?? [])] } : undefined;
  }

  #createMessage(request: RecordedRequest, channelId: string): { body: unknown } {
    if (!request.authorized) throw new ApiError(401, 0, '401: Unauthorized');
    const thread = this.#threads.get(channelId);
    if (thread) {
      const problems = messageProblems(request.body ?? {}, { create: true });
      if (problems.length > 0) throw invalidForm(problems);
      // In a thread, Discord asks for Send Messages in Threads (not Send Messages).
      if (!(this.#botPermissions(thread.channelId) & PERMISSIONS.SEND_MESSAGES_IN_THREADS))
        throw new ApiError(403, 50013, 'Missing Permissions');
      // A thread is a channel: `enforce_nonce` answers a repeated post with the earlier message there too.
      const body = request.body ?? {};
      const earlier = this.#nonceMessage(channelId, body);
      if (earlier) return { body: publicMessage(earlier) };
      const message = this.#newMessage(channelId, undefined, body, request.files, false);
      if (body.nonce !== undefined)
        this.#nonces.set(`${channelId}:${body.nonce}`, { messageId: message.id, at: Date.now() });
      return { body: publicMessage(message) };
    }
    const dmUser = this.#dmChannels.get(channelId);
    if (dmUser) return this.#createDirectMessage(request, channelId, dmUser);
    const found = this.#findChannel(channelId);
    if (!found) throw new ApiError(404, 10003, 'Unknown Channel');
    const permissions = this.#botPermissions(channelId);
    if (!(permissions & PERMISSIONS.VIEW_CHANNEL)) throw new ApiError(403, 50001, 'Missing Access');
    if (!(permissions & PERMISSIONS.SEND_MESSAGES)) throw new ApiError(403, 50013, 'Missing Permissions');
    const body = request.body ?? {};
    const problems = messageProblems(body, { create: true });
    if (problems.length > 0) throw invalidForm(problems);
    if (body.enforce_nonce && body.nonce !== undefined) {
      const key = `${channelId}:${body.nonce}`;
      const seen = this.#nonces.get(key);
      if (seen && Date.now() - seen.at < this.#options.nonceWindowMs) {
        const existing = this.#messages.get(channelId)?.find((m) => m.id === seen.messageId);
        if (existing) return { body: publicMessage(existing) };
      }
    }
    const message = this.#newMessage(channelId, found.guild.id, body, request.files, false);
    if (!(permissions & PERMISSIONS.EMBED_LINKS)) message.embeds = []; // Discord drops embeds silently
    if (body.nonce !== undefined)
      this.#nonces.set(`${channelId}:${body.nonce}`, { messageId: message.id, at: Date.now() });
    return { body: publicMessage(message) };
  }

  /** The message an `enforce_nonce` post repeats (same channel and nonce, within the window), if any. */
  #nonceMessage(channelId: string, body: any): FakeMessage | undefined {
    if (!body.enforce_nonce || body.nonce === undefined) return undefined;
    const seen = this.#nonces.get(`${channelId}:${body.nonce}`);
    if (!seen || Date.now() - seen.at >= this.#options.nonceWindowMs) return undefined;
    return this.#messages.get(channelId)?.find((m) => m.id === seen.messageId);
  }

  #editMessage(request: RecordedRequest, channelId: string, messageId: string): { body: unknown } {
    if (!request.authorized) throw new ApiError(401, 0, '401: Unauthorized');
    // The bot edits its own messages in a DM channel it opened as in a server's channel.
    const dm = this.#dmChannels.has(channelId);
    if (!dm && !this.#findChannel(channelId)) throw new ApiError(404, 10003, 'Unknown Channel');
    const permissions = dm ? MEMBER_PERMISSIONS : this.#botPermissions(channelId);
    if (!(permissions & PERMISSIONS.VIEW_CHANNEL)) throw new ApiError(403, 50001, 'Missing Access');
    const message = this.#messages.get(channelId)?.find((m) => m.id === messageId);
    if (!message) throw new ApiError(404, 10008, 'Unknown Message');
    const problems = messageProblems(request.body ?? {}, { create: false });
    if (problems.length > 0) throw invalidForm(problems);
    applyEdit(message, request.body ?? {}, request.files);
    return { body: publicMessage(message) };
  }

  #callback(
    request: RecordedRequest,
    id: string,
    token: string,
    query: URLSearchParams,
  ): { status?: number; body?: unknown } {
    const state = this.#interactions.get(id);
    if (!state || state.token !== token) throw new ApiError(404, 10062, 'Unknown interaction');
    if (Date.now() - state.createdAt > this.#options.interactionDeadlineMs)
      throw new ApiError(
        404,
        10062,
        'Unknown interaction (the 3 s deadline for the first answer has passed)',
      );
    if (state.callbacks.length > 0)
      throw new ApiError(400, 40060, 'Interaction has already been acknowledged.');
    const body = request.body ?? {};
    const type = Number(body.type);
    if (state.type === 4 && type !== 8)
      throw invalidForm([`an autocomplete interaction takes callback type 8, not ${type}`]);
    if (state.type === 2 && ![4, 5].includes(type))
      throw invalidForm([`a command takes callback type 4 or 5, not ${type}`]);
    // A component click may also update its own message: 6 deferred, 7 at once.
    if (state.type === 3 && ![4, 5, 6, 7].includes(type))
      throw invalidForm([`a component interaction takes callback type 4, 5, 6 or 7, not ${type}`]);
    if (type === 7) {
      const problems = messageProblems(body.data ?? {}, { create: false });
      if (problems.length > 0) throw invalidForm(problems);
    }
    if (type === 4) {
      const problems = messageProblems(body.data ?? {}, { create: true });
      if (problems.length > 0) throw invalidForm(problems);
    }
    if (type === 8) {
      const problems = choiceProblems(body.data);
      if (problems.length > 0) throw invalidForm(problems);
    }
    state.callbacks.push({ at: Date.now(), type, data: body.data });
    if (type === 4)
      state.original = this.#newMessage(state.channelId, state.guildId, body.data ?? {}, request.files, true);
    // The message a component sits on is its interaction's @original: 6 and 7 edit it.
    if (type === 6 || type === 7) state.original = this.#componentMessage(state);
    if (type === 7) {
      applyEdit(state.original!, body.data ?? {}, request.files);
      state.edits.push(body.data);
    }
    if (type === 5) {
      state.original = this.#newMessage(
        state.channelId,
        state.guildId,
        { content: '', flags: body.data?.flags ?? 0 },
        [],
        true,
      );
      state.original.flags |= 128; // LOADING
    }
    if (query.get('with_response') === 'true') {
      return {
        body: {
          interaction: {
            id,
            type: state.type,
            activity_instance_id: null,
            response_message_id: state.original?.id ?? null,
          },
          resource: {
            type,
            ...(state.original && type === 4 ? { message: publicMessage(state.original) } : {}),
          },
        },
      };
    }
    return { status: 204 };
  }

  #interactionForWebhook(appId: string, token: string): InteractionState {
    const state = this.#interactionsByToken.get(token);
    if (appId !== this.appId || !state) throw new ApiError(404, 10015, 'Unknown Webhook');
    return state;
  }

  #editOriginal(request: RecordedRequest, appId: string, token: string): { body: unknown } {
    const state = this.#interactionForWebhook(appId, token);
    if (!state.original) throw new ApiError(404, 10008, 'Unknown Message');
    const problems = messageProblems(request.body ?? {}, { create: false });
    if (problems.length > 0) throw invalidForm(problems);
    applyEdit(state.original, request.body ?? {}, request.files);
    state.original.flags &= ~128;
    state.edits.push(request.body);
    return { body: publicMessage(state.original) };
  }

  #followup(request: RecordedRequest, appId: string, token: string): { body: unknown } {
    const state = this.#interactionForWebhook(appId, token);
    if (state.callbacks.length === 0) throw new ApiError(404, 10015, 'Unknown Webhook');
    const problems = messageProblems(request.body ?? {}, { create: true });
    if (problems.length > 0) throw invalidForm(problems);
    const message = this.#newMessage(state.channelId, state.guildId, request.body ?? {}, request.files, true);
    state.followups.push(message);
    return { body: publicMessage(message) };
  }

  #newMessage(
    channelId: string,
    guildId: string | undefined,
    body: any,
    files: RecordedRequest['files'],
    viaInteraction: boolean,
  ): FakeMessage {
    const message: FakeMessage = {
      id: this.#snowflake(),
      channel_id: channelId,
      author: {
        id: this.botId,
        username: 'Matchday',
        discriminator: '0',
        bot: true,
        global_name: null,
        avatar: null,
      },
      content: '',
      embeds: [],
      components: [],
      attachments: [],
      allowed_mentions: undefined,
      flags: 0,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      edits: 0,
      pinged: { everyone: false, roles: [], users: [] },
      viaInteraction,
      type: viaInteraction ? 20 : 0,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      pinned: false,
    };
    if (guildId) message.guild_id = guildId;
    if (body.nonce !== undefined) message.nonce = String(body.nonce);
    applyEdit(message, body, files);
    message.edits = 0;
    message.edited_timestamp = null;
    const list = this.#messages.get(channelId) ?? [];
    list.push(message);
    this.#messages.set(channelId, list);
    return message;
  }

  #findChannel(channelId: string): { guild: FakeGuildSeed; channel: FakeChannelSeed } | undefined {
    for (const guild of this.guilds.values()) {
      const channel = guild.channels.find((c) => c.id === channelId);
      if (channel) return { guild, channel };
    }
    return undefined;
  }

  #botPermissions(channelId: string): bigint {
    const found = this.#findChannel(channelId);
    if (!found) return 0n;
    const deny = (found.channel.denyBot ?? []).reduce((bits, name) => bits | PERMISSIONS[name], 0n);
    return MEMBER_PERMISSIONS & ~deny;
  }

  #registeredCommand(name: string, guildId: string | undefined): any {
    const guildCommands = guildId ? this.commands.get(guildId) : undefined;
    return (
      guildCommands?.find((c) => c.name === name) ?? this.commands.get('global')?.find((c) => c.name === name)
    );
  }

  /** Builds `data.options`, typed from the registered declaration when there is one. */
  #buildOptions(input: InteractionInput, registered: any): any[] {
    let declared: any[] = registered?.options ?? [];
    if (input.subcommand) declared = declared.find((o: any) => o.name === input.subcommand)?.options ?? [];
    const values = Object.entries(input.options ?? {}).map(([name, value]) => {
      const type = declared.find((o: any) => o.name === name)?.type ?? inferType(value);
      const option: any = { name, type, value: input.focused === name ? String(value) : value };
      if (input.focused === name) option.focused = true;
      return option;
    });
    if (input.subcommand) return [{ name: input.subcommand, type: 1, options: values }];
    return values;
  }

  #resolved(input: InteractionInput, registered: any, guildId: string | undefined): any {
    let declared: any[] = registered?.options ?? [];
    if (input.subcommand) declared = declared.find((o: any) => o.name === input.subcommand)?.options ?? [];
    const channels: Record<string, unknown> = {};
    const roles: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input.options ?? {})) {
      const type = declared.find((o: any) => o.name === name)?.type;
      if (type === 7) {
        // The channel's own guild, as Discord says it: another guild's channel is never local.
        const found = this.#findChannel(String(value));
        channels[String(value)] = {
          id: String(value),
          type: 0,
          name: found?.channel.name ?? 'unknown',
          permissions: MEMBER_PERMISSIONS.toString(),
          guild_id: found?.guild.id ?? guildId,
        };
      }
      if (type === 8) {
        const role = guildId
          ? this.guilds.get(guildId)?.roles?.find((r) => r.id === String(value))
          : undefined;
        roles[String(value)] = {
          id: String(value),
          name: role?.name ?? 'role',
          permissions: '0',
          position: 1,
          color: 0,
          hoist: false,
          managed: false,
          mentionable: true,
          flags: 0,
        };
      }
    }
    const resolved: any = {};
    if (Object.keys(channels).length > 0) resolved.channels = channels;
    if (Object.keys(roles).length > 0) resolved.roles = roles;
    return Object.keys(resolved).length > 0 ? resolved : undefined;
  }

  #snowflake(): string {
    this.#snowflakeCounter += 1n;
    return (((BigInt(Date.now()) - EPOCH) << 22n) | (this.#snowflakeCounter & 0x3fffffn)).toString();
  }
}

function matches(pattern: RegExp | string, path: string): boolean {
  return typeof pattern === 'string' ? pattern === path : pattern.test(path);
}

function inferType(value: unknown): number {
  if (typeof value === 'boolean') return 5;
  if (typeof value === 'number') return Number.isInteger(value) ? 4 : 10;
  return 3;
}

function ruleError(rule: FailureRule): ApiError {
  if (rule.status === 429) {
    const seconds = rule.retryAfter ?? 0.1;
    return new ApiError(
      429,
      0,
      'You are being rate limited.',
      undefined,
      { 'retry-after': String(seconds), 'x-ratelimit-scope': 'user' },
      { retry_after: seconds, global: false },
    );
  }
  if (rule.status >= 500) return new ApiError(rule.status, 0, `${rule.status}: Internal Server Error`);
  const code = rule.code ?? (rule.status === 404 ? 10003 : 50013);
  const message =
    {
      50001: 'Missing Access',
      50013: 'Missing Permissions',
      10003: 'Unknown Channel',
      10008: 'Unknown Message',
    }[code] ?? 'Error';
  return new ApiError(rule.status, code, message);
}

/** The id of the bot's managed role in a guild (a snowflake of its own). */
function botRoleId(guild: FakeGuildSeed): string {
  return `8${guild.id.slice(1)}`;
}

function invalidForm(problems: string[]): ApiError {
  return new ApiError(400, 50035, `Invalid Form Body: ${problems.join('; ')}`, {
    _errors: problems.map((message) => ({ code: 'INVALID', message })),
  });
}

/** Who Discord would ping: `parse` types and explicit lists; absent allowed_mentions parses everything. */
function pingedBy(content: string, allowed: any): FakeMessage['pinged'] {
  const parse: string[] =
    allowed === undefined || allowed === null ? ['everyone', 'roles', 'users'] : (allowed.parse ?? []);
  const roleIds = [...content.matchAll(/<@&(\d+)>/g)].map((m) => m[1]!);
  const userIds = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]!);
  const allowedRoles: string[] = allowed?.roles ?? [];
  const allowedUsers: string[] = allowed?.users ?? [];
  return {
    everyone: /@(everyone|here)/.test(content) && parse.includes('everyone'),
    roles: roleIds.filter((id) => parse.includes('roles') || allowedRoles.includes(id)),
    users: userIds.filter((id) => parse.includes('users') || allowedUsers.includes(id)),
  };
}

function applyEdit(message: FakeMessage, body: any, files: RecordedRequest['files']): void {
  if (body.content !== undefined) message.content = body.content ?? '';
  if (body.embeds !== undefined) message.embeds = body.embeds ?? [];
  if (body.components !== undefined) message.components = body.components ?? [];
  if (body.flags !== undefined) message.flags = Number(body.flags) | (message.flags & 128);
  if (body.allowed_mentions !== undefined || message.edits === 0)
    message.allowed_mentions = body.allowed_mentions;
  if (body.attachments !== undefined || files.length > 0) {
    const described: any[] = Array.isArray(body.attachments) ? body.attachments : [];
    message.attachments = files.map((file, i) => {
      const meta = described.find((a) => String(a.id) === String(i)) ?? {};
      const attachment: FakeMessage['attachments'][number] = {
        id: `${message.id}${i}`,
        filename: meta.filename ?? file.name,
        size: file.size,
        url: `http://127.0.0.1/attachments/${message.channel_id}/${message.id}/${file.name}`,
        proxy_url: `http://127.0.0.1/attachments/${message.channel_id}/${message.id}/${file.name}`,
      };
      if (meta.description) attachment.description = meta.description;
      return attachment;
    });
  }
  message.pinged = pingedBy(message.content, message.allowed_mentions);
  message.mention_everyone = message.pinged.everyone;
  message.mention_roles = message.pinged.roles;
  message.edits += 1;
  message.edited_timestamp = new Date().toISOString();
}

function publicMessage(message: FakeMessage): any {
  const {
    edits: _edits,
    pinged: _pinged,
    viaInteraction: _via,
    allowed_mentions: _allowed,
    ...rest
  } = message;
  return structuredClone(rest);
}

/** The shard a guild belongs to among `count` (Discord's sharding formula). */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

function redactIdentify(d: any): any {
  if (!d || typeof d !== 'object') return d;
  return { ...d, token: d.token ? '[redacted]' : d.token };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseBody(
  contentType: string,
  raw: Buffer,
): Promise<{ body: any; files: RecordedRequest['files'] }> {
  if (raw.length === 0) return { body: undefined, files: [] };
  if (contentType.startsWith('application/json')) {
    try {
      return { body: JSON.parse(raw.toString('utf8')), files: [] };
    } catch {
      throw new ApiError(400, 50109, 'The request body contains invalid JSON.');
    }
  }
  if (contentType.startsWith('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    let body: any;
    const files: RecordedRequest['files'] = [];
    for (const [field, value] of form.entries()) {
      if (field === 'payload_json') body = JSON.parse(String(value));
      else if (typeof value !== 'string') files.push({ field, name: value.name, size: value.size });
    }
    return { body, files };
  }
  return { body: raw.toString('utf8'), files: [] };
}
