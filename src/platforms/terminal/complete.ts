/**
 * Tab completion in the terminal: commands, subcommands, option names and
 * values — named (`team:Iro`) and positional (`/team Iro`) — from the choices and the name index.
 *
 * Two rules keep it honest:
 * - It never erases what was typed. Readline replaces the typed text with the candidates' common
 *   prefix when that prefix does not continue it, so only candidates that start with exactly what
 *   was typed are given to readline (`candidates`); the name index's other matches (a word inside
 *   the name, a typo) are `offers`, which the chat prints as a list and never inserts.
 * - Everything offered is accepted by the command exactly as shown (test/commands/round-trip).
 *   Values with spaces are quoted when the user opened a quote, else continued as typed (several
 *   words work unquoted); a value holding a colon or a quote is only offered quoted.
 */
import type { AnyCommand, OptionDef } from '../../bot/command.ts';
import type { Runtime } from '../../bot/runtime.ts';
import { optionsOf } from '../../bot/text-args.ts';

type CompletionRuntime = Pick<Runtime, 'commands' | 'autocomplete'>;

interface Completion {
  /** Continuations of `current`: each starts with it exactly (readline inserts their common part). */
  candidates: string[];
  /** The end of the line being completed: the last token, or the words of a positional value. */
  current: string;
  /** Other matches, each a whole replacement for `current`; listed, never inserted. */
  offers: string[];
}

/** Most values looked up per Tab. */
const MAX_VALUES = 25;

