/**
 * The attacker of `bench/flood.ts`, in a process of its own (its sockets must not count against
 * the bot's file descriptors): holds `count` idle TCP connections to 127.0.0.1:`port`, spread over
 * `addresses` loopback source addresses (127.0.0.2, 127.0.0.3, ...), sending nothing; each one the
 * server closes is opened again after 100 ms, as a flood keeps coming. Prints one JSON line a
 * second: connections open on this side, opened so far, closed by the server so far.
 *
 *   tsx bench/flood-worker.ts <port> <count> <addresses>
 */
import { connect } from 'node:net';

const [port, count, addresses] = process.argv.slice(2).map(Number) as [number, number, number];
let open = 0;
let opened = 0;
let closed = 0;
let stopping = false;

function hold(index: number): void {
  if (stopping) return;
  const localAddress = `127.0.0.${2 + (index % addresses)}`;
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let connected = false;
  socket.on('error', () => undefined);
  socket.resume();
  socket.once('connect', () => {
    connected = true;
    open++;
    opened++;
  });
  socket.once('close', () => {
    if (connected) {
      open--;
      closed++;
    }
    setTimeout(() => hold(index), 100).unref();
  });
}

// Opened in steps of 500 a tick: all at once would only measure the kernel's accept backlog.
for (let i = 0; i < count; i += 500) {
  for (let j = i; j < Math.min(count, i + 500); j++) hold(j);
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const report = setInterval(() => process.stdout.write(`${JSON.stringify({ open, opened, closed })}\n`), 1000);
process.on('SIGTERM', () => {
  stopping = true;
  clearInterval(report);
  process.exit(0);
});
