import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_STORE_URL, loadConfig } from '../src/config.ts';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('reads CLOCK_SPEED for the embedded service, and refuses a bad or pointless one with what would be right', () => {
    expect(loadConfig({ CLOCK_SPEED: '60' }).clockSpeed).toBe(60);
    expect(loadConfig({}).clockSpeed).toBeUndefined();
    expect(loadConfig({ CLOCK_SPEED: '1' }).clockSpeed).toBeUndefined();
    expect(loadConfig({ CLOCK_SPEED: '' }).clockSpeed).toBeUndefined();
    const fast = configError({ CLOCK_SPEED: 'fast' });
    expect(fast.variable).toBe('CLOCK_SPEED');
    expect(fast.message).toContain('e.g. 60');
    expect(fast.message).toContain('"fast"');
    expect(configError({ CLOCK_SPEED: '0.5' }).message).toContain('at least 1');
    expect(configError({ CLOCK_SPEED: '100000' }).message).toContain('at most 3600');
    const real = configError({
      CLOCK_SPEED: '60',
      ESPORTS_API_URL: 'https://api.example.com/v3',
      ESPORTS_API_SECRET: 'service-secret-123',
    });
    expect(real.variable).toBe('CLOCK_SPEED');
    expect(real.message).toContain('embedded service');
  });

  it('reads CLOCK_START as an instant with its offset for the embedded service, and refuses others with what would be right', () => {
    expect(loadConfig({ CLOCK_START: '2026-11-22T14:00Z' }).clockStart?.toISOString()).toBe(
      '2026-11-22T14:00:00.000Z',
    );
    expect(loadConfig({ CLOCK_START: '2026-11-22T15:00:30+01:00' }).clockStart?.toISOString()).toBe(
      '2026-11-22T14:00:30.000Z',
    );
    expect(loadConfig({}).clockStart).toBeUndefined();
    expect(loadConfig({ CLOCK_START: '' }).clockStart).toBeUndefined();
    for (const bad of ['tomorrow', '2026-11-22', '2026-11-22T14:00', '2026-13-40T14:00Z']) {
      const error = configError({ CLOCK_START: bad });
      expect(error.variable, bad).toBe('CLOCK_START');
      expect(error.message).toContain('e.g. 2026-11-22T14:00Z');
      expect(error.message).toContain(`"${bad}"`);
    }
    const real = configError({
      CLOCK_START: '2026-11-22T14:00Z',
      ESPORTS_API_URL: 'https://api.example.com/v3',
      ESPORTS_API_SECRET: 'service-secret-123',
    });
    expect(real.variable).toBe('CLOCK_START');
    expect(real.message).toContain('embedded service');
  });

  it('runs with no configuration: embedded service, SQLite store, info logs, no platforms', () => {
    const config = loadConfig({});
    expect(config.esports).toEqual({ seed: 42 });
    expect(config.store).toEqual({ kind: 'sqlite', url: DEFAULT_STORE_URL, path: './data/matchday.sqlite' });
    expect(config.logLevel).toBe('info');
    expect(config.discord).toBeUndefined();
    expect(config.slack).toBeUndefined();
    expect(config.secrets).toEqual([]);
  });

  it('reads every variable into typed values and lists the secrets for the logger', () => {
    const config = loadConfig({
      ESPORTS_API_URL: 'https://api.example.com/v3',
      ESPORTS_API_SECRET: 'service-secret-123',
      ESPORTS_RATE: '2.5',
      ESPORTS_SEED: '7',
      STORE_URL: 'redis://:redispass99@127.0.0.1:6390',
      LOG_LEVEL: 'debug',
      DISCORD_TOKEN: 'discord-token-abcdefghijklmnop',
      DISCORD_APP_ID: '123456789012345678',
      DISCORD_API_URL: 'http://127.0.0.1:9999/api',
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_APP_TOKEN: 'xapp-1-2-3',
      SLACK_PORT: '3100',
      SLACK_API_URL: 'http://127.0.0.1:9998/api/',
    });
    expect(config.esports).toEqual({
      url: 'https://api.example.com/v3',
      secret: 'service-secret-123',
      rate: 2.5,
      seed: 7,
    });
    expect(config.store).toEqual({ kind: 'redis', url: 'redis://:redispass99@127.0.0.1:6390' });
    expect(config.discord).toEqual({
      token: 'discord-token-abcdefghijklmnop',
      appId: '123456789012345678',
      apiUrl: 'http://127.0.0.1:9999/api',
    });
    expect(config.slack).toMatchObject({ botToken: 'xoxb-1-2-3', appToken: 'xapp-1-2-3', port: 3100 });
    expect(config.secrets).toEqual(
      expect.arrayContaining([
        'service-secret-123',
        'discord-token-abcdefghijklmnop',
        'xoxb-1-2-3',
        'xapp-1-2-3',
        'redispass99',
      ]),
    );
  });

  it('reads ESPORTS_PUSH_URL: a push root or off; unset leaves it to be derived', () => {
    const real = { ESPORTS_API_URL: 'https://api.example.com/v3', ESPORTS_API_SECRET: 'abcdefghij' };
    expect(loadConfig(real).esports.push).toBeUndefined();
    expect(loadConfig({ ...real, ESPORTS_PUSH_URL: 'off' }).esports.push).toBe('off');
    expect(loadConfig({ ...real, ESPORTS_PUSH_URL: 'https://push.example.com/v3/push' }).esports.push).toBe(
      'https://push.example.com/v3/push',
    );
  });

  it('treats empty values as unset, as in a copied .env.example', () => {
    expect(loadConfig({ ESPORTS_API_URL: '', ESPORTS_RATE: '  ', DISCORD_TOKEN: '' }).esports).toEqual({
      seed: 42,
    });
  });

  it.each([
    [{ ESPORTS_RATE: 'fast' }, 'ESPORTS_RATE', /a number of requests per second.*got "fast"/],
    [{ ESPORTS_RATE: '-1' }, 'ESPORTS_RATE', /positive/],
    [{ ESPORTS_SEED: '1.5' }, 'ESPORTS_SEED', /whole number/],
    [{ ESPORTS_PUSH_URL: 'ws://example.com/push' }, 'ESPORTS_PUSH_URL', /must be off, or the push root/],
    [{ ESPORTS_API_URL: 'ftp://example.com' }, 'ESPORTS_API_URL', /http:\/\/ or https:\/\//],
    [
      { ESPORTS_API_URL: 'https://api.example.com/v3' },
      'ESPORTS_API_SECRET',
      /must be set when ESPORTS_API_URL is set/,
    ],
    [{ ESPORTS_API_SECRET: 'abcdefghij' }, 'ESPORTS_API_URL', /must be set when ESPORTS_API_SECRET is set/],
    [{ STORE_URL: 'postgres://x' }, 'STORE_URL', /sqlite:\/\/<file>.*redis:\/\//],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /one of fatal, error, warn, info, debug, trace, silent/],
    [{ DISCORD_APP_ID: 'abc', DISCORD_TOKEN: 'x'.repeat(30) }, 'DISCORD_APP_ID', /numeric application id/],
    [{ DISCORD_APP_ID: '123456789' }, 'DISCORD_TOKEN', /must be set to use Discord/],
    [{ SLACK_BOT_TOKEN: 'xoxp-user' }, 'SLACK_BOT_TOKEN', /starting with xoxb-/],
    [{ SLACK_BOT_TOKEN: 'xoxb-1' }, 'SLACK_APP_TOKEN', /SLACK_SIGNING_SECRET/],
    [
      { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'abcdefghij', SLACK_PORT: '70000' },
      'SLACK_PORT',
      /between 1 and 65535/,
    ],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT', /port number/],
    [{ METRICS_HOST: '0.0.0.0' }, 'METRICS_PORT', /must be set to serve metrics/],
    [{ METRICS_PORT: '9464', METRICS_HOST: 'a b' }, 'METRICS_HOST', /address to listen on/],
    [{ DISCORD_SHARDS: '0' }, 'DISCORD_TOKEN', /sharding/],
    [
      { DISCORD_TOKEN: 'x'.repeat(30), DISCORD_SHARDS: '0,1' },
      'DISCORD_SHARD_COUNT',
      /must be set with DISCORD_SHARDS/,
    ],
    [
      { DISCORD_TOKEN: 'x'.repeat(30), DISCORD_SHARDS: 'a,b', DISCORD_SHARD_COUNT: '2' },
      'DISCORD_SHARDS',
      /comma-separated/,
    ],
    [
      { DISCORD_TOKEN: 'x'.repeat(30), DISCORD_SHARDS: '1,2', DISCORD_SHARD_COUNT: '2' },
      'DISCORD_SHARDS',
      /below DISCORD_SHARD_COUNT \(2\); got 2/,
    ],
  ])('stops on %j naming %s and pointing at .env.example', (env, variable, problem) => {
    const error = configError(env as Record<string, string>);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(new RegExp(`^Configuration error: ${variable} `));
    expect(error.message).toMatch(problem);
    expect(error.message).toContain('.env.example');
  });

  it('reads the operations endpoint (loopback unless told) and the Discord shards of this process', () => {
    expect(loadConfig({}).ops).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).ops).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).ops).toEqual({
      port: 9464,
      host: '0.0.0.0',
    });
    const token = 'x'.repeat(30);
    expect(loadConfig({ DISCORD_TOKEN: token }).discord?.shards).toBeUndefined();
    expect(
      loadConfig({ DISCORD_TOKEN: token, DISCORD_SHARDS: '2, 3', DISCORD_SHARD_COUNT: '4' }).discord?.shards,
    ).toEqual({
      ids: [2, 3],
      count: 4,
    });
    expect(loadConfig({ DISCORD_TOKEN: token, DISCORD_SHARD_COUNT: '3' }).discord?.shards).toEqual({
      ids: [0, 1, 2],
      count: 3,
    });
  });

  it('never repeats a secret value in its message', () => {
    const error = configError({ SLACK_BOT_TOKEN: 'not-a-bot-token-secret-value' });
    expect(error.variable).toBe('SLACK_BOT_TOKEN');
    expect(error.message).not.toContain('not-a-bot-token-secret-value');
    const short = configError({ ESPORTS_API_URL: 'https://a.example/v3', ESPORTS_API_SECRET: 'short' });
    expect(short.variable).toBe('ESPORTS_API_SECRET');
    expect(short.message).not.toContain('"short"');
    const store = configError({ STORE_URL: 'mysql://user:topsecretpw@db' });
    expect(store.message).not.toContain('topsecretpw');
  });
});

