/**
 * All of Matchday's configuration, read and validated in one place: the only module that reads
 * `process.env`. A bad value stops start-up with a message that names the variable, says what would
 * be right and points at `.env.example`; a secret's value is never repeated in that message.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { MatchdayError } from './core/errors.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_STORE_URL = 'sqlite://./data/matchday.sqlite';

export interface Config {
  esports: {
    /** The real service's base URL; absent means "embed the local service". */
    url?: string;
    secret?: string;
    /** Which interface the client speaks: absent for v3 (the default), 'v2' for OAuth client credentials. */
    api?: 'v2';
    /** v2: the OAuth client credentials (required with a v2 URL; optional when embedded). */
    clientId?: string;
    clientSecret?: string;
    /** Requests per second (the embedded service's budget and the client's). */
    rate?: number;
    /** The embedded service's world seed. */
    seed: number;
  };
  /**
   * CLOCK_SPEED: the process's clock runs this many times faster than real time, from now (the
   * embedded service's world, the notifier and the commands alike); absent: real time. Only with
   * the embedded service: the real one lives in real time.
   */
  clockSpeed?: number;
  store:
    | { kind: 'sqlite'; url: string /** File path, or `:memory:`. */; path: string }
    | {
        kind: 'redis';
        url: string;
        /**
         * SETTINGS_MIRROR=off: no local mirror (`./data/settings-mirror.sqlite`), so a Redis that lost
         * its data (or was flushed on purpose) starts empty instead of being restored. Default on.
         */
        mirror?: false;
      };
  logLevel: LogLevel;
  discord?: {
    token: string;
    appId?: string;
    apiUrl?: string;
    /** The shard ids this process runs and the total (DISCORD_SHARDS, DISCORD_SHARD_COUNT); absent: one process, no sharding. */
    shards?: { ids: number[]; count: number };
  };
  notify: {
    /** This instance's identity in the ledger (NOTIFY_INSTANCE): a restart takes its claims over at once. */
    instance?: string;
    /** LEDGER_START_FRESH=yes: set a damaged or missing ledger aside and start a new one. */
    startFresh: boolean;
  };
  /** The operations endpoint (/healthz, /readyz, /metrics); absent: off. */
  ops?: { port: number; host: string };
  /**
   * Calendar feeds (issue 16): on their own port (CALENDAR_PORT), or on the operations port when
   * only METRICS_PORT is set (`port` absent); absent: off. `baseUrl` is what `/me calendar` prints
   * (CALENDAR_URL, for a public address in front of Matchday; else the address it listens on).
   */
  calendar?: { port?: number; host: string; baseUrl: string };
  slack?: {
    botToken: string;
    /** Socket Mode when set; otherwise HTTP mode with the signing secret. */
    appToken?: string;
    signingSecret?: string;
    port: number;
    apiUrl?: string;
  };
  /** Every secret value in this configuration, for the logger's scrubber. */
  secrets: string[];
  /**
   * The system's time zone, the terminal tenant's default: `TZ` when it names an IANA zone, else
   * the operating system's (as Intl resolves it), else UTC.
   */
  systemTimeZone: string;
  /** The absolute path of the `.env` file that was read, when one was (the banner says so). */
  envFile?: string;
}

/** A configuration problem; `variable` names the environment variable at fault. */
export class ConfigError extends MatchdayError {
  override name = 'ConfigError';
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(
      'CONFIGURATION',
      'configuration',
      `Configuration error: ${variable} ${problem}. See .env.example for every variable and an example value.`,
    );
  }
}

/** Variables whose values must never appear in a message. */
const SECRET_VARIABLES = new Set([
  'ESPORTS_API_SECRET',
  'ESPORTS_API_CLIENT_ID',
  'ESPORTS_API_CLIENT_SECRET',
  'DISCORD_TOKEN',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'STORE_URL', // a redis:// URL may carry a password
]);

const httpUrl = z.url({
  protocol: /^https?$/,
  error: 'must be an http:// or https:// URL, e.g. https://api.example.com/v3',
});

