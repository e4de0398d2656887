/**
 * Slack has one slash command, `/matchday`, and every Matchday command is its first word
 * (`/matchday series live`). This module writes help from the command declarations in that syntax and
 * rewrites the shared runtime's `/series`-style hints (in errors, notices, help) as `/matchday series`,
 * so a Slack user is never told to type a command that does not exist there.
 */
import type { AnyCommand, OptionDef, OptionsDef } from '../../bot/command.ts';
import { UserError } from '../../bot/command.ts';
import { type Card, COLOURS, type Field, type Reply, type Span, type Text } from '../../bot/reply.ts';
import { closest } from '../../bot/text-args.ts';

/** The one slash command of the Slack app (see slack-manifest.yml). */
export const SLASH_COMMAND = '/matchday';

/** Rewrites `/series` as `/matchday series` for every known command name, outside URLs and paths. */
export function slackCommandText(text: string, names: readonly string[]): string {
  if (names.length === 0) return text;
  const alternatives = [...names]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[^a-z0-9-]/gi, ''));
  const pattern = new RegExp(`(?<![\\w/.:@-])/(${alternatives.join('|')})(?![\\w-])`, 'gi');
  return text.replace(pattern, `${SLASH_COMMAND} $1`);
}

function rewriteText(text: Text, names: readonly string[]): Text {
  return text.map((span): Span => {
    if (typeof span === 'string') return slackCommandText(span, names);
    if ('text' in span) return { ...span, text: slackCommandText(span.text, names) };
    if ('spoiler' in span) return { spoiler: rewriteText(span.spoiler, names) };
    return span;
  });
}

/** The reply with every command hint in Slack's `/matchday <command>` form. */
export function slackifyReply(reply: Reply, names: readonly string[]): Reply {
  const card = (c: Card): Card => ({
    ...c,
    title: slackCommandText(c.title, names),
    ...(c.description ? { description: c.description.map((line) => rewriteText(line, names)) } : {}),
    ...(c.fields
      ? {
          fields: c.fields.map(
            (f): Field => ({
              ...f,
              name: slackCommandText(f.name, names),
              value: rewriteText(f.value, names),
            }),
          ),
        }
      : {}),
    ...(c.footer ? { footer: slackCommandText(c.footer, names) } : {}),
  });
  return {
    ...reply,
    ...(reply.content ? { content: rewriteText(reply.content, names) } : {}),
    cards: reply.cards.map(card),
  };
}

/** `/matchday series [when] [game]`: required options in <>, optional in [], in declaration order. */
export function usageOf(command: AnyCommand, subcommand?: string): string {
  const options: OptionsDef = subcommand
    ? (command.subcommands?.[subcommand]?.options ?? {})
    : (command.options ?? {});
  const parts = Object.entries(options).map(([name, option]) =>
    option.required ? `<${name}>` : `[${name}]`,
  );
  return [SLASH_COMMAND, command.name, ...(subcommand ? [subcommand] : []), ...parts].join(' ');
}

/** An example call: the first option with a plausible value, as a `name:value` pair. */
function exampleOf(command: AnyCommand, subcommand?: string): string | undefined {
  const options: OptionsDef = subcommand
    ? (command.subcommands?.[subcommand]?.options ?? {})
    : (command.options ?? {});
  const entries = Object.entries(options) as [string, OptionDef][];
  const chosen = entries.filter(([, o]) => o.required);
  if (chosen.length === 0 && entries[0]) chosen.push(entries[0]);
  if (chosen.length === 0) return undefined;
  const value = (option: OptionDef): string => {
    if (option.choices?.[0]) return String(option.choices[0].value);
    if (option.type === 'integer' || option.type === 'number') return String(option.min ?? 5);
    if (option.type === 'boolean') return 'true';
    if (option.type === 'channel') return '#matches';
    if (option.type === 'role') return '@fans';
    if (option.autocomplete === 'team') return '"Team Spirit"';
    if (option.autocomplete === 'timezone') return 'Europe/Berlin';
    return '"..."';
  };
  return [
    SLASH_COMMAND,
    command.name,
    ...(subcommand ? [subcommand] : []),
    ...chosen.map(([n, o]) => `${n}:${value(o)}`),
  ].join(' ');
}

