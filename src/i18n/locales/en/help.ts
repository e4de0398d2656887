/**
 * What `/help` says of each command, its options and subcommands (`commands/help.ts`). English: the
 * same words as the declarations in `commands/*.ts` (which Discord registers; a test checks they
 * agree); pt and de have the same shape.
 */
export const help = {
  series: {
    description: 'Upcoming, live or recent series',
    options: {
      when: 'Upcoming (default), live or recent',
      series: 'One series (id or name): its preview, with form, head-to-head, stakes and streams',
      game: 'Game (default: the games chosen in settings)',
      tier: 'Tier 1 (top) to 4 (default: the tiers chosen in settings)',
      team: 'Only series of this team',
      tournament: 'Only series of this tournament',
      limit: 'How many (1 to 20, default 10)',
    },
  },
  live: {
    description: 'Live scorelines: one series, or everything live in your games',
    options: {
      series: 'A series (default: every live series)',
      team: 'The live series of this team',
      game: 'Game (default: the games chosen in settings)',
    },
  },
  schedule: {
    description: "A day's series in your games and tiers, by tournament",
    options: {
      day: 'today (default), tomorrow, yesterday or a date like 2026-05-31',
      game: 'Game (default: the games chosen in settings)',
      tier: 'Tier 1 to 4 (default: the tiers chosen in settings)',
      page: 'Page of a busy day (default: the page with what is on now)',
    },
  },
  team: {
    description: 'A team: organisation, region, roster, upcoming and recent series',
    options: {
      team: 'Team name, abbreviation or alias',
      count: 'Series to show each way (1 to 10, default 5)',
    },
  },
  player: {
    description: 'A player: team, role, country and social accounts',
    options: {
      player: 'Player nickname or real name',
    },
  },
  standings: {
    description: "A tournament's group table or bracket",
    options: {
      tournament: 'Tournament',
      stage: 'Group or bracket (default: the current one)',
    },
  },
  casters: {
    description: "A series' casters and streams, primary first",
    options: {
      series: 'A series (default: the next one)',
      team: "This team's live or next series",
      game: 'Game (default: the games chosen in settings)',
    },
  },
  tournament: {
    description: 'A tournament: dates, tier, prize pool, stages and participants',
    options: {
      tournament: 'Tournament',
    },
  },
  follow: {
    description: 'Follow or unfollow a team, or list the followed teams',
    sub: {
      team: {
        description: 'Follow a team (admins)',
        options: {
          team: 'Team name, abbreviation or alias',
        },
      },
      organisation: {
        description: "Follow an organisation's teams across its games (admins)",
        options: {
          organisation: 'Organisation name: all its active teams, across its games',
        },
      },
      remove: {
        description: "Stop following a team, or an organisation's teams (admins)",
        options: {
          team: 'Team name, abbreviation or alias',
          organisation: 'Organisation name: all its active teams, across its games',
        },
      },
      list: {
        description: 'The teams followed here',
      },
    },
  },
  me: {
    description: 'Your own follows, reminders and calendar (private)',
    sub: {
      follow: {
        description: 'Follow a team, or an organisation across its games, yourself',
        options: {
          team: 'Team name, abbreviation or alias',
          organisation: 'Or an organisation: all its teams, across its games',
          tier: 'Only series of this tier or higher (1 is the top)',
          qualifiers: 'Include qualifiers (default true)',
        },
      },
      unfollow: {
        description: 'Stop following a team, or an organisation across its games, yourself',
        options: {
          team: 'Team name, abbreviation or alias',
          organisation: 'Or an organisation: all its teams, across its games',
        },
      },
      list: {
        description: 'What you follow, your reminders and your calendar',
      },
      reminders: {
        description: 'Your reminder lead times',
        options: {
          leads: 'Minutes before start, e.g. "15, 60" (at most 5)',
        },
      },
      timezone: {
        description: 'Your time zone',
        options: {
          zone: 'e.g. Europe/Berlin',
        },
      },
      quiet: {
        description: 'Quiet hours for your DMs (no times: off)',
        options: {
          from: 'Start, HH:MM in your time zone, e.g. 23:00 (or the range: 23:00-08:00)',
          to: 'End, HH:MM in your time zone, e.g. 08:00',
        },
      },
      dms: {
        description: 'What reaches you by direct message (no option: shows it)',
        options: {
          reminders: 'Reminders at your lead times',
          live: 'A live card when a series starts, updated as it plays',
          results: 'The result when a series ends',
        },
      },
      spoilers: {
        description: 'How results appear in your direct messages',
        options: {
          policy: 'show, spoiler (hidden until revealed) or hide',
        },
      },
      language: {
        description: 'The language of your direct messages',
        options: {
          code: 'en, pt or de',
        },
      },
      calendar: {
        description: 'Your private calendar URL',
        options: {
          action: 'show (default) or renew (the old URL stops working)',
        },
      },
    },
  },
  settings: {
    description: 'Show or change Matchday settings',
    sub: {
      show: {
        description: 'Show the current settings',
      },
      games: {
        description: 'Games to follow',
        options: {
          games: 'Comma-separated, e.g. "cs2, dota 2", or "all"',
        },
      },
      tiers: {
        description: 'Tiers to follow (1 is the top)',
        options: {
          tiers: 'e.g. "1,2"',
        },
      },
      timezone: {
        description: 'Timezone for schedules and digests',
        options: {
          zone: 'e.g. Europe/Berlin',
        },
      },
      language: {
        description: 'Language of replies, cards and notifications',
        options: {
          code: 'en, pt or de',
        },
      },
      spoilers: {
        description: 'How results are shown',
        options: {
          policy: 'show, spoiler (hidden until revealed) or hide',
        },
      },
      reminders: {
        description: 'Reminder lead times',
        options: {
          minutes: 'Minutes before start, e.g. "15, 60" (at most 5)',
        },
      },
      digest: {
        description: 'The daily schedule digest',
        options: {
          time: 'Time of day HH:MM in the timezone chosen in settings, e.g. 09:00',
          when_empty: 'On a day with nothing scheduled',
        },
      },
      live: {
        description: 'Live score updates on or off',
        options: {
          enabled: 'On or off',
        },
      },
      'channel-add': {
        description: 'Post notifications in a channel',
        options: {
          channel: 'The channel',
          games: 'Games, comma-separated, or "all" (default: the games chosen in settings)',
          tiers: 'Tiers, e.g. "1,2", or "all" (default: the tiers chosen in settings)',
          teams: 'Teams announced whatever their tier, comma-separated, or "none"',
          kinds: 'What to post: reminders, live, results, digest (default: all)',
          leads: 'Reminder minutes before start, e.g. "15, 60" (default: the reminders chosen in settings)',
          role: 'A role to mention on notifications',
        },
      },
      'channel-set': {
        description: "Change a notification channel's filters",
        options: {
          channel: 'The channel',
          games: 'Games, comma-separated, or "all" (default: the games chosen in settings)',
          tiers: 'Tiers, e.g. "1,2", or "all" (default: the tiers chosen in settings)',
          teams: 'Teams announced whatever their tier, comma-separated, or "none"',
          kinds: 'What to post: reminders, live, results, digest (default: all)',
          leads: 'Reminder minutes before start, e.g. "15, 60" (default: the reminders chosen in settings)',
          role: 'A role to mention on notifications',
        },
      },
      'channel-remove': {
        description: 'Stop posting in a channel',
        options: {
          channel: 'The channel',
        },
      },
      events: {
        description: "Discord: a channel's followed series as scheduled events",
        options: {
          channel: 'A channel set up with channel-add',
          enabled: 'On or off',
        },
      },
      threads: {
        description: "Each finished game in a thread under a channel's live card",
        options: {
          channel: 'A channel set up with channel-add',
          enabled: 'On or off',
        },
      },
      calendar: {
        description: "A notification channel's calendar URL",
        options: {
          channel: 'A channel set up with channel-add',
          action: 'show (default) or renew (the old URL stops working)',
        },
      },
    },
  },
  status: {
    description: 'Is Matchday healthy here: data service, feed, budget, channels, version',
  },
  help: {
    description: 'Commands and their options',
    options: {
      command: 'One command to explain',
    },
  },
};
