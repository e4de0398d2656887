/**
 * What Slack does in HTTP mode: POST a payload to the app's request URL, signed with the signing
 * secret (`v0=hex(HMAC-SHA256(secret, "v0:" + ts + ":" + rawBody))`,
 * https://docs.slack.dev/authentication/verifying-requests-from-slack). Options break the signature on
 * purpose so tests can prove a bad request never reaches a handler.
 */
import { createHmac } from 'node:crypto';
import { request } from 'undici';

export interface SignedPostOptions {
  /** Seconds since the epoch to sign with; default now. */
  timestamp?: number;
  /** Sign with this secret instead of the right one. */
  secret?: string;
  /** Send these headers instead of the computed ones (e.g. to leave one out). */
  omit?: ('x-slack-signature' | 'x-slack-request-timestamp')[];
  /** Replace the signature outright. */
  signature?: string;
}

/** Signs a raw body the way Slack does. */
export function slackSignature(secret: string, timestamp: number, rawBody: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** Form-encodes a slash command or `payload=<json>` body as Slack sends it. */
export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/**
 * POSTs `rawBody` to `url` signed with `secret` and returns the status and body text.
 * `contentType` is form-encoded for commands and interactions, JSON for Events API callbacks.
 */
export async function signedPost(
  url: string,
  secret: string,
  rawBody: string,
  contentType: 'application/x-www-form-urlencoded' | 'application/json',
  options: SignedPostOptions = {},
): Promise<{ status: number; body: string }> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': contentType,
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': options.signature ?? slackSignature(options.secret ?? secret, timestamp, rawBody),
  };
  for (const name of options.omit ?? []) delete headers[name];
  const response = await request(url, { method: 'POST', headers, body: rawBody });
  return { status: response.statusCode, body: await response.body.text() };
}
