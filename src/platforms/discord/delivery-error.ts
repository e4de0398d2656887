/**
 * Discord's REST failures as the notifier's `DeliveryError` (src/notify/delivery-error.ts): a 429
 * waited out too long, the refusals that retrying cannot fix (missing access or permission, an
 * unknown channel, closed DMs), and everything else as transient. Posts (delivery.ts) and scheduled
 * events (scheduled-events.ts) map their failures through it.
 */
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { DeliveryError } from '../../notify/delivery-error.ts';

/** Discord JSON error codes that retrying cannot fix, with the code the notifier sees. */
const PERMANENT: Record<number, { code: string; explanation: string }> = {
  50001: {
    code: 'MISSING_ACCESS',
    explanation: 'Matchday cannot see this channel (View Channel is missing)',
  },
  50013: {
    code: 'MISSING_PERMISSIONS',
    explanation: 'Matchday may not post there (Send Messages or Embed Links is missing)',
  },
  10003: { code: 'UNKNOWN_CHANNEL', explanation: 'the channel no longer exists' },
  50007: { code: 'DM_CLOSED', explanation: 'the person does not accept direct messages from Matchday' },
};

/** Maps a REST failure to a DeliveryError; `where` names the channel, never a token. */
export function toDeliveryError(error: unknown, where: string): DeliveryError {
  if (error instanceof DeliveryError) return error;
  if (error instanceof RateLimitError) {
    return new DeliveryError(
      'transient',
      'RATE_LIMITED',
      `Discord rate-limited ${where} for ${Math.ceil(error.retryAfter / 1000)} s.`,
      error.retryAfter,
    );
  }
  if (error instanceof DiscordAPIError) {
    const permanent = typeof error.code === 'number' ? PERMANENT[error.code] : undefined;
    if (permanent) {
      return new DeliveryError(
        'permanent',
        permanent.code,
        `Discord refused the message for ${where}: ${permanent.explanation} (${error.code}).`,
      );
    }
    // A deleted live card (10008) or a refused body (50035): a fault of this message, not the channel.
    const code =
      error.code === 10008 ? 'UNKNOWN_MESSAGE' : error.code === 50035 ? 'INVALID_MESSAGE' : 'DISCORD_ERROR';
    return new DeliveryError(
      'transient',
      code,
      `Discord answered ${error.status} (code ${error.code}) for ${where}.`,
    );
  }
  if (error instanceof HTTPError) {
    return new DeliveryError(
      'transient',
      'DISCORD_HTTP_ERROR',
      `Discord answered HTTP ${error.status} for ${where}.`,
    );
  }
  return new DeliveryError(
    'transient',
    'NETWORK_ERROR',
    `Could not reach Discord for ${where}: ${(error as Error)?.name ?? 'error'}.`,
  );
}
