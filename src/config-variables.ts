/**
 * Every environment variable Matchday reads, each with the schema that checks its value and turns it
 * into a typed one, and `readVariables` that applies them to an environment record. Which variables
 * go together, and the configuration built from them, are in config.ts (the only module that reads
 * `process.env`).
 */
import { z } from 'zod';
import { MatchdayError } from './core/errors.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
export const SECRET_VARIABLES = new Set([
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
export const VARIABLES = {
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
  CLOCK_START: z
    .string()
    .refine(
      (v) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
        Number.isFinite(Date.parse(v)),
      {
        error:
          'must be an instant in ISO 8601 with its offset, e.g. 2026-11-22T14:00Z or 2026-11-22T15:00+01:00',
      },
    )
    .transform((v) => new Date(v)),
  ESPORTS_PUSH_URL: z.string().refine((v) => v === 'off' || (/^https?:\/\//.test(v) && URL.canParse(v)), {
    error:
      'must be off, or the push root as an http:// or https:// URL, e.g. https://api.example.com/v3/push',
  }),
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
export type Values = { [K in VariableName]?: z.output<(typeof VARIABLES)[K]> };

/** Every variable Matchday reads, in the order `.env.example` lists them. */
export const CONFIG_VARIABLES = Object.keys(VARIABLES) as VariableName[];

/** The variables set in `env`, each checked and typed; the first bad value throws `ConfigError`. */
export function readVariables(env: Record<string, string | undefined>): Values {
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

/** What an operator reads about one variable in docs/configuration.md (scripts/config-doc.ts writes it). */
export interface VariableDoc {
  /** The section it is listed under, in the order of `.env.example`. */
  group: string;
  /** What happens when it is not set. */
  unset: string;
  /** What it does, in a sentence or two (Markdown). */
  text: string;
}

/** Every variable's documentation: the compiler fails when a variable has none. */
export const VARIABLE_DOCS = {
  ESPORTS_API_URL: {
    group: 'The esports data service',
    unset: 'the local service runs in-process on 127.0.0.1',
    text: "The real service's root, ending in `/v3` (or `/v2`, which also selects v2). Set it with `ESPORTS_API_SECRET` (v3) or the v2 client id and secret.",
  },
  ESPORTS_API_SECRET: {
    group: 'The esports data service',
    unset: 'required with a v3 `ESPORTS_API_URL`',
    text: 'The v3 service secret, sent only in the `Service-Secret` header. Refused with v2.',
  },
  ESPORTS_API_VERSION: {
    group: 'The esports data service',
    unset: '`v3`, or `v2` when `ESPORTS_API_URL` ends in `/v2`',
    text: 'The interface to speak ([data-client.md](data-client.md#running-on-v2-the-earlier-interface)). `npm start -- --api v2` does the same.',
  },
  ESPORTS_API_CLIENT_ID: {
    group: 'The esports data service',
    unset: 'embedded: the local service makes a pair',
    text: 'The v2 client id (with a v2 `ESPORTS_API_URL`).',
  },
  ESPORTS_API_CLIENT_SECRET: {
    group: 'The esports data service',
    unset: 'embedded: the local service makes a pair',
    text: 'The v2 client secret (with a v2 `ESPORTS_API_URL`).',
  },
  ESPORTS_RATE: {
    group: 'The esports data service',
    unset: '5 against the real service; 50 for the embedded one',
    text: "Requests per second your plan allows: the client's budget, and the embedded service's limit.",
  },
  CLOCK_SPEED: {
    group: 'The esports data service',
    unset: '1 (real time)',
    text: 'Embedded service only: run the world, the notifier and the commands this many times faster than real time, e.g. 60 for a simulated minute per second. Refused with `ESPORTS_API_URL`.',
  },
  CLOCK_START: {
    group: 'The esports data service',
    unset: 'now',
    text: "Embedded service only: the instant the clock starts from, in ISO 8601 with its offset, e.g. `2026-11-22T14:00Z`, to watch a given hour of the world (a Sunday's finals) whatever the time; with `CLOCK_SPEED` it runs faster from there. Refused with `ESPORTS_API_URL`.",
  },
  ESPORTS_PUSH_URL: {
    group: 'The esports data service',
    unset: '`<ESPORTS_API_URL>/push` (v3); the embedded service always has push',
    text: 'The push root of the live protocol ([push-protocol.md](push-protocol.md#the-client-matchday-itself)): subscriptions at `<root>/subscriptions`, the socket at the path its `limits` give. `off` turns push off (live states are polled). A service that answers 404 there has no push: Matchday polls, as with `off`. Not used on v2 (push payloads are v3 summaries).',
  },
  ESPORTS_SEED: {
    group: 'The esports data service',
    unset: '42',
    text: "The embedded world's seed: the same seed gives the same teams and series.",
  },
  STORE_URL: {
    group: 'Storage',
    unset: '`sqlite://./data/matchday.sqlite`',
    text: "Where settings, profiles and the feed's snapshot live: `sqlite://<file>` (relative to the working directory) or `redis://[:password@]host:port` ([operations.md](operations.md#many-processes-on-one-redis)).",
  },
  SETTINGS_MIRROR: {
    group: 'Storage',
    unset: '`on`',
    text: 'Redis only: each process keeps a SQLite copy of the settings and of what the notifier sent (`./data/settings-mirror.sqlite`, `./data/ledger-mirror.sqlite`) and puts it back when Redis comes back without its data. `off`: no copy, so an emptied Redis starts with no tenants.',
  },
  LOG_LEVEL: {
    group: 'Logging',
    unset: '`info`',
    text: 'How much is logged (JSON lines on stderr). Secrets and tokens are always redacted.',
  },
  DISCORD_TOKEN: {
    group: 'Discord',
    unset: 'no Discord bot',
    text: 'The bot token from the Discord developer portal: runs the Discord bot ([discord.md](discord.md)).',
  },
  DISCORD_APP_ID: {
    group: 'Discord',
    unset: 'required by `matchday register`',
    text: 'The application id, used by `matchday register` and checked at start.',
  },
  DISCORD_API_URL: {
    group: 'Discord',
    unset: "Discord's own API",
    text: 'Only for tests against a local fake: the REST base.',
  },
  DISCORD_SHARDS: {
    group: 'Discord',
    unset: 'every shard',
    text: "This process's shard ids, e.g. `0,1` ([operations.md](operations.md#discord-sharding)).",
  },
  DISCORD_SHARD_COUNT: {
    group: 'Discord',
    unset: 'one process runs every guild',
    text: 'The total number of shards over all processes.',
  },
  SLACK_BOT_TOKEN: {
    group: 'Slack',
    unset: 'no Slack app',
    text: 'The bot token (`xoxb-...`): runs the Slack app ([slack.md](slack.md)), with `SLACK_APP_TOKEN` or `SLACK_SIGNING_SECRET`.',
  },
  SLACK_APP_TOKEN: {
    group: 'Slack',
    unset: 'HTTP mode, if `SLACK_SIGNING_SECRET` is set',
    text: 'The app-level token (`xapp-...`): Socket Mode. Wins when both modes are configured.',
  },
  SLACK_SIGNING_SECRET: {
    group: 'Slack',
    unset: 'Socket Mode only',
    text: 'The signing secret: HTTP mode, listening on `SLACK_PORT`.',
  },
  SLACK_PORT: {
    group: 'Slack',
    unset: '3000',
    text: 'HTTP mode: the port to listen on, behind your HTTPS proxy.',
  },
  SLACK_API_URL: {
    group: 'Slack',
    unset: "Slack's own API",
    text: 'Only for tests against a local fake: the Web API base.',
  },
  METRICS_PORT: {
    group: 'Operations',
    unset: 'no operations endpoint',
    text: '`/healthz`, `/readyz` and `/metrics` (Prometheus) on this port ([operations.md](operations.md#probes-and-metrics)).',
  },
  METRICS_HOST: {
    group: 'Operations',
    unset: '127.0.0.1 (the image sets 0.0.0.0)',
    text: 'The address the operations endpoint listens on.',
  },
  CALENDAR_PORT: {
    group: 'Calendar feeds',
    unset: 'calendars on `METRICS_PORT` when that is set, else none',
    text: 'Serves the personal and channel calendars (`/me calendar`, `/settings calendar`) on their own port.',
  },
  CALENDAR_HOST: {
    group: 'Calendar feeds',
    unset: '127.0.0.1',
    text: 'The address the calendars listen on.',
  },
  CALENDAR_URL: {
    group: 'Calendar feeds',
    unset: '`http://<host>:<port>`',
    text: "The address people's calendar apps reach, e.g. `https://matchday.example.com` behind a proxy.",
  },
  NOTIFY_INSTANCE: {
    group: 'Notifications',
    unset: 'a random name per start (its claims free after a 15 s lease)',
    text: "This instance's name in the delivery ledger, unique among running instances and the same across its restarts (e.g. `bot-1`): a restart then takes over at once what the killed process had claimed.",
  },
  LEDGER_START_FRESH: {
    group: 'Notifications',
    unset: '`no`: the notifier refuses to run and says why',
    text: '`yes`: start a new ledger when the ledger is damaged or missing after use (a damaged file is kept aside as `ledger.sqlite.damaged-<time>`); what was already sent may then be sent again.',
  },
} satisfies Record<VariableName, VariableDoc>;
