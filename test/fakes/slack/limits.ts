/**
 * Slack's Block Kit limits, checked the way Slack checks them: the fake answers `invalid_blocks` for a
 * message that breaks one, and the renderer's unit tests run every rendered message through it.
 * Numbers from https://docs.slack.dev/reference/block-kit/blocks (section, header, context, actions,
 * image) and https://docs.slack.dev/reference/block-kit/composition-objects/text-object.
 */

type Json = Record<string, unknown>;

/** The limits the fake enforces; the renderer keeps its own copy (it must not import from tests). */
export const LIMITS = {
  blocks: 50,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  actionId: 255,
  imageUrl: 3000,
  altText: 2000,
  messageText: 40_000,
} as const;

function textOf(object: unknown): string | undefined {
  if (object && typeof object === 'object' && typeof (object as Json).text === 'string')
    return (object as Json).text as string;
  return undefined;
}

/** Every limit a message breaks, as readable strings; empty when Slack would accept it. */
export function blockKitProblems(message: { text?: unknown; blocks?: unknown }): string[] {
  const problems: string[] = [];
  if (typeof message.text === 'string' && message.text.length > LIMITS.messageText)
    problems.push('text too long');
  if (message.blocks === undefined) {
    if (typeof message.text !== 'string' || message.text.length === 0)
      problems.push('neither text nor blocks');
    return problems;
  }
  if (!Array.isArray(message.blocks)) return ['blocks is not an array'];
  const blocks = message.blocks as Json[];
  if (blocks.length > LIMITS.blocks) problems.push(`${blocks.length} blocks (at most ${LIMITS.blocks})`);
  const actionIds = new Set<string>();
  const checkActionId = (where: string, element: Json): void => {
    const id = element.action_id;
    if (typeof id !== 'string') return;
    if (id.length > LIMITS.actionId) problems.push(`${where}: action_id too long`);
    if (actionIds.has(id)) problems.push(`${where}: duplicate action_id ${id}`);
    actionIds.add(id);
  };
  const checkButton = (where: string, element: Json): void => {
    const label = textOf(element.text) ?? '';
    if (label.length === 0 || label.length > LIMITS.buttonText)
      problems.push(`${where}: button text ${label.length} chars`);
    if (typeof element.value === 'string' && element.value.length > LIMITS.buttonValue)
      problems.push(`${where}: button value ${element.value.length} chars`);
    if (typeof element.url === 'string' && element.url.length > LIMITS.buttonUrl)
      problems.push(`${where}: button url too long`);
    checkActionId(where, element);
  };
  blocks.forEach((block, index) => {
    const where = `block ${index} (${String(block.type)})`;
    switch (block.type) {
      case 'section': {
        const text = textOf(block.text);
        const fields = Array.isArray(block.fields) ? (block.fields as Json[]) : undefined;
        if (text === undefined && fields === undefined) problems.push(`${where}: neither text nor fields`);
        if (text !== undefined && (text.length === 0 || text.length > LIMITS.sectionText))
          problems.push(`${where}: text ${text.length} chars (1..${LIMITS.sectionText})`);
        if (fields) {
          if (fields.length > LIMITS.sectionFields) problems.push(`${where}: ${fields.length} fields`);
          for (const field of fields) {
            const value = textOf(field) ?? '';
            if (value.length === 0 || value.length > LIMITS.fieldText)
              problems.push(`${where}: field ${value.length} chars`);
          }
        }
        if (block.accessory && typeof block.accessory === 'object') {
          const accessory = block.accessory as Json;
          if (accessory.type === 'button') checkButton(`${where} accessory`, accessory);
        }
        break;
      }
      case 'header': {
        const text = textOf(block.text) ?? '';
        if ((block.text as Json | undefined)?.type !== 'plain_text')
          problems.push(`${where}: header text must be plain_text`);
        if (text.length === 0 || text.length > LIMITS.headerText)
          problems.push(`${where}: header ${text.length} chars`);
        break;
      }
      case 'context': {
        const elements = Array.isArray(block.elements) ? (block.elements as Json[]) : [];
        if (elements.length === 0 || elements.length > LIMITS.contextElements)
          problems.push(`${where}: ${elements.length} elements`);
        for (const element of elements) {
          const text = textOf(element);
          if (text !== undefined && (text.length === 0 || text.length > LIMITS.contextText))
            problems.push(`${where}: element ${text.length} chars`);
        }
        break;
      }
      case 'actions': {
        const elements = Array.isArray(block.elements) ? (block.elements as Json[]) : [];
        if (elements.length === 0 || elements.length > LIMITS.actionsElements)
          problems.push(`${where}: ${elements.length} elements`);
        for (const element of elements) if (element.type === 'button') checkButton(where, element);
        break;
      }
      case 'image': {
        const url = block.image_url;
        if (typeof url !== 'string' || url.length > LIMITS.imageUrl) problems.push(`${where}: image_url`);
        const alt = block.alt_text;
        if (typeof alt !== 'string' || alt.length === 0 || alt.length > LIMITS.altText)
          problems.push(`${where}: alt_text`);
        break;
      }
      case 'divider':
        break;
      default:
        problems.push(`${where}: unknown block type`);
    }
  });
  return problems;
}
