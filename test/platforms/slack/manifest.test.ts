/**
 * The app manifest in the repo must match what the code expects: the slash command it listens to,
 * the events that purge a workspace, the scopes of the Web API methods it calls, and interactivity
 * for the Reveal buttons. Checked as text (no YAML parser is a dependency), line by line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLASH_COMMAND } from '../../../src/platforms/slack/mrkdwn.ts';

const manifest = readFileSync(new URL('../../../slack-manifest.yml', import.meta.url), 'utf8');
const lines = manifest.split('\n').filter((line) => !line.trim().startsWith('#'));
const has = (pattern: RegExp) => lines.some((line) => pattern.test(line));

describe('slack-manifest.yml', () => {
  it('declares the one slash command the app listens to, with channel escaping on', () => {
    expect(has(new RegExp(`^\\s+- command: ${SLASH_COMMAND}$`))).toBe(true);
    expect(has(/^\s+should_escape: true$/)).toBe(true);
  });

  it('asks for exactly the bot scopes the code uses', () => {
    const start = lines.findIndex((line) => /^\s+bot:$/.test(line));
    const scopes: string[] = [];
    for (const line of lines.slice(start + 1)) {
      const match = /^\s+- ([a-z:.]+)$/.exec(line);
      if (!match) break;
      scopes.push(match[1]!);
    }
    // commands: /matchday; chat:write: chat.postMessage/update; users:read: users.info;
    // channels:read + groups:read: conversations.info for public and private channels;
    // im:write: conversations.open for reminders by direct message (/me follow);
    // files:write: standings and bracket pictures (files.uploadV2).
    expect(scopes.sort()).toEqual([
      'channels:read',
      'chat:write',
      'commands',
      'files:write',
      'groups:read',
      'im:write',
      'users:read',
    ]);
  });

  it('subscribes to the events that purge a workspace and enables interactivity and Socket Mode', () => {
    expect(has(/^\s+- app_uninstalled$/)).toBe(true);
    expect(has(/^\s+- tokens_revoked$/)).toBe(true);
    expect(has(/^\s+is_enabled: true$/)).toBe(true);
    expect(has(/^\s+socket_mode_enabled: true$/)).toBe(true);
  });
});
