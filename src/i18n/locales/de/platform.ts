/**
 * What each platform adds around a reply (`src/platforms/`), and the runtime's own answers (`src/bot/runtime.ts`).
 * German: the same keys as `../en/platform.ts`.
 */
import type { Messages } from '../en.ts';
export const platform: Messages['platform'] = {
  placeholder: '-',
  /** Discord, before the runtime answers (src/platforms/discord/slash-command.ts). */
  discord: {
    apology: 'Beim Antworten ist etwas schiefgegangen. Es wurde protokolliert; bitte versuch es noch einmal.',
    serversOnly:
      'Matchday funktioniert in Servern: nutze seine Befehle in einem Server, dem es hinzugefügt wurde.',
  },
  titles: {
    sorry: 'Entschuldigung',
    notQuite: 'Nicht ganz',
    unknownCommand: 'Unbekannter Befehl',
    restarting: 'Neustart',
    defaultSettings: 'Standardeinstellungen',
    forYou: 'Für dich',
    forAdmins: 'Für Admins',
    configuration: 'Konfigurationsproblem',
    easy: 'Langsam',
    adminsOnly: 'Nur für Admins',
  },
  runtime: {
    restarting: 'Matchday startet neu. Bitte versuch es in ein paar Sekunden noch einmal.',
    bug: 'Beim Ausführen von {{command}} ist etwas schiefgelaufen. Der Fehler wurde protokolliert; bitte versuch es später noch einmal.',
    bugUnknown:
      'Beim Ausführen dieses Befehls ist etwas schiefgelaufen. Der Fehler wurde protokolliert; bitte versuch es später noch einmal.',
    bugShort: 'Etwas ist schiefgelaufen; der Fehler wurde protokolliert.',
    bugAnswering:
      'Beim Antworten ist etwas schiefgelaufen. Der Fehler wurde protokolliert; bitte versuch es später noch einmal.',
    storeDefaults: '{{problem}} Diese Antwort nutzt die Standardeinstellungen (UTC, Tier 1 und 2).',
    configAdmin:
      'Matchday ist falsch konfiguriert: Der Esports-Datendienst hat das Dienstgeheimnis abgelehnt. Wer Matchday betreibt, sollte ESPORTS_API_SECRET prüfen (siehe .env.example) und Matchday neu starten.',
    configUser:
      'Matchday kann seine Esports-Daten gerade nicht lesen: ein Konfigurationsproblem auf Seiten des Bots, protokolliert für die Betreiber. Bitte sag einem Admin Bescheid.',
    tooFast_one:
      'Du schickst sehr schnell Befehle. Bitte warte {{count}} Sekunde und versuch es dann noch einmal.',
    tooFast_other:
      'Du schickst sehr schnell Befehle. Bitte warte {{count}} Sekunden und versuch es dann noch einmal.',
    tooSlow_one:
      'Der Esports-Datendienst ist gerade langsam: keine Antwort in {{count}} Sekunde. Bitte versuch es in einer Minute noch einmal.',
    tooSlow_other:
      'Der Esports-Datendienst ist gerade langsam: keine Antwort in {{count}} Sekunden. Bitte versuch es in einer Minute noch einmal.',
    slackAdminCheck:
      'Slack konnte nicht bestätigen, ob du Admin des Workspace bist. Bitte versuch es in einer Minute noch einmal.',
  },
  errors: {
    notFound:
      'Der Esports-Datendienst kennt diesen Eintrag nicht (vielleicht wurde er entfernt). Prüf den Namen oder die ID.',
    serviceDown:
      'Der Esports-Datendienst antwortet gerade nicht. Bitte versuch es in einer Minute noch einmal.',
    serviceFailed: 'Matchday konnte seine Esports-Daten nicht lesen.',
    namesUnavailable:
      'Eine Namensliste konnte nicht vom Datendienst geladen werden; versuch es in einer Minute noch einmal.',
    store: 'Die Einstellungen sind gerade nicht verfügbar: {{cause}}. Bitte versuch es gleich noch einmal.',
    storeLasting:
      'Die Einstellungen sind nicht verfügbar: {{cause}}. Warten hilft nicht: Wer diesen Bot betreibt, muss den Speicher reparieren (das Log des Bots sagt, wie).',
    storeNow: 'Die Einstellungen sind gerade nicht verfügbar: {{cause}}.',
    storeCause: {
      unreachable: 'der Einstellungsspeicher ist nicht erreichbar',
      timeout: 'der Einstellungsspeicher hat nicht rechtzeitig geantwortet',
      damaged: 'der Einstellungsspeicher ist beschädigt',
      readOnly: 'der Einstellungsspeicher ist schreibgeschützt',
      full: 'die Festplatte des Einstellungsspeichers ist voll',
      busy: 'gerade werden zu viele Änderungen gleichzeitig gemacht',
      newerVersion: 'die Einstellungen stammen von einem neueren Matchday',
      auth: 'der Einstellungsspeicher hat sein Passwort abgelehnt',
      tls: 'die sichere Verbindung zum Einstellungsspeicher ist fehlgeschlagen',
      failed: 'der Einstellungsspeicher ist ausgefallen',
    },
  },
  checks: {
    unknownCommand: 'Es gibt keinen Befehl „{{name}}“. Befehle: {{list}}.',
    noSubcommands: '{{command}} hat keine Unterbefehle (erhalten: „{{given}}“).',
    unknownSubcommand: '{{command}} hat kein „{{given}}“; möglich ist eins von: {{list}}.',
    missingSubcommand: '{{command}} braucht eins von: {{list}}.',
    adminOnlyDiscord: '{{command}} ist nur für Admins dieses Servers (Server verwalten).',
    adminOnlySlack: '{{command}} ist nur für Admins und Inhaber des Workspace.',
    adminOnlyTerminal: '{{command}} ist nur für Admins dieses Chats.',
    onlyAdminsDiscord: 'Nur Admins dieses Servers können {{command}} nutzen.',
    onlyAdminsSlack: 'Nur Admins dieses Workspace können {{command}} nutzen.',
    onlyAdminsTerminal: 'Nur Admins dieses Chats können {{command}} nutzen.',
  },
  args: {
    expected: {
      integer: 'eine ganze Zahl',
      number: 'eine Zahl',
      boolean: 'true oder false',
      channel: 'ein Kanal',
      role: 'eine Rolle',
      text: 'ein Text',
      choice: 'eins von {{values}}',
    },
    between: 'zwischen {{min}} und {{max}}',
    atLeast: 'mindestens {{min}}',
    atMost: 'höchstens {{max}}',
    mustBe: '{{option}} muss {{expected}} sein.',
    mustBeGot: '{{option}} muss {{expected}} sein (erhalten: „{{got}}“).',
    outOfRange: '{{option}} muss {{range}} liegen (erhalten: {{got}}).',
    control: '{{option}} enthält Steuerzeichen; bitte normalen Text eingeben.',
    empty: '{{option}} ist leer; gib einen Wert an oder lass die Option weg.',
    tooLong: '{{option}} ist zu lang ({{length}} Zeichen); höchstens {{max}}.',
    tooShort: '{{option}} ist zu kurz ({{length}} Zeichen); mindestens {{min}}.',
    channelExample: 'ein Kanal, z. B. #allgemein',
    roleExample: 'eine Rolle, z. B. @fans',
    choice: '{{option}} muss eins von {{values}} sein (erhalten: „{{got}}“).',
    unknownOption: '{{command}} hat keine Option „{{name}}“. Seine Optionen: {{options}}.',
    noOptions: '{{command}} hat keine Optionen (erhalten: „{{name}}“).',
    missing: '{{command}} braucht {{what}}. Zum Beispiel: {{example}}',
  },
  names: {
    noun: {
      team: 'Team',
      organisation: 'Organisation',
      tournament: 'Turnier',
      game: 'Spiel',
      substage: 'Phase',
      series: 'Serie',
      player: 'Spieler',
    },
    count: {
      team_one: '{{count}} Team',
      team_other: '{{count}} Teams',
      organisation_one: '{{count}} Organisation',
      organisation_other: '{{count}} Organisationen',
      tournament_one: '{{count}} Turnier',
      tournament_other: '{{count}} Turniere',
      game_one: '{{count}} Spiel',
      game_other: '{{count}} Spiele',
      substage_one: '{{count}} Phase',
      substage_other: '{{count}} Phasen',
      series_one: '{{count}} Serie',
      series_other: '{{count}} Serien',
      player_one: '{{count}} Spieler',
      player_other: '{{count}} Spieler',
    },
    empty: 'Gib einen Namen an ({{noun}}): der Text ist leer.',
    tooLong: 'Dieser Name ({{noun}}) ist {{length}} Zeichen lang; Namen haben höchstens {{max}}.',
    noLetters: '„{{text}}“ enthält keine Buchstaben oder Ziffern: gib einen Teil des Namens ein ({{noun}}).',
    takenAs: '„{{text}}“ gibt es nicht ({{noun}}); angezeigt wird {{label}}.',
    stillLoading_one:
      'Noch nichts Ähnliches wie „{{text}}“ gefunden: die Namensliste ({{noun}}) wird noch vom Datendienst geladen (ein neuer Speicher). Versuch es in {{count}} Sekunde noch einmal.',
    stillLoading_other:
      'Noch nichts Ähnliches wie „{{text}}“ gefunden: die Namensliste ({{noun}}) wird noch vom Datendienst geladen (ein neuer Speicher). Versuch es in {{count}} Sekunden noch einmal.',
    noMatch: 'Kein Treffer für „{{text}}“ ({{noun}}).',
    ambiguous:
      '„{{text}}“ passt zu {{matches}}: {{labels}}. Wähl einen aus der Liste oder tipp mehr vom Namen.',
    ambiguousMore:
      '„{{text}}“ passt zu {{matches}}: {{labels}} und {{more}} weiteren. Wähl einen aus der Liste oder tipp mehr vom Namen.',
  },
  didYouMean: 'Meintest du',
  pages: {
    where: 'Seite {{page}} von {{pages}} (Serien {{first}}–{{last}} von {{total}}).',
    atLeast: 'mindestens {{count}}',
    earlierFirst: ' Zurück: ',
    laterFirst: ' Weiter: ',
    later: ' · weiter: ',
    previousButton: '◀ Seite {{page}}',
    nextButton: 'Seite {{page}} ▶',
  },
  parse: {
    seeHelp: 'Siehe {{command}}.',
    unclosedQuote:
      'Das Anführungszeichen {{quote}} an Position {{position}} wird nie geschlossen. Schließ es, z. B. team:"Team Spirit".',
    empty: 'Gib einen Befehl ein, z. B. {{help}} oder {{example}}.',
    unknownCommand: 'Einen Befehl „{{name}}“ gibt es nicht. Befehle: {{commands}}.',
    missingSubcommand: '{{command}} braucht eines davon: {{subcommands}}. Zum Beispiel: {{example}}.',
    unknownSubcommand: '{{command}} kennt „{{name}}“ nicht; möglich ist eines davon: {{subcommands}}.',
    duplicateOption: '{{option}}: kommt zweimal vor; gib es nur einmal an.',
    ambiguous:
      '„{{typed}}“ lässt sich bei {{command}} auf mehrere Arten lesen, z. B. {{first}} oder {{last}}. Nenn die Optionen beim Namen und setz Namen mit Leerzeichen in Anführungszeichen.',
    noRoom:
      '{{command}} hat keinen Platz für „{{extra}}“. Setz Leerzeichen in Anführungszeichen, z. B. team:"Team Spirit".',
    noRoomOptions:
      '{{command}} hat keinen Platz für „{{extra}}“. Setz Leerzeichen in Anführungszeichen, z. B. team:"Team Spirit"; Optionen: {{options}}.',
    tooMany:
      'Zu viele Werte für {{command}}: Er nimmt {{options}} in dieser Reihenfolge, und „{{extra}}“ bleibt übrig. Setz Namen mit Leerzeichen in Anführungszeichen, z. B. "Team Spirit".',
  },
  render: {
    stale: 'Die Daten sind eventuell veraltet: Der Esports-Datendienst antwortet gerade nicht.',
    timesIn: 'Zeiten in {{zone}}.',
    spoilerHidden: '[Spoiler verborgen]',
    reveal: 'Aufdecken',
    open: 'Öffnen',
    nothing: 'Nichts anzuzeigen.',
    image: 'Bild',
    unknownTime: 'eine unbekannte Zeit',
    moreParts_one: '{{count}} weiterer Teil passte nicht in eine Nachricht.',
    moreParts_other: '{{count}} weitere Teile passten nicht in eine Nachricht.',
    shortened_one: 'Gekürzt für Slack: {{count}} weiterer Block nicht angezeigt.',
    shortened_other: 'Gekürzt für Slack: {{count}} weitere Blöcke nicht angezeigt.',
  },
};
