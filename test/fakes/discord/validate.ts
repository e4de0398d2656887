/**
 * The checks Discord's API applies to message bodies, command registrations and autocomplete
 * answers, so that the fake answers 400 (code 50035, "Invalid Form Body") exactly where Discord
 * would. Each function returns a list of problems; empty means valid.
 * Numbers from https://discord.com/developers/docs/resources/message#create-message and
 * https://discord.com/developers/docs/resources/message#embed-object-embed-limits.
 */

/* biome-ignore-all lint/suspicious/noExplicitAny: validating untyped JSON bodies */

export const LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  embedTotal: 6000,
  actionRows: 5,
  rowButtons: 5,
  buttonLabel: 80,
  choices: 25,
  choiceName: 100,
  choiceValue: 100,
  commandName: 32,
  commandDescription: 100,
  commandOptions: 25,
  attachments: 10,
} as const;

function len(value: unknown): number {
  return typeof value === 'string' ? [...value].length : 0;
}

/** Problems with one message body (create or edit). */
export function messageProblems(body: any, { create }: { create: boolean }): string[] {
  const problems: string[] = [];
  if (body === null || typeof body !== 'object') return ['body must be a JSON object'];
  if (body.content !== undefined && body.content !== null) {
    if (typeof body.content !== 'string') problems.push('content must be a string');
    else if (len(body.content) > LIMITS.content)
      problems.push(`content: ${len(body.content)} > ${LIMITS.content}`);
  }
  const embeds: any[] = Array.isArray(body.embeds) ? body.embeds : [];
  if (embeds.length > LIMITS.embeds) problems.push(`embeds: ${embeds.length} > ${LIMITS.embeds}`);
  let total = 0;
  embeds.forEach((embed, i) => {
    const where = `embeds[${i}]`;
    if (len(embed.title) > LIMITS.embedTitle)
      problems.push(`${where}.title: ${len(embed.title)} > ${LIMITS.embedTitle}`);
    if (len(embed.description) > LIMITS.embedDescription)
      problems.push(`${where}.description: ${len(embed.description)} > ${LIMITS.embedDescription}`);
    const fields: any[] = Array.isArray(embed.fields) ? embed.fields : [];
    if (fields.length > LIMITS.embedFields)
      problems.push(`${where}.fields: ${fields.length} > ${LIMITS.embedFields}`);
    fields.forEach((field, j) => {
      if (len(field.name) === 0) problems.push(`${where}.fields[${j}].name is empty`);
      if (len(field.value) === 0) problems.push(`${where}.fields[${j}].value is empty`);
      if (len(field.name) > LIMITS.fieldName)
        problems.push(`${where}.fields[${j}].name: ${len(field.name)} > ${LIMITS.fieldName}`);
      if (len(field.value) > LIMITS.fieldValue)
        problems.push(`${where}.fields[${j}].value: ${len(field.value)} > ${LIMITS.fieldValue}`);
      total += len(field.name) + len(field.value);
    });
    if (len(embed.footer?.text) > LIMITS.footer)
      problems.push(`${where}.footer.text: ${len(embed.footer?.text)} > ${LIMITS.footer}`);
    if (len(embed.author?.name) > LIMITS.author) problems.push(`${where}.author.name > ${LIMITS.author}`);
    if (
      embed.color !== undefined &&
      (!Number.isInteger(embed.color) || embed.color < 0 || embed.color > 0xffffff)
    )
      problems.push(`${where}.color must be an integer 0..0xffffff`);
    if (embed.url !== undefined && !/^https?:\/\//.test(String(embed.url)))
      problems.push(`${where}.url must be http(s)`);
    total += len(embed.title) + len(embed.description) + len(embed.footer?.text) + len(embed.author?.name);
  });
  if (total > LIMITS.embedTotal) problems.push(`embeds: ${total} characters in total > ${LIMITS.embedTotal}`);
  const rows: any[] = Array.isArray(body.components) ? body.components : [];
  if (rows.length > LIMITS.actionRows)
    problems.push(`components: ${rows.length} rows > ${LIMITS.actionRows}`);
  const customIds = new Set<string>();
  rows.forEach((row, i) => {
    if (row.type !== 1) problems.push(`components[${i}] must be an action row (type 1)`);
    const buttons: any[] = Array.isArray(row.components) ? row.components : [];
    if (buttons.length === 0 || buttons.length > LIMITS.rowButtons)
      problems.push(`components[${i}]: 1..5 buttons`);
    buttons.forEach((button, j) => {
      if (button.type !== 2) problems.push(`components[${i}][${j}] must be a button`);
      if (button.style === 5 && !/^https?:\/\//.test(String(button.url)))
        problems.push(`components[${i}][${j}].url must be http(s)`);
      // Any other style is an interactive button: a custom_id of 1..100 characters, unique in the message.
      if (button.style !== 5) {
        const id = button.custom_id;
        if (typeof id !== 'string' || id.length < 1 || id.length > 100)
          problems.push(`components[${i}][${j}].custom_id must be 1..100 characters`);
        else if (customIds.has(id)) problems.push(`components[${i}][${j}].custom_id "${id}" is used twice`);
        else customIds.add(id);
        if (button.url !== undefined)
          problems.push(`components[${i}][${j}] has a url but is not a link button`);
      }
      if (len(button.label) > LIMITS.buttonLabel)
        problems.push(`components[${i}][${j}].label > ${LIMITS.buttonLabel}`);
    });
  });
  const mentions = body.allowed_mentions;
  if (mentions !== undefined && mentions !== null) {
    const parse: unknown[] = Array.isArray(mentions.parse) ? mentions.parse : [];
    if (parse.includes('roles') && Array.isArray(mentions.roles) && mentions.roles.length > 0)
      problems.push('allowed_mentions: parse "roles" and a roles list are mutually exclusive');
    if (parse.includes('users') && Array.isArray(mentions.users) && mentions.users.length > 0)
      problems.push('allowed_mentions: parse "users" and a users list are mutually exclusive');
    if (Array.isArray(mentions.roles) && mentions.roles.length > 100)
      problems.push('allowed_mentions.roles: at most 100');
  }
  if (Array.isArray(body.attachments) && body.attachments.length > LIMITS.attachments)
    problems.push(`attachments > ${LIMITS.attachments}`);
  if (body.nonce !== undefined) {
    const nonce = String(body.nonce);
    if (len(nonce) > 25) problems.push(`nonce: ${len(nonce)} characters > 25`);
  }
  if (create) {
    const empty =
      !(typeof body.content === 'string' && body.content.length > 0) &&
      embeds.length === 0 &&
      rows.length === 0 &&
      !(Array.isArray(body.attachments) && body.attachments.length > 0) &&
      body.sticker_ids === undefined;
    if (empty) problems.push('Cannot send an empty message (50006)');
  }
  return problems;
}

const NAME = /^[-_\p{Ll}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

function optionProblems(options: any[], where: string, depth: number): string[] {
  const problems: string[] = [];
  if (options.length > LIMITS.commandOptions) problems.push(`${where}.options: ${options.length} > 25`);
  let seenOptional = false;
  const names = new Set<string>();
  options.forEach((option, i) => {
    const at = `${where}.options[${i}]`;
    if (!NAME.test(String(option.name)))
      problems.push(`${at}.name "${option.name}" is not a valid lower-case name`);
    if (names.has(option.name)) problems.push(`${at}.name "${option.name}" is duplicated`);
    names.add(option.name);
    if (len(option.description) < 1 || len(option.description) > LIMITS.commandDescription)
      problems.push(`${at}.description must be 1..100 characters`);
    if (![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].includes(option.type))
      problems.push(`${at}.type ${option.type} unknown`);
    if (option.type === 1 || option.type === 2) {
      if (depth > 0) problems.push(`${at}: subcommands nest at most one level here`);
      problems.push(...optionProblems(option.options ?? [], at, depth + 1));
      return;
    }
    if (option.required) {
      if (seenOptional) problems.push(`${at}: required options must come before optional ones`);
    } else seenOptional = true;
    if (option.choices !== undefined) {
      if (option.autocomplete) problems.push(`${at}: autocomplete and choices are mutually exclusive`);
      if (option.choices.length > LIMITS.choices)
        problems.push(`${at}.choices: ${option.choices.length} > 25`);
      for (const choice of option.choices) {
        if (len(choice.name) < 1 || len(choice.name) > LIMITS.choiceName)
          problems.push(`${at}.choices name 1..100`);
      }
    }
    if (option.autocomplete && ![3, 4, 10].includes(option.type))
      problems.push(`${at}: autocomplete needs string, integer or number`);
    if ((option.min_value !== undefined || option.max_value !== undefined) && ![4, 10].includes(option.type))
      problems.push(`${at}: min_value/max_value only on integer or number`);
    if ((option.min_length !== undefined || option.max_length !== undefined) && option.type !== 3)
      problems.push(`${at}: min_length/max_length only on string`);
  });
  return problems;
}

/** Problems with a bulk-overwrite of application commands. */
export function commandProblems(commands: any): string[] {
  if (!Array.isArray(commands)) return ['body must be an array of commands'];
  const problems: string[] = [];
  if (commands.length > 100) problems.push('at most 100 chat input commands');
  const names = new Set<string>();
  commands.forEach((command, i) => {
    const at = `[${i}]`;
    if (!NAME.test(String(command.name)))
      problems.push(`${at}.name "${command.name}" is not a valid lower-case name`);
    if (names.has(command.name)) problems.push(`${at}.name "${command.name}" is duplicated`);
    names.add(command.name);
    if (len(command.description) < 1 || len(command.description) > LIMITS.commandDescription)
      problems.push(`${at}.description must be 1..100 characters`);
    if (command.default_member_permissions !== undefined && command.default_member_permissions !== null) {
      if (
        typeof command.default_member_permissions !== 'string' ||
        !/^\d+$/.test(command.default_member_permissions)
      )
        problems.push(`${at}.default_member_permissions must be a string of digits`);
    }
    problems.push(...optionProblems(command.options ?? [], at, 0));
  });
  return problems;
}

/** Problems with an autocomplete answer (callback type 8). */
export function choiceProblems(data: any): string[] {
  const choices: any[] = Array.isArray(data?.choices) ? data.choices : [];
  const problems: string[] = [];
  if (!Array.isArray(data?.choices)) problems.push('data.choices must be an array');
  if (choices.length > LIMITS.choices) problems.push(`choices: ${choices.length} > 25`);
  choices.forEach((choice, i) => {
    if (len(choice.name) < 1 || len(choice.name) > LIMITS.choiceName)
      problems.push(`choices[${i}].name must be 1..100 characters`);
    if (typeof choice.value === 'string' && len(choice.value) > LIMITS.choiceValue)
      problems.push(`choices[${i}].value must be at most 100 characters`);
  });
  return problems;
}
