// Help texts for `refactor-browser` and each of its commands.
import { DEFAULT_TIMEOUT_MS } from '../api/http';
import { MAX_GENERATED_CODES } from '../server/generatedCatalog';
import { DEFAULT_SEARCH_LIMIT } from './args';
import { cacheFolder } from './search';

/** Where the project lives: its README, its issues. */
export const PROJECT_URL = 'https://github.com/refactor-browser/refactor-browser';

const GLOBAL = `Global options (before or after the command):
  --base-url URL     the service's base address (env REFACTOR_BROWSER_BASE_URL);
                     without it, the built-in sample catalog is browsed
  --timeout SECONDS  give a request up after this long (default ${DEFAULT_TIMEOUT_MS / 1000})
  --json             print only JSON on stdout: an array for lists, an object for show
  -h, --help         show help
  --version          print the version`;

/** Stands for the cache folder in the search help until the help is asked for. */
const CACHE_FOLDER_HERE = '\u0000cache folder\u0000';

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
search reads the whole service into an index kept in a cache folder, one file per service; each
later one reads only what is new. When the service cannot be reached, the index already kept is
searched, and stderr says so.

  -l, --language L   only codes in language L
  -n, --limit N      print at most N results (default ${DEFAULT_SEARCH_LIMIT})

The cache folder: REFACTOR_BROWSER_CACHE if set, else
  Linux    $XDG_CACHE_HOME/refactor-browser, or ~/.cache/refactor-browser
  macOS    ~/Library/Caches/refactor-browser
  Windows  %LOCALAPPDATA%\\refactor-browser\\Cache
On this machine: ${CACHE_FOLDER_HERE}

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

Examples:
  refactor-browser recent --language ruby            the newest Ruby codes of the sample catalog
  refactor-browser show 42 --base-url https://refactor.example.org
  refactor-browser --json popular --page 2 | jq '.[].title'
  refactor-browser search "parse log" --limit 5
  refactor-browser serve --port 3000                 then --base-url http://127.0.0.1:3000

Exit status: 0 success, 1 failure, 2 bad usage.
Run "refactor-browser <command> --help" for a command's options.
More: ${PROJECT_URL}#readme`;

/** The help for `topic` (a command), or the program's; `env` decides the cache folder search shows. */
export function helpText(topic?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (topic === undefined) return MAIN_HELP;
  // An own property only: `help constructor` must not print Object's constructor.
  if (!Object.hasOwn(TOPICS, topic)) return undefined;
  return TOPICS[topic].replace(CACHE_FOLDER_HERE, cacheFolder(env));
}
