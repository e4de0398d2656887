/**
 * `matchday ask "/series live game:cs2"`: runs one command as the terminal tenant's admin and prints
 * the rendered reply, for scripts. Exit codes: 0 answered; 1 a user error (bad command, option or
 * value, unknown name: the message goes to stderr); 2 Matchday could not answer (configuration,
 * store or service down, a bug).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { createApp } from '../../app.ts';
import { validateArgs } from '../../bot/args.ts';
import type { AnyCommand } from '../../bot/command.ts';
import { createLogger } from '../../bot/logger.ts';
import { openTenantStore } from '../../bot/tenants.ts';
import { type KnownName, knownIn, optionsOf, parseCommandText } from '../../bot/text-args.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { cmd, messageText, UserError } from '../../core/errors.ts';
import { TERMINAL_TENANT_ID, TERMINAL_TENANT_KEY } from '../../core/tenant-id.ts';
import { type Translate, translator } from '../../i18n/i18n.ts';
import { TERMINAL_CHANNEL } from './chat.ts';
import { subscribeTerminal } from './first-start.ts';
import { saveImages } from './images.ts';
import { DEFAULT_WIDTH, renderReply } from './render.ts';

/** How long a one-shot waits, after its answer, for a name index loading behind it (then it stops it). */
const NAMES_GRACE_MS = 3000;
/**
 * How long it waits instead when its answer was that the names are still loading (a misspelt name on
 * a new store): the load is what the next `ask` needs, so it finishes it before stopping.
 */
const NAMES_LOADING_GRACE_MS = 30_000;

const USAGE = 'Usage: matchday ask "<command line>", e.g. matchday ask "/series live game:cs2"\n';

