/**
 * The terminal chat: a readline prompt that acts as one tenant (`terminal:local`) with an admin
 * user. Lines are parsed like Slack text (`/series live game:cs2`), run through the runtime and
 * rendered for the terminal. Tab completes commands, subcommands, option names and values (choices
 * and the name index). Notifications are printed above the prompt without garbling what is typed.
 *
 * Piped input (not a TTY) works too: lines run in order, no prompt or colour is written, and the
 * chat closes once the input ends and the last command has answered.
 */
import { userInfo } from 'node:os';
import { clearLine, createInterface, cursorTo, type Interface, moveCursor } from 'node:readline';
import type { ChannelCheck, CommandUser } from '../../bot/command.ts';
import type { Logger } from '../../bot/logger.ts';
import { COLOURS, errorReply, type Reply } from '../../bot/reply.ts';
import type { Runtime } from '../../bot/runtime.ts';
import type { TenantStore } from '../../bot/tenants.ts';
import { knownIn, parseCommandText } from '../../bot/text-args.ts';
import type { Clock } from '../../core/clock.ts';
import { UserError } from '../../core/errors.ts';
import { TERMINAL_TENANT_ID, TERMINAL_TENANT_KEY } from '../../core/tenant-id.ts';
import { type Translate, translator } from '../../i18n/i18n.ts';
import { completionsFor } from './complete.ts';
import { saveImages } from './images.ts';
import { clipLine, DEFAULT_WIDTH, renderReply } from './render.ts';

export { completeLine } from './complete.ts';

/** The terminal is one tenant (`TERMINAL_TENANT_ID`) with one channel. */
export const TERMINAL_CHANNEL = { id: 'terminal', name: 'terminal' };

interface ChatHost {
  runtime: Pick<Runtime, 'commands' | 'run' | 'autocomplete'>;
  tenants: Pick<TenantStore, 'get'>;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
}

interface ChatOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean; hasColors?: () => boolean; columns?: number };
  /** Default: colour when the output is a TTY that supports it. */
  colour?: boolean;
  /** Default: the output is a TTY. Interactive mode shows a prompt and offers completion. */
  interactive?: boolean;
  user?: CommandUser;
  prompt?: string;
  /** Previous lines, most recent first (readline's order). */
  history?: string[];
  /** Where pictures (standings, brackets) are saved; default `./data/images`. */
  imagesDir?: string;
}

export interface Chat {
  /** Prints text above the prompt (notifications, notices). */
  print(text: string): void;
  /**
   * Renders a reply in the tenant's time zone, fitted to the terminal's width, and prints it above
   * the prompt. With `update`, a one-line update of a message: it rewrites the previous update of
   * the same message in place when that is still the last line printed (on a TTY).
   */
  showReply(reply: Reply, header?: string, update?: { replaces: string }): Promise<void>;
  /** Resolves when the chat has ended (exit typed, input ended) and the last command answered. */
  readonly closed: Promise<void>;
  close(): void;
  /** The lines typed this session, most recent first. */
  history(): string[];
}

/** Every channel id is acceptable in the terminal: notifications for it print here, labelled. */
const terminalChannels: ChannelCheck = {
  async check(channelId) {
    return /^[A-Za-z0-9_.-]{1,80}$/.test(channelId)
      ? { ok: true, name: channelId }
      : { ok: false, missing: ['a channel name'] };
  },
};

