/**
 * A page button on Discord (`pageButtons` in `src/bot/pages.ts`): the page's command line runs as
 * if typed by the clicker, and the message is updated in place; a refusal (e.g. a day now out of
 * range) goes to the clicker alone and leaves the message as it is. Never throws.
 */

import { type ButtonInteraction, MessageFlags, PermissionFlagsBits } from 'discord.js';
import type { Logger } from '../../bot/logger.ts';
import type { Runtime } from '../../bot/runtime.ts';
import { parseCommandText } from '../../bot/text-args.ts';
import { editOptions, interactionOptions, renderReply } from './render.ts';

/** Runs the command `line` of a clicked page button and shows its page in the message. */
export async function answerPageButton(
  interaction: ButtonInteraction,
  line: string,
  { runtime, logger }: { runtime: Runtime; logger: Logger },
): Promise<void> {
  const context = { interaction: interaction.id, button: line, guild: interaction.guildId };
  try {
    await interaction.deferUpdate();
    const parsed = parseCommandText(line, runtime.commands);
    const execution = await runtime.run({
      platform: 'discord',
      tenantKey: interaction.guildId ?? '',
      user: {
        id: interaction.user.id,
        name: interaction.user.globalName ?? interaction.user.username,
        isAdmin: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
      },
      channel: { id: interaction.channelId },
      command: parsed.command,
      ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
      args: parsed.args,
    });
    if (execution.outcome === 'ok')
      await interaction.editReply(
        editOptions(renderReply(execution.reply, { single: true, t: execution.t })[0]!),
      );
    else
      await interaction.followUp({
        ...interactionOptions(renderReply({ ...execution.reply, ephemeral: true }, { t: execution.t })[0]!),
        flags: MessageFlags.Ephemeral,
      });
  } catch (error) {
    logger.error({ err: error, ...context }, 'answering a page button failed');
  }
}
