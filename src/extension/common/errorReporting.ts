// The one place where a failure becomes UI, and the one way commands are registered. A failed
// request is logged by the client that made it (src/client/client.ts), so here only what the client
// cannot have seen goes to the log; the person gets one line (an ApiError's message already names
// the URL and the cause) with a Show Log button. What failed is said in the display language by
// the caller ("Could not open the code"); the cause comes from the client, in English.
import * as vscode from 'vscode';
import { showErrorMessage } from './notifications';
import { isApiError, withoutCredentials } from '../../core/errors';
import type { Logger } from '../../client/logger';

/** One line for a person: an ApiError's message, any other error's message, newlines folded, no URL's credentials. */
export function oneLine(err: unknown): string {
  const text = isApiError(err) ? err.message : err instanceof Error ? err.message : String(err);
  return withoutCredentials(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
}

/**
 * Logs `<failure>: <cause>` with its stack, unless the client logged the failure already. `failure`
 * says what could not be done, e.g. `Could not open the code`.
 */
export function logFailure(logger: Logger, failure: string, err: unknown): void {
  if (isApiError(err)) return;
  const stack = err instanceof Error && err.stack ? `\n${err.stack}` : '';
  logger.error(`${failure}: ${oneLine(err)}${stack}`);
}

export class ErrorReporter {
  constructor(
    private readonly logger: Logger,
    private readonly showLog: (() => void) | undefined,
  ) {}

  /**
   * Logs and shows `<failure>: <cause>` (`failure` in the display language, e.g. "Could not open the
   * code"); resolves once the message is dismissed or acted on.
   */
  async report(failure: string, err: unknown): Promise<void> {
    logFailure(this.logger, failure, err);
    const message = `${failure}: ${oneLine(err)}`;
    if (!this.showLog) {
      await showErrorMessage(message);
      return;
    }
    const showLog = vscode.l10n.t('Show Log');
    const choice = await showErrorMessage(message, showLog);
    if (choice === showLog) this.showLog();
  }

  /** Runs a command body; a failure is reported instead of being thrown back at VS Code. */
  async run(failure: string, body: () => Promise<unknown>): Promise<void> {
    try {
      await body();
    } catch (err) {
      void this.report(failure, err);
    }
  }

  /** Registers a command whose failures are reported as `<failure>: …`. */
  command(id: string, failure: string, body: (...args: unknown[]) => unknown): vscode.Disposable {
    return vscode.commands.registerCommand(id, (...args: unknown[]) => this.run(failure, async () => body(...args)));
  }
}