/** Starts the chat on the given streams. */
export function startChat(host: ChatHost, options: ChatOptions): Chat {
  const { output } = options;
  const interactive = options.interactive ?? output.isTTY === true;
  const colour = options.colour ?? (interactive && (output.hasColors?.() ?? true));
  const user: CommandUser = options.user ?? { id: 'local', name: safeUserName(), isAdmin: true };
  const prompt = options.prompt ?? (colour ? '\u001b[1mmatchday>\u001b[0m ' : 'matchday> ');

  const rl: Interface = createInterface({
    input: options.input,
    output: interactive ? output : undefined,
    terminal: interactive,
    historySize: 500,
    ...(options.history ? { history: options.history } : {}),
    ...(interactive ? { completer: (line: string) => complete(line, host.runtime, screen.print) } : {}),
  });
  rl.setPrompt(prompt);

  const state: PromptState = { busy: false, ended: false, lastUpdate: undefined };
  const screen = screenOf(rl, output, interactive, state);
  /**
   * Columns to fit: the terminal's, read at each reply (it may be resized); 80 when a terminal does
   * not say; no wrapping when the output is no terminal (a file or a pipe).
   */
  const width = () =>
    output.isTTY === true || interactive ? output.columns || DEFAULT_WIDTH : Number.POSITIVE_INFINITY;
  const showReply = replyPrinter(host, screen, { colour, width, imagesDir: options.imagesDir });
  const typed: string[] = [...(options.history ?? [])];

  /** A typed line: `exit` ends the chat; a command is remembered in the history and answered. */
  async function handle(line: string): Promise<void> {
    const text = line.trim();
    if (text === '') return;
    if (EXIT.test(text)) {
      rl.close();
      return;
    }
    if (typed[0] !== text) typed.unshift(text);
    await showReply(await answerLine(host, user, text));
  }
  const closed = answerLines(rl, state, { interactive, output, logger: host.logger }, handle);
  if (interactive) rl.prompt();

  return {
    print: screen.print,
    showReply,
    closed,
    close: () => rl.close(),
    history: () => [...typed],
  };
}

/** `exit`, `quit`, `/exit` or `/quit`: the chat ends. */
const EXIT = /^\/?(exit|quit)$/i;

/** What the prompt is doing, shared by the line loop and the printing above the prompt. */
interface PromptState {
  /** A line is being answered: text is printed as it comes, and the prompt redrawn after the answer. */
  busy: boolean;
  /** The input has ended (exit typed, Ctrl+C, the end of piped input). */
  ended: boolean;
  /** The message whose one-line update is the last line printed above the prompt. */
  lastUpdate: string | undefined;
}

/** Printing above the prompt without garbling what is typed. */
interface Screen {
  print(text: string): void;
  /** One line in place of the previous update of the same message, when that is the last line. */
  printUpdate(id: string, line: string): void;
}

/** The chat's printing over its readline prompt (plain writes when not interactive). */
function screenOf(
  rl: Interface,
  output: NodeJS.WritableStream,
  interactive: boolean,
  state: PromptState,
): Screen {
  /** Nothing is being answered and the prompt is on screen, with whatever the user has typed. */
  const atPrompt = () => interactive && !state.busy && !state.ended;
  function print(text: string): void {
    state.lastUpdate = undefined;
    if (atPrompt()) {
      // Move to the start of the prompt line, print, then redraw the prompt with what was typed.
      clearLine(output, 0);
      cursorTo(output, 0);
      output.write(`${text}\n`);
      rl.prompt(true);
    } else {
      output.write(`${text}\n`);
    }
  }
  function printUpdate(id: string, line: string): void {
    if (atPrompt() && state.lastUpdate === id) {
      clearLine(output, 0);
      cursorTo(output, 0);
      moveCursor(output, 0, -1);
      clearLine(output, 0);
      output.write(`${line}\n`);
      rl.prompt(true);
    } else {
      print(line);
    }
    state.lastUpdate = id;
  }
  return { print, printUpdate };
}

/**
 * The chat's `showReply`: a reply rendered in the tenant's time zone, fitted to the width, printed
 * above the prompt; a notification under its header, an update on one line.
 */
function replyPrinter(
  host: Pick<ChatHost, 'tenants' | 'clock'>,
  screen: Screen,
  look: { colour: boolean; width: () => number; imagesDir: string | undefined },
): Chat['showReply'] {
  return async (reply, header, update) => {
    const columns = look.width();
    const reader = await terminalReader(host.tenants);
    const text = renderReply(saveImages(reply, look.imagesDir), {
      colour: look.colour,
      timezone: reader.timezone,
      t: reader.t,
      now: host.clock.now(),
      width: columns,
      // An answer names its zone once; notifications, many and short, do not repeat it.
      nameZone: !header,
    });
    if (!header) return screen.print(`${text}\n`);
    const label = look.colour ? `\u001b[2m${header}\u001b[0m` : header;
    if (update)
      return screen.printUpdate(update.replaces, clipLine(`${label} · ${text.replace(/\n/g, ' ')}`, columns));
    // A notification is one block under its header, printed at once above the prompt; its cards
    // (a digest's tournaments) keep the blank line between them, as in an answer.
    screen.print(`${label}\n${text}\n`);
  };
}

