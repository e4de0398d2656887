/**
 * What `/help` says of each command, its options and subcommands (`commands/help.ts`).
 * Portuguese: the same keys as `../en/help.ts`; option values typed as they are (today, show, all) stay as typed.
 */
import type { Messages } from '../en.ts';
export const help: Messages['help'] = {
  series: {
    description: 'Séries próximas, ao vivo ou recentes',
    options: {
      when: 'Próximas (padrão), ao vivo ou recentes',
      series:
        'Uma série (id ou nome): sua prévia, com forma, confronto direto, o que está em jogo e transmissões',
      game: 'Jogo (padrão: os jogos escolhidos nas configurações)',
      tier: 'Tier 1 (topo) a 4 (padrão: os tiers escolhidos nas configurações)',
      team: 'Só séries deste time',
      tournament: 'Só séries deste torneio',
      limit: 'Quantas (1 a 20, padrão 10)',
    },
  },
  live: {
    description: 'Placares ao vivo: uma série, ou tudo ao vivo nos seus jogos',
    options: {
      series: 'Uma série (padrão: todas as séries ao vivo)',
      team: 'A série ao vivo deste time',
      game: 'Jogo (padrão: os jogos escolhidos nas configurações)',
    },
  },
  schedule: {
    description: 'As séries de um dia nos seus jogos e tiers, por torneio',
    options: {
      day: 'today (padrão), tomorrow, yesterday ou uma data como 2026-05-31',
      game: 'Jogo (padrão: os jogos escolhidos nas configurações)',
      tier: 'Tier 1 a 4 (padrão: os tiers escolhidos nas configurações)',
      page: 'Página de um dia cheio (padrão: a página com o que está rolando agora)',
    },
  },
  team: {
    description: 'Um time: organização, região, elenco, séries próximas e recentes',
    options: {
      team: 'Nome, sigla ou apelido do time',
      count: 'Séries a mostrar de cada lado (1 a 10, padrão 5)',
    },
  },
  player: {
    description: 'Um jogador: time, função, país e redes sociais',
    options: {
      player: 'Apelido ou nome real do jogador',
    },
  },
  standings: {
    description: 'A tabela de grupo ou a chave de um torneio',
    options: {
      tournament: 'Torneio',
      stage: 'Grupo ou chave (padrão: a fase atual)',
    },
  },
  casters: {
    description: 'Narradores e transmissões de uma série, a principal primeiro',
    options: {
      series: 'Uma série (padrão: a próxima)',
      team: 'A série ao vivo ou a próxima deste time',
      game: 'Jogo (padrão: os jogos escolhidos nas configurações)',
    },
  },
  tournament: {
    description: 'Um torneio: datas, tier, premiação, fases e participantes',
    options: {
      tournament: 'Torneio',
    },
  },
  follow: {
    description: 'Seguir ou deixar de seguir um time, ou listar os times seguidos',
    sub: {
      team: {
        description: 'Seguir um time (admins)',
        options: {
          team: 'Nome, sigla ou apelido do time',
        },
      },
      organisation: {
        description: 'Seguir os times de uma organização em todos os seus jogos (admins)',
        options: {
          organisation: 'Nome da organização: todos os seus times ativos, em todos os seus jogos',
        },
      },
      remove: {
        description: 'Deixar de seguir um time, ou os times de uma organização (admins)',
        options: {
          team: 'Nome, sigla ou apelido do time',
          organisation: 'Nome da organização: todos os seus times ativos, em todos os seus jogos',
        },
      },
      list: {
        description: 'Os times seguidos aqui',
      },
    },
  },
  me: {
    description: 'Seus próprios times seguidos, lembretes e calendário (privado)',
    sub: {
      follow: {
        description: 'Seguir você mesmo um time, ou uma organização em todos os seus jogos',
        options: {
          team: 'Nome, sigla ou apelido do time',
          organisation: 'Ou uma organização: todos os seus times, em todos os seus jogos',
          tier: 'Só séries deste tier ou acima (1 é o topo)',
          qualifiers: 'Incluir eliminatórias (padrão: sim)',
        },
      },
      unfollow: {
        description: 'Deixar de seguir um time, ou uma organização em todos os seus jogos',
        options: {
          team: 'Nome, sigla ou apelido do time',
          organisation: 'Ou uma organização: todos os seus times, em todos os seus jogos',
        },
      },
      list: {
        description: 'O que você segue, seus lembretes e seu calendário',
      },
      reminders: {
        description: 'Suas antecedências de lembrete',
        options: {
          leads: 'Minutos antes do início, por exemplo "15, 60" (no máximo 5)',
        },
      },
      timezone: {
        description: 'Seu fuso horário',
        options: {
          zone: 'por exemplo America/Sao_Paulo',
        },
      },
      quiet: {
        description: 'Horas de silêncio das suas mensagens diretas (sem horários: desligado)',
        options: {
          from: 'Início, HH:MM no seu fuso, por exemplo 23:00 (ou o intervalo: 23:00-08:00)',
          to: 'Fim, HH:MM no seu fuso, por exemplo 08:00',
        },
      },
      dms: {
        description: 'O que chega a você por mensagem direta (sem opção: mostra)',
        options: {
          reminders: 'Lembretes nas suas antecedências',
          live: 'Um cartão ao vivo quando uma série começa, atualizado durante o jogo',
          results: 'O resultado quando uma série termina',
        },
      },
      spoilers: {
        description: 'Como os resultados aparecem nas suas mensagens diretas',
        options: {
          policy: 'show, spoiler (oculto até revelar) ou hide',
        },
      },
      language: {
        description: 'O idioma das suas mensagens diretas',
        options: {
          code: 'en, pt ou de',
        },
      },
      calendar: {
        description: 'O URL do seu calendário privado',
        options: {
          action: 'show (padrão) ou renew (o URL antigo deixa de funcionar)',
        },
      },
    },
  },
  settings: {
    description: 'Mostrar ou mudar as configurações do Matchday',
    sub: {
      show: {
        description: 'Mostrar as configurações atuais',
      },
      games: {
        description: 'Jogos a seguir',
        options: {
          games: 'Separados por vírgula, por exemplo "cs2, dota 2", ou "all"',
        },
      },
      tiers: {
        description: 'Tiers a seguir (1 é o topo)',
        options: {
          tiers: 'por exemplo "1,2"',
        },
      },
      timezone: {
        description: 'Fuso horário das agendas e resumos',
        options: {
          zone: 'por exemplo America/Sao_Paulo',
        },
      },
      language: {
        description: 'Idioma das respostas, cartões e notificações',
        options: {
          code: 'en, pt ou de',
        },
      },
      spoilers: {
        description: 'Como os resultados são mostrados',
        options: {
          policy: 'show, spoiler (oculto até revelar) ou hide',
        },
      },
      reminders: {
        description: 'Antecedências dos lembretes',
        options: {
          minutes: 'Minutos antes do início, por exemplo "15, 60" (no máximo 5)',
        },
      },
      digest: {
        description: 'O resumo diário da agenda',
        options: {
          time: 'Hora do dia HH:MM no fuso escolhido, por exemplo 09:00',
          when_empty: 'Num dia sem nada agendado',
        },
      },
      live: {
        description: 'Placares ao vivo ligados ou desligados',
        options: {
          enabled: 'Ligado ou desligado',
        },
      },
      'channel-add': {
        description: 'Publicar notificações num canal',
        options: {
          channel: 'O canal',
          games: 'Jogos, separados por vírgula, ou "all" (padrão: os jogos escolhidos nas configurações)',
          tiers: 'Tiers, por exemplo "1,2", ou "all" (padrão: os tiers escolhidos nas configurações)',
          teams: 'Times anunciados seja qual for o tier, separados por vírgula, ou "none"',
          kinds: 'O que publicar: reminders, live, results, digest (padrão: tudo)',
          leads:
            'Minutos de lembrete antes do início, por exemplo "15, 60" (padrão: os lembretes escolhidos nas configurações)',
          role: 'Um cargo a mencionar nas notificações',
        },
      },
      'channel-set': {
        description: 'Mudar os filtros de um canal de notificações',
        options: {
          channel: 'O canal',
          games: 'Jogos, separados por vírgula, ou "all" (padrão: os jogos escolhidos nas configurações)',
          tiers: 'Tiers, por exemplo "1,2", ou "all" (padrão: os tiers escolhidos nas configurações)',
          teams: 'Times anunciados seja qual for o tier, separados por vírgula, ou "none"',
          kinds: 'O que publicar: reminders, live, results, digest (padrão: tudo)',
          leads:
            'Minutos de lembrete antes do início, por exemplo "15, 60" (padrão: os lembretes escolhidos nas configurações)',
          role: 'Um cargo a mencionar nas notificações',
        },
      },
      'channel-remove': {
        description: 'Parar de publicar num canal',
        options: {
          channel: 'O canal',
        },
      },
      events: {
        description: 'Discord: as séries seguidas de um canal como eventos agendados',
        options: {
          channel: 'Um canal configurado com channel-add',
          enabled: 'Ligado ou desligado',
        },
      },
      threads: {
        description: 'Cada jogo terminado num tópico sob o cartão ao vivo de um canal',
        options: {
          channel: 'Um canal configurado com channel-add',
          enabled: 'Ligado ou desligado',
        },
      },
      calendar: {
        description: 'O URL do calendário de um canal de notificações',
        options: {
          channel: 'Um canal configurado com channel-add',
          action: 'show (padrão) ou renew (o URL antigo deixa de funcionar)',
        },
      },
    },
  },
  status: {
    description: 'O Matchday está bem aqui: serviço de dados, feed, orçamento, canais, versão',
  },
  help: {
    description: 'Comandos e suas opções',
    options: {
      command: 'Um comando a explicar',
    },
  },
};
