/**
 * A loopback fake of Slack, good enough to drive the real Bolt app and the real WebClient: the Web API
 * methods Matchday calls, `response_url`s, and a Socket Mode WebSocket. It listens on 127.0.0.1 (port
 * 0), records everything it is sent, enforces Block Kit limits (`invalid_blocks`, as Slack does) and can
 * be scripted to fail (429 with Retry-After, not_in_channel, channel_not_found, is_archived, ...).
 *
 * Wire formats: https://docs.slack.dev/reference/methods (form-encoded POSTs, `{ok, error}` answers),
 * https://docs.slack.dev/apis/events-api/using-socket-mode (hello, envelopes, acks).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { type Held, Holds } from './hold.ts';
import { blockKitProblems } from './slack/limits.ts';

type Json = Record<string, unknown>;

export interface FakeSlackUser {
  id: string;
  name: string;
  isAdmin?: boolean;
  isOwner?: boolean;
}

export interface FakeSlackChannel {
  id: string;
  name: string;
  /** Whether the bot is a member (default true); chat.postMessage answers not_in_channel otherwise. */
  isMember?: boolean;
  isArchived?: boolean;
}

export interface FakeSlackOptions {
  teamId?: string;
  enterpriseId?: string;
  botToken?: string;
  appToken?: string;
  botUserId?: string;
  botId?: string;
  appId?: string;
  users?: FakeSlackUser[];
  channels?: FakeSlackChannel[];
}

/** One Web API call as the fake received it, with what it answered. */
export interface ApiCall {
  method: string;
  token: string | undefined;
  params: Json;
  status: number;
  answer: Json;
}

/** A channel message (chat.postMessage), with every version chat.update gave it. */
export interface ChannelMessage {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: Json[] | undefined;
  /** Message metadata (`event_type`, `event_payload`) as posted, if any. */
  metadata?: Json;
  /** Earlier versions, oldest first; empty while never updated. */
  history: { text: string | undefined; blocks: Json[] | undefined }[];
  /** A reply in the thread of the channel message with this ts. */
  thread_ts?: string;
}

/** One POST to a `response_url`. */
export interface ResponsePost {
  id: string;
  body: Json;
  status: number;
}

/** A scripted failure for the next call(s) of a method. */
export interface Failure {
  /** Answer `{ok:false, error}` with status 200 (Slack's way). */
  error?: string;
  /** Answer 429 with this Retry-After in seconds. */
  retryAfter?: number;
  /** Only calls for this channel. */
  channel?: string;
  /** How many calls fail (default 1). */
  times?: number;
}

export interface SlashCommandInput {
  text: string;
  userId: string;
  channelId: string;
  teamId?: string;
  enterpriseId?: string;
  command?: string;
}

const MAX_RESPONSES_PER_URL = 5;

/** Parses a Web API request body (form-encoded, values that are JSON stay strings, or a JSON body). */
function parseParams(raw: string, contentType: string | undefined): Json {
  if (contentType?.startsWith('application/json')) return raw ? (JSON.parse(raw) as Json) : {};
  const params: Json = {};
  for (const [key, value] of new URLSearchParams(raw)) params[key] = value;
  return params;
}