/** Per variable: a schema over the raw (non-empty) string, producing the typed value. */
const VARIABLES = {
  ESPORTS_API_URL: httpUrl,
  ESPORTS_API_SECRET: z.string().min(8, 'must be the service secret (at least 8 characters)'),
  ESPORTS_API_VERSION: z.enum(['v2', 'v3'], { error: 'must be v2 or v3' }),
  ESPORTS_API_CLIENT_ID: z.string().regex(/^[^\s]+$/, 'must be the v2 client id (no spaces)'),
  ESPORTS_API_CLIENT_SECRET: z.string().min(8, 'must be the v2 client secret (at least 8 characters)'),
  ESPORTS_RATE: z.coerce
    .number({ error: 'must be a number of requests per second, e.g. 5' })
    .positive('must be a positive number of requests per second, e.g. 5')
    .max(10_000, 'must be at most 10000 requests per second'),
  CLOCK_SPEED: z.coerce
    .number({ error: 'must be a number of simulated seconds per real second, e.g. 60' })
    .min(1, 'must be at least 1 (real time), e.g. 60 for a simulated minute per second')
    .max(3600, 'must be at most 3600 (a simulated hour per second)'),
  ESPORTS_SEED: z.coerce
    .number({ error: 'must be a whole number, e.g. 42' })
    .int('must be a whole number, e.g. 42')
    .nonnegative('must be a whole number, e.g. 42')
    .max(2 ** 31 - 1, 'must be below 2147483648'),
  STORE_URL: z
    .string()
    .regex(
      /^(sqlite:\/\/.+|rediss?:\/\/.+)$/,
      'must be sqlite://<file> (e.g. sqlite://./data/matchday.sqlite) or redis://host:port',
    ),
  SETTINGS_MIRROR: z.enum(['on', 'off'], { error: 'must be on or off' }),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
  DISCORD_TOKEN: z.string().min(20, 'must be the bot token from the Discord developer portal'),
  DISCORD_APP_ID: z
    .string()
    .regex(/^\d{5,25}$/, 'must be the numeric application id, e.g. 123456789012345678'),
  DISCORD_API_URL: httpUrl,
  DISCORD_SHARDS: z
    .string()
    .regex(/^\d{1,4}(\s*,\s*\d{1,4})*$/, 'must be a comma-separated list of shard ids, e.g. 0,1')
    .transform((text) => [...new Set(text.split(',').map((id) => Number(id.trim())))]),
  DISCORD_SHARD_COUNT: z.coerce
    .number({ error: 'must be the total number of shards, e.g. 4' })
    .int('must be the total number of shards, e.g. 4')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000'),
  SLACK_BOT_TOKEN: z.string().startsWith('xoxb-', 'must be a bot token starting with xoxb-'),
  SLACK_APP_TOKEN: z.string().startsWith('xapp-', 'must be an app-level token starting with xapp-'),
  SLACK_SIGNING_SECRET: z.string().min(8, 'must be the signing secret from the Slack app settings'),
  SLACK_PORT: z.coerce
    .number({ error: 'must be a port number, e.g. 3000' })
    .int('must be a port number, e.g. 3000')
    .min(1, 'must be a port number between 1 and 65535')
    .max(65_535, 'must be a port number between 1 and 65535'),
  SLACK_API_URL: httpUrl,
  METRICS_PORT: z.coerce
    .number({ error: 'must be a port number, e.g. 9464' })
    .int('must be a port number, e.g. 9464')
    .min(1, 'must be a port number between 1 and 65535')
    .max(65_535, 'must be a port number between 1 and 65535'),
  METRICS_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]{1,253}$/, 'must be an address to listen on, e.g. 127.0.0.1 or 0.0.0.0'),
  CALENDAR_PORT: z.coerce
    .number({ error: 'must be a port number, e.g. 8787' })
    .int('must be a port number, e.g. 8787')
    .min(1, 'must be a port number between 1 and 65535')
    .max(65_535, 'must be a port number between 1 and 65535'),
  CALENDAR_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]{1,253}$/, 'must be an address to listen on, e.g. 127.0.0.1 or 0.0.0.0'),
  CALENDAR_URL: httpUrl,
  NOTIFY_INSTANCE: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a name of letters, digits, ".", "_" or "-", e.g. bot-1'),
  LEDGER_START_FRESH: z.enum(['yes', 'no'], { error: 'must be yes or no' }),
} as const;

type VariableName = keyof typeof VARIABLES;
type Values = { [K in VariableName]?: z.output<(typeof VARIABLES)[K]> };

/** Every variable Matchday reads, in the order `.env.example` lists them. */
export const CONFIG_VARIABLES = Object.keys(VARIABLES) as VariableName[];

