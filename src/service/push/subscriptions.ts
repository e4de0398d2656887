/**
 * Push subscriptions of the local service, held per secret: a name and filters, each a channel
 * with optional game, series and match ids (a message matches a filter on its channel when no ids
 * are given or any given id is its own). Read from and checked against JSON bodies with clear
 * messages; the HTTP side is `push/http.ts`.
 */
import { randomBytes } from 'node:crypto';
import { ApiError } from '../api-error.ts';
import { PUSH_LIMITS } from './limits.ts';

export interface PushFilter {
  channel: string;
  games?: number[];
  series?: number[];
  matches?: number[];
}

export interface Subscription {
  id: string;
  name: string;
  filters: PushFilter[];
  created: string;
  updated: string;
}

/** Where a message comes from: its channel and the game, series and match it is about. */
export interface MessageKey {
  channel: string;
  game: number;
  series: number;
  match: number;
}

export function filterMatches(filter: PushFilter, key: MessageKey): boolean {
  if (filter.channel !== key.channel) return false;
  const { games, series, matches } = filter;
  if (!games?.length && !series?.length && !matches?.length) return true;
  return Boolean(games?.includes(key.game) || series?.includes(key.series) || matches?.includes(key.match));
}

export function subscriptionMatches(sub: Subscription, key: MessageKey): boolean {
  return sub.filters.some((f) => filterMatches(f, key));
}

function idList(value: unknown, where: string): number[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((x) => Number.isInteger(x) && x > 0))
    throw new ApiError(400, `${where} must be a list of whole positive ids, such as [1, 2].`);
  return value as number[];
}

/** Reads `{ name, filters }`, every channel one of `channels`. */
export function readSubscriptionBody(
  body: unknown,
  channels: ReadonlySet<string>,
): { name: string; filters: PushFilter[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(400, 'The body must be a JSON object { "name": ..., "filters": [...] }.');
  const { name, filters } = body as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 100)
    throw new ApiError(400, '"name" must be a non-empty text of at most 100 characters.');
  if (!Array.isArray(filters) || filters.length === 0)
    throw new ApiError(
      400,
      '"filters" must be a non-empty list of { "channel": ..., "games"?, "series"?, "matches"? }.',
    );
  if (filters.length > PUSH_LIMITS.filters_per_subscription)
    throw new ApiError(400, `At most ${PUSH_LIMITS.filters_per_subscription} filters per subscription.`);
  const read = filters.map((raw, i): PushFilter => {
    const where = `filters[${i}]`;
    if (typeof raw !== 'object' || raw === null) throw new ApiError(400, `${where} must be an object.`);
    const f = raw as Record<string, unknown>;
    const unknown = Object.keys(f).filter((k) => !['channel', 'games', 'series', 'matches'].includes(k));
    if (unknown.length > 0)
      throw new ApiError(
        400,
        `${where} has unknown keys (${unknown.join(', ')}): use channel, games, series, matches.`,
      );
    if (typeof f.channel !== 'string' || !channels.has(f.channel))
      throw new ApiError(
        400,
        `${where}.channel "${String(f.channel)}" is not a channel; channels look like ${[...channels].slice(0, 2).join(', ')} (GET /v3/push/channels lists them).`,
      );
    const filter: PushFilter = { channel: f.channel };
    const games = idList(f.games, `${where}.games`);
    const series = idList(f.series, `${where}.series`);
    const matches = idList(f.matches, `${where}.matches`);
    if (games) filter.games = games;
    if (series) filter.series = series;
    if (matches) filter.matches = matches;
    return filter;
  });
  return { name: name.trim(), filters: read };
}

/** The subscriptions of every secret. */
export class SubscriptionStore {
  readonly #bySecret = new Map<string, Map<string, Subscription>>();
  /** Called with (secret, id) when a subscription is deleted or changed. */
  onChange: (secret: string, id: string, deleted: boolean) => void = () => {};

  #of(secret: string): Map<string, Subscription> {
    let found = this.#bySecret.get(secret);
    if (!found) {
      found = new Map();
      this.#bySecret.set(secret, found);
    }
    return found;
  }

  list(secret: string): Subscription[] {
    return [...this.#of(secret).values()];
  }

  get(secret: string, id: string): Subscription | undefined {
    return this.#of(secret).get(id);
  }

  create(secret: string, body: { name: string; filters: PushFilter[] }, now: number): Subscription {
    const mine = this.#of(secret);
    if (mine.size >= PUSH_LIMITS.subscriptions_per_secret)
      throw new ApiError(
        409,
        `This secret holds ${mine.size} subscriptions, the most allowed (${PUSH_LIMITS.subscriptions_per_secret}): delete one first.`,
      );
    const at = new Date(now).toISOString();
    const sub: Subscription = { id: randomBytes(8).toString('hex'), ...body, created: at, updated: at };
    mine.set(sub.id, sub);
    return sub;
  }

  update(
    secret: string,
    id: string,
    body: { name: string; filters: PushFilter[] },
    now: number,
  ): Subscription {
    const sub = this.get(secret, id);
    if (!sub) throw new ApiError(404, `No subscription ${id}.`);
    sub.name = body.name;
    sub.filters = body.filters;
    sub.updated = new Date(now).toISOString();
    this.onChange(secret, id, false);
    return sub;
  }

  delete(secret: string, id: string): void {
    if (!this.#of(secret).delete(id)) throw new ApiError(404, `No subscription ${id}.`);
    this.onChange(secret, id, true);
  }
}
