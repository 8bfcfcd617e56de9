// A write's refusal, thrown inside its transaction so that it rolls back, and answered as a value.

import type { WriteRefusal } from '../store';

/** Thrown inside a write's transaction to roll it back and answer with the refusal. */
export class Refused extends Error {
  constructor(readonly refusal: WriteRefusal) {
    super(refusal.message);
  }
}

export function refuse(refused: WriteRefusal['refused'], message: string): never {
  throw new Refused({ refused, message });
}
