// Sends mocha's spec report to the launcher's bridge as it is written, line by line and in order, so
// the launcher prints it while the suite runs and a dying extension host still leaves its output
// behind; then the result. The same in both extension hosts, whose mochas differ (the npm package's
// in Node, its browser build in the web worker): each passes its reporters' Base and a printf.
import { postToBridge } from './bridgeClient';

/** The part of mocha's reporters.Base that every reporter writes through. */
export interface ReporterBase {
  consoleLog: (...data: unknown[]) => void;
}

export interface Forwarding {
  /** Waits for the lines so far, then reports the result. */
  done(stats: { passes: number; failures: number; pending: number }): Promise<void>;
}

export function forwardReport(base: ReporterBase, bridge: string, format: (...data: unknown[]) => string): Forwarding {
  const original = base.consoleLog;
  let sending: Promise<void> = Promise.resolve();
  base.consoleLog = (...data: unknown[]) => {
    original(...data);
    const lines = format(...data).split('\n');
    sending = sending.then(() => postToBridge(bridge, { type: 'log', lines }).then(() => undefined, () => undefined));
  };
  return {
    async done(stats) {
      await sending;
      await postToBridge(bridge, { type: 'done', passed: stats.passes, failed: stats.failures, pending: stats.pending });
    },
  };
}
