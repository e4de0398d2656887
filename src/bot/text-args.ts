/**
 * Parses a typed command line (terminal, Slack `/matchday ...`, `matchday ask`) into a command call:
 * `/series live game:cs2 team:"Team Spirit"`. The leading slash is optional; a subcommand word
 * follows the command when it has subcommands; then `name:value` pairs or bare values, which fill
 * the options in declaration order. Double, single and typographic quotes keep spaces together; a
 * name of several words also works unquoted where the words after it cannot be another option
 * (`/team Nova Krakens 3`: "Krakens" is no count, so it belongs to the team). A bare word that names
 * a yes/no option turns it on (`/me dms results`).
 *
 * Values stay strings: the runtime validates and coerces them against the declaration, the same way
 * for every platform.
 */

import { editDistance } from '../core/edit-distance.ts';
import { type CommandRef, cmd, commandList, UserError } from '../core/errors.ts';
import { type MessageKey, type MessageValues, spanned, type Translate, translator } from '../i18n/i18n.ts';
import type { AutocompleteSource, Choice } from './choice.ts';
import type { AnyCommand, OptionDef, OptionsDef } from './command.ts';

/**
 * Whether `value` is exactly a name the index offers for `source` (as Tab inserts it): settles
 * readings the words alone cannot (`/standings SP Lisbon Masters` is one tournament, not "SP" and
 * a stage "Lisbon Masters").
 */
export type KnownName = (source: AutocompleteSource, value: string) => boolean;

/**
 * `KnownName` over an autocomplete: the value is an offered label ("SP Lisbon Masters 16-22 Mar
 * 2026 (SP, tier 1)") or the name that starts it, before " (" or " · ".
 */
export function knownIn(autocomplete: (source: AutocompleteSource, text: string) => Choice[]): KnownName {
  return (source, value) => {
    const typed = value.trim().toLowerCase();
    if (typed === '') return false;
    return autocomplete(source, value).some((choice) => {
      const label = choice.name.toLowerCase();
      return label === typed || label.startsWith(`${typed} (`) || label.startsWith(`${typed} · `);
    });
  };
}

interface ParsedCommandText {
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
  /** True when quotes made the token: it is one whole value, never joined with other words. */
  quoted?: boolean;
}

/** Splits on whitespace outside quotes. Throws on an unclosed quote (written with `t`). */
export function tokenize(input: string, t: Translate = translator('en')): Token[] {
  const tokens: Token[] = [];
  let current = '';
  let colon = -1;
  let started = false;
  let quoted = false;
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    const close = QUOTES[char];
    if (close !== undefined) {
      const end = input.indexOf(close, i + 1);
      if (end === -1) {
        throw new UserError(
          'UNCLOSED_QUOTE',
          t('platform.parse.unclosedQuote', { quote: char, position: t.number(i + 1) }),
        );
      }
      current += input.slice(i + 1, end);
      started = true;
      quoted = true;
      i = end + 1;
      continue;
    }
    if (/\s/.test(char)) {
      if (started) tokens.push({ text: current, colon, ...(quoted ? { quoted } : {}) });
      current = '';
      colon = -1;
      started = false;
      quoted = false;
      i++;
      continue;
    }
    if (char === ':' && colon === -1) colon = current.length;
    current += char;
    started = true;
    i++;
  }
  if (started) tokens.push({ text: current, colon, ...(quoted ? { quoted } : {}) });
  return tokens;
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

/** Two sides of "vs": a series named by its teams ("Iron Pilots vs Nova Krakens"). */
const VERSUS = /^\S.*\svs\.?\s.*\S$/i;

/** True when `value` (one word, or several joined by spaces) can be a value of `def`. */
function fits(def: OptionDef, value: string, words: number): boolean {
  if (words > 1 && def.type !== 'string') return false;
  if (def.bareSeries && !/^\d{1,12}$/.test(value) && !VERSUS.test(value)) return false;
  if (def.bareFits && !def.bareFits(value)) return false;
  switch (def.type) {
    case 'integer':
    case 'number': {
      const pattern = def.type === 'integer' ? /^[+-]?\d+$/ : /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
      if (!pattern.test(value)) return false;
      const n = Number(value);
      return (def.min === undefined || n >= def.min) && (def.max === undefined || n <= def.max);
    }
    case 'boolean':
      return /^(true|yes|on|1|false|no|off|0)$/i.test(value);
    case 'channel':
    case 'role':
      return true;
    default: {
      if ([...value].length > (def.max ?? 100)) return false; // the runtime's default text limit
      if (!def.choices?.length) return true;
      const lower = value.toLowerCase();
      return def.choices.some(
        (c) => String(c.value).toLowerCase() === lower || c.name.toLowerCase() === lower,
      );
    }
  }
}

