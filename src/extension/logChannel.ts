// The API layer's Logger backed by the "Refactor Browser" log output channel.
import * as vscode from 'vscode';
import type { Logger } from '../api/logger';

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Refactor Browser', { log: true });
}

export function channelLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: (m) => channel.trace(m),
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m) => channel.error(m),
  };
}