describe('STORE_URL for Redis', () => {
  it.each([
    ['redis://:hunter2-secret@localhost:99999', 'has a port that is not a number from 1 to 65535'],
    ['redis://:hunter2-secret@localhost:port', 'has a port that is not a number from 1 to 65535'],
    ['redis://:hunter2-secret@localhost:0', 'has a port that is not a number from 1 to 65535'],
    ['redis://:hunter2-secret@:6379', 'is not a URL the Redis client can read'],
    ['redis://?password=hunter2-secret', 'names no host'],
  ])('refuses %j naming STORE_URL, never its password', (url, problem) => {
    let error: unknown;
    try {
      loadConfig({ STORE_URL: url });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe('STORE_URL');
    expect((error as Error).message).toContain(`STORE_URL ${problem}`);
    expect((error as Error).message).not.toContain('hunter2');
    expect((error as Error).message).not.toContain('Invalid URL');
  });

  it('accepts ports, a bracketed IPv6 host, a database and no port', () => {
    for (const url of ['redis://localhost:6379', 'rediss://:pw@[::1]:6380/2', 'redis://cache.internal'])
      expect(loadConfig({ STORE_URL: url }).store).toMatchObject({ kind: 'redis', url });
  });
});

describe('loadConfig with a .env file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-env-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const envFile = (text: string) => {
    const path = join(dir, '.env');
    writeFileSync(path, text);
    return path;
  };

  it('reads the file, names it, and lets the environment win over it', () => {
    const path = envFile(
      [
        '# a comment',
        '',
        'ESPORTS_SEED=7',
        'export LOG_LEVEL=debug',
        'DISCORD_TOKEN="discord-token-from-the-file-123"',
        'SLACK_PORT=',
      ].join('\n'),
    );
    const config = loadConfig({ LOG_LEVEL: 'warn' }, { envFile: path });
    expect(config.envFile).toBe(path);
    expect(config.esports.seed).toBe(7);
    expect(config.logLevel).toBe('warn');
    expect(config.discord?.token).toBe('discord-token-from-the-file-123');
    expect(config.secrets).toContain('discord-token-from-the-file-123');
  });

  it('is fine without a file: the environment alone, and no file named', () => {
    const config = loadConfig({ ESPORTS_SEED: '3' }, { envFile: join(dir, '.env') });
    expect(config.envFile).toBeUndefined();
    expect(config.esports.seed).toBe(3);
  });

  it('accepts a quoted value over several lines', () => {
    const path = envFile('SLACK_SIGNING_SECRET="first\nsecond"\nSLACK_BOT_TOKEN=xoxb-1\n');
    const config = loadConfig({}, { envFile: path });
    expect(config.slack).toMatchObject({ botToken: 'xoxb-1', signingSecret: 'first\nsecond' });
  });

  it('refuses a malformed line with its number, without repeating it', () => {
    const path = envFile('ESPORTS_SEED=7\nDISCORD_TOKEN discord-token-secret-value\n');
    let error: unknown;
    try {
      loadConfig({}, { envFile: path });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain(`${path} line 2 is not a NAME=value line`);
    expect(message).not.toContain('discord-token-secret-value');
  });

  it('refuses a quote that is never closed', () => {
    const path = envFile('DISCORD_TOKEN="discord-token-secret-value\nESPORTS_SEED=7\n');
    expect(() => loadConfig({}, { envFile: path })).toThrow(/opened with " that is never closed/);
  });

  it('says when the file cannot be read', () => {
    mkdirSync(join(dir, '.env'));
    expect(() => loadConfig({}, { envFile: join(dir, '.env') })).toThrow(/could not be read \(EISDIR\)/);
  });

  it('reads the first variable of a file that starts with a UTF-8 byte order mark', () => {
    const path = envFile('\uFEFFDISCORD_TOKEN=discord-token-after-a-bom-123\r\nESPORTS_SEED=5\r\n');
    const config = loadConfig({}, { envFile: path });
    expect(config.discord?.token).toBe('discord-token-after-a-bom-123');
    expect(config.esports.seed).toBe(5);
    expect(config.envWarnings).toBeUndefined();
  });

  it('reads quoted and unquoted values as dotenv conventions say, and warns on a "#" in an unquoted value without its value', () => {
    const path = envFile(
      [
        'DISCORD_TOKEN=discord#token#secret-value',
        'SLACK_BOT_TOKEN=xoxb-unquoted   # a comment after a space',
        "SLACK_SIGNING_SECRET='signing#in#single#quotes' # a comment",
        'ESPORTS_SEED= 9 #the seed',
      ].join('\n'),
    );
    const config = loadConfig({}, { envFile: path });
    // A "#" without a space before it is part of the value; after a space it starts a comment.
    expect(config.discord?.token).toBe('discord#token#secret-value');
    expect(config.slack).toMatchObject({
      botToken: 'xoxb-unquoted',
      signingSecret: 'signing#in#single#quotes',
    });
    expect(config.esports.seed).toBe(9);
    // One warning, for the unquoted value that keeps a "#": its line and name, never its value.
    expect(config.envWarnings).toHaveLength(1);
    const warning = config.envWarnings![0]!;
    expect(warning).toContain('line 1 (DISCORD_TOKEN) has a "#" in an unquoted value');
    expect(warning).not.toContain('token#secret');
    expect(warning).not.toContain('discord#');
  });

  it('lets a later quoted line of a name win over an earlier unquoted one', () => {
    const path = envFile('DISCORD_TOKEN=first-unquoted-value-1\nDISCORD_TOKEN="second # quoted value"\n');
    expect(loadConfig({}, { envFile: path }).discord?.token).toBe('second # quoted value');
  });

  it('validates values from the file like values from the environment', () => {
    const path = envFile('ESPORTS_SEED=many\n');
    expect(() => loadConfig({}, { envFile: path })).toThrow(/ESPORTS_SEED must be a whole number/);
  });
});

describe('the system time zone', () => {
  it('is TZ when it names a zone, else the operating system zone; a TZ that names no zone is refused', () => {
    expect(loadConfig({ TZ: 'Asia/Tokyo' }).systemTimeZone).toBe('Asia/Tokyo');
    expect(loadConfig({ TZ: ':America/Chicago' }).systemTimeZone).toBe('America/Chicago');
    const os = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(loadConfig({ TZ: ':/etc/localtime' }).systemTimeZone).toBe(os);
    expect(loadConfig({ TZ: '' }).systemTimeZone).toBe(os);
    expect(loadConfig({}).systemTimeZone).toBe(os);
    for (const bad of ['Not/AZone', 'Europe/Berlni', 'GMT+25']) {
      const error = configError({ TZ: bad });
      expect(error.variable, bad).toBe('TZ');
      expect(error.message).toContain('e.g. Europe/Berlin');
      expect(error.message).toContain(`"${bad}"`);
    }
  });
});

describe('names that are not variables', () => {
  it('warns of a name within two edits of a variable, naming the variable, and of nothing else', () => {
    const warned = loadConfig({
      METRIC_PORT: '9464',
      DISCORD_TOKN: 'x',
      PATH: '/bin',
      NODE_ENV: 'production',
    });
    expect(warned.envWarnings).toEqual([
      'METRIC_PORT is not a variable Matchday reads (ignored): did you mean METRICS_PORT?',
      'DISCORD_TOKN is not a variable Matchday reads (ignored): did you mean DISCORD_TOKEN?',
    ]);
    expect(
      loadConfig({ METRICS_PORT: '9464', HOSTNAME: 'box', REDIS_URL: 'redis://x' }).envWarnings,
    ).toBeUndefined();
  });
});
