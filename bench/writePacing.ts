// How the load generator mixes writes into its reads: after every `readsPerWrite` requests that
// are reads, the next one is a write. One counter shared by every connection decides, so the mix
// holds over the whole run however the connections interleave.

export class WritePacing {
  private issued = 0;

  /** `readsPerWrite` 0: reads only. */
  constructor(private readonly readsPerWrite: number) {
    if (!Number.isSafeInteger(readsPerWrite) || readsPerWrite < 0) throw new RangeError(`reads per write must be a whole number, not ${readsPerWrite}`);
  }

  /** What the next request is. */
  next(): 'read' | 'write' {
    if (this.readsPerWrite === 0) return 'read';
    this.issued++;
    return this.issued % (this.readsPerWrite + 1) === 0 ? 'write' : 'read';
  }
}
