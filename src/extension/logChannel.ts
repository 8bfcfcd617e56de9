// The API layer's Logger backed by the "Refactor Browser" log output channel, keeping the last
// lines in memory too so that the test API can show what was logged.
import * as vscode from 'vscode';
import type { Logger } from '../api/logger';

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Refactor Browser', { log: true });
}

const KEPT_LINES = 500;

export function channelLogger(channel: vscode.LogOutputChannel): Logger & { recent(): readonly string[] } {
  const lines: string[] = [];
  const keep = (level: string, m: string): void => {
    lines.push(`${level} ${m}`);
    if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
  };
  return {
    trace: (m) => { keep('trace', m); channel.trace(m); },
    info: (m) => { keep('info', m); channel.info(m); },
    warn: (m) => { keep('warn', m); channel.warn(m); },
    error: (m) => { keep('error', m); channel.error(m); },
    recent: () => [...lines],
  };
}
