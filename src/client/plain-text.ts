/**
 * Text from the data service is text: every string of an answer loses its control characters
 * before anything else reads it. A name such as "Alpha\nResult: Alpha won 2-0" would otherwise add
 * a line of its own to a card, an ESC or BEL would reach a chat payload or a terminal, and an ICS
 * line would carry characters RFC 5545 forbids. Applied once, where an answer enters the client
 * (`retry.ts`, the 200 of one attempt), so the cache, the name index, the formatters, the pictures
 * and the calendar only ever see clean strings.
 *
 * Line breaks and tabs (CR, LF, VT, FF, NEL, U+2028, U+2029, TAB) become one space each run, so words
 * stay apart; every other C0 or C1 control and DEL is dropped, and such a string is trimmed. Nothing else changes: no string
 * from the service legitimately spans lines (its text fields are names, titles, handles and URLs:
 * `shared/spec/service-v3.md`).
 */

const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test of whether there is anything to do
const ANY = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** `text` on one line, without control characters. */
export function plainText(text: string): string {
  if (!ANY.test(text)) return text;
  return text.replace(BREAKS, ' ').replace(CONTROLS, '').trim();
}

/**
 * `value` (a parsed JSON answer) with every string, and every key, made plain. Arrays and objects
 * are rebuilt only where something changed, so a clean answer (the usual case) is returned as is.
 */
export function plainData<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return plainText(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const next = clean(item);
      if (next !== item) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const next = clean(item);
    const plainKey = plainText(key);
    if (next !== item || plainKey !== key) {
      copy ??= { ...record };
      if (plainKey !== key) delete copy[key];
      // defineProperty, not assignment: a key "__proto__" from JSON.parse stays a plain key.
      Object.defineProperty(copy, plainKey, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return copy ?? value;
}
