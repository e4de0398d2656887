/**
 * What each platform adds around a reply (`src/platforms/`), and the runtime's own answers (`src/bot/runtime.ts`).
 * Portuguese (Brazil): the same keys as `../en/platform.ts`.
 */
import type { Messages } from '../en.ts';
export const platform: Messages['platform'] = {
  placeholder: '-',
  /** Discord, before the runtime answers (src/platforms/discord/slash-command.ts). */
  discord: {
    apology: 'Algo deu errado ao responder. Isso foi registrado; tente de novo.',
    serversOnly:
      'O Matchday funciona em servidores: use os comandos dele em um servidor onde ele foi adicionado.',
  },
  titles: {
    sorry: 'Desculpe',
    notQuite: 'Quase lá',
    unknownCommand: 'Comando desconhecido',
    restarting: 'Reiniciando',
    defaultSettings: 'Configurações padrão',
    forYou: 'Para você',
    forAdmins: 'Para admins',
    configuration: 'Problema de configuração',
    easy: 'Calma aí',
    adminsOnly: 'Só para admins',
  },
  runtime: {
    restarting: 'O Matchday está reiniciando. Tente de novo em alguns segundos.',
    bug: 'Algo deu errado ao executar {{command}}. O erro foi registrado; tente de novo mais tarde.',
    bugUnknown: 'Algo deu errado ao executar esse comando. O erro foi registrado; tente de novo mais tarde.',
    bugShort: 'Algo deu errado; o erro foi registrado.',
    bugAnswering: 'Algo deu errado ao responder. O erro foi registrado; tente de novo mais tarde.',
    storeDefaults: '{{problem}} Esta resposta usa as configurações padrão (UTC, tiers 1 e 2).',
    configAdmin:
      'O Matchday está mal configurado: o serviço de dados de esports recusou o segredo do serviço. Quem administra o Matchday deve verificar ESPORTS_API_SECRET (veja .env.example) e reiniciá-lo.',
    configUser:
      'O Matchday não consegue ler os dados de esports agora: um problema de configuração do lado do bot, registrado para quem o administra. Avise um admin.',
    tooFast_one: 'Você está mandando comandos rápido demais. Espere {{count}} segundo e tente de novo.',
    tooFast_other: 'Você está mandando comandos rápido demais. Espere {{count}} segundos e tente de novo.',
    tooSlow_one:
      'O serviço de dados de esports está lento agora: sem resposta em {{count}} segundo. Tente de novo em um minuto.',
    tooSlow_other:
      'O serviço de dados de esports está lento agora: sem resposta em {{count}} segundos. Tente de novo em um minuto.',
    slackAdminCheck:
      'Não foi possível confirmar com o Slack se você é admin do workspace. Tente de novo em um minuto.',
  },
  errors: {
    notFound:
      'O serviço de dados de esports não tem esse item (talvez tenha sido removido). Confira o nome ou o id.',
    serviceDown: 'O serviço de dados de esports não está respondendo agora. Tente de novo em um minuto.',
    serviceFailed: 'O Matchday não conseguiu ler os dados de esports.',
    namesUnavailable:
      'Não foi possível carregar uma lista de nomes do serviço de dados; tente de novo em um minuto.',
    store: 'As configurações estão indisponíveis agora: {{cause}}. Tente de novo daqui a pouco.',
    storeLasting:
      'As configurações estão indisponíveis: {{cause}}. Esperar não resolve: quem opera este bot precisa reparar o armazenamento (o log do bot diz como).',
    storeNow: 'As configurações estão indisponíveis agora: {{cause}}.',
    storeCause: {
      unreachable: 'não é possível acessar o armazenamento de configurações',
      timeout: 'o armazenamento de configurações não respondeu a tempo',
      damaged: 'o armazenamento de configurações está danificado',
      readOnly: 'o armazenamento de configurações está somente leitura',
      full: 'o disco do armazenamento de configurações está cheio',
      busy: 'muitas alterações estão sendo feitas ao mesmo tempo',
      newerVersion: 'as configurações foram gravadas por um Matchday mais novo',
      auth: 'o armazenamento de configurações recusou a senha',
      tls: 'a conexão segura com o armazenamento de configurações falhou',
      failed: 'o armazenamento de configurações falhou',
    },
  },
  checks: {
    unknownCommand: 'Não existe o comando "{{name}}". Comandos: {{list}}.',
    noSubcommands: '{{command}} não tem subcomandos (recebido "{{given}}").',
    unknownSubcommand: '{{command}} não tem "{{given}}"; ele aceita um destes: {{list}}.',
    missingSubcommand: '{{command}} precisa de um destes: {{list}}.',
    adminOnlyDiscord: '{{command}} é só para admins deste servidor (Gerenciar servidor).',
    adminOnlySlack: '{{command}} é só para admins e donos do workspace.',
    adminOnlyTerminal: '{{command}} é só para admins deste chat.',
    onlyAdminsDiscord: 'Só admins deste servidor podem usar {{command}}.',
    onlyAdminsSlack: 'Só admins deste workspace podem usar {{command}}.',
    onlyAdminsTerminal: 'Só admins deste chat podem usar {{command}}.',
  },
  args: {
    expected: {
      integer: 'um número inteiro',
      number: 'um número',
      boolean: 'true ou false',
      channel: 'um canal',
      role: 'um cargo',
      text: 'um texto',
      choice: 'um destes: {{values}}',
    },
    between: 'entre {{min}} e {{max}}',
    atLeast: 'no mínimo {{min}}',
    atMost: 'no máximo {{max}}',
    mustBe: '{{option}} precisa ser {{expected}}.',
    mustBeGot: '{{option}} precisa ser {{expected}} (recebido "{{got}}").',
    outOfRange: '{{option}} precisa estar {{range}} (recebido {{got}}).',
    control: '{{option}} contém caracteres de controle; digite texto simples.',
    empty: '{{option}} está vazio; informe um valor ou deixe a opção de fora.',
    tooLong: '{{option}} é longo demais ({{length}} caracteres); no máximo {{max}}.',
    tooShort: '{{option}} é curto demais ({{length}} caracteres); no mínimo {{min}}.',
    channelExample: 'um canal, por exemplo #geral',
    roleExample: 'um cargo, por exemplo @fas',
    choice: '{{option}} precisa ser um destes: {{values}} (recebido "{{got}}").',
    unknownOption: '{{command}} não tem a opção "{{name}}". Opções: {{options}}.',
    noOptions: '{{command}} não aceita opções (recebido "{{name}}").',
    missing: '{{command}} precisa de {{what}}. Por exemplo: {{example}}',
  },
  names: {
    noun: {
      team: 'time',
      organisation: 'organização',
      tournament: 'torneio',
      game: 'jogo',
      substage: 'fase',
      series: 'série',
      player: 'jogador',
    },
    count: {
      team_one: '{{count}} time',
      team_other: '{{count}} times',
      organisation_one: '{{count}} organização',
      organisation_other: '{{count}} organizações',
      tournament_one: '{{count}} torneio',
      tournament_other: '{{count}} torneios',
      game_one: '{{count}} jogo',
      game_other: '{{count}} jogos',
      substage_one: '{{count}} fase',
      substage_other: '{{count}} fases',
      series_one: '{{count}} série',
      series_other: '{{count}} séries',
      player_one: '{{count}} jogador',
      player_other: '{{count}} jogadores',
    },
    empty: 'Informe um nome ({{noun}}): o texto está vazio.',
    tooLong: 'Esse nome ({{noun}}) tem {{length}} caracteres; nomes têm no máximo {{max}}.',
    noLetters: '"{{text}}" não tem letras nem dígitos: digite parte do nome ({{noun}}).',
    takenAs: 'Nada se chama "{{text}}" ({{noun}}); mostrando {{label}}.',
    stillLoading_one:
      'Nada parecido com "{{text}}" ainda: a lista de nomes ({{noun}}) ainda está carregando do serviço de dados (um armazenamento novo). Tente de novo em {{count}} segundo.',
    stillLoading_other:
      'Nada parecido com "{{text}}" ainda: a lista de nomes ({{noun}}) ainda está carregando do serviço de dados (um armazenamento novo). Tente de novo em {{count}} segundos.',
    noMatch: 'Nenhum resultado para "{{text}}" ({{noun}}).',
    ambiguous:
      '"{{text}}" corresponde a {{matches}}: {{labels}}. Escolha um da lista ou digite mais do nome.',
    ambiguousMore:
      '"{{text}}" corresponde a {{matches}}: {{labels}} e mais {{more}}. Escolha um da lista ou digite mais do nome.',
  },
  didYouMean: 'Você quis dizer',
  pages: {
    where: 'Página {{page}} de {{pages}} (séries {{first}}–{{last}} de {{total}}).',
    atLeast: 'pelo menos {{count}}',
    earlierFirst: ' Anterior: ',
    laterFirst: ' Próxima: ',
    later: ' · próxima: ',
    previousButton: '◀ Página {{page}}',
    nextButton: 'Página {{page}} ▶',
  },
  parse: {
    seeHelp: 'Veja {{command}}.',
    unclosedQuote:
      'As aspas {{quote}} na posição {{position}} nunca são fechadas. Feche-as, por exemplo team:"Team Spirit".',
    empty: 'Digite um comando, por exemplo {{help}} ou {{example}}.',
    unknownCommand: 'Não existe o comando "{{name}}". Comandos: {{commands}}.',
    missingSubcommand: '{{command}} precisa de um destes: {{subcommands}}. Por exemplo: {{example}}.',
    unknownSubcommand: '{{command}} não tem "{{name}}"; aceita um destes: {{subcommands}}.',
    duplicateOption: '{{option}}: aparece duas vezes; informe-a só uma vez.',
    ambiguous:
      '"{{typed}}" pode ser lido de mais de um jeito por {{command}}, por exemplo {{first}} ou {{last}}. Dê o nome das opções, com aspas em volta de nomes com espaços.',
    noRoom:
      '{{command}} não tem lugar para "{{extra}}". Coloque os espaços entre aspas, por exemplo team:"Team Spirit".',
    noRoomOptions:
      '{{command}} não tem lugar para "{{extra}}". Coloque os espaços entre aspas, por exemplo team:"Team Spirit"; opções: {{options}}.',
    tooMany:
      'Valores demais para {{command}}: ele aceita {{options}}, nessa ordem, e sobrou "{{extra}}". Coloque nomes com espaços entre aspas, por exemplo "Team Spirit".',
  },
  render: {
    stale: 'Os dados podem estar desatualizados: o serviço de dados de esports não está respondendo agora.',
    timesIn: 'Horários em {{zone}}.',
    spoilerHidden: '[spoiler oculto]',
    reveal: 'Revelar',
    open: 'Abrir',
    nothing: 'Nada para mostrar.',
    image: 'imagem',
    unknownTime: 'um horário desconhecido',
    moreParts_one: 'Mais {{count}} parte não coube em uma mensagem.',
    moreParts_other: 'Mais {{count}} partes não couberam em uma mensagem.',
    shortened_one: 'Encurtado para caber no Slack: mais {{count}} bloco não exibido.',
    shortened_other: 'Encurtado para caber no Slack: mais {{count}} blocos não exibidos.',
  },
};
