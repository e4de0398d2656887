/**
 * `/help`: every command and its options, read from the declarations themselves, so help can never
 * drift from what the runtime accepts. No request to the service. Commands are written as command
 * spans, so each platform shows them in its own syntax (`/series` on Discord and the terminal,
 * `/matchday series` on Slack).
 */
import type { AutocompleteSource } from '../src/bot/choice.ts';
import { type AnyCommand, defineCommand, type OptionDef, type OptionsDef } from '../src/bot/command.ts';
import type { Card, Span, Text } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { closest } from '../src/bot/text-args.ts';
import { cmd, UserError } from '../src/core/errors.ts';
import type { Platform } from '../src/core/tenant-id.ts';
import { type MessageKey, spanned, type Translate } from '../src/i18n/i18n.ts';

/**
 * On text platforms (Slack, the terminal) options are typed; Discord fills them in its own form.
 * The example quotes a real team name, so it works as typed.
 */
function howArguments(t: Translate, sample: Sample): string {
  const team = sample('team');
  return team
    ? t('commands.help.argumentsExample', { example: `team:"${team}"` })
    : t('commands.help.arguments');
}

export default defineCommand({
  name: 'help',
  description: 'Commands and their options',
  ephemeral: true,
  options: {
    command: { type: 'string', description: 'One command to explain', max: 32 },
  },
  async run(ctx) {
    const t = ctx.t;
    const visible = ctx.commands.filter((c) => !c.adminOnly || ctx.user.isAdmin);
    const typed = ctx.tenant.platform !== 'discord';
    const name = ctx.args.command?.replace(/^\//, '').toLowerCase();
    // Examples name something that exists (the first name the index offers), so they work as typed.
    const sample = (source: AutocompleteSource) => {
      try {
        return ctx.names.search(source, '', 1)[0]?.name;
      } catch {
        return undefined;
      }
    };
    if (name) {
      const command = visible.find((c) => c.name === name);
      if (!command) {
        const names = visible.map((c) => c.name);
        throw new UserError(
          'UNKNOWN_COMMAND',
          t('commands.help.unknown', { name: name.slice(0, 32), names: names.join(', ') }),
          closest(name, names).map((n) => cmd(`help ${n}`)),
        );
      }
      return { cards: [commandCard(t, command, ctx.tenant.platform, sample)], ephemeral: true };
    }
    const card: Card = {
      title: t('commands.help.title'),
      colour: COLOURS.info,
      description: [
        ...visible.map(
          (c): Text => [
            cmd(c.name),
            // The admin note comes from the declaration's flag only, never from the description text.
            ` ${described(t, `${c.name}.description`, c.description)}${c.adminOnly ? ` ${t('commands.help.admins')}` : ''}`,
          ],
        ),
        ...(typed ? [[howArguments(t, sample)]] : []),
        spanned(
          t,
          'commands.help.details',
          {},
          { command: cmd(`help command:<${t('commands.follow.name')}>`) },
        ),
      ],
    };
    return { cards: [card], ephemeral: true };
  },
});

/**
 * What help says of a command, a subcommand or an option (`key`: `series`, `series.options.when`,
 * `me.sub.quiet.options.from`) in the reader's language (`src/i18n/locales/<code>/help.ts`); the
 * declaration's own words where no locale has the key (a command added without its help texts).
 */
export function described(t: Translate, key: string, declared: string): string {
  const id = `help.${key}`;
  const text = t(id as MessageKey);
  return text === id ? declared : text;
}

/** One option as a line: `name` (type, required, range or choices): description. */
export function optionLine(t: Translate, name: string, option: OptionDef, key: string): Text {
  const facts: string[] = [t(`commands.help.type.${option.type}`)];
  if (option.required) facts.push(t('commands.help.required'));
  if (option.choices)
    facts.push(t('commands.help.oneOf', { list: option.choices.map((c) => c.value).join(', ') }));
  if (option.type === 'integer' || option.type === 'number') {
    if (option.min !== undefined && option.max !== undefined)
      facts.push(t('commands.help.range', { min: option.min, max: option.max }));
  }
  if (option.type === 'channel') facts.push(t('commands.help.channelExample'));
  if (option.autocomplete) facts.push(t('commands.help.suggests'));
  return [
    { text: name, code: true },
    ` (${facts.join(', ')}): ${described(t, `${key}.options.${name}`, option.description)}`,
  ];
}

/** The first name a name source offers, for examples; undefined before the names are loaded. */
type Sample = (source: AutocompleteSource) => string | undefined;

/** `series [when] [game]`: required options in <>, optional in [], in declaration order. */
function usageOf(name: string, options: OptionsDef): string {
  const parts = Object.entries(options).map(([n, o]) => (o.required ? `<${n}>` : `[${n}]`));
  return [name, ...parts].join(' ');
}

/**
 * A value for an option in an example that the command accepts as typed: a choice, the smallest
 * number, or a real name where the option names something. Undefined when there is none to give
 * (free text, a channel), so no example ever shows a placeholder.
 */
function exampleValue(option: OptionDef, sample: Sample): string | undefined {
  if (option.choices?.[0]) return String(option.choices[0].value);
  if (option.type === 'integer' || option.type === 'number')
    return option.min === undefined ? undefined : String(option.min);
  if (option.type === 'boolean') return 'true';
  const name = option.autocomplete ? sample(option.autocomplete) : undefined;
  if (name) return /\s/.test(name) ? `"${name}"` : name;
  return undefined;
}

/** An example call: the required options (or the first that can be filled), each with a value that works. */
function exampleOf(name: string, options: OptionsDef, sample: Sample): string | undefined {
  const filled = Object.entries(options).map(([n, o]) => [n, o, exampleValue(o, sample)] as const);
  const required = filled.filter(([, o]) => o.required);
  if (required.some(([, , v]) => v === undefined)) return undefined;
  const chosen = required.length > 0 ? required : filled.filter(([, , v]) => v !== undefined).slice(0, 1);
  if (chosen.length === 0) return undefined;
  return [name, ...chosen.map(([n, , v]) => `${n}:${v}`)].join(' ');
}

/** A command's card: its description, usage and example, then its options or subcommands with theirs. */
export function commandCard(
  t: Translate,
  command: AnyCommand,
  platform: Platform,
  sample: Sample = () => undefined,
): Card {
  const typed = platform !== 'discord';
  // Lines, not multi-line fields: each option one line, so every platform renders it alike.
  const lines: Text[] = [
    [described(t, `${command.name}.description`, command.description)],
    ...(command.adminOnly ? [[t('commands.help.adminsOnly')]] : []),
  ];
  const optionLines = (options: OptionsDef, key: string): Text[] =>
    Object.entries(options).map(([n, o]): Text => ['  ', ...optionLine(t, n, o, key)]);
  if (command.subcommands) {
    for (const [sub, def] of Object.entries(command.subcommands)) {
      const usage: Span = cmd(usageOf(`${command.name} ${sub}`, def.options ?? {}));
      const key = `${command.name}.sub.${sub}`;
      lines.push(
        [usage, ` ${described(t, `${key}.description`, def.description)}`],
        ...optionLines(def.options ?? {}, key),
      );
    }
  } else {
    const options = command.options ?? {};
    lines.push(spanned(t, 'commands.help.usage', {}, { command: cmd(usageOf(command.name, options)) }));
    const example = typed ? exampleOf(command.name, options, sample) : undefined;
    if (example) lines.push(spanned(t, 'commands.help.example', {}, { command: cmd(example) }));
    lines.push(...optionLines(options, command.name));
  }
  if (typed && Object.keys(command.options ?? {}).length + Object.keys(command.subcommands ?? {}).length > 0)
    lines.push([howArguments(t, sample)]);
  return {
    title: t('commands.help.commandTitle', { name: command.name }),
    colour: COLOURS.info,
    description: lines,
  };
}
