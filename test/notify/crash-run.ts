/**
 * The crash loop shared by `npm run bench:notify -- --crash` and its CI test: a child notifier
 * (`child-notifier.ts`) with paced posting on a platform that does not deduplicate (like Slack: a
 * repeated post is a second message unless the notifier reconciles it by its key), killed with
 * SIGKILL again and again, at random moments or right after a post (before its mark is written),
 * and restarted with the same instance identity until it completes its span. Then every post is
 * counted against what the world says was due.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../src/core/clock.ts';
import { dmSubscriptions } from '../../src/notify/jobs/dm.ts';
import type { Ledger } from '../../src/notify/ledger.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { nonceFor } from '../../src/platforms/discord/render.ts';
import { Rng } from '../../src/service/random.ts';
import { World } from '../../src/service/world.ts';
import { FakeDiscord } from '../fakes/discord.ts';
import { FakeSlack } from '../fakes/slack.ts';
import {
  CHILD_SEED,
  childTenants,
  DM_DISCORD_USER,
  DM_SLACK_USER,
  dmProfiles,
  memoryUsers,
} from './child-tenants.ts';
import type { Recorded } from './helpers.ts';
import { expectedFor, expectedNotifications } from './world-expect.ts';

export interface CrashOptions {
  /** A SQLite ledger in a temporary folder, or the Redis at this URL. */
  ledger: 'sqlite' | { redisUrl: string };
  /** `random`: killed at a random moment; `after-post`: it kills itself right after a random post. */
  mode: 'random' | 'after-post';
  kills: number;
  /** Simulated span (ms) and tick. */
  hours: number;
  tickMs: number;
  /** Real ms per post (a platform's pacing). */
  postDelayMs: number;
  seed?: number;
  /** Copies of the channel tenants (`childTenants`): more posts, so every kill finds one. Default 1. */
  copies?: number;
  /**
   * Also DMs to two people with personal follows (`dmProfiles`): through the real Discord and
   * Slack deliveries against loopback fakes run here, so what arrived is counted by the platforms.
   */
  dms?: boolean;
}

export interface DmCount {
  expected: number;
  posts: number;
  duplicates: number;
  lost: number;
}

export interface CrashResult {
  ledger: string;
  mode: CrashOptions['mode'];
  kills: number;
  expected: number;
  posts: number;
  duplicates: number;
  lost: number;
  unexpected: number;
  /** Keys due between the child's last tick and the end of the span: not expected in this run. */
  afterLastTick: string[];
  /** Keys of duplicates and losses (at most 10 each), to look into. */
  examples: { duplicates: string[]; lost: string[] };
  /** The DMs alone (with `dms`): already counted in the totals above. */
  dms?: DmCount;
}

const FROM = Date.parse('2025-06-04T06:00:00Z');

