// The one place where a failure becomes UI, and the one way commands are registered. A failed
// request is logged by the client that made it (src/api/client.ts), so here only what the client
// cannot have seen goes to the log; the person gets one line (an ApiError's message already names
// the URL and the cause) with a Show Log button.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { Logger } from '../api/logger';

/** One line for a person: an ApiError's message, any other error's message, newlines folded. */
export function oneLine(err: unknown): string {
  const text = isApiError(err) ? err.message : err instanceof Error ? err.message : String(err);
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** Logs `Could not <doing>: <cause>` with its stack, unless the client logged the failure already. */
export function logFailure(logger: Logger, doing: string, err: unknown): void {
  if (isApiError(err)) return;
  const stack = err instanceof Error && err.stack ? `\n${err.stack}` : '';
  logger.error(`Could not ${doing}: ${oneLine(err)}${stack}`);
}

export class ErrorReporter {
  constructor(
    private readonly logger: Logger,
    private readonly showLog: (() => void) | undefined,
  ) {}

  /** Logs and shows `Could not <doing>: <cause>`; resolves once the message is dismissed or acted on. */
  async report(doing: string, err: unknown): Promise<void> {
    logFailure(this.logger, doing, err);
    const message = `Could not ${doing}: ${oneLine(err)}`;
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

  /** Registers a command whose failures are reported as `Could not <doing>: …`. */
  command(id: string, doing: string, body: (...args: unknown[]) => unknown): vscode.Disposable {
    return vscode.commands.registerCommand(id, (...args: unknown[]) => this.run(doing, async () => body(...args)));
  }
}
