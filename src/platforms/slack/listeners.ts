/**
 * What Matchday does with what Slack sends: the Bolt listeners, one function each, registered by
 * `registerListeners` (`app.ts` starts Bolt and calls it).
 *
 * One slash command, `/matchday <command> <arguments>`: acked at once (Slack's 3 s), parsed by the
 * shared text parser, run by the shared runtime, answered through `respond()`: ephemeral unless the
 * reply is meant for the channel. Whether the user is a workspace admin or owner comes from
 * `users.info`: asked afresh for every command that can change settings (/settings, /follow), cached
 * for at most 5 seconds for the others (which may still treat admins differently). Buttons: Reveal
 * (a spoiler, to the clicker alone), previous/next page, links (acked only). Uninstalling the app or
 * revoking its token purges the workspace.
 */
import type { App } from '@slack/bolt';
import type { Execution } from '../../bot/call-checks.ts';
import type { AnyCommand, ChannelCheck } from '../../bot/command.ts';
import type { Logger } from '../../bot/logger.ts';
import { pageActionLine } from '../../bot/pages.ts';
import { COLOURS, errorReply, messageSpans, type Reply } from '../../bot/reply.ts';
import type { CommandCall, Runtime } from '../../bot/runtime.ts';
import type { TenantStore } from '../../bot/tenants.ts';
import { knownIn, parseCommandText } from '../../bot/text-args.ts';
import { cmd, UserError } from '../../core/errors.ts';
import { slackTenantId, slackTenantKey } from '../../core/tenant-id.ts';
import { spanned, type Translate, translator } from '../../i18n/i18n.ts';
import { uploadImages } from './files.ts';
import { SLASH_COMMAND } from './mrkdwn.ts';
import { LINK_ACTION, PAGE_ACTION_ID, REVEAL_ACTION, renderReply, revealMessage } from './render.ts';

/** What the Slack platform needs of the Matchday app (`createApp` provides all of it). */
export interface SlackHost {
  runtime: {
    readonly commands: AnyCommand[];
    find(name: string): AnyCommand | undefined;
    run(call: CommandCall): Promise<Execution>;
    /** The name index: settles bare words several names could split (`knownIn`). */
    autocomplete?: Runtime['autocomplete'];
  };
  tenants: Pick<TenantStore, 'purge' | 'get'>;
  logger: Logger;
}

/** Slash command text arrives with `&`, `<`, `>` as entities; the parser wants the characters. */
function decodeCommandText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

type WebClient = App['client'];

/**
 * Whether the user is a workspace admin or owner, from `users.info` (never from the command text).
 * `undefined` when Slack could not say: the caller refuses rather than guesses.
 */
async function isWorkspaceAdmin(
  client: WebClient,
  userId: string,
  logger: Logger,
): Promise<boolean | undefined> {
  try {
    const { user } = await client.users.info({ user: userId });
    return user?.is_admin === true || user?.is_owner === true || user?.is_primary_owner === true;
  } catch (error) {
    logger.warn(
      { code: (error as { data?: { error?: string } }).data?.error ?? (error as Error).message },
      'users.info failed',
    );
    return undefined;
  }
}

/** How long a command that cannot change settings trusts a looked-up admin status. */
const ADMIN_CACHE_MS = 5_000;

/** Admin status per workspace and user, for commands that are not admin-only. */
class AdminCache {
  readonly #entries = new Map<string, { admin: boolean; at: number }>();
  constructor(readonly now: () => number = Date.now) {}

  get(key: string): boolean | undefined {
    const entry = this.#entries.get(key);
    return entry && this.now() - entry.at < ADMIN_CACHE_MS ? entry.admin : undefined;
  }