export async function crashRun(options: CrashOptions): Promise<CrashResult> {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-crash-'));
  const rng = new Rng(options.seed ?? 5);
  const to = FROM + options.hours * 3600_000;
  const files = {
    ledger: options.ledger === 'sqlite' ? join(dir, 'ledger.sqlite') : options.ledger.redisUrl,
    out: join(dir, 'out.jsonl'),
    progress: join(dir, 'progress'),
  };
  const records = (): Recorded[] =>
    existsSync(files.out)
      ? readFileSync(files.out, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Recorded)
      : [];
  const fakes = options.dms
    ? {
        discord: await FakeDiscord.start({ guilds: [] }),
        slack: await FakeSlack.start({ users: [{ id: DM_SLACK_USER, name: 'fan' }] }),
      }
    : undefined;
  const copies = options.copies ?? 1;
  let launched = 0;
  const start = (dieAfterPost?: number, waitFor?: string): ChildProcess =>
    spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/notify/child-notifier.ts',
        files.ledger,
        files.out,
        files.progress,
        String(FROM),
        String(to),
        String(options.tickMs),
        '--holder',
        'crash-child',
        '--platform',
        'history',
        '--post-delay',
        String(options.postDelayMs),
        ...(dieAfterPost ? ['--die-after-post', String(dieAfterPost)] : []),
        ...(copies > 1 ? ['--copies', String(copies)] : []),
        ...(fakes
          ? [
              '--dm-discord',
              fakes.discord.apiUrl,
              '--dm-discord-token',
              fakes.discord.token,
              '--dm-slack',
              fakes.slack.apiUrl,
              '--dm-slack-token',
              fakes.slack.botToken,
            ]
          : []),
        ...(waitFor ? ['--wait-for', waitFor] : []),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });

  /**
   * Each successor is started while its predecessor still runs (a standby: imports done, service
   * built) and goes on the moment it is told, so a kill costs no start-up time: the loop is cheap
   * enough for a busy CI machine. Its first ledger call comes only after the predecessor died.
   */
  const standby = (dieAfterPost?: number) => {
    const go = join(dir, `go-${++launched}`);
    return { child: start(dieAfterPost, go), go };
  };
  const release = (s: { go: string }) => writeFileSync(s.go, '');
  // In after-post mode every run but the last kills itself after a random post (1 to 8).
  const dieAfter = (k: number) =>
    options.mode === 'after-post' && k < options.kills ? 1 + Math.floor(rng.next() * 8) : undefined;

  let kills = 0;
  let current = standby(dieAfter(0));
  const processes = [current.child];
  release(current);
  try {
    while (kills < options.kills && !existsSync(`${files.progress}.done`)) {
      const next = standby(dieAfter(kills + 1));
      processes.push(next.child);
      const before = records().length;
      const done = exited(current.child);
      if (options.mode === 'random') {
        // Killed at a random moment once it is posting (start-up itself is not what is tested).
        const deadline = Date.now() + 60_000;
        while (records().length === before && current.child.exitCode === null && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        await new Promise((resolve) => setTimeout(resolve, rng.next() * 40 * options.postDelayMs));
        current.child.kill('SIGKILL');
      }
      if ((await done) === null) kills++;
      // It completed the span before it was killed: no successor is needed.
      if (existsSync(`${files.progress}.done`)) {
        next.child.kill('SIGKILL');
        break;
      }
      release(next);
      current = next;
    }
    // The last run completes the span.
    if (!existsSync(`${files.progress}.done`)) {
      const code = await exited(current.child);
      if (code !== 0) throw new Error(`the last child notifier exited with ${code}`);
    }

    const world = new World(CHILD_SEED, 1, new Clock({ start: new Date(FROM), frozen: true }));
    // The child ticks FROM, FROM + tickMs, ... while below `to`: what falls due after its last tick
    // (a series starting between the last tick and `to`) is never seen by it in this run, so the
    // expectations end with the last tick, as in the other runs (`lastTick + 1`). Such keys are
    // listed, and a post of one would count as unexpected.
    const lastTick = FROM + Math.floor((to - 1 - FROM) / options.tickMs) * options.tickMs;
    const tenants = childTenants(copies);
    const dmSubs = fakes
      ? await dmSubscriptions(memoryUsers(dmProfiles(world, FROM)), { warn: () => undefined } as never)
      : [];
    const dmExpected = expectedFor(world, dmSubs, FROM, lastTick + 1);
    const expected = [...expectedNotifications(world, tenants, FROM, lastTick + 1), ...dmExpected];
    const expectedKeys = new Set(expected.map((e) => e.key));
    const afterLastTick = [
      ...expectedNotifications(world, tenants, FROM, to),
      ...expectedFor(world, dmSubs, FROM, to),
    ]
      .map((e) => e.key)
      .filter((key) => !expectedKeys.has(key));
    // Channel posts as the child recorded them; DMs as the platforms' fakes received them.
    const posts: { key: string; messageId: string }[] = records().filter((r) => r.op === 'post');
    const dmPosts = fakes ? receivedDms(fakes, [...expectedKeys, ...afterLastTick]) : [];
    posts.push(...dmPosts);
    const counts = new Map<string, number>();
    for (const p of posts) counts.set(p.key, (counts.get(p.key) ?? 0) + 1);
    const duplicates = [...counts].filter(([, n]) => n > 1);
    const ledger: Ledger =
      options.ledger === 'sqlite'
        ? new SqliteLedger(files.ledger)
        : new RedisLedger(files.ledger, { prefix: `child:${files.progress}:` });
    const lost: string[] = [];
    const states = await ledger.getMany(expected.map((e) => e.key));
    for (const e of expected) {
      // A result may be the live card's edit (frozen): then the ledger, not a post, says it went out.
      // A reminder may go out in one message with others due that minute (keyed by the first): then
      // the ledger holds the message it went out in.
      if (e.kind === 'result') {
        if (states.get(e.key)?.state !== 'sent') lost.push(e.key);
      } else if (!counts.has(e.key)) {
        const state = states.get(e.key);
        const carried = state?.state === 'sent' && posts.some((p) => p.messageId === state.messageId);
        if (!carried) lost.push(e.key);
      }
    }
    await ledger.close();
    const dmKeys = new Set(dmExpected.map((e) => e.key));
    const dmCounts = [...counts].filter(([key]) => key.includes(':dm:'));
    return {
      ledger: options.ledger === 'sqlite' ? 'sqlite' : 'redis',
      mode: options.mode,
      kills,
      expected: expected.length,
      posts: posts.length,
      duplicates: duplicates.reduce((sum, [, n]) => sum + n - 1, 0),
      lost: lost.length,
      unexpected: [...counts.keys()].filter((k) => !expectedKeys.has(k)).length,
      afterLastTick,
      examples: { duplicates: duplicates.slice(0, 10).map(([k]) => k), lost: lost.slice(0, 10) },
      ...(fakes
        ? {
            dms: {
              expected: dmExpected.length,
              posts: dmPosts.length,
              duplicates: dmCounts.reduce((sum, [, n]) => sum + n - 1, 0),
              lost: lost.filter((key) => dmKeys.has(key)).length,
            },
          }
        : {}),
    };
  } finally {
    for (const child of processes)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fakes?.discord.close();
    await fakes?.slack.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every DM the fakes received, by ledger key: Slack's from the key in the message metadata,
 * Discord's from the nonce (`nonceFor` of a key of `keys`; an unknown nonce counts as itself).
 */
function receivedDms(
  fakes: { discord: FakeDiscord; slack: FakeSlack },
  keys: string[],
): { key: string; messageId: string }[] {
  const byNonce = new Map(keys.map((key) => [nonceFor(key), key]));
  const discord = fakes.discord
    .directMessages(DM_DISCORD_USER)
    .map((m) => ({ key: byNonce.get(m.nonce ?? '') ?? `dm:unknown-nonce:${m.nonce}`, messageId: m.id }));
  const slack = fakes.slack.messagesIn(`D${DM_SLACK_USER}`).map((m) => {
    const payload = (m.metadata as { event_payload?: { key?: string } } | undefined)?.event_payload;
    return { key: payload?.key ?? 'dm:no-metadata', messageId: m.ts };
  });
  return [...discord, ...slack];
}
