// The logging interface the API layer writes to. The extension backs it with a LogOutputChannel,
// the CLI with stderr (when asked), tests with the silent one.
import { withoutCredentials } from '../core/errors';

export interface Logger {
  trace(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = {
  trace() {},
  info() {},
  warn() {},
  error() {},
};

/** Loggers made by withoutCredentialsIn: the client hands its own to the transport, which masks once. */
const masking = new WeakSet<Logger>();

/**
 * `logger` with the credentials of every URL in a line masked: a line names URLs the service sent
 * (redirects), which may carry a user name and password. A logger that masks already is returned as it is.
 */
export function withoutCredentialsIn(logger: Logger): Logger {
  if (masking.has(logger)) return logger;
  const masked: Logger = {
    trace: (message) => logger.trace(withoutCredentials(message)),
    info: (message) => logger.info(withoutCredentials(message)),
    warn: (message) => logger.warn(withoutCredentials(message)),
    error: (message) => logger.error(withoutCredentials(message)),
  };
  masking.add(masked);
  return masked;
}
