/**
 * What each platform adds around a reply (`src/platforms/`), and the runtime's own answers (`src/bot/runtime.ts`).
 * English: the source of every key in this area; pt and de have the same shape.
 */
export const platform = {
  placeholder: '-',
  /** Titles of the runtime's cards (src/bot/runtime.ts, call-checks.ts). */
  /** Discord, before the runtime answers (src/platforms/discord/slash-command.ts). */
  discord: {
    apology: 'Something went wrong while answering. It has been logged; please try again.',
    serversOnly: 'Matchday works in servers: use its commands in a server where it was added.',
  },
  titles: {
    sorry: 'Sorry',
    notQuite: 'Not quite',
    unknownCommand: 'Unknown command',
    restarting: 'Restarting',
    defaultSettings: 'Default settings',
    forYou: 'For you',
    forAdmins: 'For admins',
    configuration: 'Configuration problem',
    easy: 'Easy there',
    adminsOnly: 'Admins only',
  },
  runtime: {
    restarting: 'Matchday is restarting. Please try again in a few seconds.',
    bug: 'Something went wrong while running {{command}}. It has been logged; please try again later.',
    bugUnknown:
      'Something went wrong while running that command. It has been logged; please try again later.',
    bugShort: 'Something went wrong; it has been logged.',
    bugAnswering: 'Something went wrong while answering. It has been logged; please try again later.',
    storeDefaults: '{{problem}} This answer uses the default settings (UTC, tiers 1 and 2).',
    configAdmin:
      'Matchday is misconfigured: the esports data service refused its service secret. Whoever runs Matchday should check ESPORTS_API_SECRET (see .env.example) and restart it.',
    configUser:
      "Matchday cannot read its esports data right now: a configuration problem on the bot's side, logged for whoever runs it. Please tell an admin.",
    tooFast_one: "You're sending commands quickly. Please wait {{count}} second and try again.",
    tooFast_other: "You're sending commands quickly. Please wait {{count}} seconds and try again.",
    tooSlow_one:
      'The esports data service is slow right now: no answer in {{count}} second. Please try again in a minute.',
    tooSlow_other:
      'The esports data service is slow right now: no answer in {{count}} seconds. Please try again in a minute.',
    slackAdminCheck:
      'Could not check with Slack whether you are a workspace admin. Please try again in a minute.',
  },
  /** What the person reads for an expected failure, by its kind (src/core/errors.ts audiences). */
  errors: {
    notFound: 'The esports data service has no such item (it may have been removed). Check the name or id.',
    serviceDown: 'The esports data service is not answering right now. Please try again in a minute.',
    serviceFailed: 'Matchday could not read its esports data.',
    namesUnavailable: 'A list of names could not be loaded from the data service; try again in a minute.',
    store: 'Settings are unavailable right now: {{cause}}. Please try again shortly.',
    storeLasting:
      "Settings are unavailable: {{cause}}. Waiting will not fix this: the operator of this bot has to repair the store (the bot's log says how).",
    storeNow: 'Settings are unavailable right now: {{cause}}.',
    storeCause: {
      unreachable: 'the settings store cannot be reached',
      timeout: 'the settings store did not answer in time',
      damaged: 'the settings store is damaged',
      readOnly: 'the settings store is read-only',
      full: 'the disk of the settings store is full',
      busy: 'too many changes are being made at the same moment',
      newerVersion: 'the settings were written by a newer Matchday',
      auth: 'the settings store refused its password',
      tls: 'the secure connection to the settings store failed',
      failed: 'the settings store failed',
    },
  },
  /** The runtime's checks before a command runs (src/bot/call-checks.ts). */
  checks: {
    unknownCommand: 'There is no command "{{name}}". Commands: {{list}}.',
    noSubcommands: '{{command}} has no subcommands (got "{{given}}").',
    unknownSubcommand: '{{command}} has no "{{given}}"; it takes one of: {{list}}.',
    missingSubcommand: '{{command}} needs one of: {{list}}.',
    adminOnlyDiscord: '{{command}} is for admins of this server only (Manage Server).',
    adminOnlySlack: '{{command}} is for workspace admins and owners only.',
    adminOnlyTerminal: '{{command}} is for admins of this chat only.',
    onlyAdminsDiscord: 'Only admins of this server can use {{command}}.',
    onlyAdminsSlack: 'Only admins of this workspace can use {{command}}.',
    onlyAdminsTerminal: 'Only admins of this chat can use {{command}}.',
  },
  /** Argument refusals (src/bot/args.ts); `{{option}}` is written `name:`. */
  args: {
    expected: {
      integer: 'a whole number',
      number: 'a number',
      boolean: 'true or false',
      channel: 'a channel',
      role: 'a role',
      text: 'some text',
      choice: 'one of {{values}}',
    },
    between: 'between {{min}} and {{max}}',
    atLeast: 'at least {{min}}',
    atMost: 'at most {{max}}',
    mustBe: '{{option}} must be {{expected}}.',
    mustBeGot: '{{option}} must be {{expected}} (got "{{got}}").',
    outOfRange: '{{option}} must be {{range}} (got {{got}}).',
    control: '{{option}} contains control characters; type plain text.',
    empty: '{{option}} is empty; give a value or leave the option out.',
    tooLong: '{{option}} is too long ({{length}} characters); at most {{max}}.',
    tooShort: '{{option}} is too short ({{length}} characters); at least {{min}}.',
    channelExample: 'a channel, e.g. #general',
    roleExample: 'a role, e.g. @fans',
    choice: '{{option}} must be one of {{values}} (got "{{got}}").',
    unknownOption: '{{command}} has no option "{{name}}". Its options: {{options}}.',
    noOptions: '{{command}} takes no options (got "{{name}}").',
    missing: '{{command}} needs {{what}}. For example: {{example}}',
  },
  /** Typed names (src/bot/name-match.ts). */
  names: {
    noun: {
      team: 'team',
      organisation: 'organisation',
      tournament: 'tournament',
      game: 'game',
      substage: 'stage',
      series: 'series',
      player: 'player',
    },
    count: {
      team_one: '{{count}} team',
      team_other: '{{count}} teams',
      organisation_one: '{{count}} organisation',
      organisation_other: '{{count}} organisations',
      tournament_one: '{{count}} tournament',
      tournament_other: '{{count}} tournaments',
      game_one: '{{count}} game',
      game_other: '{{count}} games',
      substage_one: '{{count}} stage',
      substage_other: '{{count}} stages',
      series_one: '{{count}} series',
      series_other: '{{count}} series',
      player_one: '{{count}} player',
      player_other: '{{count}} players',
    },
    empty: 'Name a {{noun}}: the text is empty.',
    tooLong: 'That {{noun}} name is {{length}} characters long; names have at most {{max}}.',
    noLetters: '"{{text}}" has no letters or digits: type part of a {{noun}} name.',
    takenAs: 'No {{noun}} is called "{{text}}"; showing {{label}}.',
    stillLoading_one:
      'Nothing close to "{{text}}" turned up yet: the list of {{noun}} names is still loading from the data service (a new store). Try again in {{count}} second.',
    stillLoading_other:
      'Nothing close to "{{text}}" turned up yet: the list of {{noun}} names is still loading from the data service (a new store). Try again in {{count}} seconds.',
    noMatch: 'No {{noun}} matches "{{text}}".',
    ambiguous: '"{{text}}" matches {{matches}}: {{labels}}. Pick one from the list or type more of the name.',
    ambiguousMore:
      '"{{text}}" matches {{matches}}: {{labels}} and {{more}} more. Pick one from the list or type more of the name.',
  },
  /** The error card (src/bot/reply.ts `errorReply`). */
  didYouMean: 'Did you mean',
  /** Pages (src/bot/pages.ts). */
  pages: {
    where: 'Page {{page}} of {{pages}} (series {{first}}–{{last}} of {{total}}).',
    atLeast: 'at least {{count}}',
    earlierFirst: ' Earlier: ',
    laterFirst: ' Later: ',
    later: ' · later: ',
    previousButton: '◀ Page {{page}}',
    nextButton: 'Page {{page}} ▶',
  },
  /** Refusals of a typed command line (src/bot/text-args.ts), before any option is checked. */
  parse: {
    seeHelp: 'See {{command}}.',
    unclosedQuote:
      'The quote {{quote}} at position {{position}} is never closed. Close it, e.g. team:"Team Spirit".',
    empty: 'Type a command, e.g. {{help}} or {{example}}.',
    unknownCommand: 'There is no command "{{name}}". Commands: {{commands}}.',
    missingSubcommand: '{{command}} needs one of: {{subcommands}}. For example: {{example}}.',
    unknownSubcommand: '{{command}} has no "{{name}}"; it takes one of: {{subcommands}}.',
    duplicateOption: '{{option}}: is given twice; give it once.',
    ambiguous:
      '"{{typed}}" can be read more than one way by {{command}}, e.g. {{first}} or {{last}}. Name the options, with quotes around names with spaces.',
    noRoom: '{{command}} has no room for "{{extra}}". Put spaces inside quotes, e.g. team:"Team Spirit".',
    noRoomOptions:
      '{{command}} has no room for "{{extra}}". Put spaces inside quotes, e.g. team:"Team Spirit"; options: {{options}}.',
    tooMany:
      'Too many values for {{command}}: it takes {{options}} in that order, and "{{extra}}" is left over. Put names with spaces in quotes, e.g. "Team Spirit".',
  },
  /** The renderers' own words (src/platforms/<platform>/render.ts). */
  render: {
    stale: 'Data may be out of date: the esports data service is not answering right now.',
    timesIn: 'Times in {{zone}}.',
    spoilerHidden: '[spoiler hidden]',
    reveal: 'Reveal',
    open: 'Open',
    nothing: 'Nothing to show.',
    image: 'image',
    unknownTime: 'an unknown time',
    moreParts_one: '{{count}} more part did not fit in one message.',
    moreParts_other: '{{count}} more parts did not fit in one message.',
    shortened_one: 'Shortened to fit Slack: {{count}} more block not shown.',
    shortened_other: 'Shortened to fit Slack: {{count}} more blocks not shown.',
  },
};
