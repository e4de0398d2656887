/**
 * One real stack for command tests: the local service on 127.0.0.1 (port 0) at a frozen instant
 * and fixed seed, the real client over HTTP, the name index loaded from it, and the real runtime
 * (argument validation, UserError handling) with an in-memory tenant store. Each call reports how
 * many upstream requests it made, read from the client's own counters.
 */

import Keyv from 'keyv';
import { pino } from 'pino';
import { inject } from 'vitest';
import { commands } from '../../commands/index.ts';
import { validateArgs } from '../../src/bot/args.ts';
import { type Execution, runCommand } from '../../src/bot/call-checks.ts';
import type { AnyCommand, CommandContext, CommandUser } from '../../src/bot/command.ts';
import { createNameIndex, type NameIndex } from '../../src/bot/names.ts';
import { type Reply, replyText } from '../../src/bot/reply.ts';
import { Runtime } from '../../src/bot/runtime.ts';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import type { TenantStore } from '../../src/bot/tenants.ts';
import { optionsOf } from '../../src/bot/text-args.ts';
import { lruStore } from '../../src/client/cache.ts';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { cmd } from '../../src/core/errors.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { createReads } from '../../src/reads/reads.ts';
import { startService } from '../../src/service/index.ts';

/** A Wednesday afternoon: series are live, finished earlier in the week, and upcoming. */
export const FROZEN_AT = new Date('2026-03-18T15:20:00.000Z');
export const SEED = 42;

/** A tenant store in memory, validated like the real one (the SQLite store is tested elsewhere). */
export class MemoryTenantStore implements TenantStore {
  readonly docs = new Map<string, Settings>();
  async get(tenantId: string): Promise<Settings> {
    return structuredClone(this.docs.get(tenantId) ?? defaultSettings());
  }
  async save(tenantId: string, settings: Settings): Promise<Settings> {
    const parsed = settingsSchema.parse(settings);
    this.docs.set(tenantId, structuredClone(parsed));
    return structuredClone(parsed);
  }
  async update(id: string, change: (current: Settings) => Settings): Promise<Settings> {
    return this.save(id, change(await this.get(id)));
  }
  async purge(tenantId: string): Promise<void> {
    this.docs.delete(tenantId);
  }
  async list(): Promise<string[]> {
    return [...this.docs.keys()];
  }
  async close(): Promise<void> {}
}

export interface Stack {
  service: Awaited<ReturnType<typeof startService>>;
  client: EsportsClient;
  names: NameIndex;
  clock: Clock;
  tenants: MemoryTenantStore;
  runtime: Runtime;
  /** A second client with its own empty cache, for reading the truth independently of the commands. */
  truth: EsportsClient;
  /**
   * Moves the frozen clock to `at` and empties the commands' client's cache: a jumped clock makes
   * every cached answer stale at once (the real clock never jumps), and on v2 one cached listing
   * (the live series with their matches) answers for every live series.
   */
  jump(at: Date): Promise<void>;
  close(): Promise<void>;
}

/** The data service interfaces Matchday speaks. */
export type Api = 'v2' | 'v3';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The interfaces a per-interface test file runs on in this vitest project (vitest.config.ts). */
    apis: Api[];
  }
}

/**
 * The interfaces the per-interface test files (`PER_API_TESTS` in vitest.config.ts) run on: v3 in
 * the quick project, v2 in the slow one, so `npx vitest run test/commands` runs both. A file runs
 * its suite once per entry (`describe.each(APIS)`), against the same expectations.
 */
export const APIS: readonly Api[] = inject('apis') ?? ['v3', 'v2'];

export interface StackOptions {
  at?: Date;
  seed?: number;
  /** The interface the commands' client speaks; `truth` always reads v3. Default v3. */
  api?: Api;
}

