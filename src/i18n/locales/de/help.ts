/**
 * What `/help` says of each command, its options and subcommands (`commands/help.ts`).
 * German: the same keys as `../en/help.ts`; option values typed as they are (today, show, all) stay as typed.
 */
import type { Messages } from '../en.ts';
export const help: Messages['help'] = {
  series: {
    description: 'Kommende, laufende oder letzte Serien',
    options: {
      when: 'Kommende (Standard), laufende oder letzte',
      series: 'Eine Serie (ID oder Name): ihre Vorschau mit Form, direktem Vergleich, Einsätzen und Streams',
      game: 'Spiel (Standard: die in den Einstellungen gewählten Spiele)',
      tier: 'Tier 1 (Spitze) bis 4 (Standard: die in den Einstellungen gewählten Tiers)',
      team: 'Nur Serien dieses Teams',
      tournament: 'Nur Serien dieses Turniers',
      limit: 'Wie viele (1 bis 20, Standard 10)',
    },
  },
  live: {
    description: 'Live-Spielstände: eine Serie oder alles Laufende in deinen Spielen',
    options: {
      series: 'Eine Serie (Standard: jede laufende Serie)',
      team: 'Die laufende Serie dieses Teams',
      game: 'Spiel (Standard: die in den Einstellungen gewählten Spiele)',
    },
  },
  schedule: {
    description: 'Die Serien eines Tages in deinen Spielen und Tiers, nach Turnier',
    options: {
      day: 'today (Standard), tomorrow, yesterday oder ein Datum wie 2026-05-31',
      game: 'Spiel (Standard: die in den Einstellungen gewählten Spiele)',
      tier: 'Tier 1 bis 4 (Standard: die in den Einstellungen gewählten Tiers)',
      page: 'Seite eines vollen Tages (Standard: die Seite mit dem, was gerade läuft)',
    },
  },
  team: {
    description: 'Ein Team: Organisation, Region, Kader, kommende und letzte Serien',
    options: {
      team: 'Teamname, Kürzel oder Alias',
      count: 'Serien in jede Richtung (1 bis 10, Standard 5)',
    },
  },
  player: {
    description: 'Ein Spieler: Team, Rolle, Land und soziale Konten',
    options: {
      player: 'Spielername oder echter Name',
    },
  },
  standings: {
    description: 'Gruppentabelle oder Bracket eines Turniers',
    options: {
      tournament: 'Turnier',
      stage: 'Gruppe oder Bracket (Standard: die aktuelle Phase)',
    },
  },
  casters: {
    description: 'Kommentatoren und Streams einer Serie, der Hauptstream zuerst',
    options: {
      series: 'Eine Serie (Standard: die nächste)',
      team: 'Die laufende oder nächste Serie dieses Teams',
      game: 'Spiel (Standard: die in den Einstellungen gewählten Spiele)',
    },
  },
  tournament: {
    description: 'Ein Turnier: Daten, Tier, Preisgeld, Phasen und Teilnehmer',
    options: {
      tournament: 'Turnier',
    },
  },
  follow: {
    description: 'Einem Team folgen oder entfolgen, oder die verfolgten Teams auflisten',
    sub: {
      team: {
        description: 'Einem Team folgen (Admins)',
        options: {
          team: 'Teamname, Kürzel oder Alias',
        },
      },
      organisation: {
        description: 'Den Teams einer Organisation in all ihren Spielen folgen (Admins)',
        options: {
          organisation: 'Name der Organisation: alle ihre aktiven Teams, in all ihren Spielen',
        },
      },
      remove: {
        description: 'Einem Team oder den Teams einer Organisation nicht mehr folgen (Admins)',
        options: {
          team: 'Teamname, Kürzel oder Alias',
          organisation: 'Name der Organisation: alle ihre aktiven Teams, in all ihren Spielen',
        },
      },
      list: {
        description: 'Die hier verfolgten Teams',
      },
    },
  },
  me: {
    description: 'Deine eigenen Teams, Erinnerungen und dein Kalender (privat)',
    sub: {
      follow: {
        description: 'Selbst einem Team folgen, oder einer Organisation in all ihren Spielen',
        options: {
          team: 'Teamname, Kürzel oder Alias',
          organisation: 'Oder eine Organisation: alle ihre Teams, in all ihren Spielen',
          tier: 'Nur Serien dieses Tiers oder höher (1 ist die Spitze)',
          qualifiers: 'Qualifikationen einschließen (Standard: ja)',
        },
      },
      unfollow: {
        description: 'Selbst einem Team oder einer Organisation nicht mehr folgen',
        options: {
          team: 'Teamname, Kürzel oder Alias',
          organisation: 'Oder eine Organisation: alle ihre Teams, in all ihren Spielen',
        },
      },
      list: {
        description: 'Wem du folgst, deine Erinnerungen und dein Kalender',
      },
      reminders: {
        description: 'Deine Vorlaufzeiten für Erinnerungen',
        options: {
          leads: 'Minuten vor Beginn, z. B. "15, 60" (höchstens 5)',
        },
      },
      timezone: {
        description: 'Deine Zeitzone',
        options: {
          zone: 'z. B. Europe/Berlin',
        },
      },
      quiet: {
        description: 'Ruhezeiten für deine Direktnachrichten (ohne Zeiten: aus)',
        options: {
          from: 'Beginn, HH:MM in deiner Zeitzone, z. B. 23:00 (oder der Bereich: 23:00-08:00)',
          to: 'Ende, HH:MM in deiner Zeitzone, z. B. 08:00',
        },
      },
      dms: {
        description: 'Was dich per Direktnachricht erreicht (ohne Option: zeigt es)',
        options: {
          reminders: 'Erinnerungen zu deinen Vorlaufzeiten',
          live: 'Eine Live-Karte, wenn eine Serie beginnt, laufend aktualisiert',
          results: 'Das Ergebnis, wenn eine Serie endet',
        },
      },
      spoilers: {
        description: 'Wie Ergebnisse in deinen Direktnachrichten erscheinen',
        options: {
          policy: 'show, spoiler (verborgen bis zum Aufdecken) oder hide',
        },
      },
      language: {
        description: 'Die Sprache deiner Direktnachrichten',
        options: {
          code: 'en, pt oder de',
        },
      },
      calendar: {
        description: 'Deine private Kalender-URL',
        options: {
          action: 'show (Standard) oder renew (die alte URL funktioniert dann nicht mehr)',
        },
      },
    },
  },
  settings: {
    description: 'Matchday-Einstellungen zeigen oder ändern',
    sub: {
      show: {
        description: 'Die aktuellen Einstellungen zeigen',
      },
      games: {
        description: 'Verfolgte Spiele',
        options: {
          games: 'Durch Kommas getrennt, z. B. "cs2, dota 2", oder "all"',
        },
      },
      tiers: {
        description: 'Verfolgte Tiers (1 ist die Spitze)',
        options: {
          tiers: 'z. B. "1,2"',
        },
      },
      timezone: {
        description: 'Zeitzone für Spielpläne und Tagesübersichten',
        options: {
          zone: 'z. B. Europe/Berlin',
        },
      },
      language: {
        description: 'Sprache der Antworten, Karten und Benachrichtigungen',
        options: {
          code: 'en, pt oder de',
        },
      },
      spoilers: {
        description: 'Wie Ergebnisse gezeigt werden',
        options: {
          policy: 'show, spoiler (verborgen bis zum Aufdecken) oder hide',
        },
      },
      reminders: {
        description: 'Vorlaufzeiten für Erinnerungen',
        options: {
          minutes: 'Minuten vor Beginn, z. B. "15, 60" (höchstens 5)',
        },
      },
      digest: {
        description: 'Die tägliche Übersicht des Spielplans',
        options: {
          time: 'Uhrzeit HH:MM in der gewählten Zeitzone, z. B. 09:00',
          when_empty: 'An einem Tag ohne Spiele',
        },
      },
      live: {
        description: 'Live-Spielstände an oder aus',
        options: {
          enabled: 'An oder aus',
        },
      },
      'channel-add': {
        description: 'Benachrichtigungen in einem Kanal posten',
        options: {
          channel: 'Der Kanal',
          games:
            'Spiele, durch Kommas getrennt, oder "all" (Standard: die in den Einstellungen gewählten Spiele)',
          tiers: 'Tiers, z. B. "1,2", oder "all" (Standard: die in den Einstellungen gewählten Tiers)',
          teams: 'Teams, die unabhängig vom Tier gemeldet werden, durch Kommas getrennt, oder "none"',
          kinds: 'Was gepostet wird: reminders, live, results, digest (Standard: alles)',
          leads:
            'Erinnerungsminuten vor Beginn, z. B. "15, 60" (Standard: die in den Einstellungen gewählten Erinnerungen)',
          role: 'Eine Rolle, die bei Benachrichtigungen erwähnt wird',
        },
      },
      'channel-set': {
        description: 'Die Filter eines Benachrichtigungskanals ändern',
        options: {
          channel: 'Der Kanal',
          games:
            'Spiele, durch Kommas getrennt, oder "all" (Standard: die in den Einstellungen gewählten Spiele)',
          tiers: 'Tiers, z. B. "1,2", oder "all" (Standard: die in den Einstellungen gewählten Tiers)',
          teams: 'Teams, die unabhängig vom Tier gemeldet werden, durch Kommas getrennt, oder "none"',
          kinds: 'Was gepostet wird: reminders, live, results, digest (Standard: alles)',
          leads:
            'Erinnerungsminuten vor Beginn, z. B. "15, 60" (Standard: die in den Einstellungen gewählten Erinnerungen)',
          role: 'Eine Rolle, die bei Benachrichtigungen erwähnt wird',
        },
      },
      'channel-remove': {
        description: 'Nicht mehr in einem Kanal posten',
        options: {
          channel: 'Der Kanal',
        },
      },
      events: {
        description: 'Discord: die verfolgten Serien eines Kanals als geplante Events',
        options: {
          channel: 'Ein mit channel-add eingerichteter Kanal',
          enabled: 'An oder aus',
        },
      },
      threads: {
        description: 'Jedes beendete Spiel in einem Thread unter der Live-Karte eines Kanals',
        options: {
          channel: 'Ein mit channel-add eingerichteter Kanal',
          enabled: 'An oder aus',
        },
      },
      calendar: {
        description: 'Die Kalender-URL eines Benachrichtigungskanals',
        options: {
          channel: 'Ein mit channel-add eingerichteter Kanal',
          action: 'show (Standard) oder renew (die alte URL funktioniert dann nicht mehr)',
        },
      },
    },
  },
  status: {
    description: 'Läuft Matchday hier: Datendienst, Feed, Kontingent, Kanäle, Version',
  },
  help: {
    description: 'Befehle und ihre Optionen',
    options: {
      command: 'Ein Befehl, der erklärt werden soll',
    },
  },
};