function read(env: Record<string, string | undefined>): Values {
  const values: Record<string, unknown> = {};
  for (const name of CONFIG_VARIABLES) {
    const raw = env[name]?.trim();
    // An empty value (`FOO=` in a .env file) means "not set".
    if (raw === undefined || raw === '') continue;
    const parsed = VARIABLES[name].safeParse(raw);
    if (!parsed.success) {
      const problem = parsed.error.issues[0]?.message ?? 'is not valid';
      const shown = SECRET_VARIABLES.has(name)
        ? ''
        : ` (got "${raw.length > 60 ? `${raw.slice(0, 60)}...` : raw}")`;
      throw new ConfigError(name, `${problem}${shown}`);
    }
    values[name] = parsed.data;
  }
  return values as Values;
}

type Env = Record<string, string | undefined>;

/** A line of a `.env` file: `NAME=value`, optionally preceded by `export `. */
const ENV_LINE = /^\s*(export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=/;

/**
 * The variables of a `.env` file, parsed by Node's own parser (`util.parseEnv`, the one behind
 * `node --env-file`); `undefined` when there is no such file. Node's parser skips what it cannot
 * read without a word, so each line is checked first: a line that is not `NAME=value`, a comment or
 * blank (outside a quoted multi-line value) stops start-up with its line number. The line itself
 * is never repeated: it may hold a secret.
 */
function readEnvFile(path: string): Env | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(
      path,
      `could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); make it a readable file of NAME=value lines, or remove it`,
    );
  }
  let open: string | undefined; // the quote of a multi-line value still open
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (open) {
      if (line.includes(open)) open = undefined;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (!ENV_LINE.test(line)) {
      throw new ConfigError(
        path,
        `line ${index + 1} is not a NAME=value line (a variable name such as DISCORD_TOKEN, "=", then the value; "#" starts a comment)`,
      );
    }
    const value = line.slice(line.indexOf('=') + 1).trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !value.slice(1).includes(quote)) open = quote;
  }
  if (open) {
    throw new ConfigError(path, `has a value opened with ${open} that is never closed`);
  }
  return parseEnv(text) as Env;
}

/**
 * Reads and validates the configuration. With no arguments: the process environment over the
 * `.env` file of the working directory (a variable set in the environment wins; no file is fine).
 * Tests pass `env` (then no file is read unless `options.envFile` names one).
 * Throws `ConfigError` naming the variable (or the `.env` line) at fault.
 */
export function loadConfig(env?: Env, options: { envFile?: string; api?: string } = {}): Config {
  const name = options.envFile ?? (env === undefined ? '.env' : undefined);
  const filePath = name === undefined ? undefined : resolve(name);
  const fromFile = filePath === undefined ? undefined : readEnvFile(filePath);
  const config = configFrom({
    ...fromFile,
    ...(env ?? process.env),
    ...(options.api !== undefined ? { ESPORTS_API_VERSION: options.api } : {}),
  });
  if (fromFile) config.envFile = filePath;
  return config;
}

/**
 * The interface to speak (issue 11): ESPORTS_API_VERSION, else v2 when ESPORTS_API_URL ends in /v2.
 * v2 needs the client id and secret with a URL (the embedded service makes a pair when none is set);
 * v3 takes neither.
 */
function esportsApi(v: ReturnType<typeof read>): 'v2' | 'v3' {
  const urlVersion = v.ESPORTS_API_URL
    ? /\/(v[23])\/?$/.exec(new URL(v.ESPORTS_API_URL).pathname)?.[1]
    : undefined;
  const api = v.ESPORTS_API_VERSION ?? (urlVersion === 'v2' ? 'v2' : 'v3');
  if (v.ESPORTS_API_URL && (api === 'v2' || urlVersion === 'v2') && urlVersion !== api)
    throw new ConfigError(
      'ESPORTS_API_URL',
      `must end in /${api} for the ${api} interface (ESPORTS_API_VERSION=${api})`,
    );
  if (api === 'v3' && (v.ESPORTS_API_CLIENT_ID || v.ESPORTS_API_CLIENT_SECRET))
    throw new ConfigError(
      v.ESPORTS_API_CLIENT_ID ? 'ESPORTS_API_CLIENT_ID' : 'ESPORTS_API_CLIENT_SECRET',
      'is for the v2 interface only: set ESPORTS_API_VERSION=v2 (or a URL ending in /v2), or remove it',
    );
  if (api === 'v2') {
    if (v.ESPORTS_API_SECRET)
      throw new ConfigError(
        'ESPORTS_API_SECRET',
        'is the v3 secret; the v2 interface uses ESPORTS_API_CLIENT_ID and ESPORTS_API_CLIENT_SECRET instead',
      );
    if (
      Boolean(v.ESPORTS_API_CLIENT_ID) !== Boolean(v.ESPORTS_API_CLIENT_SECRET) ||
      (v.ESPORTS_API_URL && !v.ESPORTS_API_CLIENT_ID)
    )
      throw new ConfigError(
        v.ESPORTS_API_CLIENT_ID ? 'ESPORTS_API_CLIENT_SECRET' : 'ESPORTS_API_CLIENT_ID',
        'must be set with the v2 interface (ESPORTS_API_CLIENT_ID and ESPORTS_API_CLIENT_SECRET go together)',
      );
  }
  return api;
}