/** Starts the service, the client, the name index and the runtime. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const clock = new Clock({ start: options.at ?? FROZEN_AT, frozen: true });
  const pair = { id: 'matchday-tests', secret: 'v2-test-secret' };
  const service = await startService({
    port: 0,
    seed: options.seed ?? SEED,
    clock,
    rate: 0,
    v2Clients: [pair],
  });
  const rate = { perSecond: 10_000, burst: 10_000 };
  const cache = new Keyv({ store: lruStore(2000), serialize: undefined, deserialize: undefined });
  const client =
    options.api === 'v2'
      ? createClient({
          baseUrl: service.v2.url,
          // The test service is unlimited (rate: 0): so is the client's v2 per-minute budget, like `rate` on v3.
          v2: {
            clientId: pair.id,
            clientSecret: pair.secret,
            now: () => clock.nowMs(),
            perMinute: 1_000_000,
          },
          rate,
          cache,
        })
      : createClient({ baseUrl: service.url, secret: service.secret, rate, cache });
  const truth = createClient({ baseUrl: service.url, secret: service.secret, rate });
  const names = createNameIndex({ client, clock });
  await names.refresh();
  const tenants = new MemoryTenantStore();
  const runtime = new Runtime({
    commands,
    client,
    names,
    tenants,
    clock,
    logger: pino({ level: 'silent' }),
    perUserLimit: { count: 1_000_000, windowMs: 1000 },
  });
  return {
    service,
    client,
    names,
    clock,
    tenants,
    runtime,
    truth,
    async jump(at) {
      clock.set(at);
      // The world plans the window around an instant on first use (seconds on a busy machine):
      // planned here, so the first command after the jump does not spend its deadline on it.
      service.world.window(at.getTime());
      await cache.clear();
    },
    async close() {
      await client.close();
      await truth.close();
      await service.close();
    },
  };
}

export const ADMIN: CommandUser = { id: 'u-admin', name: 'admin', isAdmin: true };
export const MEMBER: CommandUser = { id: 'u-member', name: 'member', isAdmin: false };

export interface CallResult extends Execution {
  text: string;
  /** The text with spoilers revealed. */
  revealed: string;
  /** Upstream requests the call made (client counters). */
  upstream: number;
}

let tenantCounter = 0;

/** A fresh tenant key with the given settings (merged over the defaults), on `platform`. */
export async function tenantWith(
  stack: Stack,
  settings: Partial<Settings> = {},
  platform: Platform = 'terminal',
): Promise<string> {
  const key = `t${++tenantCounter}`;
  await stack.tenants.save(`${platform}:${key}`, { ...defaultSettings(), ...settings });
  return key;
}

/** Runs a command through the real runtime, as a platform would. */
export async function call(
  stack: Stack,
  command: string,
  args: Record<string, unknown> = {},
  options: {
    tenant?: string;
    subcommand?: string;
    user?: CommandUser;
    channels?: CommandContext<unknown>['channels'];
    /** The tenant's platform (default: the terminal); its tenant must be made on the same one. */
    platform?: Platform;
  } = {},
): Promise<CallResult> {
  const platform = options.platform ?? 'terminal';
  const tenantKey = options.tenant ?? (await tenantWith(stack, {}, platform));
  const before = stack.client.stats().upstreamTotal;
  const execution = await stack.runtime.run({
    platform,
    tenantKey,
    user: options.user ?? ADMIN,
    channel: { id: 'c-main', name: 'main' },
    command,
    ...(options.subcommand ? { subcommand: options.subcommand } : {}),
    args,
    ...(options.channels ? { channels: options.channels } : {}),
  });
  const upstream = stack.client.stats().upstreamTotal - before;
  return {
    ...execution,
    text: replyText(execution.reply),
    revealed: replyText(execution.reply, true),
    upstream,
  };
}

/** Calls `command.run` directly with a context built here (no runtime validation in between). */
export async function runDirect(
  stack: Stack,
  command: AnyCommand,
  args: Record<string, unknown>,
  options: {
    settings?: Partial<Settings>;
    subcommand?: string;
    user?: CommandUser;
    platform?: Platform;
  } = {},
): Promise<{ reply: Reply; text: string; revealed: string; saved: Settings[] }> {
  const saved: Settings[] = [];
  const settings = { ...defaultSettings(), ...options.settings };
  // Checked against the declaration as the runtime checks them: commands trust their arguments.
  const usage = cmd(`${command.name}${options.subcommand ? ` ${options.subcommand}` : ''}`);
  const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
  const context: CommandContext<never> = {
    args: validateArgs(
      usage,
      optionsOf(command, options.subcommand),
      args,
      translator(settings.language),
    ) as never,
    ...(options.subcommand ? { subcommand: options.subcommand } : {}),
    tenant: {
      id: `${options.platform ?? 'terminal'}:direct`,
      platform: options.platform ?? 'terminal',
      settings,
    },
    user: options.user ?? ADMIN,
    channel: { id: 'c-main' },
    now: stack.clock.now(),
    t: translator(settings.language),
    data,
    names: stack.names,
    commands,
    reads: createReads(data),
    updateSettings: async (change) => {
      const parsed = settingsSchema.parse(change(structuredClone(settings)));
      saved.push(parsed);
      return parsed;
    },
  };
  const reply = await runCommand(command, context);
  return { reply, text: replyText(reply), revealed: replyText(reply, true), saved };
}

/** The command by name. */
export function commandNamed(name: string): AnyCommand {
  const found = commands.find((c) => c.name === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
}
