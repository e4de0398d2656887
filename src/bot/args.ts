/**
 * Command arguments: what a platform sent, checked against the command's declaration and turned
 * into the declared types (`validateArgs`), with messages that say what was wrong and what would be
 * right. Pure: the runtime and `matchday ask` call it before anything runs.
 */
import { type CommandRef, cmd, UserError } from '../core/errors.ts';
import { type MessageKey, spanned, type Translate } from '../i18n/i18n.ts';
import type { AutocompleteSource, Choice } from './choice.ts';
import type { OptionDef } from './command.ts';
import { closest } from './text-args.ts';

/** Strings without a declared `max` are capped at this length. */
const DEFAULT_STRING_MAX = 100;

// Control characters (C0, DEL, C1) never belong in a command argument; they could also drive a terminal.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** How an option is written in messages: `game:`. */
const label = (name: string): string => `${name}:`;

const EXPECTED: Record<OptionDef['type'], MessageKey> = {
  integer: 'platform.args.expected.integer',
  number: 'platform.args.expected.number',
  boolean: 'platform.args.expected.boolean',
  channel: 'platform.args.expected.channel',
  role: 'platform.args.expected.role',
  string: 'platform.args.expected.text',
};

function describeExpected(def: OptionDef, t: Translate): string {
  if (def.choices?.length)
    return t('platform.args.expected.choice', { values: def.choices.map((c) => c.value).join(', ') });
  return t(EXPECTED[def.type] ?? 'platform.args.expected.text');
}

function rangeText(def: OptionDef, t: Translate): string {
  if (def.min !== undefined && def.max !== undefined)
    return t('platform.args.between', { min: def.min, max: def.max });
  if (def.min !== undefined) return t('platform.args.atLeast', { min: def.min });
  return t('platform.args.atMost', { max: def.max ?? 0 });
}

/** A value as a message quotes it: at most 40 characters. */
function shown(value: unknown): string {
  const text = String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** What is wrong with the argument `name`, as the user reads it: `key` with `option` filled in. */
function bad(
  t: Translate,
  name: string,
  key: MessageKey,
  values: Record<string, string | number> = {},
): UserError {
  return new UserError('INVALID_ARGUMENT', t(key, { ...values, option: label(name) }));
}

/**
 * Checks and converts one argument. Text platforms send strings; Discord sends typed values; both
 * end up as the declared type. Throws `UserError` saying what was wrong and what would be right.
 */
function coerceArg(name: string, def: OptionDef, raw: unknown, t: Translate): string | number | boolean {
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    throw bad(t, name, 'platform.args.mustBe', { expected: describeExpected(def, t) });
  }
  if (typeof raw === 'string' && CONTROL.test(raw)) throw bad(t, name, 'platform.args.control');
  const text = typeof raw === 'string' ? raw.trim() : String(raw);
  const value = typedValue(name, def, raw, text, t);
  return def.choices?.length ? choiceOf(name, def.choices, value, t) : value;
}

/** The argument as its declared type. */
function typedValue(
  name: string,
  def: OptionDef,
  raw: string | number | boolean,
  text: string,
  t: Translate,
): string | number | boolean {
  switch (def.type) {
    case 'integer':
    case 'number':
      return numberOf(name, def, raw, text, t);
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (/^(true|yes|on|1)$/i.test(text)) return true;
      if (/^(false|no|off|0)$/i.test(text)) return false;
      throw bad(t, name, 'platform.args.mustBeGot', {
        expected: t('platform.args.expected.boolean'),
        got: shown(text),
      });
    case 'channel':
    case 'role':
      return mentionedId(name, def.type, text, t);
    default: {
      if (text === '') throw bad(t, name, 'platform.args.empty');
      const length = [...text].length;
      const max = def.max ?? DEFAULT_STRING_MAX;
      if (length > max) throw bad(t, name, 'platform.args.tooLong', { length, max });
      if (def.min !== undefined && length < def.min)
        throw bad(t, name, 'platform.args.tooShort', { length, min: def.min });
      return text;
    }
  }
}

