/**
 * Command arguments: what a platform sent, checked against the command's declaration and turned
 * into the declared types (`validateArgs`), with messages that say what was wrong and what would be
 * right. Pure: the runtime and `matchday ask` call it before anything runs.
 */
import { type CommandRef, cmd } from '../core/errors.ts';
import { type AutocompleteSource, type OptionDef, UserError } from './command.ts';
import { closest } from './text-args.ts';

/** Strings without a declared `max` are capped at this length. */
const DEFAULT_STRING_MAX = 100;

// Control characters (C0, DEL, C1) never belong in a command argument; they could also drive a terminal.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** How an option is written in messages: `game:`. */
const label = (name: string): string => `${name}:`;

function describeExpected(def: OptionDef): string {
  if (def.choices?.length) return `one of ${def.choices.map((c) => c.value).join(', ')}`;
  switch (def.type) {
    case 'integer':
      return 'a whole number';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'channel':
      return 'a channel';
    case 'role':
      return 'a role';
    default:
      return 'some text';
  }
}

function rangeText(def: OptionDef): string {
  if (def.min !== undefined && def.max !== undefined) return `between ${def.min} and ${def.max}`;
  if (def.min !== undefined) return `at least ${def.min}`;
  return `at most ${def.max}`;
}

/**
 * Checks and converts one argument. Text platforms send strings; Discord sends typed values; both
 * end up as the declared type. Throws `UserError` saying what was wrong and what would be right.
 */
function coerceArg(name: string, def: OptionDef, raw: unknown): string | number | boolean {
  const shown = (value: unknown) => {
    const text = String(value);
    return text.length > 40 ? `${text.slice(0, 40)}...` : text;
  };
  const bad = (problem: string) => new UserError('INVALID_ARGUMENT', `${label(name)} ${problem}.`);

  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    throw bad(`must be ${describeExpected(def)}`);
  }
  if (typeof raw === 'string' && CONTROL.test(raw)) {
    throw bad('contains control characters; type plain text');
  }
  const text = typeof raw === 'string' ? raw.trim() : String(raw);

  let value: string | number | boolean;
  switch (def.type) {
    case 'integer':
    case 'number': {
      const pattern = def.type === 'integer' ? /^[+-]?\d+$/ : /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
      const number = typeof raw === 'number' ? raw : pattern.test(text) ? Number(text) : Number.NaN;
      if (!Number.isFinite(number) || (def.type === 'integer' && !Number.isSafeInteger(number))) {
        throw bad(
          `must be ${describeExpected({ ...def, choices: undefined })}${def.min !== undefined || def.max !== undefined ? ` ${rangeText(def)}` : ''} (got "${shown(text)}")`,
        );
      }
      if ((def.min !== undefined && number < def.min) || (def.max !== undefined && number > def.max)) {
        throw bad(`must be ${rangeText(def)} (got ${shown(text)})`);
      }
      value = number;
      break;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') value = raw;
      else if (/^(true|yes|on|1)$/i.test(text)) value = true;
      else if (/^(false|no|off|0)$/i.test(text)) value = false;
      else throw bad(`must be true or false (got "${shown(text)}")`);
      break;
    }
    case 'channel':
    case 'role': {
      // Platform mention syntax: Slack <#C123|name>, <!subteam^S123|@name>; Discord <#123>, <@&123>.
      const id =
        /^<#([A-Za-z0-9]+)(\|[^>]*)?>$/.exec(text)?.[1] ??
        /^<@&(\d+)>$/.exec(text)?.[1] ??
        /^<!subteam\^([A-Za-z0-9]+)(\|[^>]*)?>$/.exec(text)?.[1] ??
        text.replace(/^[#@]/, '');
      if (!/^[A-Za-z0-9_.-]{1,80}$/.test(id)) {
        throw bad(
          `must be ${def.type === 'channel' ? 'a channel, e.g. #general' : 'a role, e.g. @fans'} (got "${shown(text)}")`,
        );
      }
      value = id;
      break;
    }
    default: {
      if (text === '') throw bad('is empty; give a value or leave the option out');
      const length = [...text].length;
      const max = def.max ?? DEFAULT_STRING_MAX;
      if (length > max) throw bad(`is too long (${length} characters); at most ${max}`);
      if (def.min !== undefined && length < def.min)
        throw bad(`is too short (${length} characters); at least ${def.min}`);
      value = text;
    }
  }

  if (def.choices?.length) {
    const match = def.choices.find(
      (c) =>
        c.value === value ||
        String(c.value).toLowerCase() === String(value).toLowerCase() ||
        c.name.toLowerCase() === String(value).toLowerCase(),
    );
    if (!match) {
      const values = def.choices.map((c) => String(c.value));
      throw new UserError(
        'INVALID_CHOICE',
        `${label(name)} must be one of ${values.join(', ')} (got "${shown(value)}").`,
        closest(String(value), values),
      );
    }
    value = match.value;
  }
  return value;
}

/** Validates a call's raw arguments against the declared options. */
export function validateArgs(
  usage: CommandRef,
  options: Record<string, OptionDef>,
  raw: Record<string, unknown>,
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
        declared.length
          ? [usage, ` has no option "${name.slice(0, 40)}". Its options: ${declared.map(label).join(' ')}.`]
          : [usage, ` takes no options (got "${name.slice(0, 40)}").`],
        closest(name, declared).map(label),
      );
    }
    // An empty value from a text platform (`game:`) counts as leaving the option out.
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) continue;
    args[name] = coerceArg(name, def, value);
  }
  const missing = declared.filter((name) => options[name]!.required && !(name in args));
  if (missing.length > 0) {
    const what = missing.map((name) => `${label(name)} (${options[name]!.description})`).join(', ');
    // One missing name with known values: offer a few as whole commands, each accepted as typed.
    const source = missing.length === 1 ? options[missing[0]!]!.autocomplete : undefined;
    const offers = (source && examplesOf ? examplesOf(source) : [])
      .slice(0, 3)
      .map((value) => cmd(`${usage.command} ${missing[0]}:"${value}"`));
    throw new UserError(
      'MISSING_ARGUMENT',
      [
        usage,
        ` needs ${what}. For example: `,
        offers[0] ?? cmd(`${usage.command} ${missing.map((m) => `${m}:...`).join(' ')}`),
      ],
      offers,
    );
  }
  return args;
}
