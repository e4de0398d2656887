/**
 * All of Matchday's configuration, read and validated in one place: the only module that reads
 * `process.env`. A bad value stops start-up with a message that names the variable, says what would
 * be right and points at `.env.example`; a secret's value is never repeated in that message.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import {
  CONFIG_VARIABLES,
  ConfigError,
  type LogLevel,
  readVariables,
  type Values,
} from './config-variables.ts';
import { editDistance } from './core/edit-distance.ts';

export { CONFIG_VARIABLES, ConfigError, type LogLevel } from './config-variables.ts';

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
    /** `ESPORTS_PUSH_URL`: the push root, or 'off'; absent: derived (`<url>/push` on v3, the embedded service's). */
    push?: string;
  };
  /**
   * CLOCK_SPEED: the process's clock runs this many times faster than real time, from now (the
   * embedded service's world, the notifier and the commands alike); absent: real time. Only with
   * the embedded service: the real one lives in real time.
   */
  clockSpeed?: number;
  /** CLOCK_START: the instant the process's clock starts from (embedded service only); absent: now. */
  clockStart?: Date;
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
   * Calendar feeds (src/calendar/server.ts): on their own port (CALENDAR_PORT), or on the operations port
   * when only METRICS_PORT is set (`port` absent); absent: off. `baseUrl` is what `/me calendar` prints
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
  /** What the `.env` file read has that a person should look at (never a value); printed at start. */
  envWarnings?: string[];
}

type Env = Record<string, string | undefined>;

/** A line of a `.env` file: `NAME=value`, optionally preceded by `export `. */
const ENV_LINE = /^\s*(export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/;

/** A `.env` file read: its variables, and what a person should know about it (no value in it). */
interface EnvFile {
  values: Env;
  warnings: string[];
}

/**
 * An unquoted value as the dotenv conventions read it (docker compose, bash): a `#` starts a
 * comment only after whitespace, so `PASSWORD=abc#def` keeps its `#def` (Node's own parser cuts it
 * off there, and a secret would lose its tail without a word); leading and trailing blanks go.
 */
function unquotedValue(raw: string): string {
  return raw.replace(/\s#.*$/, '').trim();
}

/**
 * The variables of a `.env` file; `undefined` when there is no such file. Quoted and multi-line
 * values are read by Node's own parser (`util.parseEnv`, the one behind `node --env-file`); unquoted
 * ones as `unquotedValue` says, with a warning when a `#` stays in one. A UTF-8 byte order mark (as
 * Windows editors write it) is not part of the first name. Node's parser skips what it cannot read
 * without a word, so each line is checked first: a line that is not `NAME=value`, a comment or
 * blank (outside a quoted multi-line value) stops start-up with its line number. The line itself
 * is never repeated: it may hold a secret.
 */
function readEnvFile(path: string): EnvFile | undefined {
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
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  let open: string | undefined; // the quote of a multi-line value still open
  const unquoted = new Map<string, string>();
  const warnings: string[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (open) {
      if (line.includes(open)) open = undefined;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const name = ENV_LINE.exec(line)?.[2];
    if (name === undefined) {
      throw new ConfigError(
        path,
        `line ${index + 1} is not a NAME=value line (a variable name such as DISCORD_TOKEN, "=", then the value; "#" starts a comment)`,
      );
    }
    const raw = line.slice(line.indexOf('=') + 1);
    const value = raw.trim();
    const quote = value[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      unquoted.delete(name); // the last line of a name wins, as in Node's parser
      if (!value.slice(1).includes(quote)) open = quote;
      continue;
    }
    const read = unquotedValue(raw);
    unquoted.set(name, read);
    if (read.includes('#'))
      warnings.push(
        `${path}: line ${index + 1} (${name}) has a "#" in an unquoted value; it is read as part of the value (a "#" starts a comment only after a space). Quote the value to say so, e.g. ${name}="...".`,
      );
  }
  if (open) {
    throw new ConfigError(path, `has a value opened with ${open} that is never closed`);
  }
  return { values: { ...(parseEnv(text) as Env), ...Object.fromEntries(unquoted) }, warnings };
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
  const merged = {
    ...fromFile?.values,
    ...(env ?? process.env),
    ...(options.api !== undefined ? { ESPORTS_API_VERSION: options.api } : {}),
  };
  const config = configFrom(merged);
  if (fromFile) config.envFile = filePath;
  const warnings = [...(fromFile?.warnings ?? []), ...misspelt(Object.keys(merged))];
  if (warnings.length > 0) config.envWarnings = warnings;
  return config;
}

const KNOWN = new Set<string>(CONFIG_VARIABLES);

/**
 * A warning per name that is not a variable Matchday reads but lies within two edits of one
 * (`METRIC_PORT`, `DISCORD_TOKN`): set, it would be ignored without a word. Names of other programs
 * (PATH, HOME, NODE_ENV) are far from every Matchday name and pass.
 */
function misspelt(names: string[]): string[] {
  const warnings: string[] = [];
  for (const name of names) {
    if (KNOWN.has(name) || !/^[A-Z][A-Z0-9_]{5,}$/.test(name)) continue;
    let best: { known: string; distance: number } | undefined;
    for (const known of KNOWN) {
      const distance = editDistance(name, known);
      if (distance <= 2 && (!best || distance < best.distance)) best = { known, distance };
    }
    if (best)
      warnings.push(`${name} is not a variable Matchday reads (ignored): did you mean ${best.known}?`);
  }
  return warnings;
}

/**
 * The interface to speak (docs/data-client.md, "Running on v2"): ESPORTS_API_VERSION, else v2 when
 * ESPORTS_API_URL ends in /v2. v2 needs the client id and secret with a URL (the embedded service makes a
 * pair when none is set); v3 takes neither.
 */
function esportsApi(v: Values): 'v2' | 'v3' {
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
  const v = readVariables(env);
  const api = esportsApi(v);
  checkEsportsService(v, api);
  checkPlatformTokens(v);
  const shards = discordShards(v);
  const ops = opsOf(v);
  const calendar = calendarOf(v);
  const store = storeOf(v);
  return {
    esports: esportsOf(v, api),
    ...(v.CLOCK_SPEED !== undefined && v.CLOCK_SPEED !== 1 ? { clockSpeed: v.CLOCK_SPEED } : {}),
    ...(v.CLOCK_START !== undefined ? { clockStart: v.CLOCK_START } : {}),
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
            ...(shards ? { shards } : {}),
          },
        }
      : {}),
    ...(ops ? { ops } : {}),
    ...(calendar ? { calendar } : {}),
    ...(v.SLACK_BOT_TOKEN ? { slack: slackOf(v, v.SLACK_BOT_TOKEN) } : {}),
    secrets: secretsOf(v, store),
    systemTimeZone: systemTimeZone(env.TZ),
  };
}

