/**
 * What each platform adds around a reply (`src/platforms/`), and the runtime's own answers (`src/bot/runtime.ts`).
 * Portuguese (Brazil): the same keys as `../en/platform.ts`.
 */
import type { Messages } from '../en.ts';
export const platform: Messages['platform'] = {
  placeholder: '-',
};
