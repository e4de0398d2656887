/**
 * Parses a typed command line (terminal, Slack `/matchday ...`, `matchday ask`) into a command call:
 * `/series live game:cs2 team:"Team Spirit"`. The leading slash is optional; a subcommand word
 * follows the command when it has subcommands; then `name:value` pairs or bare values, which fill
 * the options in declaration order. Double, single and typographic quotes keep spaces together.
 *
 * Values stay strings: the runtime validates and coerces them against the declaration, the same way
 * for every platform.
 */
import type { AnyCommand, OptionsDef } from './command.ts';
import { UserError } from './command.ts';

export interface ParsedCommandText {
  command: string;
  subcommand?: string;
  args: Record<string, string>;
}

/** Opening quote -> closing quote. Typographic quotes come from phones and macOS autocorrect. */
const QUOTES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\u201c': '\u201d',
  '\u2018': '\u2019',
  '\u201e': '\u201c',
};

interface Token {
  text: string;
  /** Index in `text` of the first colon outside quotes, or -1: only such a colon names an option. */
  colon: number;
}

/** Splits on whitespace outside quotes. Throws on an unclosed quote. */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let current = '';
  let colon = -1;
  let started = false;
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    const close = QUOTES[char];
    if (close !== undefined) {
      const end = input.indexOf(close, i + 1);
      if (end === -1) {
        throw new UserError(
          'UNCLOSED_QUOTE',
          `The quote ${char} at position ${i + 1} is never closed. Close it, e.g. team:"Team Spirit".`,
        );
      }
      current += input.slice(i + 1, end);
      started = true;
      i = end + 1;
      continue;
    }
    if (/\s/.test(char)) {
      if (started) tokens.push({ text: current, colon });
      current = '';
      colon = -1;
      started = false;
      i++;
      continue;
    }
    if (char === ':' && colon === -1) colon = current.length;
    current += char;
    started = true;
    i++;
  }
  if (started) tokens.push({ text: current, colon });
  return tokens;
}

/** Levenshtein distance, for "did you mean". */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The candidates closest to `word` (prefix matches first), at most `limit`. */
export function closest(word: string, candidates: readonly string[], limit = 3): string[] {
  const w = word.toLowerCase();
  return candidates
    .map((c) => ({ c, d: c.startsWith(w) || w.startsWith(c) ? 0 : editDistance(w, c) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 2)))
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, limit)
    .map(({ c }) => c);
}

/** The options a call of `command` (with `subcommand`) accepts. */
export function optionsOf(command: AnyCommand, subcommand?: string): OptionsDef {
  if (command.subcommands) return (subcommand ? command.subcommands[subcommand]?.options : undefined) ?? {};
  return command.options ?? {};
}

const OPTION_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Parses one command line against the declared commands. Throws `UserError` saying what would be right. */
export function parseCommandText(text: string, commands: AnyCommand[]): ParsedCommandText {
  const tokens = tokenize(text.trim());
  const first = tokens.shift();
  if (!first || first.text === '' || first.text === '/') {
    throw new UserError('EMPTY_COMMAND', 'Type a command, e.g. /help or /series live.');
  }
  const name = first.text.replace(/^\//, '').toLowerCase();
  const names = commands.map((c) => c.name);
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const near = closest(name, names);
    throw new UserError(
      'UNKNOWN_COMMAND',
      `There is no command "${name.slice(0, 40)}". Commands: ${names.map((n) => `/${n}`).join(', ')}.`,
      near.map((n) => `/${n}`),
    );
  }

  let subcommand: string | undefined;
  if (command.subcommands) {
    const subs = Object.keys(command.subcommands);
    const word = tokens[0];
    if (!word || word.colon !== -1) {
      throw new UserError(
        'MISSING_SUBCOMMAND',
        `/${command.name} needs one of: ${subs.join(', ')}. For example: /${command.name} ${subs[0]}.`,
        subs.map((s) => `/${command.name} ${s}`),
      );
    }
    subcommand = word.text.toLowerCase();
    if (!command.subcommands[subcommand]) {
      throw new UserError(
        'UNKNOWN_SUBCOMMAND',
        `/${command.name} has no "${subcommand.slice(0, 40)}"; it takes one of: ${subs.join(', ')}.`,
        closest(subcommand, subs).map((s) => `/${command.name} ${s}`),
      );
    }
    tokens.shift();
  }

  const options = optionsOf(command, subcommand);
  const declared = Object.keys(options);
  const usage = `/${command.name}${subcommand ? ` ${subcommand}` : ''}`;
  const args: Record<string, string> = {};
  const positionals: string[] = [];

  for (const token of tokens) {
    const key = token.colon > 0 ? token.text.slice(0, token.colon) : '';
    if (key && OPTION_NAME.test(key)) {
      const option = declared.find((d) => d.toLowerCase() === key.toLowerCase());
      if (!option) {
        throw new UserError(
          'UNKNOWN_OPTION',
          declared.length
            ? `${usage} has no option "${key.slice(0, 40)}". Its options: ${declared.map((d) => `${d}:`).join(' ')}.`
            : `${usage} takes no options (got "${key.slice(0, 40)}").`,
          closest(key, declared).map((d) => `${d}:`),
        );
      }
      if (option in args) {
        throw new UserError('DUPLICATE_OPTION', `${option}: is given twice; give it once.`);
      }
      args[option] = token.text.slice(token.colon + 1);
    } else {
      positionals.push(token.text);
    }
  }

  const free = declared.filter((d) => !(d in args));
  if (positionals.length > free.length) {
    const extra = positionals.slice(free.length).join(' ');
    throw new UserError(
      'TOO_MANY_VALUES',
      free.length === 0
        ? `${usage} has no room for "${extra.slice(0, 60)}". Put spaces inside quotes, e.g. team:"Team Spirit"${declared.length ? `; options: ${declared.map((d) => `${d}:`).join(' ')}` : ''}.`
        : `Too many values for ${usage}: it takes ${free.join(', ')} in that order, and "${extra.slice(0, 60)}" is left over. Put names with spaces in quotes, e.g. "Team Spirit".`,
    );
  }
  positionals.forEach((value, index) => {
    args[free[index]!] = value;
  });

  return subcommand ? { command: command.name, subcommand, args } : { command: command.name, args };
}
