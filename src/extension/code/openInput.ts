// What "Open Code…" and "Go to Code…" accept from a person: a code id (`42`), a code_ref
// (`42-some-title`), or a page or XML URL of the service (`https://host/codes/42-some-title`,
// `…/codes/42.xml`), where a `#refactor-7` anchor (the service's page anchors) names a refactoring
// to scroll to. Pure, so it runs under mocha.
import { parseCodeRef } from '../../client/urls';

import type { Code } from '../../core/model';

export interface OpenRequest {
  /** As typed, normalised: `42` or `42-some-title`. */
  ref: string;
  codeId: number;
  refactorId?: number;
  /** The code as the list it was picked from gave it: its author, which the single-code response lacks. */
  listed?: Code;
}

const ANCHOR = /#refactor-(\d{1,15})$/;

export function parseOpenInput(input: string): OpenRequest | undefined {
  const text = input.trim();
  const anchor = ANCHOR.exec(text);
  const ref = parseCodeRef(anchor ? text.slice(0, anchor.index) : text);
  if (ref === undefined) return undefined;
  const codeId = Number(/^\d+/.exec(ref)?.[0]);
  if (!Number.isSafeInteger(codeId)) return undefined;
  const refactorId = anchor ? Number(anchor[1]) : undefined;
  return refactorId === undefined ? { ref, codeId } : { ref, codeId, refactorId };
}
