/**
 * End-to-end rig for Slack: the loopback fake, a Matchday app built by `createApp` from a config
 * read by `loadConfig` (embedded local service at a frozen instant, real client, name index, runtime,
 * SQLite tenant store in memory), and the real Bolt app started by `startSlack` in Socket Mode or HTTP
 * mode against the fake. `command()` does what Slack does when a
 * user types `/matchday ...`: an envelope over the socket, or a signed POST to `/slack/events`, then
 * waits for the answer at the response_url.
 */
import { commands } from '../../../commands/index.ts';
import { type App, createApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { Clock } from '../../../src/core/clock.ts';
import { type SlackPlatform, startSlack } from '../../../src/platforms/slack/app.ts';
import { captureLogs, type LogCapture } from '../../bot/helpers.ts';
import { FROZEN_AT } from '../../commands/helpers.ts';
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
  results: { id: 'C0RESULTS', name: 'results' },
  closed: { id: 'C0CLOSED', name: 'private-talk', isMember: false },
} as const;

export interface Rig {
  mode: Mode;
  fake: FakeSlack;
  app: App;
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
  options: { at?: Date; rateLimitUnitMs?: number } = {},
): Promise<Rig> {
  const fake = await FakeSlack.start({
    users: Object.values(USERS).map((u) => ({ ...u })),
    channels: Object.values(CHANNELS).map((c) => ({ ...c })),
  });
  const config = loadConfig({
    STORE_URL: 'sqlite://:memory:',
    ESPORTS_RATE: '10000',
    LOG_LEVEL: 'debug',
    SLACK_BOT_TOKEN: fake.botToken,
    ...(mode === 'socket' ? { SLACK_APP_TOKEN: fake.appToken } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
    SLACK_API_URL: fake.apiUrl,
  });
  const logs = captureLogs([...config.secrets]);
  const app = await createApp(config, {
    clock: new Clock({ start: options.at ?? FROZEN_AT, frozen: true }),
    logger: logs.logger,
    perUserLimit: { count: 1_000_000, windowMs: 1000 },
  });
  const slack = await startSlack(app, {
    ...config.slack!,
    // Tests listen on loopback only, on a free port.
    ...(mode === 'http' ? { port: 0, host: '127.0.0.1' } : {}),
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
    app,
    slack,
    logs,
    ...(eventsUrl ? { eventsUrl } : {}),
    command,
    deliver,
    async close() {
      await slack.stop();
      await fake.close();
      await app.close();
    },
  };
}

/** The names of every command, for tests that must cover all of them. */
export const COMMAND_NAMES = commands.map((c) => c.name);