const quoted = (value: string) => `"${value.replace(/"/g, '')}"`;
/** Text that cannot stand unquoted: it holds a colon (an option name) or a quote. */
const needsQuotes = (value: string) => /[:"'“”‘’]/.test(value);
/** The value as a whole token, quoted when it has spaces, colons or quotes. */
const asToken = (value: string) => (/[\s:"'“”‘’]/.test(value) ? quoted(value) : value);

interface Token {
  text: string;
  quoted: boolean;
}

/** The complete tokens before the one being typed (quotes respected), and that one. */
function split(line: string): { before: Token[]; current: string } {
  const before: Token[] = [];
  let current = '';
  let quote: string | undefined;
  let wasQuoted = false;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      wasQuoted = true;
      current += char;
    } else if (/\s/.test(char)) {
      if (current) before.push({ text: current, quoted: wasQuoted });
      current = '';
      wasQuoted = false;
    } else current += char;
  }
  return { before, current };
}

/** The values an option can take that match `text`: choices, booleans or names from the index. */
function valuesOf(def: OptionDef, text: string, runtime: CompletionRuntime): string[] {
  const lower = text.toLowerCase();
  if (def.choices?.length) {
    const values = def.choices.map((c) => String(c.value));
    return values.filter((v) => v.toLowerCase().startsWith(lower));
  }
  if (def.type === 'boolean') return ['true', 'false'].filter((v) => v.startsWith(lower));
  if (def.autocomplete)
    return runtime
      .autocomplete(def.autocomplete, text)
      .slice(0, MAX_VALUES)
      .map((c) => c.name);
  return [];
}

/**
 * Sorts values into continuations of what was typed (`typed`, without its opening quote) and
 * offers. `head` comes before the value (`team:` or nothing), `quote` is the quote the user opened.
 */
function sortValues(
  values: readonly string[],
  head: string,
  typed: string,
  quote: string,
): { candidates: string[]; offers: string[] } {
  const candidates: string[] = [];
  const offers: string[] = [];
  for (const value of new Set(values)) {
    const continues = value.toLowerCase().startsWith(typed.toLowerCase());
    // The user's own letters are kept; the rest of the value follows.
    const rest = value.slice(typed.length);
    if (continues && quote) candidates.push(`${head}${quote}${typed}${rest.replace(/["']/g, '')}${quote}`);
    else if (continues && !needsQuotes(value)) candidates.push(`${head}${typed}${rest}`);
    else offers.push(`${head}${asToken(value)}`);
  }
  return { candidates, offers };
}

/** Prefix matches of a fixed list (commands, subcommands, option names); another case is an offer. */
function byPrefix(words: readonly string[], current: string): Completion {
  const lower = current.toLowerCase();
  const matching = words.filter((w) => w.toLowerCase().startsWith(lower));
  return {
    candidates: matching.filter((w) => w.startsWith(current)),
    current,
    offers: matching.filter((w) => !w.startsWith(current)),
  };
}

/** What Tab offers at the end of `line`. Synchronous and local: the name index is in memory. */
export function completionsFor(line: string, runtime: CompletionRuntime): Completion {
  const { before, current } = split(line);
  const commands: AnyCommand[] = runtime.commands;
  if (before.length === 0) {
    const slash = current.startsWith('/') || current === '' ? '/' : '';
    return byPrefix(
      commands.map((c) => `${slash}${c.name}`),
      current,
    );
  }
  const command = commands.find((c) => c.name === before[0]!.text.replace(/^\//, '').toLowerCase());
  if (!command) return { candidates: [], current, offers: [] };
  if (command.subcommands && before.length === 1) return byPrefix(Object.keys(command.subcommands), current);
  const subcommand = command.subcommands ? before[1]?.text.toLowerCase() : undefined;
  const options = optionsOf(command, subcommand);
  const colon = current.indexOf(':');
  if (colon > 0) {
    const name = current.slice(0, colon);
    const def = options[name];
    if (!def) return { candidates: [], current, offers: [] };
    const raw = current.slice(colon + 1);
    const quote = /^["']/.test(raw) ? raw[0]! : '';
    const typed = raw.slice(quote.length);
    return { current, ...sortValues(valuesOf(def, typed, runtime), `${name}:`, typed, quote) };
  }
  // Option names not used yet, and the value being typed: a named option's words, or a positional one.
  const args = before.slice(command.subcommands ? 2 : 1);
  const named = new Set(
    args.filter((t) => !t.quoted && t.text.includes(':')).map((t) => t.text.split(':')[0]!),
  );
  const free = Object.keys(options).filter((name) => !named.has(name));
  const names = byPrefix(
    free.map((name) => `${name}:`),
    current,
  );
  const value =
    namedValue(args, current, options, runtime) ?? positionalValue(args, current, free, options, runtime);
  if (!value) return names;
  const stem = value.current.slice(0, value.current.length - current.length);
  return {
    candidates: [...names.candidates.map((c) => stem + c), ...value.candidates],
    current: value.current,
    offers: value.candidates.length > 0 ? [] : [...names.offers.map((c) => stem + c), ...value.offers],
  };
}

/** Whether Tab can complete values of an option. */
function completable(def: OptionDef | undefined): def is OptionDef {
  return (
    def !== undefined && (Boolean(def.choices?.length) || Boolean(def.autocomplete) || def.type === 'boolean')
  );
}

/**
 * The words after an unquoted `name:value` continue its value (`team:Nova Kra`), when nothing
 * else came between: completed as one value of that option.
 */
function namedValue(
  args: readonly Token[],
  current: string,
  options: Record<string, OptionDef>,
  runtime: CompletionRuntime,
): Completion | undefined {
  let k = args.length - 1;
  while (k >= 0 && !args[k]!.quoted && !args[k]!.text.includes(':')) k--;
  if (k < 0 || args[k]!.quoted || /^["']/.test(current)) return undefined;
  const token = args[k]!.text;
  const colon = token.indexOf(':');
  const name = token.slice(0, colon);
  const def = options[name];
  // Only names run over several words; a finished `when:today ` is followed by a new option.
  if (!def?.autocomplete || def.type !== 'string' || (current === '' && k === args.length - 1))
    return undefined;
  const words = [token.slice(colon + 1), ...args.slice(k + 1).map((t) => t.text), current];
  if (/^["']/.test(words[0]!)) return undefined;
  const typed = words.join(' ');
  return { current: `${name}:${typed}`, ...sortValues(valuesOf(def, typed, runtime), `${name}:`, typed, '') };
}

/**
 * A positional value being typed: quoted words before it are whole values of the first free
 * options; the unquoted words since then, with the current one, are one value (a name of several
 * words) of the next free option, completed when that option has choices or a name source.
 */
function positionalValue(
  args: readonly Token[],
  current: string,
  free: readonly string[],
  options: Record<string, OptionDef>,
  runtime: CompletionRuntime,
): Completion | undefined {
  let index = 0;
  let run: string[] = [];
  for (const token of args) {
    if (!token.quoted && token.text.includes(':')) {
      // A named option ends any run of words.
      if (run.length > 0) index++;
      run = [];
    } else if (token.quoted) {
      if (run.length > 0) index++;
      run = [];
      index++;
    } else run.push(token.text);
  }
  const name = free[index];
  const def = name ? options[name] : undefined;
  if (!completable(def)) return undefined;
  const quote = /^["']/.test(current) ? current[0]! : '';
  if (quote && run.length > 0) return undefined;
  const typed = [...run, current.slice(quote.length)].join(' ');
  if (typed.trim() === '' && !def.choices?.length) return undefined;
  const whole = quote ? current : [...run, current].join(' ');
  return { current: whole, ...sortValues(valuesOf(def, typed, runtime), '', typed, quote) };
}

/** Completions as readline's completer wants them: candidates that continue the line, and its end. */
export function completeLine(line: string, runtime: CompletionRuntime): [string[], string] {
  const { candidates, current } = completionsFor(line, runtime);
  return [candidates, current];
}
