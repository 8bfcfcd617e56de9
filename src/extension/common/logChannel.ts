// The API layer's Logger backed by the "Refactor Browser" log output channel. Under test (and only
// then) the last lines are kept in memory too, so that the test API can show what was logged.
import * as vscode from 'vscode';
import { withoutCredentials } from '../../core/errors';
import { withoutCredentialsIn, type Logger } from '../../client/logger';

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Refactor Browser', { log: true });
}

/** Every line without the credentials of the URLs in it, whichever part of the extension logs it. */
export function channelLogger(channel: vscode.LogOutputChannel): Logger {
  return withoutCredentialsIn({
    trace: (m) => channel.trace(m),
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m) => channel.error(m),
  });
}

const KEPT_LINES = 500;

/** A logger that also keeps its last lines, as `<level> <message>`, for the test API. */
export function recordingLogger(inner: Logger): Logger & { recent(): readonly string[] } {
  const lines: string[] = [];
  const keep = (level: keyof Logger, m: string): void => {
    lines.push(`${level} ${withoutCredentials(m)}`);
    if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
    inner[level](m);
  };
  return {
    trace: (m) => keep('trace', m),
    info: (m) => keep('info', m),
    warn: (m) => keep('warn', m),
    error: (m) => keep('error', m),
    recent: () => [...lines],
  };
}