/** An integer or number within the declared bounds. */
function numberOf(
  name: string,
  def: OptionDef,
  raw: string | number | boolean,
  text: string,
  t: Translate,
): number {
  const pattern = def.type === 'integer' ? /^[+-]?\d+$/ : /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
  const number = typeof raw === 'number' ? raw : pattern.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(number) || (def.type === 'integer' && !Number.isSafeInteger(number))) {
    const bounded = def.min !== undefined || def.max !== undefined;
    const kind = describeExpected({ ...def, choices: undefined }, t);
    throw bad(t, name, 'platform.args.mustBeGot', {
      expected: bounded ? `${kind} ${rangeText(def, t)}` : kind,
      got: shown(text),
    });
  }
  if ((def.min !== undefined && number < def.min) || (def.max !== undefined && number > def.max)) {
    throw bad(t, name, 'platform.args.outOfRange', { range: rangeText(def, t), got: shown(text) });
  }
  return number;
}

/** A channel's or role's id, from an id, a `#name`/`@name` or a platform mention. */
function mentionedId(name: string, type: 'channel' | 'role', text: string, t: Translate): string {
  // Platform mention syntax: Slack <#C123|name>, <!subteam^S123|@name>; Discord <#123>, <@&123>.
  const id =
    /^<#([A-Za-z0-9]+)(\|[^>]*)?>$/.exec(text)?.[1] ??
    /^<@&(\d+)>$/.exec(text)?.[1] ??
    /^<!subteam\^([A-Za-z0-9]+)(\|[^>]*)?>$/.exec(text)?.[1] ??
    text.replace(/^[#@]/, '');
  if (!/^[A-Za-z0-9_.-]{1,80}$/.test(id)) {
    throw bad(t, name, 'platform.args.mustBeGot', {
      expected: t(type === 'channel' ? 'platform.args.channelExample' : 'platform.args.roleExample'),
      got: shown(text),
    });
  }
  return id;
}

/** The declared choice `value` is (by value or by name, in any case), as the choice's value. */
function choiceOf(
  name: string,
  choices: readonly Choice[],
  value: string | number | boolean,
  t: Translate,
): string | number {
  const match = choices.find(
    (c) =>
      c.value === value ||
      String(c.value).toLowerCase() === String(value).toLowerCase() ||
      c.name.toLowerCase() === String(value).toLowerCase(),
  );
  if (!match) {
    const values = choices.map((c) => String(c.value));
    throw new UserError(
      'INVALID_CHOICE',
      t('platform.args.choice', { option: label(name), values: values.join(', '), got: shown(value) }),
      closest(String(value), values),
    );
  }
  return match.value;
}

/** Validates a call's raw arguments against the declared options. */
export function validateArgs(
  usage: CommandRef,
  options: Record<string, OptionDef>,
  raw: Record<string, unknown>,
  /** The reader's language: the refusals are written in it. */
  t: Translate,
  /** Values to offer for a missing option that names something (a tournament, a team). */
  examplesOf?: (source: AutocompleteSource) => string[],
): Record<string, string | number | boolean> {
  const declared = Object.keys(options);
  const args: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(raw)) {
    const def = options[name];
    if (!def) {
      throw new UserError(
        'UNKNOWN_OPTION',
        spanned(
          t,
          declared.length ? 'platform.args.unknownOption' : 'platform.args.noOptions',
          { name: name.slice(0, 40), options: declared.map(label).join(' ') },
          { command: usage },
        ),
        closest(name, declared).map(label),
      );
    }
    // An empty value from a text platform (`game:`) counts as leaving the option out.
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) continue;
    args[name] = coerceArg(name, def, value, t);
  }
  const missing = declared.filter((name) => options[name]!.required && !(name in args));
  if (missing.length > 0) {
    const what = missing.map((name) => `${label(name)} (${options[name]!.description})`).join(', ');
    // One missing name with known values: offer a few as whole commands, each accepted as typed.
    const source = missing.length === 1 ? options[missing[0]!]!.autocomplete : undefined;
    const offers = (source && examplesOf ? examplesOf(source) : [])
      .slice(0, 3)
      .map((value) => cmd(`${usage.command} ${missing[0]}:"${value}"`));
    const example = offers[0] ?? cmd(`${usage.command} ${missing.map((m) => `${m}:...`).join(' ')}`);
    throw new UserError(
      'MISSING_ARGUMENT',
      spanned(t, 'platform.args.missing', { what }, { command: usage, example }),
      offers,
    );
  }
  return args;
}
