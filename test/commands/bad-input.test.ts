import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import type { CommandUser } from '../../src/bot/command.ts';
import { Runtime } from '../../src/bot/runtime.ts';
import { createClient } from '../../src/client/client.ts';
import { UserError } from '../../src/core/errors.ts';
import { ADMIN, APIS, call, commandNamed, MEMBER, runDirect, type Stack, startStack } from './helpers.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function directError(promise: Promise<unknown>): Promise<UserError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof UserError) return error;
      throw error;
    }
    throw new Error('expected a UserError');
  }

  describe('bad input', () => {
    it('answers an unknown game with the closest games, without asking the service', async () => {
      const before = stack.service.requests;
      const result = await call(stack, 'series', { game: 'Strek Pummt' });
      expect(result.outcome).toBe('user-error');
      expect(result.code).toBe('UNKNOWN_GAME');
      expect(result.message).toBe('No game matches "Strek Pummt".');
      // The closest names are said once, under the message.
      expect(result.text.match(/Did you mean/g)).toHaveLength(1);
      expect(result.suggestions).toContain('Strike Point (SP)');
      expect(stack.service.requests).toBe(before);
      // Two typos in a long name, close to one game only: taken, with a note.
      const typo = await call(stack, 'series', { game: 'Strik Pont' });
      expect(typo.outcome).toBe('ok');
      expect(typo.text).toContain('No game is called "Strik Pont"; showing Strike Point (SP).');
    });

    it('answers an ambiguous team with its candidates', async () => {
      const result = await call(stack, 'live', { team: 'Neon' });
      expect(result.outcome).toBe('user-error');
      expect(result.code).toBe('AMBIGUOUS_TEAM');
      const neon = stack.service.world.catalog.teams.filter((t) => t.name.startsWith('Neon '));
      for (const team of neon
        .slice(0, 10)
        .sort((a, b) => a.name.localeCompare(b.name))
        .slice(0, 3)) {
        expect(result.message).toContain(team.name);
      }
    });

    it('never lets filter-grammar characters reach the service', async () => {
      for (const text of ['Fnatic,G2', 'x},id<={1', 'q=z', '*', 'team_*~!', 'name^{1,2}', 'G2\u0000']) {
        const before = stack.service.requests;
        for (const [command, option] of [
          ['series', 'team'],
          ['series', 'tournament'],
          ['team', 'team'],
          ['standings', 'tournament'],
          ['casters', 'team'],
        ] as const) {
          const result = await call(stack, command, { [option]: text });
          expect(result.outcome, `${command} ${option}=${text}`).toBe('user-error');
          expect(result.message).toMatch(
            /No (team|tournament) matches|matches \d+|control characters|no letters or digits/,
          );
        }
        expect(stack.service.requests).toBe(before);
      }
    });

    it('refuses 1,000-character text in every text option with its length', async () => {
      const long = 'a'.repeat(1000);
      for (const command of commands) {
        const groups = command.subcommands
          ? Object.entries(command.subcommands).map(([sub, def]) => [sub, def.options ?? {}] as const)
          : [[undefined, command.options ?? {}] as const];
        for (const [sub, options] of groups) {
          for (const [name, def] of Object.entries(
            options as Record<string, { type: string; choices?: unknown }>,
          )) {
            if (def.type !== 'string' || def.choices) continue;
            const result = await call(stack, command.name, { [name]: long }, sub ? { subcommand: sub } : {});
            expect(result.outcome, `/${command.name} ${sub ?? ''} ${name}`).toBe('user-error');
            expect(result.message).toContain('1000');
          }
        }
      }
    });

    it('refuses negative, fractional and huge numbers through the runtime', async () => {
      for (const limit of [-1, 0, 21, 1e12, 2.5, '12abc']) {
        const result = await call(stack, 'series', { limit });
        expect(result.outcome, String(limit)).toBe('user-error');
        expect(result.message).toMatch(/limit/);
      }
      const tier = await call(stack, 'schedule', { tier: -3 });
      expect(tier.outcome).toBe('user-error');
      expect(tier.message).toMatch(/tier/);
    });

    it('checks every argument once, against the declaration, before the command runs', async () => {
      // The command trusts what it gets (no second check inside): each of these stops in the runtime.
      const refusals: [string, Record<string, unknown>, string, RegExp][] = [
        ['series', { limit: -1 }, 'INVALID_ARGUMENT', /limit.*between 1 and 20/],
        ['series', { limit: 1e12 }, 'INVALID_ARGUMENT', /limit.*between 1 and 20/],
        ['series', { when: 'tomorrow-ish' }, 'INVALID_CHOICE', /when/],
        [
          'series',
          { team: 'b'.repeat(1000) },
          'INVALID_ARGUMENT',
          /team.*too long \(1000 characters\); at most 100/,
        ],
        ['team', { team: 'x', count: 99 }, 'INVALID_ARGUMENT', /count.*between 1 and 10/],
      ];
      for (const [command, args, code, message] of refusals) {
        const result = await call(stack, command, args);
        expect(result.outcome, JSON.stringify(args)).toBe('user-error');
        expect(result.code, JSON.stringify(args)).toBe(code);
        expect(result.message, JSON.stringify(args)).toMatch(message);
      }
      // An empty required value counts as leaving it out.
      const empty = await call(stack, 'team', { team: '' });
      expect(empty.outcome).toBe('user-error');
      expect(empty.message).toMatch(/team/);
      // A subcommand for admins refuses a member before it runs; a bad channel list is refused.
      const member = await call(stack, 'settings', {}, { subcommand: 'show', user: MEMBER });
      expect(member.code).toBe('ADMIN_ONLY');
      const channel = await call(stack, 'settings', { channel: '<#1>,{}' }, { subcommand: 'channel-add' });
      expect(channel.outcome).toBe('user-error');
      // The same checks hold for a direct call in the tests (runDirect validates as the runtime does).
      const direct = await directError(runDirect(stack, commandNamed('series'), { limit: -1 }));
      expect(direct.code).toBe('INVALID_ARGUMENT');
    });
  });

  describe('a cancelled series', () => {
    it('is answered as cancelled, not as a series that does not exist', async () => {
      const world = stack.service.world;
      const t = world.now();
      const plan = world.window(t).series.find((p) => world.lifecycle(p, t) === 'deleted')!;
      expect(plan).toBeDefined();
      for (const command of ['live', 'casters']) {
        const result = await call(stack, command, { series: String(plan.id) });
        expect(result.outcome).toBe('user-error');
        expect(result.code).toBe('SERIES_CANCELLED');
        expect(result.message).toContain(`Series ${plan.id}`);
        expect(result.message).toContain('was cancelled');
        expect(result.message).not.toContain('There is no series');
      }
      // An id that never existed is still "no such series".
      const none = await call(stack, 'live', { series: '999999999' });
      expect(none.code).toBe('UNKNOWN_SERIES');
    });
  });

  describe('a wrong service secret', () => {
    it('is reported as a configuration problem (admins told what to check), never "Something went wrong"', async () => {
      const logged: string[] = [];
      const client = createClient({ baseUrl: stack.service.url, secret: 'not-the-secret' });
      const runtime = new Runtime({
        commands,
        client,
        names: stack.names,
        tenants: stack.tenants,
        clock: stack.clock,
        logger: pino({ level: 'error' }, { write: (line: string) => void logged.push(line) }),
        perUserLimit: { count: 1000, windowMs: 1000 },
      });
      const run = (user: CommandUser) =>
        runtime.run({
          platform: 'discord',
          tenantKey: 'wrong-secret',
          user,
          channel: { id: 'c' },
          command: 'series',
          args: {},
        });
      try {
        const admin = await run(ADMIN);
        expect(admin.code).toBe('SERVICE_SECRET_REFUSED');
        expect(admin.message).toContain('ESPORTS_API_SECRET');
        expect(admin.message).not.toContain('Something went wrong');
        const member = await run(MEMBER);
        expect(member.code).toBe('SERVICE_SECRET_REFUSED');
        expect(member.message).toContain('configuration problem');
        expect(member.message).not.toContain('ESPORTS_API_SECRET');
        // The operator's log says what is wrong, and never holds a secret.
        expect(logged.join('\n')).toContain('refused the service secret');
        expect(logged.join('\n')).not.toContain('not-the-secret');
        expect(logged.join('\n')).not.toContain(stack.service.secret);
      } finally {
        await client.close();
      }
    });
  });
});