/** One option as a line: `name` (type, required, range or choices): description. */
function optionLine(name: string, option: OptionDef): Text {
  const facts: string[] = [option.type];
  if (option.required) facts.push('required');
  if (option.choices) facts.push(`one of ${option.choices.map((c) => c.value).join(', ')}`);
  if (
    (option.type === 'integer' || option.type === 'number') &&
    option.min !== undefined &&
    option.max !== undefined
  ) {
    facts.push(`${option.min} to ${option.max}`);
  }
  if (option.type === 'channel') facts.push('e.g. #matches');
  return [{ text: name, code: true }, ` (${facts.join(', ')}): ${option.description}`];
}

const HOW_ARGUMENTS =
  'Arguments go as name:value pairs or in the order shown; put values with spaces in quotes, e.g. team:"Team Spirit".';

function code(text: string): Span {
  return { text, code: true };
}

/** A card explaining one command: description, usage, example, options (or subcommands with theirs). */
function commandHelp(command: AnyCommand): Card {
  const description: Text[] = [[command.description]];
  if (command.adminOnly) description.push(['Workspace admins and owners only.']);
  const fields: Field[] = [];
  const optionLines = (options: OptionsDef): Text =>
    Object.entries(options).flatMap(([name, option], i) => [
      ...(i > 0 ? ['\n'] : []),
      ...optionLine(name, option),
    ]);
  if (command.subcommands) {
    for (const [sub, def] of Object.entries(command.subcommands)) {
      const value: Text = [`${def.description}\n`, code(usageOf(command, sub))];
      if (def.options && Object.keys(def.options).length > 0) value.push('\n', ...optionLines(def.options));
      fields.push({ name: `${SLASH_COMMAND} ${command.name} ${sub}`, value, inline: false });
    }
  } else {
    description.push([code(usageOf(command))]);
    const example = exampleOf(command);
    if (example) description.push(['Example: ', code(example)]);
    if (command.options && Object.keys(command.options).length > 0) {
      fields.push({ name: 'Options', value: optionLines(command.options), inline: false });
    }
  }
  return {
    title: `${SLASH_COMMAND} ${command.name}`,
    colour: COLOURS.info,
    description,
    fields,
    footer: HOW_ARGUMENTS,
  };
}

/**
 * `/matchday help` (every command) or `/matchday help <command>` (one), from the declarations.
 * Throws `UserError` with the closest names for an unknown command.
 */
export function helpReply(commands: readonly AnyCommand[], name?: string): Reply {
  const wanted = name?.replace(/^\//, '').toLowerCase();
  if (wanted) {
    const command = commands.find((c) => c.name === wanted);
    if (!command) {
      const names = commands.map((c) => c.name);
      throw new UserError(
        'UNKNOWN_COMMAND',
        `There is no command "${wanted.slice(0, 40)}". Commands: ${names.join(', ')}.`,
        closest(wanted, names).map((n) => `${SLASH_COMMAND} help ${n}`),
      );
    }
    return { cards: [commandHelp(command)], ephemeral: true };
  }
  const card: Card = {
    title: 'Matchday commands',
    colour: COLOURS.info,
    description: [
      ...commands.map(
        (c): Text => [
          code(`${SLASH_COMMAND} ${c.name}`),
          ` ${c.description}${c.adminOnly ? ' (workspace admins and owners)' : ''}`,
        ],
      ),
      [HOW_ARGUMENTS],
    ],
    footer: `Details of one command: ${SLASH_COMMAND} help <command>`,
  };
  return { cards: [card], ephemeral: true };
}
