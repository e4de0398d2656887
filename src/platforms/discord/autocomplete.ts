/**
 * Autocomplete on Discord: the choices for the option being typed, from the runtime's cached name
 * index, never the data service (autocomplete cannot be deferred). At most 25 choices, names and
 * string values within 100 characters, numbers only for numeric options. Never throws: a failure
 * answers with no choices.
 */

import type { AutocompleteInteraction } from 'discord.js';
import type { Choice } from '../../bot/choice.ts';
import type { OptionDef } from '../../bot/command.ts';
import type { Logger } from '../../bot/logger.ts';
import type { Runtime } from '../../bot/runtime.ts';
import { optionsOf } from '../../bot/text-args.ts';

/** What Discord takes as one autocomplete choice. */
type DiscordChoice = { name: string; value: string | number };

/** Answers an autocomplete interaction with the choices for its focused option. */
export async function answerAutocomplete(
  interaction: AutocompleteInteraction,
  { runtime, logger }: { runtime: Runtime; logger: Logger },
): Promise<void> {
  let choices: DiscordChoice[] = [];
  try {
    const command = runtime.find(interaction.commandName);
    const focused = interaction.options.getFocused(true);
    const subcommand = interaction.options.getSubcommand(false) ?? undefined;
    const def = command ? optionsOf(command, subcommand)[focused.name] : undefined;
    if (def?.autocomplete)
      choices = runtime
        .autocomplete(def.autocomplete, String(focused.value ?? ''))
        .slice(0, 25)
        .flatMap((choice) => discordChoice(choice, def));
  } catch (error) {
    logger.warn({ err: error, interaction: interaction.id }, 'autocomplete failed');
  }
  try {
    await interaction.respond(choices);
  } catch (error) {
    logger.warn({ err: error, interaction: interaction.id }, 'could not answer autocomplete');
  }
}

/** A choice as Discord takes it for this option, or none when its value does not fit the option. */
function discordChoice(choice: Choice, def: OptionDef): DiscordChoice[] {
  const name = choice.name.length > 100 ? `${choice.name.slice(0, 99)}…` : choice.name;
  if (def.type === 'integer' || def.type === 'number') {
    const value = Number(choice.value);
    return Number.isFinite(value) && (def.type === 'number' || Number.isInteger(value))
      ? [{ name, value }]
      : [];
  }
  const value = String(choice.value);
  return value.length <= 100 ? [{ name: name || value, value }] : [];
}
