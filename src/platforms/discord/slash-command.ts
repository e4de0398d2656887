/**
 * A slash command on Discord: the interaction becomes a command call, the command runtime answers
 * it, and the reply goes back within Discord's deadlines. The first answer must arrive within 3 s:
 * a command that needs the data service is deferred at once and its reply edited in; any other
 * command answers directly, and is deferred anyway if it has not finished after `deferAfterMs`.
 * Every failure still answers the interaction (an apology), and nothing here throws.
 */

import {
  type ChatInputCommandInteraction,
  type CommandInteractionOption,
  MessageFlags,
  PermissionFlagsBits,
} from 'discord.js';
import type { ChannelCheck } from '../../bot/command.ts';
import type { Logger } from '../../bot/logger.ts';
import { COLOURS, notice, type Reply } from '../../bot/reply.ts';
import type { CommandCall, Runtime } from '../../bot/runtime.ts';
import { type Translate, translator } from '../../i18n/i18n.ts';
import { type DiscordMessage, editOptions, interactionOptions, renderReply } from './render.ts';

/** What answering an interaction needs from the bot. */
export interface Answering {
  runtime: Runtime;
  logger: Logger;
  /** The setup check for one server's channels (`channel-check.ts`). */
  channels(guildId: string): ChannelCheck;
  /** A command not yet answered after this long is deferred (Discord allows 3 s). */
  deferAfterMs: number;
}

/**
 * Before the runtime answers (outside a server, or when answering failed), Matchday writes in the
 * language of the reader's Discord client (`interaction.locale`, e.g. `pt-BR`): English where it
 * has no such language.
 */
function clientLanguage(interaction: ChatInputCommandInteraction): Translate {
  return translator(interaction.locale.slice(0, 2));
}

function apologyFor(t: Translate): Reply {
  return notice(t('platform.titles.sorry'), t('platform.discord.apology'), {
    colour: COLOURS.error,
    ephemeral: true,
  });
}

function serversOnlyFor(t: Translate): Reply {
  return notice('Matchday', t('platform.discord.serversOnly'), { ephemeral: true });
}

/** Answers a slash command; never throws. */
export async function answerCommand(
  interaction: ChatInputCommandInteraction,
  { runtime, logger, channels, deferAfterMs }: Answering,
): Promise<void> {
  const context = {
    interaction: interaction.id,
    command: interaction.commandName,
    guild: interaction.guildId,
  };
  if (!interaction.guildId) {
    const t = clientLanguage(interaction);
    await interaction.reply(interactionOptions(renderReply(serversOnlyFor(t), { t })[0]!));
    return;
  }
  const command = runtime.find(interaction.commandName);
  const deferredEphemeral = command?.ephemeral === true;
  // Needs the service: defer at once (it may take its whole 2 s budget). Otherwise a safety timer.
  const deferral = deferAnswer(interaction, {
    now: command?.usesService === true,
    afterMs: deferAfterMs,
    ephemeral: deferredEphemeral,
    failed: (error) => logger.warn({ err: error, ...context }, 'defer failed'),
  });
  try {
    const { reply, t } = await runtime.run(commandCall(interaction, interaction.guildId, channels));
    deferral.cancel();
    const deferred = deferral.promise();
    if (deferred) await deferred;
    await send(interaction, reply, { deferred: deferred !== undefined, deferredEphemeral, logger, t });
  } catch (error) {
    deferral.cancel();
    logger.error({ err: error, ...context }, 'answering a command failed');
    await apologise(interaction, deferral.promise(), logger);
  }
}

/**
 * Defers the interaction's answer once: at once when `now`, else after `afterMs` unless cancelled
 * first. `promise()` is the deferral, once it has started.
 */
