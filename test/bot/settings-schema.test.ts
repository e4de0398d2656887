import { describe, expect, it } from 'vitest';
import { defaultSettings, settingsSchema } from '../../src/bot/settings.ts';

describe('settings schema', () => {
  it('keeps one subscription per channel id (the first), and every distinct channel', () => {
    const parsed = settingsSchema.parse({
      ...defaultSettings(),
      channels: [
        { id: 'a', kinds: ['reminders'] },
        { id: 'b', kinds: ['live'] },
        { id: 'a', kinds: ['digest'] },
      ],
    });
    expect(parsed.channels.map((c) => [c.id, c.kinds])).toEqual([
      ['a', ['reminders']],
      ['b', ['live']],
    ]);
  });
});