/** The real service's URL and secret go together (v3), and a faster clock is for the embedded one only. */
function checkEsportsService(v: Values, api: 'v2' | 'v3'): void {
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
  for (const name of ['CLOCK_SPEED', 'CLOCK_START'] as const) {
    if (v[name] !== undefined && v.ESPORTS_API_URL) {
      throw new ConfigError(
        name,
        'only works with the embedded service: leave it out with ESPORTS_API_URL (the real service runs in real time)',
      );
    }
  }
}

/** A platform's other variables need its token; Slack's bot token needs Socket Mode's or HTTP's. */
function checkPlatformTokens(v: Values): void {
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
}

/** The shards this process runs (DISCORD_SHARDS, else all of DISCORD_SHARD_COUNT); absent: no sharding. */
function discordShards(v: Values): { ids: number[]; count: number } | undefined {
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
  return shardIds && shardCount ? { ids: shardIds, count: shardCount } : undefined;
}

/** The operations endpoint: on with METRICS_PORT. */
function opsOf(v: Values): Config['ops'] {
  if (v.METRICS_HOST && v.METRICS_PORT === undefined) {
    throw new ConfigError('METRICS_PORT', 'must be set to serve metrics (METRICS_HOST is set)');
  }
  return v.METRICS_PORT !== undefined
    ? { port: v.METRICS_PORT, host: v.METRICS_HOST ?? '127.0.0.1' }
    : undefined;
}