/** Every way to give `words` to `free` options in order, each option one word or (text) several. */
function readings(words: Token[], free: string[], options: OptionsDef): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const walk = (i: number, j: number, current: Record<string, string>) => {
    if (found.length > 50) return;
    if (i === words.length) {
      found.push({ ...current });
      return;
    }
    if (j === free.length) return;
    const name = free[j]!;
    const def = options[name]!;
    let fitted = false;
    for (let end = i + 1; end <= words.length; end++) {
      const group = words.slice(i, end);
      if (end - i > 1 && (def.type !== 'string' || group.some((w) => w.quoted))) break;
      const value = group.map((w) => w.text).join(' ');
      if (!fits(def, value, end - i)) continue;
      fitted = true;
      current[name] = value;
      walk(end, j + 1, current);
      delete current[name];
    }
    // An option declared skippable that the word cannot be is passed over (`/series 1234`: no
    // `when`, so the series).
    if (!fitted && !def.required && def.skippable) walk(i, j + 1, current);
  };
  walk(0, 0, {});
  return found;
}

/**
 * Gives bare values to the options not named, in declaration order. One word per option when that
 * reads well (every word fits its option); otherwise several words may make one text value
 * (`/team Nova Krakens 3`), as long as exactly one reading gives the most words to options that
 * are not free text (counts, tiers, choices). Several equally good readings (words that could be
 * split between two names) throw a message showing them; `undefined` means there are more words than options.
 */
function assignPositionals(
  words: Token[],
  free: string[],
  options: OptionsDef,
  usage: CommandRef,
  t: Translate,
  known?: KnownName,
): Record<string, string> | undefined {
  const oneEach = () => Object.fromEntries(words.map((w, i) => [free[i]!, w.text]));
  if (words.length === 0) return {};
  // "A vs B" names one series: all the bare words are its name (a series shown takes no filters).
  const versus = free.find((name) => options[name]!.bareSeries);
  const all = words.map((w) => w.text).join(' ');
  if (versus && VERSUS.test(all) && words.some((w) => w.quoted || /^vs\.?$/i.test(w.text)))
    return { [versus]: all };
  if (words.length <= free.length && words.every((w, i) => fits(options[free[i]!]!, w.text, 1)))
    return oneEach();
  const found = readings(words, free, options);
  // No reading fits: one word per option lets validation say exactly what is wrong with which;
  // more words than options go to an option that reads them whole (`bareFits`), whose command
  // says what is wrong with them ("25:00 - 07:00" is no range).
  if (found.length === 0) {
    if (words.length <= free.length) return oneEach();
    const whole = free.find((name) => options[name]!.bareFits && options[name]!.type === 'string');
    return whole && !words.some((w) => w.quoted) ? { [whole]: all } : undefined;
  }
  // Counts, tiers and choices anchor the reading: the one filling most of them wins, if only one does.
  const anchored = (r: Record<string, string>) =>
    Object.keys(r).filter((k) => options[k]!.type !== 'string' || options[k]!.choices?.length).length;
  const most = Math.max(...found.map(anchored));
  const best = found.filter((r) => anchored(r) === most);
  if (best.length === 1) return best[0];
  const named = known ? mostNamed(best, options, known) : undefined;
  if (named) return named;
  const show = (r: Record<string, string>) =>
    Object.entries(r)
      .map(([k, v]) => (v.includes(' ') ? `${k}:"${v}"` : `${k}:${v}`))
      .join(' ');
  const typed = words
    .map((w) => w.text)
    .join(' ')
    .slice(0, 60);
  throw new UserError(
    'AMBIGUOUS_VALUES',
    spanned(
      t,
      'platform.parse.ambiguous',
      { typed, first: show(best[0]!), last: show(best.at(-1)!) },
      { command: usage },
    ),
    [best[0]!, best.at(-1)!].map((r) => cmd(`${usage.command} ${show(r)}`)),
  );
}

/**
 * Of equally good readings, the one that puts the most words into whole names the index knows
 * (`known`), when exactly one does; else undefined.
 */
