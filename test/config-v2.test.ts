/** ESPORTS_API_VERSION and the v2 client credentials: validated, never repeated in a message. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const SECRET = 'v2-client-secret-value';

describe('config: the v2 interface', () => {
  it('selects v2 by ESPORTS_API_VERSION or by a URL ending in /v2, with the client pair', () => {
    const byVersion = loadConfig({ ESPORTS_API_VERSION: 'v2' });
    expect(byVersion.esports).toMatchObject({ api: 'v2' });
    expect(byVersion.esports.url).toBeUndefined();
    const byUrl = loadConfig({
      ESPORTS_API_URL: 'https://api.example.com/v2',
      ESPORTS_API_CLIENT_ID: 'bot',
      ESPORTS_API_CLIENT_SECRET: SECRET,
    });
    expect(byUrl.esports).toMatchObject({
      api: 'v2',
      url: 'https://api.example.com/v2',
      clientId: 'bot',
      clientSecret: SECRET,
    });
    expect(byUrl.secrets).toContain(SECRET);
    expect(loadConfig({}).esports.api).toBeUndefined();
    expect(loadConfig({}, { api: 'v2' }).esports.api).toBe('v2');
  });

  it('says what is wrong and never repeats a secret', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ ESPORTS_API_VERSION: 'v4' }, /ESPORTS_API_VERSION must be v2 or v3/],
      [
        { ESPORTS_API_URL: 'https://api.example.com/v2' },
        /ESPORTS_API_CLIENT_ID must be set with the v2 interface/,
      ],
      [
        { ESPORTS_API_URL: 'https://api.example.com/v2', ESPORTS_API_CLIENT_ID: 'bot' },
        /ESPORTS_API_CLIENT_SECRET must be set with the v2 interface/,
      ],
      [
        {
          ESPORTS_API_VERSION: 'v2',
          ESPORTS_API_URL: 'https://api.example.com/v3',
          ESPORTS_API_SECRET: 'abcdefgh',
        },
        /ESPORTS_API_URL must end in \/v2 for the v2 interface/,
      ],
      [
        { ESPORTS_API_CLIENT_ID: 'bot', ESPORTS_API_CLIENT_SECRET: SECRET },
        /ESPORTS_API_CLIENT_ID is for the v2 interface only/,
      ],
      [
        {
          ESPORTS_API_VERSION: 'v2',
          ESPORTS_API_URL: 'https://api.example.com/v2',
          ESPORTS_API_SECRET: SECRET,
          ESPORTS_API_CLIENT_ID: 'bot',
          ESPORTS_API_CLIENT_SECRET: SECRET,
        },
        /ESPORTS_API_SECRET is the v3 secret/,
      ],
      [
        { ESPORTS_API_VERSION: 'v2', ESPORTS_API_CLIENT_ID: 'bot', ESPORTS_API_CLIENT_SECRET: 'short' },
        /ESPORTS_API_CLIENT_SECRET must be the v2 client secret/,
      ],
    ];
    for (const [env, message] of cases) {
      const error = (() => {
        try {
          loadConfig(env);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, JSON.stringify(Object.keys(env))).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(SECRET);
      expect((error as Error).message).not.toContain('short');
    }
  });
});
