/**
 * `/help`: every command and its options, read from the declarations themselves, so help can never
 * drift from what the runtime accepts. No request to the service.
 */
import { type AnyCommand, defineCommand, type OptionDef, UserError } from '../src/bot/command.ts';
import type { Card, Text } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import { commands } from './index.ts';
import { textArg } from './shared.ts';

export default defineCommand({
  name: 'help',
  description: 'Commands and their options',
  ephemeral: true,
  options: {
    command: { type: 'string', description: 'One command to explain', max: 32 },
  },
  async run(ctx) {
    const visible = commands.filter((c) => !c.adminOnly || ctx.user.isAdmin);
    const name = textArg('command', ctx.args.command, 32)?.replace(/^\//, '').toLowerCase();
    if (name) {
      const command = visible.find((c) => c.name === name);
      if (!command) {
        throw new UserError(
          'UNKNOWN_COMMAND',
          `There is no command "${name.slice(0, 32)}". Commands: ${visible.map((c) => c.name).join(', ')}.`,
          visible.map((c) => c.name),
        );
      }
      return { cards: [commandCard(command)], ephemeral: true };
    }
    const card: Card = {
      title: 'Matchday commands',
      colour: COLOURS.info,
      description: visible.map((c) => [
        { text: `/${c.name}`, bold: true },
        // The admin note comes from the declaration's flag only, never from the description text.
        ` ${c.description}${c.adminOnly ? ' (admins)' : ''}`,
      ]),
      footer: 'Details of one command: /help command:<name>',
    };
    return { cards: [card], ephemeral: true };
  },
});

/** One option as a line: `name` (type, required, range or choices): description. */
export function optionLine(name: string, option: OptionDef): Text {
  const facts: string[] = [option.type];
  if (option.required) facts.push('required');
  if (option.choices) facts.push(`one of ${option.choices.map((c) => c.value).join(', ')}`);
  if (option.type === 'integer' || option.type === 'number') {
    if (option.min !== undefined && option.max !== undefined) facts.push(`${option.min} to ${option.max}`);
  }
  if (option.autocomplete) facts.push('suggests names');
  return [{ text: name, code: true }, ` (${facts.join(', ')}): ${option.description}`];
}

/** A command's card: its description, then its options or subcommands with theirs. */
export function commandCard(command: AnyCommand): Card {
  // Lines, not multi-line fields: each option one line, so every platform renders it alike.
  const lines: Text[] = [[command.description], ...(command.adminOnly ? [['Admins only.']] : [])];
  if (command.subcommands) {
    for (const [sub, def] of Object.entries(command.subcommands)) {
      lines.push([{ text: `/${command.name} ${sub}`, bold: true }, ` ${def.description}`]);
      for (const [n, o] of Object.entries(def.options ?? {})) lines.push(['  ', ...optionLine(n, o)]);
    }
  } else {
    for (const [n, o] of Object.entries(command.options ?? {})) lines.push(optionLine(n, o));
  }
  return { title: `/${command.name}`, colour: COLOURS.info, description: lines };
}