function mostNamed(
  readings: Record<string, string>[],
  options: OptionsDef,
  known: KnownName,
): Record<string, string> | undefined {
  // Words inside known names: a whole label outscores the name it starts with plus a leftover.
  const score = (r: Record<string, string>) =>
    Object.entries(r)
      .filter(([k, v]) => {
        const source = options[k]!.autocomplete;
        return source !== undefined && known(source, v);
      })
      .reduce((sum, [, v]) => sum + v.split(/\s+/).length, 0);
  const scores = readings.map(score);
  const top = Math.max(...scores);
  if (top === 0 || scores.filter((s) => s === top).length > 1) return undefined;
  return readings[scores.indexOf(top)];
}

/**
 * Parses one command line against the declared commands. Throws `UserError` saying what would be
 * right, written with `t` (the tenant's language; English when not known yet). With `known` (the
 * name index), bare words that could be split between several names go to the names it holds.
 */
export function parseCommandText(
  text: string,
  commands: AnyCommand[],
  t: Translate = translator('en'),
  known?: KnownName,
): ParsedCommandText {
  const tokens = tokenize(text.trim(), t);
  const command = commandNamed(tokens.shift(), commands, t);
  const subcommand = subcommandNamed(command, tokens, t);
  const options = optionsOf(command, subcommand);
  const usage = cmd(`${command.name}${subcommand ? ` ${subcommand}` : ''}`);
  const { args, positionals } = readNamed(tokens, options, usage, t);
  const free = Object.keys(options).filter((d) => !(d in args));
  const assigned = assignPositionals(positionals, free, options, usage, t, known);
  if (!assigned) throw tooManyValues(usage, positionals, free, Object.keys(options), t);
  Object.assign(args, assigned);
  return subcommand ? { command: command.name, subcommand, args } : { command: command.name, args };
}

/** The command the first word names. */
function commandNamed(first: Token | undefined, commands: AnyCommand[], t: Translate): AnyCommand {
  if (!first || first.text === '' || first.text === '/') {
    throw new UserError(
      'EMPTY_COMMAND',
      spanned(t, 'platform.parse.empty', {}, { help: cmd('help'), example: cmd('series live') }),
    );
  }
  const name = first.text.replace(/^\//, '').toLowerCase();
  const names = commands.map((c) => c.name);
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const near = closest(name, names);
    throw new UserError(
      'UNKNOWN_COMMAND',
      withList(t, 'platform.parse.unknownCommand', { name: name.slice(0, 40) }, commandList(names)),
      near.map((n) => cmd(n)),
    );
  }
  return command;
}

/** The subcommand word after a command that has subcommands (taken off `tokens`); else undefined. */
function subcommandNamed(command: AnyCommand, tokens: Token[], t: Translate): string | undefined {
  if (!command.subcommands) return undefined;
  const subs = Object.keys(command.subcommands);
  const word = tokens[0];
  if (!word || word.colon !== -1) {
    throw new UserError(
      'MISSING_SUBCOMMAND',
      spanned(
        t,
        'platform.parse.missingSubcommand',
        { subcommands: subs.join(', ') },
        { command: cmd(command.name), example: cmd(`${command.name} ${subs[0]}`) },
      ),
      subs.map((s) => cmd(`${command.name} ${s}`)),
    );
  }
  const subcommand = word.text.toLowerCase();
  if (!Object.hasOwn(command.subcommands, subcommand)) {
    throw new UserError(
      'UNKNOWN_SUBCOMMAND',
      spanned(
        t,
        'platform.parse.unknownSubcommand',
        { name: subcommand.slice(0, 40), subcommands: subs.join(', ') },
        { command: cmd(command.name) },
      ),
      closest(subcommand, subs).map((s) => cmd(`${command.name} ${s}`)),
    );
  }
  tokens.shift();
  return subcommand;
}

/** The option a `name:value` token names, if it is shaped like an option name. */
function optionKey(token: Token): string | undefined {
  const key = token.colon > 0 ? token.text.slice(0, token.colon) : '';
  return key && OPTION_NAME.test(key) ? key : undefined;
}

/**
 * The named values (`name:value`) and the bare words left for the options not named. Bare words
 * right after a named text value (`team:Iron Pilots`) continue it when they cannot be read as the
 * options left (see `continueRuns`).
 */
