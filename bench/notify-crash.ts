/**
 * `npm run bench:notify -- --crash`: a child notifier with paced posting on a platform that does not
 * deduplicate (like Slack), killed with SIGKILL 20 times at random moments and 20 times right after
 * a post (before its mark is written), on the SQLite ledger and (with `--redis URL`) the Redis ledger,
 * restarted each time with the same instance identity. Goal: 0 duplicates, 0 lost. Two people with
 * personal follows get their DMs through the real Discord and Slack deliveries against the loopback
 * fakes, counted by the fakes; a kill may come right after a DM. After-post runs use three
 * copies of the tenants, so 20 kills (1-8 posts each) do not run out of posts.
 *
 *   --kills N        kills per mode and ledger (default 20; --quick 4)
 *   --redis URL      also run on the Redis ledger at URL (e.g. redis://127.0.0.1:6379)
 *
 * The last line is one JSON object: per run `kills`, `expected`, `duplicates`, `lost`, and totals.
 */
import { type CrashResult, crashRun } from '../test/notify/crash-run.ts';

export async function crashBench(argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const killsArg = argv.indexOf('--kills');
  const kills = killsArg > 0 ? Number(argv[killsArg + 1]) : quick ? 4 : 20;
  const redisArg = argv.indexOf('--redis');
  const url = redisArg > 0 ? argv[redisArg + 1] : undefined;
  const ledgers = ['sqlite' as const, ...(url ? [{ redisUrl: url }] : [])];
  const runs: CrashResult[] = [];
  for (const ledger of ledgers)
    for (const mode of ['random', 'after-post'] as const) {
      // After-post kills each take 1-8 posts: three copies of the tenants give every kill its posts.
      const result = await crashRun({
        ledger,
        mode,
        kills,
        hours: 6,
        tickMs: 120_000,
        postDelayMs: 20,
        copies: mode === 'after-post' ? 3 : 1,
        dms: true,
      });
      runs.push(result);
      const dm = result.dms!;
      console.log(
        `${result.ledger.padEnd(6)} ${mode.padEnd(10)} kills ${result.kills}  expected ${result.expected}  posts ${result.posts}  duplicates ${result.duplicates}  lost ${result.lost}  (DMs: expected ${dm.expected}, posts ${dm.posts}, duplicates ${dm.duplicates}, lost ${dm.lost})`,
      );
    }
  if (!url) console.log('(Redis skipped: pass --redis URL to include the Redis ledger)');
  const sum = (f: (r: CrashResult) => number) => runs.reduce((n, r) => n + f(r), 0);
  console.log(
    JSON.stringify({
      bench: 'notify-crash',
      runs,
      kills: sum((r) => r.kills),
      expected: sum((r) => r.expected),
      duplicates: sum((r) => r.duplicates),
      lost: sum((r) => r.lost),
      dm_expected: sum((r) => r.dms?.expected ?? 0),
      dm_duplicates: sum((r) => r.dms?.duplicates ?? 0),
      dm_lost: sum((r) => r.dms?.lost ?? 0),
    }),
  );
}
