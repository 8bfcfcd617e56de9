// `refactor-browser`: a thin command-line shell over the API client (src/client/) and the reference
// service (src/server/). Exit codes: 0 success, 1 failure (one line on stderr), 2 bad usage.
import { RefactorClient } from './client/client';
import { createDispatcher, DEFAULT_CONNECT_TIMEOUT_MS, fetchVia } from './client/dispatcher';
import { isApiError, withoutCredentials } from './core/errors';
import type { Code, Refactor } from './core/model';
import { sortRefactorings } from './core/ratings';
import { normalizeBaseUrl, parseCodeRef } from './client/urls';
import { catalogTools } from './cli/mcp';
import { parseCommandLine, UsageError, type Command, type GlobalOptions, type ServiceCommand, type WriteCommand } from './cli/args';
import { runWrite, sampleHint, tokenHint } from './cli/write';
import { processIo, type Io } from './cli/io';
import { formatCode, formatCodes, formatJson, formatRefactors, stripControls } from './cli/format';
import { helpText, TOPICS } from './cli/help';
import { didYouMean } from './cli/didYouMean';
import { inProcessFetch, SAMPLE_BASE_URL, SAMPLE_SERVICE } from './server/http/fetchHandler';
import { loadSampleDataset } from './server/catalog/sampleDataset';
import { cacheFolder, indexFile, readIndex, runSearch, runTags } from './cli/search';
import { withAuthor } from './client/author';
import type { CodeSearch } from './search/searchIndex';
import { runAdapt, runSimilar } from './cli/similar';
import { runMine } from './cli/mine';
import { runServiceCommand } from './cli/service';
import { CLIENT_VERSION } from './client/http';

export async function main(argv: readonly string[], given: Io = processIo): Promise<number> {
  // Error lines carry text from responses (an element name, a reference's character): like stdout,
  // stderr gets no control character that could drive the terminal, and no URL's credentials.
  const io: Io = { ...given, err: (t) => given.err(stripControls(withoutCredentials(t))) };
  let command: Command;
  try {
    command = parseCommandLine(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`refactor-browser: ${e.message}\n`);
    io.err(`Run "refactor-browser ${e.command ? `${e.command} ` : ''}--help" for usage.\n`);
    return 2;
  }
  try {
    switch (command.name) {
      case 'help': {
        const text = helpText(command.topic);
        if (text === undefined) {
          io.err(`refactor-browser: no help for "${command.topic}"${didYouMean(command.topic ?? '', Object.keys(TOPICS))}\n`);
          return 2;
        }
        io.out(`${text}\n`);
        return 0;
      }
      case 'version':
        io.out(`${CLIENT_VERSION}\n`);
        return 0;
      case 'serve':
      case 'users':
      case 'import':
      case 'export':
        return await runServiceCommand(command, io, { stopped: untilSignalled });
      case 'mcp':
        return await serveTools(command, io);
      case 'mine':
        return await runMine(command, io);
      case 'post':
      case 'refactor':
      case 'rate':
      case 'delete':
        return await write(command, io);
      default:
        return await browse(command, io);
    }
  } catch (e) {
    io.err(`refactor-browser: ${failureLine(e)}\n`);
    return 1;
  }
}

/**
 * A write, after what needs no request: the sample catalog, answered in this process, takes none
 * (exit 1, as a read-only service's refusal would be), and a write without a token is bad usage.
 */
async function write(command: WriteCommand, io: Io): Promise<number> {
  if (command.global.baseUrl === undefined) {
    io.err(`refactor-browser: ${sampleHint(command.name)}\n`);
    return 1;
  }
  if (command.token === undefined) {
    io.err(`refactor-browser: ${tokenHint(command.name)}\n`);
    return 2;
  }
  return withClient(command.global, (client) => runWrite(command, client, io), command.token);
}

/**
 * `mcp`: the catalog as tools for agents, over the service the other commands would browse. Its
 * stdout carries the protocol only, so everything it says goes to stderr.
 */
async function serveTools(command: Extract<Command, { name: 'mcp' }>, io: Io): Promise<number> {
  const { serveMcp } = await import('./mcp');
  const baseUrl = command.global.baseUrl;
  return withClient(command.global, async (client) => {
    const tools = catalogTools({
      client,
      baseUrl: baseUrl ?? SAMPLE_BASE_URL,
      service: baseUrl ?? SAMPLE_SERVICE,
      shownService: baseUrl === undefined ? 'the built-in sample catalog' : normalizeBaseUrl(baseUrl).href,
      searchCommand: `refactor-browser search${baseUrl === undefined ? '' : ` --base-url ${baseUrl}`}`,
      log: (line) => io.err(`${line}\n`),
    });
    io.err(`refactor-browser: MCP server on stdio for ${baseUrl === undefined ? 'the built-in sample catalog' : normalizeBaseUrl(baseUrl).href}\n`);
    await serveMcp(tools, CLIENT_VERSION);
    return 0;
  });
}

