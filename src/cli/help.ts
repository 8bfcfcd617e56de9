// Help texts for `refactor-browser` and each of its commands.
import { DEFAULT_TIMEOUT_MS } from '../api/http';
import { MAX_GENERATED_CODES } from '../server/generatedCatalog';
import { DEFAULT_SEARCH_LIMIT } from './args';

const GLOBAL = `Global options:
  --base-url URL     the service's base address (env REFACTOR_BROWSER_BASE_URL);
                     without it, the built-in sample catalog is browsed
  --timeout SECONDS  give a request up after this long (default ${DEFAULT_TIMEOUT_MS / 1000})
  --json             print only JSON on stdout: an array for lists, an object for show
  -h, --help         show help`;

const LIST = `  -l, --language L   only codes in language L (e.g. ruby, "C#", c++)
  --page N           page N of the list (25 items a page; default 1)`;

const TOPICS: Record<string, string> = {
  recent: `Usage: refactor-browser recent [--language L] [--page N]

The most recent codes, newest first.

${LIST}

${GLOBAL}`,
  popular: `Usage: refactor-browser popular [--language L] [--page N]

The most popular codes, most refactored first.

${LIST}

${GLOBAL}`,
  tag: `Usage: refactor-browser tag TAG [--language L] [--page N]

The codes tagged TAG, newest first.

${LIST}

${GLOBAL}`,
  refactorings: `Usage: refactor-browser refactorings [--language L] [--page N]

The most recent refactorings, newest first.

${LIST}

${GLOBAL}`,
  show: `Usage: refactor-browser show CODE_REF

One code with its comment and every refactoring. CODE_REF is an id (42), a code ref (42-some-title)
or a page URL of the service.

${GLOBAL}`,
  search: `Usage: refactor-browser search QUERY [--language L] [--limit N]

Searches every code and refactoring of the service: titles, comments, code, authors and languages,
ranked (a title above code text, the last word as a prefix, a long word despite a typo). The first
search reads the whole service into an index kept in a cache folder (REFACTOR_BROWSER_CACHE, else
$XDG_CACHE_HOME/refactor-browser, else ~/.cache/refactor-browser); each later one reads only what is
new. When the service cannot be reached, the index already kept is searched, and stderr says so.

  -l, --language L   only codes in language L
  -n, --limit N      print at most N results (default ${DEFAULT_SEARCH_LIMIT})

${GLOBAL}`,
  serve: `Usage: refactor-browser serve [--port P] [--host H] [--catalog FILE | --generate N]

Run the reference service: the read-only XML API and its HTML pages.

  -p, --port P       port to listen on (default 3000; 0 picks a free one)
  --host H           address to listen on (default 127.0.0.1)
  --catalog FILE     a JSON catalog to serve (default: the built-in sample catalog)
  --generate N       serve a generated catalog of N codes with 3 refactorings each, in all 16
                     languages, the same for the same N (at most ${MAX_GENERATED_CODES})
  -h, --help         show help

Prints "listening on http://HOST:PORT" once it accepts connections; stops on Ctrl-C.`,
};

export const MAIN_HELP = `Usage: refactor-browser <command> [options]

Browse a code-sharing and refactoring service over its read-only XML API.

Commands:
  recent [--language L] [--page N]        most recent codes
  popular [--language L] [--page N]       most popular codes
  tag TAG [--language L] [--page N]       codes with a tag
  refactorings [--language L] [--page N]  most recent refactorings
  show CODE_REF                           one code with its refactorings
  search QUERY [--language L] [--limit N] search every code and refactoring
  serve [--port P] [--host H] [--catalog FILE | --generate N]
                                          run the reference service

${GLOBAL}

Exit status: 0 success, 1 failure, 2 bad usage.
Run "refactor-browser <command> --help" for a command's options.`;

export function helpText(topic?: string): string | undefined {
  if (topic === undefined) return MAIN_HELP;
  // An own property only: `help constructor` must not print Object's constructor.
  return Object.hasOwn(TOPICS, topic) ? TOPICS[topic] : undefined;
}
