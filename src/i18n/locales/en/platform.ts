/**
 * What each platform adds around a reply (`src/platforms/`), and the runtime's own answers (`src/bot/runtime.ts`).
 * English: the source of every key in this area; pt and de have the same shape.
 */
export const platform = {
  placeholder: '-',
};