async function browse(command: Exclude<Command, { name: 'help' | 'version' | 'mcp' | 'mine' } | ServiceCommand | WriteCommand>, io: Io): Promise<number> {
  return withClient(command.global, async (client) => {
    if (command.name === 'search') {
      return runSearch(command, client, command.global.baseUrl ?? SAMPLE_SERVICE, io);
    }
    if (command.name === 'tags') {
      return runTags(command, client, command.global.baseUrl ?? SAMPLE_SERVICE, io);
    }
    if (command.name === 'similar') {
      return runSimilar(command, client, command.global.baseUrl ?? SAMPLE_SERVICE, io);
    }
    if (command.name === 'adapt') {
      return runAdapt(command, client, io);
    }
    if (command.name === 'show') {
      const ref = parseCodeRef(command.ref);
      if (ref === undefined) {
        io.err(`refactor-browser: "${command.ref}" is not a code ref (an id like 42, 42-some-title, or a page URL)\n`);
        return 2;
      }
      const code = await withAuthor(await client.code(ref), { index: () => keptIndex(command.global.baseUrl ?? SAMPLE_SERVICE), client });
      // The code view's order (and get_code's, similar's): the service answers oldest first.
      if (code.refactors) code.refactors = sortRefactorings(code.refactors, command.order);
      io.out(command.global.json ? formatJson(code) : formatCode(code));
      return 0;
    }
    const query = { language: command.language, page: command.page };
    let items: Code[] | Refactor[];
    switch (command.name) {
      case 'recent':
        items = await client.recentCodes(query);
        break;
      case 'popular':
        items = await client.popularCodes(query);
        break;
      case 'tag':
        items = await client.taggedCodes(command.tag ?? '', query);
        break;
      case 'refactorings':
        items = await client.recentRefactorings(query);
        break;
    }
    if (command.global.json) io.out(formatJson(items));
    else io.out(command.name === 'refactorings' ? formatRefactors(items as Refactor[]) : formatCodes(items as Code[]));
    return 0;
  });
}

/** The search index `search` keeps for the service, if there is one: only read, never made. */
async function keptIndex(service: string): Promise<CodeSearch | undefined> {
  const { index, kept } = await readIndex(indexFile(cacheFolder(), service), { err: () => undefined });
  return kept ? index : undefined;
}

/** Runs `body` with a client for the configured service, or for the built-in sample catalog answered in process. */
async function withClient(global: GlobalOptions, body: (client: RefactorClient) => Promise<number>, token?: string): Promise<number> {
  // Whole milliseconds, as the client takes them: 1.001 s is 1000.9999999999999 ms in floating point.
  const timeoutMs = Math.round(global.timeoutSeconds * 1000);
  if (global.baseUrl === undefined) {
    const sample = new RefactorClient({ baseUrl: SAMPLE_BASE_URL, timeoutMs, fetch: inProcessFetch(loadSampleDataset()) });
    return body(sample).finally(() => sample.close());
  }
  const dispatcher = createDispatcher({ connectTimeoutMs: Math.min(DEFAULT_CONNECT_TIMEOUT_MS, timeoutMs) });
  const client = new RefactorClient({ baseUrl: global.baseUrl, timeoutMs, fetch: fetchVia(dispatcher), token });
  try {
    return await body(client);
  } finally {
    await client.close();
    // destroy, not close: a connect still hanging in the background must not hold the exit.
    await dispatcher.destroy();
  }
}

/** Resolves on Ctrl-C or SIGTERM; listening starts at once, so a signal sent right after `serve` says it listens is caught. */
function untilSignalled(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** One line, no stack: an ApiError already names the URL and the cause. */
function failureLine(e: unknown): string {
  if (isApiError(e)) return e.message;
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    const message = e.message.split('\n')[0];
    return code && !message.includes(code) ? `${message} (${code})` : message;
  }
  return String(e);
}

if (require.main === module) {
  // A closed pipe (e.g. `refactor-browser recent | head -1`) is not a failure.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
  });
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(stripControls(withoutCredentials(`refactor-browser: ${failureLine(e)}\n`)));
      process.exitCode = 1;
    },
  );
}
