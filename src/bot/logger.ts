/**
 * The process's logger: pino, with secrets kept out twice over. Known fields (tokens, secrets,
 * authorization headers, Slack `response_url`s) are redacted by path, and every line is scrubbed
 * of the configured secret values and of anything shaped like a token before it is written, so a
 * secret inside an error message or a URL cannot leak either.
 */

import { createRequire } from 'node:module';
import type Cron from 'node-cron';
import { pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogLevel } from '../config.ts';

export type Logger = pino.Logger;

interface LoggerOptions {
  level?: LogLevel;
  /**
   * Secret values to scrub from every line. A live set: values added later (the embedded service's
   * generated secret) are scrubbed from then on.
   */
  secrets?: Set<string>;
  /** Where lines go (default: stderr). Tests pass a collector. */
  destination?: { write(line: string): unknown };
  /** Human-readable lines instead of JSON (for a terminal). */
  pretty?: boolean;
  /** Append JSON lines to this file instead (the terminal chat keeps its screen for the chat). */
  file?: string;
}

/** Field paths whose values are never logged. */
const REDACT_PATHS = [
  'secret',
  'token',
  'password',
  'authorization',
  'signingSecret',
  'botToken',
  'appToken',
  'response_url',
  'responseUrl',
  'headers.authorization',
  'headers["service-secret"]',
  '*.secret',
  '*.token',
  '*.password',
  '*.authorization',
  '*.signingSecret',
  '*.botToken',
  '*.appToken',
  '*.response_url',
  '*.responseUrl',
  '*.headers.authorization',
  '*.headers["service-secret"]',
];

/** Shapes of credentials that may turn up inside free text, with what to keep of them. */
const TOKEN_PATTERNS: [RegExp, string][] = [
  [/xox[abposr]-[A-Za-z0-9-]+/g, 'xox*-[redacted]'],
  [/xapp-[A-Za-z0-9-]+/g, 'xapp-[redacted]'],
  // Discord bot tokens: base64 user id, timestamp, HMAC.
  [/[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,40}/g, '[redacted discord token]'],
  // Interaction tokens live in webhook and callback paths.
  [/(\/(?:webhooks|interactions)\/\d+\/)[A-Za-z0-9._-]{20,}/g, '$1[redacted]'],
  [/https:\/\/hooks\.slack\.com\/[^\s"'\\]+/g, 'https://hooks.slack.com/[redacted]'],
  [/(Bearer|Bot)\s+[A-Za-z0-9._~+/=-]{8,}/g, '$1 [redacted]'],
  [/([a-z]+:\/\/[^:@/\s"\\]*:)[^@/\s"\\]+@/gi, '$1[redacted]@'],
  [/([?&](?:secret|token|access_token)=)[^&\s"\\]+/gi, '$1[redacted]'],
  // Secret-named JSON fields at any depth (pino's path redaction covers fixed depths only).
  [
    /("(?:token|secret|password|authorization|signingSecret|botToken|appToken|response_url|responseUrl|service-secret)":)"(?:[^"\\]|\\.)*"/gi,
    '$1"[redacted]"',
  ],
  // Response URLs are bearer capabilities: Slack's own, and loopback fakes of it in tests.
  [/(\/response\/)[A-Za-z0-9_-]+/g, '$1[redacted]'],
];

/** Scrubs secret values and token-shaped text from `line`. */
export function scrub(line: string, secrets: Iterable<string> = []): string {
  let out = line;
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; config requires real secrets to be longer.
    if (secret.length < 6) continue;
    out = out.split(secret).join('[redacted]');
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = out.split(escaped).join('[redacted]');
  }
  for (const [pattern, replacement] of TOKEN_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Human-readable lines on stderr. pino-pretty (and its dependencies) load only here, when a terminal
 * asks for them: `matchday ask` and the services log JSON and never pay for it.
 */
function prettyStream(): { write(line: string): unknown } {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pretty({ colorize: process.stderr.isTTY === true, destination: 2, sync: true });
}

/** Creates the logger. Every line passes through `scrub` on its way out. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? new Set<string>();
  const target: { write(line: string): unknown } =
    options.destination ??
    (options.file
      ? pino.destination({ dest: options.file, mkdir: true, sync: true })
      : options.pretty
        ? prettyStream()
        : pino.destination({ dest: 2, sync: true }));
  const scrubbing = { write: (line: string) => target.write(scrub(line, secrets)) };
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: undefined,
    },
    scrubbing,
  );
}

/**
 * Sends node-cron's own messages (a missed or overlapping run, a failed task) to `logger`. Left to
 * itself node-cron writes them to the console, which in `npm start` is the terminal chat. Called
 * by whoever loads node-cron (the notifier), so a process without one never loads it.
 */
export function routeCronLogs(logger: Logger, cron: typeof Cron): void {
  const log = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string | Error, err?: Error) => {
    const error = message instanceof Error ? message : err;
    logger[level](
      { source: 'node-cron', ...(error ? { err: error } : {}) },
      `node-cron: ${String(message instanceof Error ? message.message : message)}`,
    );
  };
  cron.setLogger({ debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') });
}