function readNamed(
  tokens: Token[],
  options: OptionsDef,
  usage: CommandRef,
  t: Translate,
): { args: Record<string, string>; positionals: Token[] } {
  const declared = Object.keys(options);
  const args: Record<string, string> = {};
  const positionals: Token[] = [];
  /** Bare words right after a named text value: the option they may continue. */
  const runOf = new Map<Token, string>();
  let continuing: string | undefined;
  for (const token of tokens) {
    const key = optionKey(token);
    // A bare word naming a yes/no option turns it on (`/me dms results` is results:true).
    const flag = key || token.quoted ? undefined : flagNamed(token.text, options, args);
    if (flag) {
      args[flag] = 'true';
      continuing = undefined;
      continue;
    }
    if (!key) {
      if (continuing && !token.quoted && args[continuing] !== '') runOf.set(token, continuing);
      else continuing = undefined;
      positionals.push(token);
      continue;
    }
    const option = declared.find((d) => d.toLowerCase() === key.toLowerCase());
    if (!option) throw unknownOption(usage, key, declared, t);
    if (option in args)
      throw new UserError('DUPLICATE_OPTION', t('platform.parse.duplicateOption', { option }));
    args[option] = token.text.slice(token.colon + 1);
    const def = options[option]!;
    continuing = !token.quoted && def.type === 'string' && !def.choices?.length ? option : undefined;
  }
  return { args, positionals: continueRuns(positionals, runOf, args, options) };
}

/**
 * `team:Iron Pilots`: the bare words right after a named text value continue it (added to `args`),
 * up to a word that fits an option left that takes a number, a yes/no or a fixed choice
 * (`team:Iron Pilots 3`), unless they read as the options left one word each (`team:Vitality
 * dota2 5`). Several words are not another text option's value: a person who typed
 * `tournament:AC Lisbon Masters` named one tournament, not a tournament "AC" and a stage "Lisbon
 * Masters" (that one is named: `stage:Group A`). The bare words still to assign.
 */
function continueRuns(
  positionals: Token[],
  runOf: Map<Token, string>,
  args: Record<string, string>,
  options: OptionsDef,
): Token[] {
  const free = Object.keys(options).filter((d) => !(d in args));
  const oneWordEach =
    positionals.length <= free.length && positionals.every((w, i) => fits(options[free[i]!]!, w.text, 1));
  if (oneWordEach || !positionals.some((t) => runOf.has(t))) return positionals;
  const anchors = free.filter((d) => options[d]!.type !== 'string' || options[d]!.choices?.length);
  const stopped = new Set<string>();
  return positionals.filter((token) => {
    const option = runOf.get(token);
    if (!option || stopped.has(option) || anchors.some((d) => fits(options[d]!, token.text, 1))) {
      if (option) stopped.add(option);
      return true;
    }
    args[option] = `${args[option]} ${token.text}`;
    return false;
  });
}

/** The yes/no option not given yet that `word` names, if any. */
function flagNamed(word: string, options: OptionsDef, args: Record<string, string>): string | undefined {
  const lower = word.toLowerCase();
  return Object.keys(options).find(
    (name) => options[name]!.type === 'boolean' && name.toLowerCase() === lower && !(name in args),
  );
}

/** The same words as the runtime's refusal of an undeclared option (src/bot/args.ts). */
function unknownOption(usage: CommandRef, key: string, declared: string[], t: Translate): UserError {
  return new UserError(
    'UNKNOWN_OPTION',
    spanned(
      t,
      declared.length ? 'platform.args.unknownOption' : 'platform.args.noOptions',
      { name: key.slice(0, 40), options: declared.map((d) => `${d}:`).join(' ') },
      { command: usage },
    ),
    closest(key, declared).map((d) => `${d}:`),
  );
}

/** More bare words than options left to take them. */
function tooManyValues(
  usage: CommandRef,
  positionals: Token[],
  free: string[],
  declared: string[],
  t: Translate,
): UserError {
  const extra = positionals
    .slice(free.length)
    .map((w) => w.text)
    .join(' ')
    .slice(0, 60);
  const options = declared.map((d) => `${d}:`).join(' ');
  const key: MessageKey =
    free.length > 0
      ? 'platform.parse.tooMany'
      : options
        ? 'platform.parse.noRoomOptions'
        : 'platform.parse.noRoom';
  const values = { extra, options: free.length > 0 ? free.join(', ') : options };
  return new UserError('TOO_MANY_VALUES', spanned(t, key, values, { command: usage }));
}

/** A translated message with a list of commands (`{{commands}}`) written as spans, one per command. */
function withList(
  t: Translate,
  key: MessageKey,
  values: MessageValues,
  list: (string | CommandRef)[],
): (string | CommandRef)[] {
  const marker = { command: '\uE001' };
  return spanned(t, key, values, { commands: marker }).flatMap((part) => (part === marker ? list : [part]));
}
