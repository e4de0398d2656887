/** Loopback HTTP servers and log capture for the client's tests. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../src/client/logger.ts';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface TestServer {
  /** Base URL ending in /v3. */
  url: string;
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** A `node:http` server on 127.0.0.1, port 0, recording every request it receives. */
export async function startServer(
  handler: (req: IncomingMessage, res: ServerResponse, index: number) => void | Promise<void>,
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    void handler(req, res, requests.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v3`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status and optional headers. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

export interface CapturedLog {
  level: string;
  obj: object;
  msg: string;
}

/** A pino-compatible logger that keeps every line. */
export function captureLogger(): Logger & { lines: CapturedLog[] } {
  const lines: CapturedLog[] = [];
  const at = (level: string) => (obj: object, msg: string) => {
    lines.push({ level, obj, msg });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
