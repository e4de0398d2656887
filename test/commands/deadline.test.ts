/**
 * One command has an overall deadline. With the local service's latency fault on,
 * the user hears "the data service is slow right now" instead of waiting for every request in turn;
 * without the fault the same command answers.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { replyText } from '../../src/bot/reply.ts';
import { type CommandCall, Runtime } from '../../src/bot/runtime.ts';
import { ADMIN, APIS, type Stack, startStack } from './helpers.ts';

let stack: Stack;
let runtime: Runtime;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
    runtime = new Runtime({
      commands,
      client: stack.client,
      names: stack.names,
      tenants: stack.tenants,
      clock: stack.clock,
      logger: pino({ level: 'silent' }),
      perUserLimit: { count: 1000, windowMs: 1000 },
      commandDeadlineMs: 1000,
    });
  });
  afterAll(async () => {
    stack.service.faults.latencyMs = 0;
    await stack.close();
  });

  const seriesCall = (when: string): CommandCall => ({
    platform: 'terminal',
    tenantKey: 'deadline',
    user: ADMIN,
    channel: { id: 'c-main' },
    command: 'series',
    args: { when },
  });

  describe('a command with a slow data service', () => {
    it('says the data service is slow once the command deadline passes, instead of waiting', async () => {
      stack.service.faults.latencyMs = 3000;
      const result = await runtime.run(seriesCall('recent'));
      expect(result.outcome).toBe('error');
      expect(result.code).toBe('SERVICE_SLOW');
      expect(replyText(result.reply)).toBe(
        'Sorry\nThe esports data service is slow right now: no answer in 1 second. Please try again in a minute.',
      );
    });

    it('answers the same command when the service is quick again', async () => {
      stack.service.faults.latencyMs = 0;
      const result = await runtime.run(seriesCall('upcoming'));
      expect(result.outcome).toBe('ok');
      expect(replyText(result.reply)).not.toContain('slow right now');
    });
  });
});
