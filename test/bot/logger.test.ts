import cron from 'node-cron';
import { describe, expect, it, vi } from 'vitest';
import { routeCronLogs, scrub } from '../../src/bot/logger.ts';
import { captureLogs } from './helpers.ts';

describe('logger', () => {
  it('redacts secret fields, configured secret values and token-shaped text', () => {
    const logs = captureLogs(['the-service-secret-1']);
    logs.logger.info(
      {
        token: 'interaction-token-value',
        payload: { response_url: 'http://127.0.0.1:4000/response/abc', user_id: 'U1' },
        headers: { authorization: 'Bot abc.def.ghi' },
      },
      'asked with the-service-secret-1 and xoxb-111-222-abc and xapp-1-A-xyz',
    );
    logs.logger.error(
      { err: new Error('GET https://x/v3/series?secret=the-service-secret-1 failed') },
      'boom',
    );
    const text = logs.text();
    for (const secret of [
      'interaction-token-value',
      '/response/abc',
      'abc.def.ghi',
      'the-service-secret-1',
      'xoxb-111',
      'xapp-1-A',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('"user_id":"U1"');
    expect(text).toContain('[redacted]');
  });

  it('scrubs webhook interaction tokens and URL passwords from free text, keeping the rest', () => {
    expect(
      scrub('PATCH /api/v10/webhooks/123/aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4/messages/@original'),
    ).toBe('PATCH /api/v10/webhooks/123/[redacted]/messages/@original');
    expect(scrub('redis://:pw-long-one@127.0.0.1:6390 down')).toBe('redis://:[redacted]@127.0.0.1:6390 down');
    expect(scrub('a line\\nwith secret=abc\\n next', [])).toBe('a line\\nwith secret=abc\\n next');
  });
});

describe('routeCronLogs', () => {
  it("sends node-cron's overlap warning to the log, not to the console (the terminal chat)", async () => {
    const logs = captureLogs();
    routeCronLogs(logs.logger, cron);
    const printed: unknown[] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    const task = cron.schedule('* * * * * *', () => new Promise((resolve) => setTimeout(resolve, 2500)), {
      noOverlap: true,
    });
    try {
      const until = Date.now() + 8000;
      while (!logs.text().includes('node-cron: task still running') && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(logs.text()).toContain('node-cron: task still running');
      expect(printed).toEqual([]);
    } finally {
      await task.destroy();
      spy.mockRestore();
    }
  }, 15_000);
});
