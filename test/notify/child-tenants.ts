/** The tenants of the restart test, shared by the child process and the test that checks it. */
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { defaultProfile, type Profile, profileSchema } from '../../src/bot/users.ts';
import type { NotifyUsers } from '../../src/notify/jobs/dm.ts';
import type { World } from '../../src/service/world.ts';

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

/**
 * People with personal follows, for the crash loop's DMs: one on Discord, one on Slack,
 * each following the teams of the first series with known teams that start within the first hour
 * of `from` (computed from the world, so the child and the parent agree), with two reminder leads.
 */
export const DM_DISCORD_USER = '400000000000000071';
export const DM_SLACK_USER = 'U0FAN';

export function dmProfiles(world: World, from: number): [string, Profile][] {
  const teams = world
    .window(from)
    .series.filter((p) => p.start > from && p.start < from + 3600_000 && p.deletedAt === null)
    .sort((a, b) => a.start - b.start)
    .flatMap((p) => world.knownRosters(p, from))
    .map((roster) => world.catalog.rosterById.get(roster)?.team.id)
    .filter((team): team is number => team !== undefined);
  const [a, b, c, d] = [...new Set(teams)];
  if (d === undefined) throw new Error('the seeded world has too few teams playing early');
  const profile = (follows: number[]): Profile =>
    profileSchema.parse({
      ...defaultProfile(),
      leads: [30, 10],
      follows: follows.map((team) => ({ team })),
    });
  return [
    [`discord:${DM_DISCORD_USER}`, profile([a!, c!])],
    [`slack:T1.${DM_SLACK_USER}`, profile([b!, d])],
  ];
}

/** The profiles above as the notifier's user store (in memory; a pause is kept). */
export function memoryUsers(profiles: [string, Profile][]): NotifyUsers {
  const docs = new Map(profiles.map(([key, p]) => [key, structuredClone(p)]));
  return {
    users: async () => [...docs.keys()],
    get: async (key: string) => structuredClone(docs.get(key) ?? defaultProfile()),
    update: async (key: string, change: (p: Profile) => Profile) => {
      const next = change(structuredClone(docs.get(key) ?? defaultProfile()));
      docs.set(key, next);
      return structuredClone(next);
    },
  } as NotifyUsers;
}
