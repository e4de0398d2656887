/**
 * A command sent while the process warms up (a user must never see a 429): the feed
 * and the name index spend the shared budget on their first reads, and the feed cannot answer yet,
 * so a command's own request may wait its turn or meet the service's 1 s Retry-After. While the
 * feed has not read the live listing (or the name index is loading), a command's request may wait
 * (WARMING_DEADLINE_MS) and the user gets the answer; a process without a warming feed keeps the
 * usual 2 s budget of an interactive request, which sheds what an overloaded budget cannot serve.
 *
 * The wait is made by the local service's latency fault (every answer 2.5 s late): the answer can
 * never come within 2 s, and comes well within 6 s.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { INTERACTIVE_DEADLINE_MS, Runtime, WARMING_DEADLINE_MS } from '../../src/bot/runtime.ts';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { createFeed } from '../../src/feed/feed.ts';
import { ADMIN, type Stack, startStack, tenantWith } from '../commands/helpers.ts';

const LATENCY_MS = 2500;

let stack: Stack;
const clients: EsportsClient[] = [];
const rate = { perSecond: 10_000, burst: 10_000 };

beforeAll(async () => {
  stack = await startStack();
}, 120_000);

afterAll(async () => {
  stack.service.faults.latencyMs = 0;
  for (const client of clients) await client.close();
  await stack.close();
});

function runtimeWith(withFeed: boolean): { runtime: Runtime; client: EsportsClient } {
  const client = createClient({ baseUrl: stack.service.url, secret: stack.service.secret, rate });
  clients.push(client);
  // A feed that has read nothing yet: the first moments after start.
  const feed = withFeed ? createFeed({ client, clock: stack.clock }) : undefined;
  if (feed) expect(feed.ready).toBe(false);
  const runtime = new Runtime({
    commands,
    client,
    names: stack.names,
    ...(feed ? { picture: feed } : {}),
    tenants: stack.tenants,
    clock: stack.clock,
    logger: pino({ level: 'silent' }),
    perUserLimit: { count: 1_000_000, windowMs: 1000 },
  });
  return { runtime, client };
}

async function recent(runtime: Runtime, tenantKey: string) {
  return runtime.run({
    platform: 'terminal',
    tenantKey,
    user: ADMIN,
    channel: { id: 'c-main', name: 'main' },
    command: 'series',
    args: { when: 'recent' },
  });
}

describe('a command while the process warms up', () => {
  it('waits for the slow or busy service and answers, where a process without a warming feed gives up at 2 s', async () => {
    expect(LATENCY_MS).toBeGreaterThan(INTERACTIVE_DEADLINE_MS);
    expect(LATENCY_MS).toBeLessThan(WARMING_DEADLINE_MS);
    const key = await tenantWith(stack);
    const filling = runtimeWith(true);
    const plain = runtimeWith(false);
    stack.service.faults.latencyMs = LATENCY_MS;
    try {
      const answered = await recent(filling.runtime, key);
      expect(answered.outcome).toBe('ok');
      expect(filling.client.stats().upstreamTotal).toBeGreaterThan(0);
      const text = JSON.stringify(answered.reply);
      expect(text).toMatch(/Recent|recent/);

      const refused = await recent(plain.runtime, key);
      expect(refused.outcome).toBe('error');
    } finally {
      stack.service.faults.latencyMs = 0;
    }
  }, 60_000);
});
