/** The logger the client writes to: pino-compatible (`logger.warn(obj, msg)`), injected, silent by default. */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const ignore = (): void => {};

/** Drops everything: the default when no logger is passed. */
export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