function jsonField(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A file uploaded through files.getUploadURLExternal, the upload URL and files.completeUploadExternal. */
export interface FakeUpload {
  id: string;
  filename: string;
  /** The length announced to getUploadURLExternal. */
  length: number;
  altText?: string;
  /** The bytes posted to the upload URL (multipart field `body`, as the Web API sends it). */
  data?: Buffer;
  /** Set by completeUploadExternal. */
  channel?: string;
  title?: string;
}

export class FakeSlack {
  readonly teamId: string;
  readonly enterpriseId: string | undefined;
  readonly botToken: string;
  readonly appToken: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly appId: string;
  readonly users = new Map<string, FakeSlackUser>();
  readonly channels = new Map<string, FakeSlackChannel>();

  /** Everything received, in order. */
  readonly calls: ApiCall[] = [];
  readonly messages: ChannelMessage[] = [];
  /** Files uploaded through the files API (standings and bracket pictures). */
  readonly uploads: FakeUpload[] = [];
  readonly responses: ResponsePost[] = [];
  /** Acks received over Socket Mode, by envelope id. */
  readonly acks = new Map<string, Json>();
  /** Socket Mode connections opened so far. */
  socketsOpened = 0;

  #server: Server;
  #wss: WebSocketServer;
  #sockets = new Set<WebSocket>();
  #failures = new Map<string, Failure[]>();
  readonly #holds = new Holds();
  #responseUrls = new Map<string, number>();
  #ackWaiters = new Map<string, (payload: Json) => void>();
  #tsCounter = 0;
  #port = 0;

  private constructor(options: FakeSlackOptions) {
    this.teamId = options.teamId ?? 'T0MATCHDAY';
    this.enterpriseId = options.enterpriseId;
    this.botToken = options.botToken ?? 'xoxb-fake-bot-token';
    this.appToken = options.appToken ?? 'xapp-fake-app-token';
    this.botUserId = options.botUserId ?? 'U0BOT';
    this.botId = options.botId ?? 'B0BOT';
    this.appId = options.appId ?? 'A0MATCHDAY';
    for (const user of options.users ?? []) this.users.set(user.id, user);
    for (const channel of options.channels ?? []) this.channels.set(channel.id, channel);
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: false, error: 'fatal_error', detail: String(error) }));
      });
    });
    this.#wss = new WebSocketServer({ noServer: true });
    this.#server.on('upgrade', (req, socket, head) => {
      if (!req.url?.startsWith('/socket-mode')) {
        socket.destroy();
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onSocket(ws));
    });
  }

  /** Starts a fake on 127.0.0.1 and an ephemeral port. */
  static async start(options: FakeSlackOptions = {}): Promise<FakeSlack> {
    const fake = new FakeSlack(options);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.#port = (fake.#server.address() as AddressInfo).port;
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** What the product's SLACK_API_URL is set to. */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  /**
   * Holds requests unanswered until `release()` on the returned hold: Web API calls of `method`
   * (`chat.postMessage`), or `'response'` for posts to response URLs.
   */
  hold(method: string): Held {
    return this.#holds.add((kind, name) => kind === 'POST' && name === method);
  }

  /** Makes the next `times` calls of `method` fail as described. */
  fail(method: string, failure: Failure): void {
    const list = this.#failures.get(method) ?? [];
    list.push({ times: 1, ...failure });
    this.#failures.set(method, list);
  }

  /** A fresh `response_url` on this fake; what Slack puts in every command and interaction payload. */
  newResponseUrl(): { id: string; url: string } {
    const id = randomUUID();
    this.#responseUrls.set(id, 0);
    return { id, url: `${this.baseUrl}/response/${id}` };
  }

  callsOf(method: string): ApiCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  responsesTo(id: string): ResponsePost[] {
    return this.responses.filter((response) => response.id === id);
  }

  messagesIn(channel: string): ChannelMessage[] {
    return this.messages.filter((message) => message.channel === channel);
  }

  /** Resolves with `probe()`'s first defined (non-false) value, polling; rejects after `timeoutMs`. */
  async waitFor<T>(probe: () => T | undefined | false, timeoutMs = 5000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`FakeSlack: timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The payload Slack sends for `/matchday <text>`, with a fresh response_url. */
  slashCommandPayload(input: SlashCommandInput): { payload: Record<string, string>; responseId: string } {
    const { id, url } = this.newResponseUrl();
    const user = this.users.get(input.userId);
    const channel = this.channels.get(input.channelId);
    const payload: Record<string, string> = {
      token: 'deprecated-verification-token',
      team_id: input.teamId ?? this.teamId,
      team_domain: 'matchday-test',
      channel_id: input.channelId,
      channel_name: channel?.name ?? 'unknown',
      user_id: input.userId,
      user_name: user?.name ?? 'someone',
      command: input.command ?? '/matchday',
      text: input.text,
      api_app_id: this.appId,
      is_enterprise_install: 'false',
      response_url: url,
      trigger_id: `trigger-${randomUUID()}`,
    };
    const enterpriseId = input.enterpriseId ?? this.enterpriseId;
    if (enterpriseId) {
      payload.enterprise_id = enterpriseId;
      payload.enterprise_name = 'Matchday Grid';
    }
    return { payload, responseId: id };
  }

  /** The block_actions payload Slack sends when `userId` clicks a button of a message. */
  blockActionPayload(input: {
    userId: string;
    channelId: string;
    action: Json;
    message?: Json;
    teamId?: string;
  }): { payload: Json; responseId: string } {
    const { id, url } = this.newResponseUrl();
    const payload: Json = {
      type: 'block_actions',
      user: {
        id: input.userId,
        username: this.users.get(input.userId)?.name ?? 'someone',
        team_id: input.teamId ?? this.teamId,
      },
      api_app_id: this.appId,
      token: 'deprecated-verification-token',
      container: { type: 'message', channel_id: input.channelId, is_ephemeral: false },
      trigger_id: `trigger-${randomUUID()}`,
      team: { id: input.teamId ?? this.teamId, domain: 'matchday-test' },
      enterprise: this.enterpriseId ? { id: this.enterpriseId } : null,
      is_enterprise_install: false,
      channel: { id: input.channelId, name: this.channels.get(input.channelId)?.name ?? 'unknown' },
      message: input.message ?? {},
      response_url: url,
      actions: [{ ...input.action, action_ts: `${Date.now() / 1000}` }],
    };
    return { payload, responseId: id };
  }

  /** An Events API callback body (`event_callback`) for `event`. */
  eventPayload(event: Json, teamId?: string): Json {
    return {
      token: 'deprecated-verification-token',
      team_id: teamId ?? this.teamId,
      enterprise_id: this.enterpriseId,
      api_app_id: this.appId,
      event: { event_ts: `${Date.now() / 1000}`, ...event },
      type: 'event_callback',
      event_id: `Ev${randomUUID().replaceAll('-', '').slice(0, 10).toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        {
          enterprise_id: this.enterpriseId ?? null,
          team_id: teamId ?? this.teamId,
          user_id: this.botUserId,
          is_bot: true,
        },
      ],
      is_ext_shared_channel: false,
    };
  }

  /** Whether a Socket Mode client is connected. */
  get socketConnected(): boolean {
    return [...this.#sockets].some((ws) => ws.readyState === WebSocket.OPEN);
  }

  /**
   * Sends an envelope over Socket Mode and resolves with the app's ack payload (rejects if no ack comes
   * within `timeoutMs`: Slack would show the user an error after 3 s).
   */
  async sendEnvelope(
    type: 'slash_commands' | 'interactive' | 'events_api',
    payload: Json,
    timeoutMs = 3000,
  ): Promise<Json> {
    const ws = [...this.#sockets].find((socket) => socket.readyState === WebSocket.OPEN);
    if (!ws) throw new Error('FakeSlack: no Socket Mode connection');
    const envelopeId = randomUUID();
    const acked = new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#ackWaiters.delete(envelopeId);
        reject(new Error(`FakeSlack: envelope ${type} not acked within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#ackWaiters.set(envelopeId, (ack) => {
        clearTimeout(timer);
        resolve(ack);
      });
    });
    ws.send(
      JSON.stringify({
        envelope_id: envelopeId,
        type,
        payload,
        accepts_response_payload: type !== 'events_api',
        retry_attempt: 0,
        retry_reason: '',
      }),
    );
    return acked;
  }

  /** Closes every socket gracefully (code 1000, so Bolt does not linger) and the server. */
  async close(): Promise<void> {
    this.#holds.releaseAll();
    for (const ws of this.#sockets) if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'fake closing');
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  // --- internals -------------------------------------------------------------------------------

  #onSocket(ws: WebSocket): void {
    this.socketsOpened += 1;
    this.#sockets.add(ws);
    ws.on('close', () => this.#sockets.delete(ws));
    ws.on('message', (data) => {
      let message: Json;
      try {
        message = JSON.parse(String(data)) as Json;
      } catch {
        return;
      }
      const envelopeId = message.envelope_id;
      if (typeof envelopeId !== 'string') return;
      const payload = (message.payload as Json | undefined) ?? {};
      this.acks.set(envelopeId, payload);
      this.#ackWaiters.get(envelopeId)?.(payload);
      this.#ackWaiters.delete(envelopeId);
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.#sockets.size,
        debug_info: { host: 'fake-slack', approximate_connection_time: 18060 },
        connection_info: { app_id: this.appId },
      }),
    );
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const bytes = await readBody(req);
    const raw = bytes.toString('utf8');
    if (req.method === 'POST' && url.pathname.startsWith('/upload/')) {
      // The upload URL files.getUploadURLExternal handed out: multipart, the file in field `body`.
      const upload = this.uploads.find(
        (u) => u.id === decodeURIComponent(url.pathname.slice('/upload/'.length)),
      );
      const form = await new Request(url, {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type'] ?? '') },
        body: bytes,
      })
        .formData()
        .catch(() => undefined);
      const file = form?.get('body') ?? form?.get('file');
      if (!upload || !file || typeof file === 'string') {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end('bad upload');
        return;
      }
      upload.data = Buffer.from(await file.arrayBuffer());
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`OK - ${upload.data.length}`);
      return;
    }
    if (req.method === 'POST' && url.pathname.startsWith('/response/')) {
      await this.#holds.wait('POST', 'response');
      this.#response(decodeURIComponent(url.pathname.slice('/response/'.length)), raw, res);
      return;
    }
    if (req.method === 'POST' && url.pathname.startsWith('/api/')) {
      const method = decodeURIComponent(url.pathname.slice('/api/'.length));
      await this.#holds.wait('POST', method);
      const params = parseParams(raw, req.headers['content-type']);
      const auth = req.headers.authorization;
      const token = auth?.startsWith('Bearer ')
        ? auth.slice('Bearer '.length)
        : (params.token as string | undefined);
      const { status, answer, headers } = this.#api(method, token, params);
      this.calls.push({ method, token, params, status, answer });
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(answer));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }

  #response(id: string, raw: string, res: ServerResponse): void {
    const used = this.#responseUrls.get(id);
    let body: Json = {};
    try {
      body = JSON.parse(raw) as Json;
    } catch {
      // recorded as empty; answered 400 below
    }
    let status = 200;
    let answer: Json = { ok: true };
    if (used === undefined) [status, answer] = [404, { ok: false, error: 'expired_url' }];
    else if (used >= MAX_RESPONSES_PER_URL) [status, answer] = [404, { ok: false, error: 'used_url' }];
    else if (blockKitProblems(body).length > 0)
      [status, answer] = [400, { ok: false, error: 'invalid_blocks' }];
    if (used !== undefined) this.#responseUrls.set(id, used + 1);
    this.responses.push({ id, body, status });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  }

  #takeFailure(method: string, params: Json): Failure | undefined {
    const list = this.#failures.get(method);
    if (!list) return undefined;
    const index = list.findIndex(
      (failure) => failure.channel === undefined || failure.channel === params.channel,
    );
    if (index < 0) return undefined;
    const failure = list[index]!;
    failure.times = (failure.times ?? 1) - 1;
    if (failure.times <= 0) list.splice(index, 1);
    return failure;
  }

  #api(
    method: string,
    token: string | undefined,
    params: Json,
  ): { status: number; answer: Json; headers?: Record<string, string> } {
    const ok = (answer: Json) => ({ status: 200, answer: { ok: true, ...answer } });
    const error = (code: string) => ({ status: 200, answer: { ok: false, error: code } });

    if (method === 'apps.connections.open') {
      if (token !== this.appToken) return error('invalid_auth');
      return ok({ url: `ws://127.0.0.1:${this.#port}/socket-mode` });
    }
    if (token !== this.botToken) return error(token ? 'invalid_auth' : 'not_authed');

    const failure = this.#takeFailure(method, params);
    if (failure?.retryAfter !== undefined) {
      return {
        status: 429,
        answer: { ok: false, error: 'ratelimited' },
        headers: { 'retry-after': String(failure.retryAfter) },
      };
    }
    if (failure?.error) return error(failure.error);

    switch (method) {
      case 'auth.test':
        return ok({
          url: 'https://matchday-test.slack.com/',
          team: 'Matchday Test',
          user: 'matchday',
          team_id: this.teamId,
          user_id: this.botUserId,
          bot_id: this.botId,
          enterprise_id: this.enterpriseId,
          is_enterprise_install: false,
        });
      case 'users.info': {
        const user = this.users.get(String(params.user));
        if (!user) return error('user_not_found');
        return ok({
          user: {
            id: user.id,
            team_id: this.teamId,
            name: user.name,
            real_name: user.name,
            deleted: false,
            is_bot: false,
            is_admin: user.isAdmin === true,
            is_owner: user.isOwner === true,
            is_primary_owner: false,
          },
        });
      }
      case 'conversations.open': {
        // A DM with one person: the same channel every time; a user unknown to the workspace or the
        // bot itself cannot be messaged (as Slack answers).
        const user = String(params.users ?? '');
        if (user === this.botUserId) return error('cannot_dm_bot');
        if (!this.users.has(user)) return error('user_not_found');
        const id = `D${user}`;
        if (!this.channels.has(id)) this.channels.set(id, { id, name: user });
        return ok({ channel: { id } });
      }
      case 'conversations.info': {
        const channel = this.channels.get(String(params.channel));
        if (!channel) return error('channel_not_found');
        return ok({
          channel: {
            id: channel.id,
            name: channel.name,
            is_channel: true,
            is_member: channel.isMember !== false,
            is_archived: channel.isArchived === true,
          },
        });
      }
      case 'chat.postMessage':
      case 'chat.update': {
        const channel = this.channels.get(String(params.channel));
        if (!channel) return error('channel_not_found');
        if (channel.isArchived) return error('is_archived');
        if (method === 'chat.postMessage' && channel.isMember === false) return error('not_in_channel');
        const blocks = params.blocks === undefined ? undefined : (jsonField(params.blocks) as Json[]);
        const text = params.text === undefined ? undefined : String(params.text);
        if (blockKitProblems({ text, blocks }).length > 0)
          return error(blocks ? 'invalid_blocks' : 'no_text');
        if (method === 'chat.postMessage') {
          this.#tsCounter += 1;
          const ts = `1700000000.${String(this.#tsCounter).padStart(6, '0')}`;
          const metadata = params.metadata === undefined ? undefined : (jsonField(params.metadata) as Json);
          if (metadata !== undefined && (typeof metadata.event_type !== 'string' || !metadata.event_payload))
            return error('invalid_metadata_format');
          this.messages.push({
            channel: channel.id,
            ts,
            text,
            blocks,
            history: [],
            ...(metadata ? { metadata } : {}),
            ...(params.thread_ts !== undefined ? { thread_ts: String(params.thread_ts) } : {}),
          });
          return ok({
            channel: channel.id,
            ts,
            message: { type: 'message', text, blocks, ts, bot_id: this.botId },
          });
        }
        const message = this.messages.find((m) => m.channel === channel.id && m.ts === String(params.ts));
        if (!message) return error('message_not_found');
        message.history.push({ text: message.text, blocks: message.blocks });
        message.text = text;
        message.blocks = blocks;
        return ok({ channel: channel.id, ts: message.ts, text });
      }
      case 'files.getUploadURLExternal': {
        const filename = String(params.filename ?? '');
        const length = Number(params.length);
        if (!filename || !Number.isInteger(length) || length <= 0) return error('invalid_arguments');
        const id = `F${String(this.uploads.length + 1).padStart(8, '0')}`;
        this.uploads.push({
          id,
          filename,
          length,
          ...(params.alt_text !== undefined ? { altText: String(params.alt_text) } : {}),
        });
        return ok({ upload_url: `${this.baseUrl}/upload/${id}`, file_id: id });
      }
      case 'files.completeUploadExternal': {
        const files = jsonField(params.files) as { id: string; title?: string }[] | undefined;
        if (!Array.isArray(files) || files.length === 0) return error('invalid_arguments');
        const channelId = params.channel_id === undefined ? undefined : String(params.channel_id);
        const channel = channelId === undefined ? undefined : this.channels.get(channelId);
        if (channelId !== undefined && !channel) return error('channel_not_found');
        if (channel?.isMember === false) return error('not_in_channel');
        const found = files.map((f) => this.uploads.find((u) => u.id === f.id));
        // Slack refuses a file whose bytes never arrived or differ from the announced length.
        if (found.some((u) => !u?.data || u.data.length !== u.length)) return error('file_not_found');
        files.forEach((f, i) => {
          const upload = found[i]!;
          if (channelId !== undefined) upload.channel = channelId;
          upload.title = f.title ?? upload.filename;
        });
        return ok({ files: found.map((u) => ({ id: u!.id, title: u!.title, name: u!.filename })) });
      }
      case 'conversations.history': {
        // Newest first, at most `limit`; metadata only with include_all_metadata (as Slack does).
        const channel = this.channels.get(String(params.channel));
        if (!channel) return error('channel_not_found');
        if (channel.isMember === false) return error('not_in_channel');
        const limit = Math.min(1000, Number(params.limit ?? 100) || 100);
        const withMetadata = String(params.include_all_metadata) === 'true';
        // Like Slack, a channel's history holds top-level messages, not the replies in their threads.
        const messages = this.messages
          .filter((m) => m.channel === channel.id && (m.thread_ts === undefined || m.thread_ts === m.ts))
          .slice(-limit)
          .reverse()
          .map((m) => ({
            type: 'message',
            ts: m.ts,
            text: m.text,
            bot_id: this.botId,
            ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
          }));
        return ok({ messages, has_more: false });
      }
      case 'conversations.replies': {
        // The thread of `ts`: its parent first, then the replies oldest first, at most `limit` per
        // page (`cursor` is the index of the next one); metadata only with include_all_metadata.
        const channel = this.channels.get(String(params.channel));
        if (!channel) return error('channel_not_found');
        if (channel.isMember === false) return error('not_in_channel');
        const ts = String(params.ts);
        const parent = this.messages.find((m) => m.channel === channel.id && m.ts === ts);
        if (!parent) return error('thread_not_found');
        const limit = Math.min(1000, Number(params.limit ?? 100) || 100);
        const from = Number(params.cursor ?? 0) || 0;
        const withMetadata = String(params.include_all_metadata) === 'true';
        const thread = [
          parent,
          ...this.messages.filter((m) => m.channel === channel.id && m.thread_ts === ts),
        ];
        const page = thread.slice(from, from + limit).map((m) => ({
          type: 'message',
          ts: m.ts,
          ...(m.thread_ts !== undefined || m === parent ? { thread_ts: ts } : {}),
          text: m.text,
          bot_id: this.botId,
          ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
        }));
        const next = from + limit < thread.length ? String(from + limit) : '';
        return ok({ messages: page, has_more: next !== '', response_metadata: { next_cursor: next } });
      }
      default:
        return error('unknown_method');
    }
  }
}
