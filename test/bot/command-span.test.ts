/**
 * A command named in a reply is a `{ command }` span, and each platform writes it in its own
 * syntax: `/settings spoilers` on Discord and the terminal, `/matchday settings spoilers` on Slack
 * (its one slash command). Text from data is never rewritten: a team called "/series Kings" reads
 * the same everywhere. Pure renderers, so a unit test.
 */
import { describe, expect, it } from 'vitest';
import { errorReply, type Reply } from '../../src/bot/reply.ts';
import { cmd, messageText, UserError } from '../../src/core/errors.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { renderReply as discord } from '../../src/platforms/discord/render.ts';
import { renderReply as slack } from '../../src/platforms/slack/render.ts';
import { renderReply as terminal } from '../../src/platforms/terminal/render.ts';

const reply: Reply = {
  cards: [
    {
      title: 'Standings',
      description: [['Hidden by the spoiler setting (', cmd('settings spoilers'), ').']],
      fields: [{ name: 'More', value: ['Streams: ', cmd('/casters series:42')] }],
      table: {
        columns: [{ header: 'Team' }],
        rows: [[['/series Kings']], [[cmd('team team:Kings')]]],
      },
    },
  ],
};

const discordText = () => JSON.stringify(discord(reply));
const slackText = () => JSON.stringify(slack(reply));
const terminalText = () => terminal(reply, { colour: false, timezone: 'UTC' });

describe('command spans', () => {
  it('are written as Discord users type them, in code style', () => {
    const text = discordText();
    expect(text).toContain('`/settings spoilers`');
    expect(text).toContain('`/casters series:42`');
    expect(text).not.toContain('/matchday');
  });

  it('are written as Slack users type them: /matchday and the command', () => {
    const text = slackText();
    expect(text).toContain('`/matchday settings spoilers`');
    expect(text).toContain('`/matchday casters series:42`');
    expect(text).toContain('/matchday team team:Kings');
    // No command in the other syntax: every /settings, /casters or /team follows /matchday.
    expect(text).not.toMatch(/(?<!\/matchday )\/(settings|casters|team)\b/);
  });

  it('are written plainly in the terminal', () => {
    const text = terminalText();
    expect(text).toContain('(/settings spoilers)');
    expect(text).toContain('/casters series:42');
    expect(text).not.toContain('/matchday');
  });

  it('leave text from data alone on every platform', () => {
    expect(slackText()).toContain('/series Kings');
    expect(slackText()).not.toContain('/matchday series Kings');
    expect(discordText()).toContain('/series Kings');
    expect(terminalText()).toContain('/series Kings');
  });

  it('carry through errors: the message, the suggestions, and the plain text for logs', () => {
    const error = new UserError(
      'EMPTY_NAME',
      ['Name a tournament, e.g. ', cmd('standings tournament:Major'), '.'],
      [cmd('standings tournament:"Spring Cup"'), 'Spring Cup'],
    );
    expect(error.message).toBe('Name a tournament, e.g. /standings tournament:Major.');
    expect(error.suggestions.map(messageText)).toEqual(['/standings tournament:"Spring Cup"', 'Spring Cup']);
    const card = JSON.stringify(
      slack(errorReply(translator('en'), 'Not quite', error.rich, { suggestions: error.suggestions })),
    );
    expect(card).toContain('`/matchday standings tournament:Major`');
    expect(card).toContain('/matchday standings tournament:\\"Spring Cup\\"');
    expect(card).not.toMatch(/(?<!\/matchday )\/standings\b/);
  });
});
