// The logging interface the API layer writes to. The extension backs it with a LogOutputChannel,
// the CLI with stderr (when asked), tests with the silent one.

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
