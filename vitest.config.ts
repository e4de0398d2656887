import { defineConfig } from 'vitest/config';

/**
 * Test files that take long by nature, run by `npm run test:slow` and `npm run test:all` (which CI
 * runs) but not by the quick `npm test`. Each is here for what it does, not only for its time:
 * child processes of the real CLI (started, killed with SIGKILL, restarted), simulated days and
 * afternoons, the scale run of a benchmark, exhaustive checks of the local service, and real-time
 * waits. Figures: seconds of one file in a whole run on this 2-core machine. The quick suite runs on
 * every core (`--maxWorkers=100%` in `npm test`); the whole run keeps vitest's default (one fewer),
 * so the slow files' child processes have a core to themselves.
 */
export const SLOW_TESTS = [
  // Benchmarks bounded for CI, with real processes.
  'test/ops/scale.test.ts', // 3 processes on one Redis, the lease holder SIGKILLed (~75 s)
  'test/notify/crash.test.ts', // a child notifier SIGKILLed again and again while posting (~25 s)
  'test/notify/restart.test.ts', // a child notifier SIGKILLed mid-run and restarted (~15 s)
  'test/notify/redis-restart.test.ts', // a redis-server killed mid-run and started empty, 3 runs (~80 s)
  'test/client/v2-token-processes.test.ts', // child processes sharing one v2 token, SQLite and Redis (~40 s)
  'test/bot/tenant-concurrency.test.ts', // child processes writing 1,000 tenants each (~15 s)
  'test/ops/sqlite-lease.test.ts', // 2 real `matchday start` on one SQLite file, the lease holder SIGKILLed (~85 s at a load of 10-20)
  'test/ops/graceful-stop.test.ts', // real `matchday start` processes stopped with SIGTERM mid-post (~21 s)
  'test/bot/store-outage.test.ts', // a redis-server of its own stopped and started empty (~11 s)
  // Simulated days and hours.
  'test/notify/digest-dst.test.ts', // 24-hour days across DST changes, four zones (~35 s)
  'test/notify/notifier.test.ts', // a simulated day with several tenants (~30 s)
  'test/notify/v2-day.test.ts', // 24 simulated hours, a v3 and a v2 notifier side by side (~12 min at a load of 24)
  'test/service/simulation.test.ts', // the world on a jumped and a fast clock (~7 s)
  'test/notify/notifier-cases.test.ts', // moved, postponed and failing series over simulated hours (~15 s)
  'test/notify/feed-source.test.ts', // two notifiers over two simulated hours, one over a feed (~30 s)
  'test/notify/deleted-while-down.test.ts', // series deleted while down, over simulated hours (~45 s)
  'test/notify/since.test.ts', // subscriptions made mid-day over a simulated day (~8 s)
  'test/notify/downtime-drops.test.ts', // restarts after hours of downtime, SQLite and Redis (~12 s)
  'test/notify/late-drops.test.ts', // 429s held for the 3-hour lateness windows (~8 s)
  'test/notify/tournament-end.test.ts', // tournament ends over simulated hours, v3, feed and v2 (~11 s)
  'test/notify/threads.test.ts', // a series played game by game through Discord and Slack threads (~75 s at load 20)
  'test/notify/scheduled-events.test.ts', // scheduled events over 15 simulated hours (~25 s at load 20)
  'test/notify/scheduled-events-deleted.test.ts', // events deleted by hand over 16 simulated hours, SQLite and Redis (~35 s)
  'test/platforms/slack/timeline.test.ts', // notifications through Slack over a simulated afternoon (~6 s)
  'test/platforms/discord/timeline.test.ts', // the same through Discord (~6 s)
  // Exhaustive checks of the local service and the client against it, and real-time waits.
  'test/service/queries.test.ts', // filters and orders checked against a full scan of the window (~8 s)
  'test/service/schedule.test.ts', // the schedule's promises over the whole window, also at bench scale (~5 s)
  'test/service/limits.test.ts', // the service's limits, also as a child process (~3 s)
  'test/client/service.test.ts', // 429 storms, faults and the 5/s budget waited out in real time (~9 s)
  'test/client/v2-long-urls.test.ts', // v2 URLs under the cap, against a world at 4x its series (~20-45 s)
  'test/bot/app.test.ts', // start-up against a service that answers slowly (~13 s)
  // The real `matchday` CLI as a child process (container-style starts, the terminal over stdin).
  'test/ops/headless.test.ts', // no TTY, no platform: started, probed, stopped with SIGTERM (~10 s)
  'test/ops/pty.test.ts', // `npm start` in a pseudo-terminal for a simulated hour at 60x (~70 s)
  'test/ops/cli-operations.test.ts', // (~5 s)
  'test/ops/sharding.test.ts', // (~5 s)
  'test/platforms/terminal/chat.test.ts', // (~15 s)
  'test/platforms/discord/start.test.ts', // (~6 s)
  'test/platforms/terminal/start-platforms.test.ts', // (~4 s)
  'test/platforms/terminal/ask-warm.test.ts', // `matchday ask` cold, then warm, counting requests (~5 s)
  'test/platforms/terminal/ask-names.test.ts', // `matchday ask` with bare names of several words, cold and warm (~20 s)
  'test/reads/name-typos.test.ts', // misspelt names on new stores read at 5 requests/s, in real time (~55 s)
];

/**
 * Test files that run once per interface of the data service (issue 11): every command test and the
 * golden replies, each a `describe.each(APIS)` over the stack's interface (test/commands/helpers.ts).
 * The quick project runs them on v3; the slow project runs them again on v2 (the v2 run takes about
 * twice the v3 run's time: a v2 command makes more requests), so `npm test` stays quick and
 * `npm run test:all` (CI) runs both. `npx vitest run test/commands` runs both too.
 */
export const PER_API_TESTS = [
  'test/commands/bad-input.test.ts',
  'test/commands/casters-tournament.test.ts',
  'test/commands/deadline.test.ts',
  'test/commands/forfeit.test.ts',
  'test/commands/format-labels.test.ts',
  'test/commands/live-cold-maps.test.ts',
  'test/commands/live-games.test.ts',
  'test/commands/live.test.ts',
  'test/commands/me.test.ts',
  'test/commands/round-trip.test.ts',
  'test/commands/schedule.test.ts',
  'test/commands/series.test.ts',
  'test/commands/settings-concurrency.test.ts',
  'test/commands/settings-follow-help.test.ts',
  'test/commands/standings-lobby.test.ts',
  'test/commands/standings.test.ts',
  'test/commands/tbd.test.ts',
  'test/commands/tournament-outcome.test.ts',
  'test/commands/team.test.ts',
  'test/commands/watch-links.test.ts',
  'test/golden/golden.test.ts',
];

const shared = {
  // dist/ built before the tests that start the real CLI (bin/matchday.mjs runs dist/cli.mjs).
  globalSetup: 'test/setup/build.ts',
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: SLOW_TESTS,
          // Files share a worker's modules instead of importing them again each (about half the
          // CPU time of the quick suite); each file still starts its own services and stores.
          isolate: false,
          provide: { apis: ['v3'] },
        },
      },
      {
        test: {
          ...shared,
          name: 'slow',
          include: [...SLOW_TESTS, ...PER_API_TESTS],
          provide: { apis: ['v2'] },
        },
      },
    ],
  },
});