function configFrom(env: Env): Config {
  const v = read(env);

  const api = esportsApi(v);
  if (v.ESPORTS_API_URL && !v.ESPORTS_API_SECRET && api === 'v3') {
    throw new ConfigError(
      'ESPORTS_API_SECRET',
      'must be set when ESPORTS_API_URL is set (the secret for that service)',
    );
  }
  if (v.ESPORTS_API_SECRET && !v.ESPORTS_API_URL && api === 'v3') {
    throw new ConfigError(
      'ESPORTS_API_URL',
      'must be set when ESPORTS_API_SECRET is set (the real service to use it with)',
    );
  }
  if (v.CLOCK_SPEED !== undefined && v.ESPORTS_API_URL) {
    throw new ConfigError(
      'CLOCK_SPEED',
      'only works with the embedded service: leave it out with ESPORTS_API_URL (the real service runs in real time)',
    );
  }
  if ((v.DISCORD_APP_ID || v.DISCORD_API_URL) && !v.DISCORD_TOKEN) {
    throw new ConfigError(
      'DISCORD_TOKEN',
      'must be set to use Discord (DISCORD_APP_ID or DISCORD_API_URL is set)',
    );
  }
  const slackExtras = v.SLACK_APP_TOKEN || v.SLACK_SIGNING_SECRET || v.SLACK_PORT || v.SLACK_API_URL;
  if (slackExtras && !v.SLACK_BOT_TOKEN) {
    throw new ConfigError('SLACK_BOT_TOKEN', 'must be set to use Slack (another SLACK_ variable is set)');
  }
  if (v.SLACK_BOT_TOKEN && !v.SLACK_APP_TOKEN && !v.SLACK_SIGNING_SECRET) {
    throw new ConfigError(
      'SLACK_APP_TOKEN',
      'or SLACK_SIGNING_SECRET must be set with SLACK_BOT_TOKEN (xapp- token for Socket Mode, or the signing secret for HTTP mode)',
    );
  }

  if ((v.DISCORD_SHARDS || v.DISCORD_SHARD_COUNT) && !v.DISCORD_TOKEN) {
    throw new ConfigError('DISCORD_TOKEN', 'must be set to use Discord sharding (DISCORD_SHARDS is set)');
  }
  if (v.DISCORD_SHARDS && v.DISCORD_SHARD_COUNT === undefined) {
    throw new ConfigError(
      'DISCORD_SHARD_COUNT',
      'must be set with DISCORD_SHARDS (the total number of shards)',
    );
  }
  const shardCount = v.DISCORD_SHARD_COUNT;
  const shardIds = v.DISCORD_SHARDS ?? (shardCount ? [...Array(shardCount).keys()] : undefined);
  const outside = shardCount ? shardIds?.find((id) => id >= shardCount) : undefined;
  if (outside !== undefined) {
    throw new ConfigError(
      'DISCORD_SHARDS',
      `must list shard ids below DISCORD_SHARD_COUNT (${shardCount}); got ${outside}`,
    );
  }
  if (v.METRICS_HOST && v.METRICS_PORT === undefined) {
    throw new ConfigError('METRICS_PORT', 'must be set to serve metrics (METRICS_HOST is set)');
  }

  if ((v.CALENDAR_HOST || v.CALENDAR_URL) && v.CALENDAR_PORT === undefined && v.METRICS_PORT === undefined) {
    throw new ConfigError(
      'CALENDAR_PORT',
      'must be set to serve calendars (CALENDAR_HOST or CALENDAR_URL is set), or METRICS_PORT to serve them on the operations port',
    );
  }
  const calendarHost =
    v.CALENDAR_PORT !== undefined ? (v.CALENDAR_HOST ?? '127.0.0.1') : (v.METRICS_HOST ?? '127.0.0.1');
  const calendarPort = v.CALENDAR_PORT ?? v.METRICS_PORT;
  const calendar: Config['calendar'] =
    calendarPort === undefined
      ? undefined
      : {
          ...(v.CALENDAR_PORT !== undefined ? { port: v.CALENDAR_PORT } : {}),
          host: calendarHost,
          baseUrl: (
            v.CALENDAR_URL ??
            `http://${calendarHost.includes(':') ? `[${calendarHost}]` : calendarHost}:${calendarPort}`
          ).replace(/\/+$/, ''),
        };

  const storeUrl = v.STORE_URL ?? DEFAULT_STORE_URL;
  const store: Config['store'] = storeUrl.startsWith('sqlite://')
    ? { kind: 'sqlite', url: storeUrl, path: storeUrl.slice('sqlite://'.length) }
    : { kind: 'redis', url: storeUrl, ...(v.SETTINGS_MIRROR === 'off' ? { mirror: false as const } : {}) };

  const secrets = [
    v.ESPORTS_API_SECRET,
    v.ESPORTS_API_CLIENT_ID,
    v.ESPORTS_API_CLIENT_SECRET,
    v.DISCORD_TOKEN,
    v.SLACK_BOT_TOKEN,
    v.SLACK_APP_TOKEN,
    v.SLACK_SIGNING_SECRET,
  ];
  const storePassword = store.kind === 'redis' ? redisPassword(store.url) : undefined;

  return {
    esports: {
      ...(v.ESPORTS_API_URL && api === 'v3' ? { url: v.ESPORTS_API_URL, secret: v.ESPORTS_API_SECRET } : {}),
      ...(v.ESPORTS_API_URL && api === 'v2' ? { url: v.ESPORTS_API_URL } : {}),
      ...(api === 'v2' ? { api } : {}),
      ...(api === 'v2' && v.ESPORTS_API_CLIENT_ID
        ? { clientId: v.ESPORTS_API_CLIENT_ID, clientSecret: v.ESPORTS_API_CLIENT_SECRET }
        : {}),
      ...(v.ESPORTS_RATE !== undefined ? { rate: v.ESPORTS_RATE } : {}),
      seed: v.ESPORTS_SEED ?? 42,
    },
    ...(v.CLOCK_SPEED !== undefined && v.CLOCK_SPEED !== 1 ? { clockSpeed: v.CLOCK_SPEED } : {}),
    store,
    logLevel: v.LOG_LEVEL ?? 'info',
    notify: {
      ...(v.NOTIFY_INSTANCE ? { instance: v.NOTIFY_INSTANCE } : {}),
      startFresh: v.LEDGER_START_FRESH === 'yes',
    },
    ...(v.DISCORD_TOKEN
      ? {
          discord: {
            token: v.DISCORD_TOKEN,
            appId: v.DISCORD_APP_ID,
            apiUrl: v.DISCORD_API_URL,
            ...(shardIds && shardCount ? { shards: { ids: shardIds, count: shardCount } } : {}),
          },
        }
      : {}),
    ...(v.METRICS_PORT !== undefined
      ? { ops: { port: v.METRICS_PORT, host: v.METRICS_HOST ?? '127.0.0.1' } }
      : {}),
    ...(calendar ? { calendar } : {}),
    ...(v.SLACK_BOT_TOKEN
      ? {
          slack: {
            botToken: v.SLACK_BOT_TOKEN,
            appToken: v.SLACK_APP_TOKEN,
            signingSecret: v.SLACK_SIGNING_SECRET,
            port: v.SLACK_PORT ?? 3000,
            apiUrl: v.SLACK_API_URL,
          },
        }
      : {}),
    secrets: [...secrets, storePassword].filter((s): s is string => typeof s === 'string' && s.length > 0),
    systemTimeZone: systemTimeZone(env.TZ),
  };
}

/** `TZ` when it is an IANA zone this runtime knows ("Europe/Berlin", ":Europe/Berlin"), else the OS zone. */
function systemTimeZone(tz: string | undefined): string {
  const zones = [tz?.trim().replace(/^:/, ''), Intl.DateTimeFormat().resolvedOptions().timeZone];
  for (const zone of zones) {
    if (!zone || zone.startsWith('/')) continue;
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return zone;
    } catch {
      // not a zone: try the next
    }
  }
  return 'UTC';
}

function redisPassword(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}

/** A URL fit for messages and banners, with its password (if any) replaced. */
export function safeUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:@/\s]*:)[^@/\s]+@/i, '$1***@');
}
