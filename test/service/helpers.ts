// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies from the service under test
/** Shared helpers for the service tests: a service on a free loopback port and a small GET helper. */
import { Clock } from '../../src/core/clock.ts';
import { type RunningService, type ServiceOptions, startService } from '../../src/service/index.ts';

/** A Wednesday afternoon: group stages running, brackets ahead. */
export const INSTANT = new Date('2026-11-18T15:00:00.000Z');

/** A service with a frozen clock at INSTANT and no rate limit, unless the options say otherwise. */
export function start(options: ServiceOptions = {}): Promise<RunningService> {
  return startService({ rate: 0, clock: new Clock({ start: INSTANT, frozen: true }), ...options });
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** GETs a path under the service's /v3 with its secret in the header (unless `secret: null`). */
export async function get<T = any>(
  service: RunningService,
  path: string,
  init: { secret?: string | null; headers?: Record<string, string>; method?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...init.headers };
  const secret = init.secret === undefined ? service.secret : init.secret;
  if (secret !== null) headers['Service-Secret'] = secret;
  const res = await fetch(service.url + path, { headers, method: init.method ?? 'GET' });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body: body as T, text, headers: res.headers };
}

/** GETs and expects a 200, returning the body. */
export async function ok<T = any>(
  service: RunningService,
  path: string,
  headers?: Record<string, string>,
): Promise<T> {
  const answer = await get<T>(service, path, { headers });
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text}`);
  return answer.body;
}

/** Reads every page of a list with `take` per page. */
export async function allPages<T = any>(service: RunningService, path: string, take = 50): Promise<T[]> {
  const out: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let skip = 0; ; skip += take) {
    const page = await ok<T[]>(service, `${path}${sep}skip=${skip}&take=${take}`);
    out.push(...page);
    if (page.length < take) return out;
  }
}

export const ids = (items: { id: number }[]) => items.map((x) => x.id);
