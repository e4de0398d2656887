import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnyCommand,
  type CommandContext,
  defineCommand,
  defineSubcommand,
} from '../../src/bot/command.ts';
import type { NameIndex } from '../../src/bot/names.ts';
import { type Reply, replyText } from '../../src/bot/reply.ts';
import { type CommandCall, type DataClient, Runtime } from '../../src/bot/runtime.ts';
import { TimeoutError } from '../../src/client/errors.ts';
import { Clock } from '../../src/core/clock.ts';
import { MatchdayError, UserError } from '../../src/core/errors.ts';
import { UnsafeFilterTextError } from '../../src/protocol/filter.ts';
import { captureLogs, type LogCapture, type TempStore, tempStore } from './helpers.ts';

/** Records what each run saw, so tests can assert on coerced arguments and context. */
const seen: { args?: unknown; subcommand?: string; now?: Date; tenant?: string; timezone?: string } = {};

const echo = defineCommand({
  name: 'echo',
  description: 'Echoes its arguments',
  options: {
    text: { type: 'string', description: 'Some text', required: true, max: 20 },
    times: { type: 'integer', description: 'How many times', min: 1, max: 5 },
    ratio: { type: 'number', description: 'A ratio' },
    loud: { type: 'boolean', description: 'Shout' },
    when: {
      type: 'string',
      description: 'When',
      choices: [
        { name: 'Upcoming', value: 'upcoming' },
        { name: 'Live', value: 'live' },
      ],
    },
    where: { type: 'channel', description: 'A channel' },
  },
  async run({ args, tenant, now }) {
    seen.args = args;
    seen.now = now;
    seen.tenant = tenant.id;
    const text = args.loud ? args.text.toUpperCase() : args.text;
    return { cards: [{ title: 'Echo', description: [[text.repeat(args.times ?? 1)]] }] };
  },
});

const admin = defineCommand({
  name: 'admin',
  description: 'Admin only',
  adminOnly: true,
  subcommands: {
    show: defineSubcommand({ description: 'Show', run: (ctx) => adminShows(ctx) }),
    set: defineSubcommand({
      description: 'Set',
      options: { tz: { type: 'string', description: 'Zone' } },
      async run(ctx) {
        const tz = ctx.args.tz;
        if (tz) await ctx.updateSettings((current) => ({ ...current, timezone: tz }));
        return adminShows(ctx);
      },
    }),
  },
});

async function adminShows({ subcommand, tenant }: CommandContext<unknown>): Promise<Reply> {
  seen.subcommand = subcommand;
  seen.timezone = tenant.settings.timezone;
  return { cards: [{ title: `Settings (${tenant.settings.timezone})` }] };
}

const fails = defineCommand({
  name: 'fails',
  description: 'Fails',
  options: { how: { type: 'string', description: 'user, bug, unsafe or timeout', required: true } },
  async run({ args }) {
    if (args.how === 'user')
      throw new UserError('NO_TEAM', 'No team is called that.', ['Team Spirit', 'Team Liquid']);
    if (args.how === 'unsafe')
      throw new UnsafeFilterTextError('The search text holds "{", which is not allowed.');
    if (args.how === 'names')
      throw new MatchdayError(
        'NAMES_UNAVAILABLE',
        'outage',
        'The list of team names could not be loaded from the data service.',
      );
    if (args.how === 'timeout')
      throw new TimeoutError({ status: 0, method: 'GET', path: '/series', msg: 'deadline' });
    if (args.how === 'lookalike')
      // Named like a service error but not one: only the class decides, so this is a bug.
      throw Object.assign(new Error('GET /series failed: deadline'), { name: 'TimeoutError', status: 0 });
    throw new Error('database exploded with secret s3cr3t-service-key');
  },
});

const stale = defineCommand({
  name: 'stale',
  description: 'Uses the client',
  usesService: true,
  async run({ data }) {
    (data as unknown as FakeScoped).touch();
    return { cards: [{ title: 'Data' }] };
  },
});

/** Anyone may list; only admins may add, and `add` is refused with what only admins may do. */
const mixed = defineCommand({
  name: 'mixed',
  description: 'List for all, add for admins',
  adminAction: 'add things',
  subcommands: {
    list: defineSubcommand({ description: 'List', run: async () => ({ cards: [{ title: 'List' }] }) }),
    add: defineSubcommand({
      description: 'Add',
      adminOnly: true,
      options: { what: { type: 'string', description: 'What', required: true } },
      run: async ({ args }) => ({ cards: [{ title: `Added ${args.what}` }] }),
    }),
  },
});

const commands: AnyCommand[] = [echo, admin, fails, stale, mixed];

class FakeScoped {
  servedStale = false;
  constructor(private readonly staleNext: boolean) {}
  touch() {
    if (this.staleNext) this.servedStale = true;
  }
}

