/** The tenants of the restart test, shared by the child process and the test that checks it. */
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';

export const CHILD_SEED = 23;

const all = ['reminders', 'live', 'results', 'digest'] as const;

export const CHILD_TENANTS: [string, Settings][] = [
  [
    'discord:1',
    settingsSchema.parse({
      ...defaultSettings(),
      games: [1],
      tiers: [1, 2],
      reminderLeads: [30, 10],
      channels: [{ id: 'a', kinds: [...all] }],
    }),
  ],
  [
    'discord:2',
    settingsSchema.parse({
      ...defaultSettings(),
      games: [2, 3],
      tiers: [1],
      timezone: 'Europe/Berlin',
      digestTime: '08:00',
      channels: [
        { id: 'b', kinds: [...all] },
        { id: 'c', kinds: ['reminders'], leads: [60] },
      ],
    }),
  ],
];

/** `copies` copies of the tenants (ids `discord:10`, `discord:11`, ...; one copy: the tenants as they are). */
export function childTenants(copies: number): [string, Settings][] {
  if (copies <= 1) return CHILD_TENANTS;
  return CHILD_TENANTS.flatMap(([id, s]) =>
    Array.from({ length: copies }, (_, i): [string, Settings] => [`${id}${i}`, s]),
  );
}