  set(key: string, admin: boolean): void {
    if (this.#entries.size > 10_000) this.#entries.clear();
    this.#entries.set(key, { admin, at: this.now() });
  }
}

/** Can Matchday post in a channel? `conversations.info`: it must exist, be unarchived, and have the bot. */
function channelCheck(client: WebClient): ChannelCheck {
  return {
    async check(channelId) {
      try {
        const { channel } = await client.conversations.info({ channel: channelId });
        if (channel?.is_archived)
          return { ok: false, missing: ['an unarchived channel (this one is archived)'] };
        if (channel?.is_member === false) {
          return {
            ok: false,
            missing: ['membership of the channel (invite it there with /invite @Matchday)'],
          };
        }
        return channel?.name ? { ok: true, name: channel.name } : { ok: true };
      } catch (error) {
        const code = (error as { data?: { error?: string } }).data?.error;
        if (code === 'channel_not_found') {
          return {
            ok: false,
            missing: ['access to the channel (for a private channel, invite it with /invite @Matchday)'],
          };
        }
        throw error;
      }
    },
  };
}

interface SlashPayload {
  text: string;
  user_id: string;
  user_name: string;
  team_id: string;
  enterprise_id?: string;
  channel_id: string;
  channel_name: string;
}

/** Answers one `/matchday` command text. Never throws: every failure becomes a reply. */
async function answerCommand(
  host: SlackHost,
  client: WebClient,
  payload: SlashPayload,
  admins: AdminCache = new AdminCache(),
): Promise<Answer> {
  const { runtime, logger } = host;
  // `/matchday` alone is `/matchday help`.
  const text = decodeCommandText(payload.text ?? '').trim() || 'help';
  // The parser's refusals come before the runtime: written in the workspace's language read here.
  const t = await workspaceTranslator(host, payload);
  try {
    const search = runtime.autocomplete?.bind(runtime);
    const known = search ? knownIn(search) : undefined;
    const parsed = parseCommandText(text, runtime.commands, t, known);
    const command = runtime.find(parsed.command);
    const tenantKey = slackTenantKey(payload.team_id, payload.enterprise_id);
    const cacheKey = `${tenantKey}/${payload.user_id}`;
    // Commands that can change settings (/settings, /follow) always ask Slack, so a demoted admin is
    // refused at once; others accept a status up to ADMIN_CACHE_MS old.
    const live = command?.adminOnly === true || command?.usesSettings === true;
    let isAdmin = live ? undefined : admins.get(cacheKey);
    if (isAdmin === undefined) {
      isAdmin = await isWorkspaceAdmin(client, payload.user_id, logger);
      if (isAdmin === undefined) {
        if (command?.adminOnly) {
          return {
            reply: errorReply(
              english,
              english('platform.titles.sorry'),
              english('platform.runtime.slackAdminCheck'),
            ),
            t: english,
          };
        }
        isAdmin = false;
      } else admins.set(cacheKey, isAdmin);
    }
    const call: CommandCall = {
      platform: 'slack',
      tenantKey,
      user: { id: payload.user_id, name: payload.user_name, isAdmin },
      channel: { id: payload.channel_id, name: payload.channel_name },
      command: parsed.command,
      ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
      args: parsed.args,
      channels: channelCheck(client),
    };
    const execution = await runtime.run(call);
    return { reply: execution.reply, t: execution.t };
  } catch (error) {
    // Before the runtime (the text did not parse): the card is in the workspace's language, as the parser's words.
    if (error instanceof UserError) {
      const seeHelp = spanned(t, 'platform.parse.seeHelp', {}, { command: cmd('help') });
      const message = [...messageSpans(error.rich), ' ', ...seeHelp];
      const title = t('platform.titles.notQuite');
      return { reply: errorReply(t, title, message, { suggestions: error.suggestions }), t };
    }
    logger.error({ err: error }, 'slack command failed');
    const message = t('platform.runtime.bugAnswering');
    return { reply: errorReply(t, t('platform.titles.sorry'), message, { colour: COLOURS.error }), t };
  }
}

/** A reply and the language its reader reads (the tenant's, once the runtime read it). */
interface Answer {
  reply: Reply;
  t: Translate;
}

const english = translator('en');

/** The workspace's language, as its settings say; English when the store cannot say (never throws). */
async function workspaceTranslator(host: SlackHost, payload: SlashPayload): Promise<Translate> {
  try {
    const settings = await host.tenants.get(slackTenantId(payload.team_id, payload.enterprise_id));
    return translator(settings.language);
  } catch {
    return english;
  }
}

/** The respond() body for a reply: blocks, fallback text, and who sees it. */
function responseOf({ reply, t }: Answer): {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
  blocks: unknown[];
} {
  const message = renderReply(reply, { t });
  return {
    response_type: reply.ephemeral ? 'ephemeral' : 'in_channel',
    text: message.text,
    blocks: message.blocks,
  };
}

/** Registers the listeners: the slash command, the Reveal, page and link buttons, uninstall events. */
export function registerListeners(bolt: App, host: SlackHost): void {
  const admins = new AdminCache();
  listenToSlashCommand(bolt, host, admins);
  listenToRevealButtons(bolt);
  listenToPageButtons(bolt, host, admins);
  listenToLinkButtons(bolt);
  listenToUninstall(bolt, host);
  bolt.error(async (error) => {
    host.logger.error({ code: error.code, err: error.message }, 'slack listener failed');
  });
}

/** `/matchday ...`: acked first, answered through `respond()`, pictures uploaded after the answer. */
function listenToSlashCommand(bolt: App, host: SlackHost, admins: AdminCache): void {
  const { logger } = host;
  bolt.command(SLASH_COMMAND, async ({ command, ack, respond, client }) => {
    // Ack first: Slack shows the user an error if nothing is acked within 3 s.
    await ack();
    const answer = await answerCommand(host, client, command, admins);
    try {
      await respond(responseOf(answer) as Parameters<typeof respond>[0]);
    } catch (error) {
      logger.warn(
        { err: (error as Error).message, command: command.text.split(/\s+/)[0] },
        'slack respond failed',
      );
    }
    // Pictures (standings, brackets) follow the answer as files in the channel.
    await uploadImages(client, command.channel_id, answer.reply, logger);
  });
}

/** A Reveal button: the hidden text, shown to the clicker alone. */
function listenToRevealButtons(bolt: App): void {
  bolt.action(new RegExp(`^${REVEAL_ACTION}`), async ({ ack, action, respond }) => {
    await ack();
    const value = (action as { value?: string }).value ?? '';
    // Only the clicker sees it; the message itself keeps the spoiler hidden.
    await respond({ response_type: 'ephemeral', replace_original: false, ...revealMessage(value) });
  });
}

/**
 * A page button: the page's command line runs as if typed by the clicker; the message is replaced
 * by the other page, and a refusal (an ephemeral reply) goes to the clicker alone.
 */
function listenToPageButtons(bolt: App, host: SlackHost, admins: AdminCache): void {
  bolt.action(new RegExp(`^${PAGE_ACTION_ID}_`), async ({ ack, action, body, respond, client }) => {
    await ack();
    const line = pageActionLine((action as { value?: string }).value ?? '');
    if (line === undefined || body.type !== 'block_actions') return;
    const answer = await answerCommand(
      host,
      client,
      {
        text: line,
        user_id: body.user.id,
        user_name: body.user.username ?? body.user.name ?? 'someone',
        team_id: body.team?.id ?? body.user.team_id ?? '',
        ...(body.enterprise?.id ? { enterprise_id: body.enterprise.id } : {}),
        channel_id: body.channel?.id ?? '',
        channel_name: body.channel?.name ?? '',
      },
      admins,
    );
    try {
      const { response_type: _type, ...message } = responseOf(answer);
      await respond(
        answer.reply.ephemeral
          ? { response_type: 'ephemeral', replace_original: false, ...message }
          : { replace_original: true, ...message },
      );
    } catch (error) {
      host.logger.warn({ err: (error as Error).message, button: line }, 'slack page respond failed');
    }
  });
}

/** Link buttons open their URL in the browser; Slack still sends an action, which must be acked. */
function listenToLinkButtons(bolt: App): void {
  bolt.action(new RegExp(`^${LINK_ACTION}`), async ({ ack }) => {
    await ack();
  });
}

/** The app uninstalled or its bot token revoked: everything Matchday holds for the workspace goes (`tenants.purge`). */
function listenToUninstall(bolt: App, host: SlackHost): void {
  const purge = async (reason: string, body: { team_id?: string; enterprise_id?: string | null }) => {
    if (!body.team_id) return;
    const tenantId = slackTenantId(body.team_id, body.enterprise_id);
    await host.tenants.purge(tenantId);
    host.logger.info({ tenant: tenantId, reason }, 'slack workspace purged');
  };
  bolt.event('app_uninstalled', async ({ body }) => {
    await purge('app_uninstalled', body);
  });
  bolt.event('tokens_revoked', async ({ event, body }) => {
    // Only the bot token matters: Matchday holds no user tokens.
    if ((event.tokens.bot ?? []).length > 0) await purge('tokens_revoked', body);
  });
}
