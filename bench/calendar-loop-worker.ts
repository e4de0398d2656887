/**
 * The 20 clients of `bench/flood.ts` that fetch one calendar URL in a loop, in a process of their
 * own (their work must not slow the bot's side being measured). Prints one JSON line at the end:
 * answers by status.
 *
 *   tsx bench/calendar-loop-worker.ts <url> <clients> <ms>
 */
const [url, clientsArg, msArg] = process.argv.slice(2) as [string, string, string];
const until = performance.now() + Number(msArg);
const statuses: Record<string, number> = {};
await Promise.all(
  Array.from({ length: Number(clientsArg) }, async () => {
    while (performance.now() < until) {
      let status = 'failed';
      try {
        const response = await fetch(url);
        await response.arrayBuffer();
        status = String(response.status);
      } catch {
        // counted as failed
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }),
);
process.stdout.write(`${JSON.stringify(statuses)}\n`);
