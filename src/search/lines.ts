// The lines of a saved index's bytes, found without decoding them: a saved index is read as bytes, its
// small head alone decoded and parsed, and each postings line and row kept as where it lies in the
// bytes until a search first needs it (decoding and copying the whole file was most of reading it).

/** Lines of `bytes`: line i is bytes[start(i), end(i)), without its newline. */
export class Lines {
  private constructor(
    readonly bytes: Uint8Array,
    /** Where each line starts, and one past the last line's end plus its newline (so end(i) = starts[i + 1] - 1). */
    private readonly starts: readonly number[],
    private readonly first: number,
    readonly count: number,
  ) {}

  /** Every line of `bytes` from `from` to its end: one (maybe empty) at least when from <= bytes.length, none past it. */
  static of(bytes: Uint8Array, from = 0): Lines {
    const starts: number[] = [];
    if (from <= bytes.length) {
      for (let at = from; ; ) {
        starts.push(at);
        const end = bytes.indexOf(10, at);
        if (end < 0) break;
        at = end + 1;
      }
      starts.push(bytes.length + 1);
    }
    return new Lines(bytes, starts, 0, Math.max(0, starts.length - 1));
  }

  /** The lines `texts` as a file's bytes would hold them; a newline in one (never written so) stands as a space, as malformed. */
  static ofTexts(texts: readonly string[]): Lines {
    if (texts.length === 0) return Lines.of(new Uint8Array(0), 1);
    return Lines.of(new TextEncoder().encode(texts.map((t) => t.replace(/\n/g, ' ')).join('\n')));
  }

  /** `count` lines from line `from` of these. */
  slice(from: number, count: number): Lines {
    if (from < 0 || count < 0 || from + count > this.count) throw new RangeError('Lines.slice: past the lines');
    return new Lines(this.bytes, this.starts, this.first + from, count);
  }

  start(i: number): number {
    return this.starts[this.first + i];
  }

  end(i: number): number {
    return this.starts[this.first + i + 1] - 1;
  }

  /** Line i decoded as UTF-8. */
  text(i: number): string {
    return decodeText(this.bytes, this.start(i), this.end(i));
  }
}

const decoder = new TextDecoder();

/** bytes[from, to) decoded as UTF-8 (what asciiJson wrote is ASCII; anything else decodes as UTF-8 would). */
export function decodeText(bytes: Uint8Array, from: number, to: number): string {
  return decoder.decode(bytes.subarray(from, to));
}
