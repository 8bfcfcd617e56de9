// The one place where a failed code command becomes UI: the full story goes to the log, the user
// gets one line (an ApiError's message already names the URL and the cause) with a Show Log button.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { Logger } from '../api/logger';

/** One line for a person: an ApiError's message, any other error's message, newlines folded. */
export function oneLine(err: unknown): string {
  const text = isApiError(err) ? err.message : err instanceof Error ? err.message : String(err);
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

export class ErrorReporter {
  constructor(
    private readonly logger: Logger,
    private readonly showLog: (() => void) | undefined,
  ) {}

  /** Logs and shows `Could not <doing>: <cause>`; resolves once the message is dismissed or acted on. */
  async report(doing: string, err: unknown): Promise<void> {
    const message = `Could not ${doing}: ${oneLine(err)}`;
    const stack = err instanceof Error && err.stack ? `\n${err.stack}` : '';
    this.logger.error(`${message}${stack}`);
    if (!this.showLog) {
      await vscode.window.showErrorMessage(message);
      return;
    }
    const choice = await vscode.window.showErrorMessage(message, 'Show Log');
    if (choice === 'Show Log') this.showLog();
  }

  /** Runs a command body; a failure is reported instead of being thrown back at VS Code. */
  async run(doing: string, body: () => Promise<unknown>): Promise<void> {
    try {
      await body();
    } catch (err) {
      void this.report(doing, err);
    }
  }
}
