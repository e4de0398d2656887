/**
 * `matchday service [flags]`: serves the local esports data service until interrupted.
 * A bad flag prints what was wrong and the usage, and exits with status 2.
 */
import { Clock } from '../core/clock.ts';
import type { FaultOptions } from './faults.ts';
import { DEFAULT_SECRET, type ServiceOptions, startService } from './index.ts';

const USAGE = `Usage: matchday service [options]

  --port <n>             port to listen on (default 4100; 0 picks a free one)
  --host <addr>          address to listen on (default 127.0.0.1)
  --secret <s>           the secret clients must send (default matchday-local)
  --seed <n>             world seed (default 1): same seed, same world
  --now <ISO>            freeze the clock at this instant (e.g. 2026-11-22T18:00:00Z)
  --speed <x>            run the clock x times faster than real time (default 1)
  --rate <n>             requests per second per secret, 0 turns the limit off (default 5)
  --burst <n>            rate-limit burst (default 5)
  --scale <x>            multiply the number of series per week (default 1)
  --v2-client <id:secret> accept these v2 client credentials (repeatable; default: a generated
                         pair, printed at start); the v2 limit is --rate per second and 60 x
                         --rate per minute
  --latency <ms>         fault: add this latency to every answer
  --error-rate <0..1>    fault: share of requests answered 500
  --rate-limit-storm     fault: answer every request 429
  --drop-rate <0..1>     fault: share of connections dropped
  --malformed-rate <0..1> fault: share of answers with a malformed body
`;

class FlagError extends Error {}

function number(flag: string, text: string | undefined, check: (n: number) => boolean, what: string): number {
  if (text === undefined || text.startsWith('--')) throw new FlagError(`${flag} needs a value: ${what}.`);
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new FlagError(`${flag} "${text}" is not valid: expected ${what}.`);
  return n;
}

type ParsedArgs = ServiceOptions & { now?: Date; speed?: number };

/** A flag that takes a number: what the number must be, and the option or fault it sets. */
type NumberFlag = { check: (n: number) => boolean; what: string } & (
  | { option: 'port' | 'seed' | 'speed' | 'rate' | 'burst' | 'scale' }
  | { fault: 'latencyMs' | 'errorRate' | 'dropRate' | 'malformedRate' }
);

const share = (n: number) => n >= 0 && n <= 1;
const SHARE = 'a share from 0 to 1';

const NUMBER_FLAGS = new Map<string, NumberFlag>([
  [
    '--port',
    {
      option: 'port',
      check: (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
      what: 'a port from 0 to 65535',
    },
  ],
  ['--seed', { option: 'seed', check: (n) => Number.isSafeInteger(n), what: 'a whole number' }],
  ['--speed', { option: 'speed', check: (n) => n > 0, what: 'a positive number such as 60' }],
  ['--rate', { option: 'rate', check: (n) => n >= 0, what: 'requests per second, 0 or more' }],
  [
    '--burst',
    { option: 'burst', check: (n) => Number.isInteger(n) && n >= 1, what: 'a whole number of 1 or more' },
  ],
  ['--scale', { option: 'scale', check: (n) => n > 0 && n <= 50, what: 'a positive number up to 50' }],
  ['--latency', { fault: 'latencyMs', check: (n) => n >= 0, what: 'milliseconds, 0 or more' }],
  ['--error-rate', { fault: 'errorRate', check: share, what: SHARE }],
  ['--drop-rate', { fault: 'dropRate', check: share, what: SHARE }],
  ['--malformed-rate', { fault: 'malformedRate', check: share, what: SHARE }],
]);

/** The flags that take text: each checks its value and sets it. */
const TEXT_FLAGS = new Map<string, (options: ParsedArgs, text: string | undefined) => void>([
  [
    '--host',
    (options, host) => {
      if (!host || host.startsWith('--')) throw new FlagError('--host needs an address, e.g. 127.0.0.1.');
      options.host = host;
    },
  ],
  [
    '--secret',
    (options, secret) => {
      if (!secret || secret.startsWith('--')) throw new FlagError('--secret needs a value.');
      options.secret = secret;
    },
  ],
  [
    '--now',
    (options, text) => {
      const ms = text === undefined ? Number.NaN : Date.parse(text);
      if (Number.isNaN(ms))
        throw new FlagError(
          `--now "${text ?? ''}" is not valid: expected an ISO 8601 instant such as 2026-11-22T18:00:00Z.`,
        );
      options.now = new Date(ms);
    },
  ],
  [
    '--v2-client',
    (options, pair) => {
      const at = pair?.indexOf(':') ?? -1;
      if (!pair || pair.startsWith('--') || at < 1 || at === pair.length - 1)
        throw new FlagError(
          '--v2-client needs a client id and secret as ID:SECRET, e.g. --v2-client bot:s3cret.',
        );
      options.v2Clients = [
        ...(options.v2Clients ?? []),
        { id: pair.slice(0, at), secret: pair.slice(at + 1) },
      ];
    },
  ],
]);

/** Parses the flags into service options (exported for tests). */
export function parseServiceArgs(argv: string[]): ParsedArgs {
  const options: ParsedArgs = { port: 4100, secret: DEFAULT_SECRET };
  const faults: Partial<FaultOptions> = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const numeric = NUMBER_FLAGS.get(flag);
    const text = TEXT_FLAGS.get(flag);
    if (flag === '--rate-limit-storm') faults.rateLimitStorm = true;
    else if (numeric) {
      const n = number(flag, argv[++i], numeric.check, numeric.what);
      if ('option' in numeric) options[numeric.option] = n;
      else faults[numeric.fault] = n;
    } else if (text) text(options, argv[++i]);
    else throw new FlagError(`Unknown option "${flag}".`);
  }
  if (Object.keys(faults).length > 0) options.faults = faults;
  return options;
}

/** Entry point of `matchday service`. */
export async function run(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  let options: ReturnType<typeof parseServiceArgs>;
  try {
    options = parseServiceArgs(argv);
  } catch (error) {
    if (error instanceof FlagError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
  const clock = new Clock({
    start: options.now,
    frozen: options.now !== undefined && options.speed === undefined,
    speed: options.speed,
  });
  const service = await startService({ ...options, clock }).catch((error: NodeJS.ErrnoException) => {
    process.stderr.write(
      `Cannot listen on ${options.host ?? '127.0.0.1'}:${options.port}: ${error.code ?? error.message}.\n`,
    );
    process.exitCode = 1;
    return null;
  });
  if (!service) return;
  process.stdout.write(`esports data service (v3) at ${service.url}\n`);
  process.stdout.write(`esports data service (v2) at ${service.v2.url}\n`);
  process.stdout.write(`push (WebSocket, docs/push-protocol.md) at ${service.push.url}\n`);
  // A generated pair is the only way to learn the credentials, so it is printed; given ones are not.
  if (!options.v2Clients?.length) {
    const pair = service.v2.clients[0]!;
    process.stdout.write(`  v2 client (generated): --v2-client ${pair.id}:${pair.secret}\n`);
  }
  const stop = () => {
    void service.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
