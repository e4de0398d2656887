/**
 * One process of the lease race in test/stores/lease.test.ts: opens the lease store, says `ready`,
 * and at `go` on stdin tries to take the lease once; prints the token it got (0: refused).
 *
 *   tsx test/stores/lease-child.ts <redis-url | sqlite file> <lease name> <owner>
 */
import { openLease } from '../../src/stores/open-lease.ts';

const [where, name, owner] = process.argv.slice(2);
const lease = await openLease(
  where!.startsWith('redis://') ? { kind: 'redis', url: where! } : { kind: 'sqlite', path: where! },
);
await lease.open();
process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  const token = await lease.acquire(name!, owner!, 60_000);
  process.stdout.write(`token ${token}\n`);
  await lease.close();
  process.exit(0);
});