describe('Runtime', () => {
  let logs: LogCapture;
  let temp: TempStore;
  let runtime: Runtime;
  let nowMs: number;
  let staleNext: boolean;
  let savedTenants: string[];
  const clock = new Clock({ start: new Date('2026-03-01T12:00:00Z'), frozen: true });
  const user = { id: 'u1', name: 'Ann', isAdmin: false };
  const call = (over: Partial<CommandCall>): CommandCall => ({
    platform: 'slack',
    tenantKey: 'T1',
    user,
    channel: { id: 'c1' },
    command: 'echo',
    args: {},
    ...over,
  });

  beforeEach(async () => {
    logs = captureLogs(['s3cr3t-service-key']);
    temp = await tempStore(logs.logger);
    nowMs = 0;
    staleNext = false;
    savedTenants = [];
    runtime = new Runtime({
      commands,
      // The runtime alone: stand-ins for the client's per-call view and for the name index's search.
      client: { forCaller: () => new FakeScoped(staleNext) } as unknown as DataClient,
      names: {
        loaded: true,
        search: (source: string, text: string) =>
          source === 'team' ? [{ name: `Team ${text}`, value: 7 }] : [],
      } as unknown as NameIndex,
      tenants: temp.store,
      clock,
      logger: logs.logger,
      perUserLimit: { count: 5, windowMs: 10_000, now: () => nowMs },
      onSettingsSaved: (tenantId) => savedTenants.push(tenantId),
    });
  });
  afterEach(async () => temp.cleanup());

  it('coerces text arguments to the declared types and passes the context', async () => {
    const result = await runtime.run(
      call({
        args: { text: ' hi ', times: '3', ratio: '0.5', loud: 'yes', when: 'LIVE', where: '<#C42|general>' },
      }),
    );
    expect(result.outcome).toBe('ok');
    expect(seen.args).toEqual({ text: 'hi', times: 3, ratio: 0.5, loud: true, when: 'live', where: 'C42' });
    expect(seen.tenant).toBe('slack:T1');
    expect(seen.now?.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(replyText(result.reply)).toContain('HIHIHI');
  });

  it('accepts typed values as Discord sends them', async () => {
    const result = await runtime.run(
      call({ platform: 'discord', tenantKey: '99', args: { text: 'x', times: 2, loud: false } }),
    );
    expect(result.outcome).toBe('ok');
    expect(seen.args).toEqual({ text: 'x', times: 2, loud: false });
    expect(seen.tenant).toBe('discord:99');
  });

  it.each([
    [{ times: '3' }, 'MISSING_ARGUMENT', /needs text:/],
    [
      { text: 'a', times: 'three' },
      'INVALID_ARGUMENT',
      /times: must be a whole number between 1 and 5 \(got "three"\)/,
    ],
    [{ text: 'a', times: '-4' }, 'INVALID_ARGUMENT', /times: must be between 1 and 5 \(got -4\)/],
    [{ text: 'a', times: '99999999999999999999' }, 'INVALID_ARGUMENT', /times: must be a whole number/],
    [{ text: 'a', times: 2.5 }, 'INVALID_ARGUMENT', /times: must be a whole number/],
    [{ text: 'x'.repeat(1000) }, 'INVALID_ARGUMENT', /text: is too long \(1000 characters\); at most 20/],
    [{ text: 'a\u0007b' }, 'INVALID_ARGUMENT', /control characters/],
    [{ text: 'a', loud: 'maybe' }, 'INVALID_ARGUMENT', /loud: must be true or false \(got "maybe"\)/],
    [{ text: 'a', when: 'soon' }, 'INVALID_CHOICE', /when: must be one of upcoming, live \(got "soon"\)/],
    [{ text: 'a', ratio: '1e999' }, 'INVALID_ARGUMENT', /ratio: must be a number/],
    [{ text: 'a', where: '<#bad channel>' }, 'INVALID_ARGUMENT', /where: must be a channel/],
    [
      { text: 'a', colour: 'red' },
      'UNKNOWN_OPTION',
      /has no option "colour"\. Its options: text: times: ratio: loud: when: where:/,
    ],
  ])('refuses %j with %s and says what would be right', async (args, code, message) => {
    const result = await runtime.run(call({ args }));
    expect(result.outcome).toBe('user-error');
    expect(result.code).toBe(code);
    expect(result.message).toMatch(message);
    expect(result.reply.ephemeral).toBe(true);
    expect(replyText(result.reply)).toMatch(message);
  });

  it('answers an unknown command with the list of commands and the closest one', async () => {
    const result = await runtime.run(call({ command: 'ecko' }));
    expect(result.outcome).toBe('user-error');
    expect(result.message).toContain('/echo, /admin, /fails, /stale');
    expect(replyText(result.reply)).toContain('Did you mean: /echo');
  });

  it('refuses an admin-only command for a non-admin, ephemerally, without running it', async () => {
    seen.subcommand = undefined;
    const result = await runtime.run(call({ command: 'admin', subcommand: 'show' }));
    expect(result.outcome).toBe('forbidden');
    expect(result.reply.ephemeral).toBe(true);
    expect(replyText(result.reply)).toContain('for workspace admins and owners only');
    expect(seen.subcommand).toBeUndefined();
  });

  it('runs an admin-only command for an admin and saves settings through the context', async () => {
    const adminUser = { ...user, isAdmin: true };
    const result = await runtime.run(
      call({ user: adminUser, command: 'admin', subcommand: 'set', args: { tz: 'Europe/Berlin' } }),
    );
    expect(result.outcome).toBe('ok');
    expect(seen.timezone).toBe('Europe/Berlin');
    expect((await temp.store.get('slack:T1')).timezone).toBe('Europe/Berlin');
    // The notifier hears of the change (it reloads subscriptions on its next tick).
    expect(savedTenants).toEqual(['slack:T1']);
  });

  it('refuses invalid settings from a command with the field and what would be right', async () => {
    const result = await runtime.run(
      call({
        user: { ...user, isAdmin: true },
        command: 'admin',
        subcommand: 'set',
        args: { tz: 'Mars/Olympus' },
      }),
    );
    expect(result.outcome).toBe('user-error');
    expect(result.message).toMatch(/timezone: an IANA time zone such as Europe\/Berlin/);
    expect((await temp.store.get('slack:T1')).timezone).toBe('UTC');
  });

  it("runs each subcommand's own run, refusing an admin-only one to others after its arguments are checked", async () => {
    const listed = await runtime.run(call({ command: 'mixed', subcommand: 'list' }));
    expect(listed.outcome).toBe('ok');
    expect(replyText(listed.reply)).toContain('List');
    const missing = await runtime.run(call({ command: 'mixed', subcommand: 'add' }));
    expect(missing.outcome).toBe('user-error');
    expect(missing.code).not.toBe('ADMIN_ONLY');
    const refused = await runtime.run(call({ command: 'mixed', subcommand: 'add', args: { what: 'x' } }));
    expect(refused.outcome).toBe('user-error');
    expect(refused.code).toBe('ADMIN_ONLY');
    expect(refused.message).toBe('Only admins of this workspace can add things.');
    const added = await runtime.run(
      call({ user: { ...user, isAdmin: true }, command: 'mixed', subcommand: 'add', args: { what: 'x' } }),
    );
    expect(replyText(added.reply)).toContain('Added x');
    // A name every object has is not a subcommand.
    const inherited = await runtime.run(call({ command: 'mixed', subcommand: 'constructor' }));
    expect(inherited.code).toBe('UNKNOWN_SUBCOMMAND');
  });

  it('requires a valid subcommand', async () => {
    const missing = await runtime.run(call({ user: { ...user, isAdmin: true }, command: 'admin' }));
    expect(missing.code).toBe('MISSING_SUBCOMMAND');
    expect(missing.message).toContain('show, set');
    const wrong = await runtime.run(
      call({ user: { ...user, isAdmin: true }, command: 'admin', subcommand: 'sett' }),
    );
    expect(wrong.code).toBe('UNKNOWN_SUBCOMMAND');
    expect(replyText(wrong.reply)).toContain('/admin set');
    const extra = await runtime.run(call({ subcommand: 'loud', args: { text: 'a' } }));
    expect(extra.code).toBe('UNKNOWN_SUBCOMMAND');
  });

  it('limits a user to 5 commands per 10 s with a polite notice, per user, and lets them in again later', async () => {
    for (let i = 0; i < 5; i++) expect((await runtime.run(call({ args: { text: 'a' } }))).outcome).toBe('ok');
    nowMs = 4000;
    const limited = await runtime.run(call({ args: { text: 'a' } }));
    expect(limited.outcome).toBe('rate-limited');
    expect(limited.reply.ephemeral).toBe(true);
    expect(limited.message).toBe("You're sending commands quickly. Please wait 6 seconds and try again.");
    const other = await runtime.run(call({ user: { ...user, id: 'u2' }, args: { text: 'a' } }));
    expect(other.outcome).toBe('ok');
    nowMs = 10_001;
    expect((await runtime.run(call({ args: { text: 'a' } }))).outcome).toBe('ok');
  });

  it("does not pace the terminal, the operator's own console", async () => {
    for (let i = 0; i < 8; i++) {
      expect(
        (await runtime.run(call({ platform: 'terminal', tenantKey: 'local', args: { text: 'a' } }))).outcome,
      ).toBe('ok');
    }
  });

  it('shows a UserError from a command with its suggestions, and logs nothing as a bug', async () => {
    const result = await runtime.run(call({ command: 'fails', args: { how: 'user' } }));
    expect(result.outcome).toBe('user-error');
    expect(result.code).toBe('NO_TEAM');
    expect(replyText(result.reply)).toBe(
      'Not quite\nNo team is called that.\nDid you mean: Team Spirit, Team Liquid',
    );
    expect(logs.lines.filter((l) => l.includes('"level":50'))).toHaveLength(0);
  });

  it('turns unsafe search text into a user error with its own message', async () => {
    const result = await runtime.run(call({ command: 'fails', args: { how: 'unsafe' } }));
    expect(result.outcome).toBe('user-error');
    expect(result.message).toContain('which is not allowed');
  });

  it('says the data service is not answering on a timeout', async () => {
    const result = await runtime.run(call({ command: 'fails', args: { how: 'timeout' } }));
    expect(result.outcome).toBe('error');
    expect(result.code).toBe('SERVICE_UNAVAILABLE');
    expect(replyText(result.reply)).toContain('not answering');
  });

  it('sorts errors by their class, not their name: a look-alike of a service timeout is a bug', async () => {
    const result = await runtime.run(call({ command: 'fails', args: { how: 'lookalike' } }));
    expect(result.outcome).toBe('error');
    expect(result.code).toBe('INTERNAL');
    expect(replyText(result.reply)).toContain('Something went wrong');
    expect(replyText(result.reply)).not.toContain('not answering');
  });

  it("counts names that could not be loaded as a service failure (ask exits 2), a wrong name as the user's", async () => {
    const names = await runtime.run(call({ command: 'fails', args: { how: 'names' } }));
    expect(names.outcome).toBe('error');
    expect(names.code).toBe('NAMES_UNAVAILABLE');
    expect(replyText(names.reply)).toContain('could not be loaded from the data service');
    const wrong = await runtime.run(call({ command: 'fails', args: { how: 'user' } }));
    expect(wrong.outcome).toBe('user-error');
  });

  it('logs a bug with its context (never the secret) and apologises briefly', async () => {
    const result = await runtime.run(call({ command: 'fails', args: { how: 'bug' } }));
    expect(result.outcome).toBe('error');
    expect(result.reply.ephemeral).toBe(true);
    expect(replyText(result.reply)).toBe(
      'Sorry\nSomething went wrong while running /fails. It has been logged; please try again later.',
    );
    expect(replyText(result.reply)).not.toContain('exploded');
    const line = logs.lines.find((l) => l.includes('command failed'));
    expect(line).toBeDefined();
    const entry = JSON.parse(line!);
    expect(entry).toMatchObject({ level: 50, command: 'fails', tenant: 'slack:T1', user: 'u1' });
    expect(entry.err.message).toContain('database exploded');
    expect(logs.text()).not.toContain('s3cr3t-service-key');
  });

  it('marks the reply stale when the scoped client served stale data', async () => {
    expect((await runtime.run(call({ command: 'stale' }))).reply.stale).toBeUndefined();
    staleNext = true;
    expect((await runtime.run(call({ command: 'stale' }))).reply.stale).toBe(true);
  });

  it('shows pending admin notices once, to admins only', async () => {
    const settings = await temp.store.get('slack:T1');
    await temp.store.save('slack:T1', {
      ...settings,
      adminNotices: ['Channel #news was removed: missing permission.'],
    });
    const forUser = await runtime.run(call({ args: { text: 'a' } }));
    expect(replyText(forUser.reply)).not.toContain('#news');
    const forAdmin = await runtime.run(
      call({ user: { ...user, id: 'boss', isAdmin: true }, args: { text: 'a' } }),
    );
    expect(replyText(forAdmin.reply)).toContain('For admins\nChannel #news was removed: missing permission.');
    expect((await temp.store.get('slack:T1')).adminNotices).toEqual([]);
    const again = await runtime.run(
      call({ user: { ...user, id: 'boss', isAdmin: true }, args: { text: 'a' } }),
    );
    expect(replyText(again.reply)).not.toContain('#news');
  });

  it('never throws, even for a call with junk in it', async () => {
    const junk = await runtime.run(
      call({ command: undefined as unknown as string, args: null as unknown as Record<string, unknown> }),
    );
    expect(['user-error', 'error']).toContain(junk.outcome);
    const result = await runtime.execute(call({ args: { text: { nested: true } } }));
    expect(replyText(result)).toContain('text: must be some text');
  });

  it('autocompletes from the name index, and time zones without the index', () => {
    expect(runtime.autocomplete('team', 'Spi')).toEqual([{ name: 'Team Spi', value: 7 }]);
    const zones = runtime.autocomplete('timezone', 'berl');
    expect(zones[0]).toEqual({ name: 'Europe/Berlin', value: 'Europe/Berlin' });
    expect(runtime.autocomplete('timezone', '')).toHaveLength(25);
  });
});
