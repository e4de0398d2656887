/**
 * Who is asking, for a limit per address: the connection's peer, unless that peer is a proxy on
 * this host or the private network (loopback, 10/8, 172.16/12, 192.168/16, fc00::/7, link-local),
 * as with a reverse proxy in front of the calendar port (README, CALENDAR_URL). Then every request
 * would share the proxy's address, so the address the proxy added last to `X-Forwarded-For` is
 * used (the entries before it are the client's own word). A peer on the internet cannot choose
 * its address this way: its header is ignored.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

export function clientAddress(request: IncomingMessage): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  if (!isPrivate(peer)) return peer;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  const last = forwarded.at(-1)?.trim() ?? '';
  return isIP(last) ? last : peer;
}

/** Loopback, private (RFC 1918, RFC 4193) or link-local, IPv4 (also IPv4-mapped IPv6) or IPv6. */
export function isPrivate(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number) as [number, number];
    return (
      a === 127 ||
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  if (isIP(address) === 6) {
    const lower = address.toLowerCase();
    return lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
  }
  return false;
}
