// What a command reads and writes: one interface for every command of the command line, defined
// here once. A command that needs less takes a Pick of it. src/cli.ts hands the process's (below),
// the tests their own.

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /**
   * Where a long run shows its progress on one rewritten line: stderr when it is a terminal (our own
   * words and counts only: it is not stripped of controls).
   */
  progress?: (text: string) => void;
  /** All of stdin, for a FILE of `-`; default: the process's. */
  readStdin?: () => Promise<Uint8Array>;
  /**
   * Asks a person at a terminal and resolves to the line they type (`delete` asks first); absent when
   * stdin is not a terminal, so that a script is never kept waiting for an answer.
   */
  ask?: (question: string) => Promise<string>;
}

/** The process's stdout, stderr and stdin. */
export const processIo: Io = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
  progress: process.stderr.isTTY ? (t) => void process.stderr.write(t) : undefined,
  readStdin: readProcessStdin,
  ask: process.stdin.isTTY ? askOnTerminal : undefined,
};

/** All of the process's stdin. */
export async function readProcessStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The question on stderr, the answer from the terminal on stdin: one line. */
export async function askOnTerminal(question: string): Promise<string> {
  const readline = await import('node:readline/promises');
  const terminal = readline.createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-C or Ctrl-D at the question is no: the answer is empty, and nothing waits for ever.
  terminal.on('SIGINT', () => terminal.close());
  try {
    return await new Promise<string>((resolve) => {
      terminal.once('close', () => resolve(''));
      terminal.question(question).then(resolve, () => resolve(''));
    });
  } finally {
    terminal.close();
  }
}
