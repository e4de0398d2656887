/** Writing a JSON answer, whole or (the malformed-body fault of /v2 and /v3) cut in half. */
import type { ServerResponse } from 'node:http';

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The malformed-body fault: a 200 whose JSON is cut in half. */
export function sendTruncated(res: ServerResponse, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
}
