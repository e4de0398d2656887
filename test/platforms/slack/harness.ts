/**
 * End-to-end rig for Slack: the loopback fake, the real Matchday stack (local service at a frozen
 * instant, real client, name index, runtime, tenant store), and the real Bolt app started by
 * `startSlack` in Socket Mode or HTTP mode against the fake. `command()` does what Slack does when a
 * user types `/matchday ...`: an envelope over the socket, or a signed POST to `/slack/events`, then
 * waits for the answer at the response_url.
 */
import { commands } from '../../../commands/index.ts';
import type { Logger } from '../../../src/bot/logger.ts';
import { type SlackPlatform, startSlack } from '../../../src/platforms/slack/app.ts';
import { captureLogs, type LogCapture } from '../../bot/helpers.ts';
import { type Stack, startStack } from '../../commands/helpers.ts';
import { formBody, signedPost } from '../../fakes/slack/signed-post.ts';
import { FakeSlack, type ResponsePost } from '../../fakes/slack.ts';

export type Mode = 'socket' | 'http';

export const SIGNING_SECRET = 'test-signing-secret-0123456789';

export const USERS = {
  admin: { id: 'U0ADMIN', name: 'ada', isAdmin: true },
  owner: { id: 'U0OWNER', name: 'olga', isOwner: true },
  member: { id: 'U0MEMBER', name: 'max' },
} as const;

export const CHANNELS = {
  general: { id: 'C0GENERAL', name: 'general' },
  remind: { id: 'C0REMIND', name: 'reminders' },
  live: { id: 'C0LIVE', name: 'live-scores' },
  closed: { id: 'C0CLOSED', name: 'private-talk', isMember: false },
} as const;

export interface Rig {
  mode: Mode;
  fake: FakeSlack;
  stack: Stack;
  slack: SlackPlatform;
  logs: LogCapture;
  /** The Bolt app's request URL in HTTP mode. */
  eventsUrl?: string;
  /** Sends `/matchday <text>` and resolves with the first answer posted to its response_url. */
  command(text: string, options?: { user?: string; channel?: string }): Promise<ResponsePost>;
  /** Sends a raw interaction or event the way the mode does; resolves when Slack would consider it delivered. */
  deliver(kind: 'interactive' | 'events_api', payload: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startRig(
  mode: Mode,
  options: { stack?: Stack; rateLimitUnitMs?: number } = {},
): Promise<Rig> {
  const fake = await FakeSlack.start({
    users: Object.values(USERS).map((u) => ({ ...u })),
    channels: Object.values(CHANNELS).map((c) => ({ ...c })),
  });
  const stack = options.stack ?? (await startStack());
  const logs = captureLogs([fake.botToken, fake.appToken, SIGNING_SECRET]);
  const host = { runtime: stack.runtime, tenants: stack.tenants, logger: logs.logger as Logger };
  const slack = await startSlack(host, {
    botToken: fake.botToken,
    ...(mode === 'socket'
      ? { appToken: fake.appToken }
      : { signingSecret: SIGNING_SECRET, port: 0, host: '127.0.0.1' }),
    apiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    delivery: { minIntervalMs: 0, retryAfterUnitMs: options.rateLimitUnitMs ?? 10 },
  });
  const eventsUrl = slack.port ? `http://127.0.0.1:${slack.port}/slack/events` : undefined;

  const deliver = async (
    kind: 'interactive' | 'events_api',
    payload: Record<string, unknown>,
  ): Promise<void> => {
    if (mode === 'socket') {
      await fake.sendEnvelope(kind, payload);
      return;
    }
    const answer =
      kind === 'interactive'
        ? await signedPost(
            eventsUrl!,
            SIGNING_SECRET,
            formBody({ payload: JSON.stringify(payload) }),
            'application/x-www-form-urlencoded',
          )
        : await signedPost(eventsUrl!, SIGNING_SECRET, JSON.stringify(payload), 'application/json');
    if (answer.status !== 200) throw new Error(`Bolt answered ${answer.status} to ${kind}`);
  };

  const command = async (
    text: string,
    opts: { user?: string; channel?: string } = {},
  ): Promise<ResponsePost> => {
    const { payload, responseId } = fake.slashCommandPayload({
      text,
      userId: opts.user ?? USERS.member.id,
      channelId: opts.channel ?? CHANNELS.general.id,
    });
    if (mode === 'socket') {
      const ack = await fake.sendEnvelope('slash_commands', payload);
      // Acked empty and at once; the answer follows through the response_url.
      if (Object.keys(ack).length !== 0) throw new Error(`unexpected ack payload ${JSON.stringify(ack)}`);
    } else {
      const answer = await signedPost(
        eventsUrl!,
        SIGNING_SECRET,
        formBody(payload),
        'application/x-www-form-urlencoded',
      );
      if (answer.status !== 200) throw new Error(`Bolt answered ${answer.status}`);
    }
    return fake.waitFor(() => fake.responsesTo(responseId)[0], 8000, `the answer to "${text}"`);
  };

  return {
    mode,
    fake,
    stack,
    slack,
    logs,
    ...(eventsUrl ? { eventsUrl } : {}),
    command,
    deliver,
    async close() {
      await slack.stop();
      await fake.close();
      if (!options.stack) await stack.close();
    },
  };
}

/** The names of every command, for tests that must cover all of them. */
export const COMMAND_NAMES = commands.map((c) => c.name);