/** The terminal tenant's time zone; UTC when the store cannot say. */
/** The terminal tenant's time zone and language (UTC and English when the store cannot say). */
async function terminalReader(tenants: ChatHost['tenants']): Promise<{ timezone: string; t: Translate }> {
  try {
    const settings = await tenants.get(TERMINAL_TENANT_ID);
    return { timezone: settings.timezone, t: translator(settings.language) };
  } catch {
    return { timezone: 'UTC', t: translator('en') };
  }
}

/**
 * Tab: continuations of what was typed go to readline; other matches (a word inside a name, a
 * typo) are listed above the prompt and the line is left as typed.
 */
function complete(
  line: string,
  runtime: ChatHost['runtime'],
  print: (text: string) => void,
): [string[], string] {
  const { candidates, current, offers } = completionsFor(line, runtime);
  if (candidates.length === 0 && offers.length > 0)
    print(
      `Matches for ${JSON.stringify(current)}: ${offers.slice(0, 10).join('  ')}${offers.length > 10 ? `  and ${offers.length - 10} more` : ''}`,
    );
  return [candidates, current];
}

/**
 * Answers typed lines one at a time, in the order typed, with the prompt redrawn after each answer.
 * Resolves once the input has ended (exit, Ctrl+C, the end of piped input) and the last line is answered.
 */
function answerLines(
  rl: Interface,
  state: PromptState,
  chat: { interactive: boolean; output: NodeJS.WritableStream; logger: Logger },
  handle: (line: string) => Promise<void>,
): Promise<void> {
  let queue = Promise.resolve();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  rl.on('line', (line) => {
    state.lastUpdate = undefined;
    queue = queue.then(async () => {
      if (state.ended && EXIT.test(line.trim())) return;
      state.busy = true;
      try {
        await handle(line);
      } catch (error) {
        chat.logger.error({ err: error }, 'terminal chat failed to answer');
      } finally {
        state.busy = false;
        if (chat.interactive && !state.ended) rl.prompt();
      }
    });
  });
  rl.on('close', () => {
    state.ended = true;
    queue.then(() => {
      if (chat.interactive) chat.output.write('\n');
      resolveClosed();
    });
  });
  // Ctrl+C at the prompt ends the chat (readline would otherwise swallow it).
  rl.on('SIGINT', () => rl.close());
  return closed;
}

/** A typed line, parsed and run as the terminal tenant's user; every failure becomes a reply. */
async function answerLine(host: ChatHost, user: CommandUser, text: string): Promise<Reply> {
  // The parser's refusals come before the runtime: written in the tenant's language read here.
  const { t } = await terminalReader(host.tenants);
  try {
    // The name index settles words Tab inserted unquoted (a name of several words before another name).
    const known = knownIn((source, value) => host.runtime.autocomplete(source, value));
    const parsed = parseCommandText(text, host.runtime.commands, t, known);
    const result = await host.runtime.run({
      platform: 'terminal',
      tenantKey: TERMINAL_TENANT_KEY,
      user,
      channel: TERMINAL_CHANNEL,
      command: parsed.command,
      ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
      args: parsed.args,
      channels: terminalChannels,
    });
    return result.reply;
  } catch (error) {
    if (!(error instanceof UserError)) host.logger.error({ err: error }, 'terminal input failed');
    // Before the runtime (the line did not parse): the card is in the tenant's language, as the parser's words.
    return error instanceof UserError
      ? errorReply(t, t('platform.titles.notQuite'), error.rich, { suggestions: error.suggestions })
      : errorReply(t, t('platform.titles.sorry'), t('platform.runtime.bugShort'), { colour: COLOURS.error });
  }
}

function safeUserName(): string {
  try {
    return userInfo().username || 'you';
  } catch {
    return 'you';
  }
}
