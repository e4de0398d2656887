/**
 * The HTTP side of push (`docs/push-protocol.md`), under `/v3/push` with the service secret:
 * `GET limits`, `GET channels`, and subscriptions listed (`GET subscriptions`), registered
 * (`POST subscriptions`), read, replaced (`PUT`) and deleted (`DELETE subscriptions/{id}`).
 * Errors are the service's `{ msg }` bodies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock.ts';
import { ApiError } from '../api-error.ts';
import { send } from '../json-answer.ts';
import type { World } from '../world.ts';
import { allChannels } from './channels.ts';
import { PUSH_PATH } from './hub.ts';
import { PUSH_LIMITS } from './limits.ts';
import { readSubscriptionBody, type SubscriptionStore } from './subscriptions.ts';

export const PUSH_HTTP_PREFIX = '/v3/push/';

export interface PushHttpOptions {
  world: World;
  clock: Clock;
  secret: string;
  querySecret: boolean;
  subscriptions: SubscriptionStore;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 64 * 1024) throw new ApiError(413, 'The body is larger than 64 KiB.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'The body is not JSON: send { "name": ..., "filters": [...] }.');
  }
}

/** Answers one request under `/v3/push/` (other than the WebSocket upgrade). */
export async function answerPush(o: PushHttpOptions, req: IncomingMessage, res: ServerResponse, url: URL) {
  try {
    const header = req.headers['service-secret'];
    const secret =
      typeof header === 'string' ? header : o.querySecret ? url.searchParams.get('secret') : null;
    if (!secret) throw new ApiError(401, 'Missing secret: send it in the Service-Secret header.');
    if (secret !== o.secret) throw new ApiError(401, 'Invalid secret.');
    const path = url.pathname.replace(/\/+$/, '').slice(PUSH_HTTP_PREFIX.length);
    const method = req.method ?? 'GET';
    const allow = (methods: string) => {
      if (!methods.split(', ').includes(method)) {
        res.setHeader('Allow', methods);
        throw new ApiError(405, `Method ${method} is not allowed here: use ${methods}.`);
      }
    };
    const channels = allChannels(o.world);
    if (path === 'limits') {
      allow('GET');
      return send(res, 200, { ...PUSH_LIMITS, websocket_path: PUSH_PATH });
    }
    if (path === 'channels') {
      allow('GET');
      return send(
        res,
        200,
        channels.map((c) => ({ name: c.name, game: { id: c.game }, source: c.source })),
      );
    }
    const names = new Set(channels.map((c) => c.name));
    const now = o.clock.nowMs();
    if (path === 'subscriptions') {
      allow('GET, POST');
      if (method === 'GET') return send(res, 200, o.subscriptions.list(secret));
      const body = readSubscriptionBody(await readJson(req), names);
      return send(res, 201, o.subscriptions.create(secret, body, now));
    }
    const one = /^subscriptions\/([0-9a-f]{1,32})$/.exec(path);
    if (one) {
      allow('GET, PUT, DELETE');
      const id = one[1]!;
      if (method === 'GET') {
        const sub = o.subscriptions.get(secret, id);
        if (!sub) throw new ApiError(404, `No subscription ${id}.`);
        return send(res, 200, sub);
      }
      if (method === 'DELETE') {
        o.subscriptions.delete(secret, id);
        res.writeHead(204);
        res.end();
        return;
      }
      const body = readSubscriptionBody(await readJson(req), names);
      return send(res, 200, o.subscriptions.update(secret, id, body, now));
    }
    throw new ApiError(
      404,
      `Unknown path ${url.pathname}: push lives at /v3/push/limits, /v3/push/channels, /v3/push/subscriptions and ${PUSH_PATH}.`,
    );
  } catch (error) {
    if (error instanceof ApiError) send(res, error.status, { msg: error.message });
    else send(res, 500, { msg: 'Internal error.' });
  }
}