/** Calendar feeds: on their own port, or on the operations port; off when neither is set. */
function calendarOf(v: Values): Config['calendar'] {
  if ((v.CALENDAR_HOST || v.CALENDAR_URL) && v.CALENDAR_PORT === undefined && v.METRICS_PORT === undefined) {
    throw new ConfigError(
      'CALENDAR_PORT',
      'must be set to serve calendars (CALENDAR_HOST or CALENDAR_URL is set), or METRICS_PORT to serve them on the operations port',
    );
  }
  const host =
    v.CALENDAR_PORT !== undefined ? (v.CALENDAR_HOST ?? '127.0.0.1') : (v.METRICS_HOST ?? '127.0.0.1');
  const port = v.CALENDAR_PORT ?? v.METRICS_PORT;
  if (port === undefined) return undefined;
  return {
    ...(v.CALENDAR_PORT !== undefined ? { port: v.CALENDAR_PORT } : {}),
    host,
    baseUrl: (v.CALENDAR_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(
      /\/+$/,
      '',
    ),
  };
}

function storeOf(v: Values): Config['store'] {
  const url = v.STORE_URL ?? DEFAULT_STORE_URL;
  if (url.startsWith('sqlite://')) return { kind: 'sqlite', url, path: url.slice('sqlite://'.length) };
  checkRedisUrl(url);
  return { kind: 'redis', url, ...(v.SETTINGS_MIRROR === 'off' ? { mirror: false as const } : {}) };
}

/**
 * A redis:// URL the Redis client can use, or a `ConfigError` naming STORE_URL and what is wrong
 * (the client's own words are "Invalid URL", without the variable). The value is never repeated: it
 * may hold the password.
 */
function checkRedisUrl(url: string): void {
  const usage =
    'e.g. redis://localhost:6379, or redis://:password@host:6379 with @, : and / in the password percent-encoded';
  // The port as written (the URL parser refuses 99999 without saying it is the port).
  const port = /^rediss?:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?/.exec(url)?.[1];
  if (
    port !== undefined &&
    port !== '' &&
    !(/^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)
  )
    throw new ConfigError('STORE_URL', `has a port that is not a number from 1 to 65535; ${usage}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('STORE_URL', `is not a URL the Redis client can read; ${usage}`);
  }
  if (parsed.hostname === '') throw new ConfigError('STORE_URL', `names no host; ${usage}`);
}

/** The data service to use: the real one (v3 URL and secret; v2 URL and client credentials) or the embedded one. */
function esportsOf(v: Values, api: 'v2' | 'v3'): Config['esports'] {
  return {
    ...(v.ESPORTS_API_URL && api === 'v3' ? { url: v.ESPORTS_API_URL, secret: v.ESPORTS_API_SECRET } : {}),
    ...(v.ESPORTS_API_URL && api === 'v2' ? { url: v.ESPORTS_API_URL } : {}),
    ...(api === 'v2' ? { api } : {}),
    ...(api === 'v2' && v.ESPORTS_API_CLIENT_ID
      ? { clientId: v.ESPORTS_API_CLIENT_ID, clientSecret: v.ESPORTS_API_CLIENT_SECRET }
      : {}),
    ...(v.ESPORTS_RATE !== undefined ? { rate: v.ESPORTS_RATE } : {}),
    ...(v.ESPORTS_PUSH_URL !== undefined ? { push: v.ESPORTS_PUSH_URL } : {}),
    seed: v.ESPORTS_SEED ?? 42,
  };
}

function slackOf(v: Values, botToken: string): NonNullable<Config['slack']> {
  return {
    botToken,
    appToken: v.SLACK_APP_TOKEN,
    signingSecret: v.SLACK_SIGNING_SECRET,
    port: v.SLACK_PORT ?? 3000,
    apiUrl: v.SLACK_API_URL,
  };
}

/** Every secret value set, for the logger's scrubber: tokens, secrets and a Redis password. */
function secretsOf(v: Values, store: Config['store']): string[] {
  const secrets = [
    v.ESPORTS_API_SECRET,
    v.ESPORTS_API_CLIENT_ID,
    v.ESPORTS_API_CLIENT_SECRET,
    v.DISCORD_TOKEN,
    v.SLACK_BOT_TOKEN,
    v.SLACK_APP_TOKEN,
    v.SLACK_SIGNING_SECRET,
    store.kind === 'redis' ? redisPassword(store.url) : undefined,
  ];
  return secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/**
 * `TZ` when it is an IANA zone this runtime knows ("Europe/Berlin", ":Europe/Berlin"), else the OS
 * zone. A `TZ` that is neither such a zone nor a file path (":/etc/localtime") is refused: the
 * terminal's times and the default digest zone would silently be the OS zone's.
 */
function systemTimeZone(tz: string | undefined): string {
  const named = tz?.trim().replace(/^:/, '');
  if (named && !named.startsWith('/') && !isZone(named)) {
    throw new ConfigError(
      'TZ',
      `must name a time zone, e.g. Europe/Berlin, America/New_York or UTC (got "${named.slice(0, 60)}")`,
    );
  }
  for (const zone of [named, Intl.DateTimeFormat().resolvedOptions().timeZone])
    if (zone && !zone.startsWith('/') && isZone(zone)) return zone;
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

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