/** Runs `matchday ask`: the command line is the arguments, joined. Sets `process.exitCode`. */
export async function run(argv: string[]): Promise<void> {
  const line = argv.join(' ').trim();
  if (line === '' || line === '--help' || line === '-h') {
    process.stderr.write(USAGE);
    process.exitCode = line === '' ? 1 : 0;
    return;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  // Check the line against the declarations before starting anything: a typo answers at once.
  const { commands } = await import('../../../commands/index.ts');
  const first = checkLine(line, commands);
  // Bare words several names could split ("/standings SP Lisbon Masters 16 Mar Group A", as Tab
  // inserts names): settled below by the name index, as the chat settles them (chat.ts).
  const unsettled = 'problem' in first && first.code === 'AMBIGUOUS_VALUES';
  const checked = unsettled ? undefined : first;
  if (checked && 'problem' in checked) {
    // A refusal is written in the terminal tenant's language, read from its store alone.
    const t = await storedTranslator(config);
    const again = t.locale === 'en' ? checked : checkLine(line, commands, t);
    const problem = 'problem' in again ? again.problem : checked.problem;
    process.stderr.write(`${problem}\n`);
    process.exitCode = 1;
    return;
  }
  // stdout carries only the answer; logs go to stderr, and only warnings unless asked for more.
  const level = config.logLevel === 'info' ? 'warn' : config.logLevel;
  const logger = createLogger({ level, secrets: new Set(config.secrets) });
  let app: App;
  try {
    // /help reads nothing; any other command starts from the stored name index and feed.
    const needsData = checked?.command.name !== 'help';
    app = await createApp(config, {
      logger,
      commands,
      oneShot: true,
      // A store without names does not hold the command up: the read model answers from the service
      // and a name is looked up when it is asked for, while the index loads behind it.
      ...(needsData ? { feed: 'reader' as const, namesInBackground: true } : { skipNameRefresh: true }),
    });
  } catch (error) {
    process.stderr.write(`Matchday could not start: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    await firstUse(app, config.systemTimeZone);
    const settled = checked ?? (await settleWithNames(app, line, commands, config));
    if ('problem' in settled) {
      process.stderr.write(`${settled.problem}\n`);
      process.exitCode = 1;
      return;
    }
    const code = await answer(app, settled.parsed);
    // The answer is out; an index loading behind it may finish for the next `ask` to start warm.
    const grace = code === 'NAMES_LOADING' ? NAMES_LOADING_GRACE_MS : NAMES_GRACE_MS;
    if (app.namesWarming)
      await Promise.race([app.namesWarming.catch(() => {}), delay(grace, undefined, { ref: false })]);
  } finally {
    await app.close();
  }
}

type App = Awaited<ReturnType<typeof createApp>>;

/**
 * A line whose bare words several names could split, read again with the name index: the stored
 * one, or on a store without names the first load (the filtered look-ups a command makes cannot
 * tell which words make a name). Still ambiguous: the message in the terminal tenant's language.
 */
async function settleWithNames(
  app: App,
  line: string,
  commands: AnyCommand[],
  config: ReturnType<typeof loadConfig>,
): Promise<ReturnType<typeof checkLine>> {
  if (!app.names.loaded && app.namesWarming) await app.namesWarming.catch(() => {});
  const known = knownIn((source, value) => app.runtime.autocomplete(source, value));
  const settled = checkLine(line, commands, translator('en'), known);
  if (!('problem' in settled)) return settled;
  const t = await storedTranslator(config);
  return t.locale === 'en' ? settled : checkLine(line, commands, t, known);
}
type ParsedCommandText = ReturnType<typeof parseCommandText>;

/**
 * The line parsed and its arguments checked against the command's declaration; or, for a user
 * error (bad command, option or value), the message to show, with its suggestions.
 */
function checkLine(
  line: string,
  commands: AnyCommand[],
  t: Translate = translator('en'),
  known?: KnownName,
): { parsed: ParsedCommandText; command: AnyCommand } | { problem: string; code: string } {
  try {
    const parsed = parseCommandText(line, commands, t, known);
    const command = commands.find((c) => c.name === parsed.command)!;
    const usage = cmd(`${parsed.command}${parsed.subcommand ? ` ${parsed.subcommand}` : ''}`);
    validateArgs(usage, optionsOf(command, parsed.subcommand), parsed.args, t);
    return { parsed, command };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const hint = error.suggestions.length
      ? ` ${t('platform.didYouMean')}: ${error.suggestions.map(messageText).join(', ')}?`
      : '';
    return { problem: `${error.message}${hint}`, code: error.code };
  }
}

/**
 * The terminal tenant set up on its first use, as `matchday start` sets it up (first-start.ts): in
 * the system's time zone (`TZ`), not UTC. A store that cannot say is left to the answer to report.
 */
async function firstUse(app: App, timezone: string): Promise<void> {
  try {
    if (!(await app.tenants.list()).includes(TERMINAL_TENANT_ID))
      await subscribeTerminal(app.tenants, app.clock.now(), timezone);
  } catch {
    // the reply itself says if the store failed
  }
}

/**
 * Runs the command as the terminal tenant's admin: the reply goes to stdout (exit 0), or to stderr
 * (exit 1 for a user error, 2 when Matchday could not answer). Returns the failure's code, if any.
 */
async function answer(app: App, parsed: ParsedCommandText): Promise<string | undefined> {
  const colour = process.stdout.isTTY === true;
  const result = await app.runtime.run({
    platform: 'terminal',
    tenantKey: TERMINAL_TENANT_KEY,
    user: { id: 'local', name: 'matchday ask', isAdmin: true },
    channel: TERMINAL_CHANNEL,
    command: parsed.command,
    ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
    args: parsed.args,
  });
  let timezone = 'UTC';
  try {
    timezone = (await app.tenants.get(TERMINAL_TENANT_ID)).timezone;
  } catch {
    // the reply itself already says if the store failed
  }
  const { t } = result;
  // Fitted to the terminal's width; not wrapped at all when the output is a file or a pipe.
  const width = process.stdout.isTTY ? process.stdout.columns || DEFAULT_WIDTH : Number.POSITIVE_INFINITY;
  const text = renderReply(saveImages(result.reply), { colour, timezone, t, now: app.clock.now(), width });
  if (result.outcome === 'ok') {
    process.stdout.write(`${text}\n`);
    process.exitCode = 0;
  } else {
    process.stderr.write(
      `${renderReply(result.reply, {
        colour: process.stderr.isTTY === true,
        timezone,
        t,
        width: process.stderr.isTTY ? process.stderr.columns || DEFAULT_WIDTH : Number.POSITIVE_INFINITY,
      })}\n`,
    );
    process.exitCode = result.outcome === 'error' ? 2 : 1;
  }
  return result.code;
}

/** The terminal tenant's language as its stored settings say; English when the store cannot say. Never throws. */
async function storedTranslator(config: ReturnType<typeof loadConfig>): Promise<Translate> {
  try {
    const logger = createLogger({ level: 'error', secrets: new Set(config.secrets) });
    const tenants = await openTenantStore(config.store, { logger, mirrorPath: false });
    try {
      return translator((await tenants.get(TERMINAL_TENANT_ID)).language);
    } finally {
      await tenants.close();
    }
  } catch {
    return translator('en');
  }
}