function deferAnswer(
  interaction: ChatInputCommandInteraction,
  options: { now: boolean; afterMs: number; ephemeral: boolean; failed: (error: unknown) => void },
): { promise(): Promise<unknown> | undefined; cancel(): void } {
  let deferral: Promise<unknown> | undefined;
  const defer = () => {
    deferral ??= interaction.deferReply(options.ephemeral ? { flags: MessageFlags.Ephemeral } : {});
    void deferral.catch(options.failed);
  };
  if (options.now) defer();
  const timer = options.now ? undefined : setTimeout(defer, options.afterMs);
  return { promise: () => deferral, cancel: () => clearTimeout(timer) };
}

/** The command call an interaction makes, as the clicking member in this server and channel. */
function commandCall(
  interaction: ChatInputCommandInteraction,
  guildId: string,
  channels: (guildId: string) => ChannelCheck,
): CommandCall {
  const { subcommand, args } = readOptions(interaction.options.data);
  const member = interaction.member;
  return {
    platform: 'discord',
    tenantKey: guildId,
    user: {
      id: interaction.user.id,
      name:
        (member && 'displayName' in member ? member.displayName : undefined) ??
        interaction.user.globalName ??
        interaction.user.username,
      // From this payload's member permissions, whatever the command's default permissions say.
      isAdmin: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
    },
    channel: {
      id: interaction.channelId,
      ...(interaction.channel && 'name' in interaction.channel && interaction.channel.name
        ? { name: interaction.channel.name }
        : {}),
    },
    command: interaction.commandName,
    ...(subcommand ? { subcommand } : {}),
    args,
    channels: channels(guildId),
  };
}

/** `{ subcommand, args }` from an interaction's options; channels and roles arrive as their ids. */
function readOptions(data: readonly CommandInteractionOption[]): {
  subcommand?: string;
  args: Record<string, unknown>;
} {
  const first = data[0];
  // Type 1: a subcommand, whose own options hold the values (Matchday declares no groups).
  if (first && first.type === 1)
    return { subcommand: first.name, args: readOptions(first.options ?? []).args };
  const args: Record<string, unknown> = {};
  for (const option of data)
    if (option.value !== undefined && option.value !== null) args[option.name] = option.value;
  return { args };
}

/** Sends a reply: as the answer, into the deferred answer, or (ephemeral after a public deferral) as a follow-up. */
async function send(
  interaction: ChatInputCommandInteraction,
  reply: Reply,
  {
    deferred,
    deferredEphemeral,
    logger,
    t,
  }: { deferred: boolean; deferredEphemeral: boolean; logger: Logger; t: Translate },
): Promise<void> {
  // A paged reply is one message, so its page buttons edit the whole of it; in the reader's language.
  const messages = renderReply(reply, reply.pager ? { single: true, t } : { t });
  const [first, ...rest] = messages as [DiscordMessage, ...DiscordMessage[]];
  if (!deferred) {
    await interaction.reply(interactionOptions(first));
  } else if (reply.ephemeral && !deferredEphemeral) {
    // A deferred answer keeps the visibility it was deferred with: an answer only for the user
    // (a mistake, a refusal) replaces the public "thinking" message with an ephemeral follow-up.
    await interaction
      .deleteReply()
      .catch((error) =>
        logger.warn({ err: error, interaction: interaction.id }, 'could not remove the deferred reply'),
      );
    await interaction.followUp(interactionOptions(first));
  } else {
    await interaction.editReply(editOptions(first));
  }
  for (const message of rest) await interaction.followUp(interactionOptions(message));
}

/** Answers something, whatever state the interaction is in; never throws. */
async function apologise(
  interaction: ChatInputCommandInteraction,
  deferral: Promise<unknown> | undefined,
  logger: Logger,
): Promise<void> {
  try {
    const t = clientLanguage(interaction);
    const apology = renderReply(apologyFor(t), { t })[0]!;
    const options = interactionOptions(apology);
    if (deferral) {
      await deferral.catch(() => undefined);
      if (interaction.replied) await interaction.followUp(options);
      else await interaction.editReply(editOptions(apology));
    } else if (!interaction.replied) await interaction.reply(options);
    else await interaction.followUp(options);
  } catch (error) {
    logger.warn({ err: error, interaction: interaction.id }, 'could not answer the interaction at all');
  }
}
