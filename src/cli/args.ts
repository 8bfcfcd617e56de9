// Command-line parsing for `refactor-browser`: turns argv into one typed Command, or a UsageError that the
// shell reports with exit code 2. Commands and options are public names: scripts rely on them.
import { parseArgs } from 'node:util';
import { withoutCredentials } from '../core/errors';
import { DEFAULT_TIMEOUT_MS } from '../client/http';
import { isHttpUrl } from '../core/httpUrl';
import { isId } from '../core/ids';
import { canonicalServiceLanguage, isServiceLanguage, SERVICE_LANGUAGES } from '../core/languages';
import { CREDENTIALS_REFUSED, parseCodeRef } from '../client/urls';
import { splitTags } from '../core/writeContract';
import { MAX_GENERATED_CODES } from '../server/catalog/generatedCatalog';
import { didYouMean, nearest } from './didYouMean';
import { DEFAULT_SIMILAR_LIMIT, MAX_SIMILAR_LIMIT } from '../similarity/similarIndex';
import { DEFAULT_REFACTORING_ORDER, REFACTORING_ORDERS, type RefactoringOrder } from '../core/ratings';

export type ListCommandName = 'recent' | 'popular' | 'tag' | 'refactorings';

export interface GlobalOptions {
  /** From --base-url or REFACTOR_BROWSER_BASE_URL; undefined: the built-in sample catalog. */
  baseUrl?: string;
  timeoutSeconds: number;
  json: boolean;
}

export type Command =
  | { name: 'help'; topic?: string }
  | { name: 'version' }
  | { name: ListCommandName; tag?: string; language?: string; page: number; global: GlobalOptions }
  /** `order`: of the code's refactorings, as the code view's refactorBrowser.refactoringOrder orders them. */
  | { name: 'show'; ref: string; order: RefactoringOrder; global: GlobalOptions }
  | { name: 'search'; query: string; language?: string; limit: number; global: GlobalOptions }
  /** `language`: the service's name of it; undefined: every language. */
  | { name: 'tags'; language?: string; global: GlobalOptions }
  /** `lines`: 1-based, first and last, inclusive. */
  | { name: 'similar'; file: string; lines?: [number, number]; language?: string; limit: number; global: GlobalOptions }
  | { name: 'adapt'; ref: string; refactorId: number; file: string; lines?: [number, number]; global: GlobalOptions }
  | { name: 'mcp'; global: GlobalOptions }
  | MineCommand
  | ServiceCommand
  | WriteCommand;

/** `mine REPO`: a repository's refactorings as a catalog file; nothing is sent anywhere. */
export interface MineCommand {
  name: 'mine';
  repo: string;
  since?: string;
  until?: string;
  paths: string[];
  max?: number;
  /** The catalog file; undefined: stdout. */
  output?: string;
  all: boolean;
  /** Progress and the summary as JSON lines on stderr. */
  json: boolean;
}

/** Where a writable service keeps its catalog: an embedded PostgreSQL's folder, or a PostgreSQL server. */
export type Storage = { kind: 'dir'; dir: string } | { kind: 'database'; url: string };

/** The owner's commands: run a service, and manage its people and its catalog. */
export type ServiceCommand =
  | { name: 'serve'; port: number; host: string; catalog?: string; generate?: number; storage?: Storage; writesPerMinute: number; trustProxy: boolean }
  | { name: 'users'; storage: Storage; action: 'list'; json: boolean }
  | { name: 'users'; storage: Storage; action: 'add'; person: string; website?: string; identityUrl?: string; json: boolean }
  /** `person` a name, or an id (`--id N`): two people may share a name. */
  | { name: 'users'; storage: Storage; action: 'token' | 'revoke'; person: string | { id: number }; json: boolean }
  | { name: 'import'; storage: Storage; file: string; json: boolean }
  /** `json` changes nothing: a catalog is JSON. */
  | { name: 'export'; storage: Storage; output?: string; json: boolean };

/** The commands that change what a writable service holds; `token` from REFACTOR_BROWSER_TOKEN. */
export type WriteCommand =
  | { name: 'post'; file: string; title: string; language: string; comment: string; tags: string[]; token?: string; global: GlobalOptions }
  | { name: 'refactor'; ref: string; file: string; comment: string; title?: string; token?: string; global: GlobalOptions }
  | { name: 'rate'; ref: string; refactorId: number; value: number; token?: string; global: GlobalOptions }
  /** `yes`: delete without asking, as a script needs (a person at a terminal is asked first). */
  | { name: 'delete'; ref: string; refactorId?: number; yes: boolean; token?: string; global: GlobalOptions };

export const WRITE_COMMANDS = ['post', 'refactor', 'rate', 'delete'] as const;


export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(message: string, readonly command?: string) {
    super(message);
  }
}

export const COMMANDS = ['recent', 'popular', 'tag', 'tags', 'refactorings', 'show', 'search', 'similar', 'adapt', 'mcp', 'mine', 'serve', 'users', 'import', 'export', ...WRITE_COMMANDS] as const;
const SERVICE_COMMANDS: readonly string[] = ['serve', 'users', 'import', 'export'] satisfies ServiceCommand['name'][];

function isServiceCommand(name: string): name is ServiceCommand['name'] {
  return SERVICE_COMMANDS.includes(name);
}

/** The writes one person may make in a minute unless serve's --writes-per-minute says otherwise. */
export const DEFAULT_WRITES_PER_MINUTE = 30;

/** Results `search` prints unless --limit says otherwise, and the most it prints. */
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 1000;

const globalSpec = {
  'base-url': { type: 'string' },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const listSpec = { ...globalSpec, language: { type: 'string', short: 'l' }, page: { type: 'string' } } as const;
const searchSpec = { ...globalSpec, language: { type: 'string', short: 'l' }, limit: { type: 'string', short: 'n' } } as const;
const similarSpec = { ...searchSpec, lines: { type: 'string' } } as const;
const adaptSpec = { ...globalSpec, lines: { type: 'string' } } as const;
const showSpec = { ...globalSpec, order: { type: 'string' } } as const;
const tagsSpec = { ...globalSpec, language: { type: 'string', short: 'l' } } as const;
const deleteSpec = { ...globalSpec, yes: { type: 'boolean', short: 'y' } } as const;
const storageSpec = {
  'data-dir': { type: 'string' },
  database: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
/** The owner's commands that manage storage answer in JSON with --json. */
const ownerSpec = { ...storageSpec, json: { type: 'boolean' } } as const;
const postSpec = {
  ...globalSpec,
  title: { type: 'string' },
  language: { type: 'string', short: 'l' },
  comment: { type: 'string' },
  tag: { type: 'string', multiple: true },
} as const;
const refactorSpec = { ...globalSpec, title: { type: 'string' }, comment: { type: 'string' } } as const;
const serveSpec = {
  ...storageSpec,
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  catalog: { type: 'string' },
  generate: { type: 'string' },
  'writes-per-minute': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
} as const;
const usersSpec = { ...ownerSpec, website: { type: 'string' }, 'identity-url': { type: 'string' }, id: { type: 'string' } } as const;
const exportSpec = { ...ownerSpec, output: { type: 'string', short: 'o' } } as const;
const mineSpec = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  since: { type: 'string' },
  until: { type: 'string' },
  path: { type: 'string', multiple: true },
  max: { type: 'string' },
  output: { type: 'string', short: 'o' },
  all: { type: 'boolean' },
} as const;

/** The most commits `mine --max` reads. */
export const MAX_MINED_COMMITS = 10_000_000;

/** The options every browsing command takes, which may come before the command too. */
const GLOBAL_VALUE_OPTIONS = ['--base-url', '--timeout'];
const GLOBAL_FLAG_OPTIONS = ['--json'];
/**
 * The commands' own options, and serve's, named when they come before a command: derived from the
 * specs the commands parse with, so an option a command gains is known here too.
 */
const COMMAND_OPTIONS = optionNames([listSpec, searchSpec, similarSpec, adaptSpec, showSpec, deleteSpec, ownerSpec, postSpec, refactorSpec, serveSpec, usersSpec, exportSpec, mineSpec])
  .filter((name) => ![...GLOBAL_VALUE_OPTIONS, ...GLOBAL_FLAG_OPTIONS, '--help', '-h'].includes(name));

/** Every `--long` and `-s` name the specs give, once each. */
function optionNames(specs: readonly NonNullable<Spec>[]): string[] {
  return [...new Set(specs.flatMap((spec) => Object.entries(spec).flatMap(([long, o]) => [`--${long}`, ...(o.short ? [`-${o.short}`] : [])])))];
}

export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  // `--version` anywhere before a `--` asks for the version, whatever else the line says.
  const end = argv.indexOf('--');
  if ((end === -1 ? argv : argv.slice(0, end)).includes('--version')) return { name: 'version' };
  const { leading, helpAsked, rest: afterLeading } = leadingOptions(argv);
  const [first, ...rest] = afterLeading;
  if (helpAsked) {
    // `refactor-browser --help recent` is `refactor-browser help recent`, an unknown topic included.
    return first !== undefined ? { name: 'help', topic: first } : { name: 'help' };
  }
  if (first === undefined) {
    if (leading.length) throw new UsageError(`expected a command after ${leading[0]}`);
    return { name: 'help' };
  }
  if (first === 'help') return { name: 'help', topic: rest[0] };
  if (!(COMMANDS as readonly string[]).includes(first)) {
    if (first.startsWith('-')) throw new UsageError(`expected a command before ${first}`);
    throw new UsageError(`unknown command "${first}"${didYouMean(first, [...COMMANDS, 'help'])}`);
  }
  const name = first as (typeof COMMANDS)[number];

  if (isServiceCommand(name)) {
    // The owner's commands answer requests or manage storage: the browsing options mean nothing to them.
    if (leading.length) throw new UsageError(`${leading[0].split('=')[0]} is an option of the browsing commands, not of ${name}`, name);
    return parseServiceCommand(name, rest, env);
  }

  if (name === 'mine') return parseMine([...leading, ...rest]);

  if (name === 'post' || name === 'refactor' || name === 'rate' || name === 'delete') {
    return parseWrite(name, [...leading, ...rest], env);
  }

  if (name === 'similar') {
    const { values, positionals } = parse(name, [...leading, ...rest], similarSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 1);
    if (positionals.length === 0) throw new UsageError('similar needs a FILE holding your code ("-" reads it from stdin, with --language)', name);
    const language = values.language === undefined ? undefined : serviceLanguageOption(name, values.language);
    if (positionals[0] === '-' && language === undefined) throw new UsageError('similar - reads stdin, whose language only --language can say', name);
    return {
      name, file: positionals[0], lines: values.lines === undefined ? undefined : linesOption(name, values.lines), language,
      limit: values.limit === undefined ? DEFAULT_SIMILAR_LIMIT : integerOption(name, '--limit', values.limit, 1, MAX_SIMILAR_LIMIT),
      global: globalOptions(name, values, env),
    };
  }

  if (name === 'adapt') {
    const { values, positionals } = parse(name, [...leading, ...rest], adaptSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 3);
    if (positionals.length < 3) throw new UsageError('adapt needs CODE_REF REFACTOR_ID FILE', name);
    return {
      name, ref: codeRefArgument(name, positionals[0]), refactorId: refactorIdArgument(name, positionals[1]), file: positionals[2],
      lines: values.lines === undefined ? undefined : linesOption(name, values.lines),
      global: globalOptions(name, values, env),
    };
  }

  if (name === 'search') {
    const { values, positionals } = parse(name, [...leading, ...rest], searchSpec);
    if (values.help) return { name: 'help', topic: name };
    // The words of a query need no quotes: `search parse log` is the query "parse log".
    const query = positionals.join(' ').trim();
    if (query === '') throw new UsageError('search needs a QUERY (words of a title, code, comment, author, tag or language)', name);
    const language = values.language;
    if (language !== undefined && language.trim() === '') throw new UsageError('--language needs a language name', name);
    return {
      name, query, language,
      limit: values.limit === undefined ? DEFAULT_SEARCH_LIMIT : integerOption(name, '--limit', values.limit, 1, MAX_SEARCH_LIMIT),
      global: globalOptions(name, values, env),
    };
  }

  if (name === 'mcp') {
    const { values, positionals } = parse(name, [...leading, ...rest], globalSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 0);
    // Its stdout carries protocol messages only: --json has nothing to change there.
    if (values.json) throw new UsageError('mcp answers in the Model Context Protocol on stdout: --json does not apply', name);
    return { name, global: globalOptions(name, values, env) };
  }

  if (name === 'tags') {
    const { values, positionals } = parse(name, [...leading, ...rest], tagsSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 0);
    const language = values.language === undefined ? undefined : listLanguageOption(name, values.language);
    return { name, language, global: globalOptions(name, values, env) };
  }

  if (name === 'show') {
    const { values, positionals } = parse(name, [...leading, ...rest], showSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 1);
    if (positionals.length === 0) throw new UsageError('show needs a CODE_REF (an id like 42 or 42-some-title)', name);
    return { name, ref: positionals[0], order: orderOption(name, values.order), global: globalOptions(name, values, env) };
  }

  const { values, positionals } = parse(name, [...leading, ...rest], listSpec);
  if (values.help) return { name: 'help', topic: name };
  let tag: string | undefined;
  if (name === 'tag') {
    noPositionals(name, positionals, 1);
    if (positionals.length === 0 || positionals[0].trim() === '') throw new UsageError('tag needs a TAG', name);
    tag = positionals[0];
  } else {
    noPositionals(name, positionals, 0);
  }
  const language = values.language === undefined ? undefined : listLanguageOption(name, values.language);
  return {
    name,
    tag,
    language,
    page: values.page === undefined ? 1 : integerOption(name, '--page', values.page, 1, 1_000_000),
    global: globalOptions(name, values, env),
  };
}

function parseMine(args: string[]): Command {
  const name = 'mine';
  const stray = args.find((a) => /^--(base-url|timeout)(=|$)/.test(a));
  if (stray) throw new UsageError(`${stray.split('=')[0]} is an option of the browsing commands: mine reads a repository, not a service`, name);
  const { values, positionals } = parse(name, args, mineSpec);
  if (values.help) return { name: 'help', topic: name };
  noPositionals(name, positionals, 1);
  if (positionals.length === 0 || positionals[0].trim() === '') throw new UsageError('mine needs a REPO (the folder of a git repository)', name);
  const text = (flag: string, v: string | undefined): string | undefined => {
    if (v !== undefined && v.trim() === '') throw new UsageError(`${flag} needs a value`, name);
    return v;
  };
  const paths = values.path ?? [];
  if (paths.some((p) => p.trim() === '')) throw new UsageError('--path needs a GLOB (e.g. "lib/**/*.js")', name);
  return {
    name, repo: positionals[0], since: text('--since', values.since), until: text('--until', values.until), paths,
    max: values.max === undefined ? undefined : integerOption(name, '--max', values.max, 1, MAX_MINED_COMMITS),
    output: text('--output', values.output), all: values.all === true, json: values.json === true,
  };
}

function parseServiceCommand(name: ServiceCommand['name'], args: string[], env: NodeJS.ProcessEnv): Command {
  if (name === 'serve') {
    const { values, positionals } = parse(name, args, serveSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 0);
    if (values.catalog !== undefined && values.generate !== undefined) throw new UsageError('--catalog and --generate name two catalogs: give one', name);
    return {
      name,
      port: values.port === undefined ? 3000 : integerOption(name, '--port', values.port, 0, 65535),
      host: values.host ?? '127.0.0.1',
      catalog: values.catalog,
      generate: values.generate === undefined ? undefined : integerOption(name, '--generate', values.generate, 0, MAX_GENERATED_CODES),
      storage: storageOption(name, values, env, false),
      writesPerMinute: values['writes-per-minute'] === undefined ? DEFAULT_WRITES_PER_MINUTE : integerOption(name, '--writes-per-minute', values['writes-per-minute'], 1, 100_000),
      trustProxy: values['trust-proxy'] === true,
    };
  }
  if (name === 'users') {
    const { values, positionals } = parse(name, args, usersSpec);
    if (values.help) return { name: 'help', topic: name };
    const [action, person] = positionals;
    const storage = storageOption(name, values, env, true);
    const json = values.json === true;
    if (action === 'list') {
      noPositionals(name, positionals, 1);
      return { name, storage, action, json };
    }
    if (action !== 'add' && action !== 'token' && action !== 'revoke') {
      throw new UsageError(action === undefined ? 'users needs an action: add, list, token or revoke' : `unknown action "${action}" (add, list, token or revoke)`, name);
    }
    noPositionals(name, positionals, 2);
    if (values.id !== undefined) {
      if (action === 'add') throw new UsageError('--id goes with users token and users revoke', name);
      if (person !== undefined) throw new UsageError(`users ${action} takes a NAME or --id ID, not both`, name);
      return { name, storage, action, person: { id: integerOption(name, '--id', values.id, 1, Number.MAX_SAFE_INTEGER) }, json };
    }
    if (person === undefined || person.trim() === '') throw new UsageError(`users ${action} needs a NAME${action === 'add' ? '' : ' or --id ID'}`, name);
    if (action !== 'add' && (values.website !== undefined || values['identity-url'] !== undefined)) {
      throw new UsageError('--website and --identity-url go with users add', name);
    }
    return action === 'add'
      ? { name, storage, action, person, website: values.website, identityUrl: values['identity-url'], json }
      : { name, storage, action, person, json };
  }
  if (name === 'import') {
    const { values, positionals } = parse(name, args, ownerSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 1);
    if (positionals.length === 0) throw new UsageError('import needs a catalog FILE (the JSON format serve --catalog reads)', name);
    return { name, storage: storageOption(name, values, env, true), file: positionals[0], json: values.json === true };
  }
  const { values, positionals } = parse(name, args, exportSpec);
  if (values.help) return { name: 'help', topic: name };
  noPositionals(name, positionals, 0);
  return { name, storage: storageOption(name, values, env, true), output: values.output, json: values.json === true };
}

/**
 * --data-dir or --database, else REFACTOR_BROWSER_DATA_DIR or REFACTOR_BROWSER_DATABASE (which keeps
 * a password out of the process list); `required` for the commands that manage storage.
 */
function storageOption(command: string, values: { 'data-dir'?: string; database?: string }, env: NodeJS.ProcessEnv, required: true): Storage;
function storageOption(command: string, values: { 'data-dir'?: string; database?: string }, env: NodeJS.ProcessEnv, required: boolean): Storage | undefined;
function storageOption(command: string, values: { 'data-dir'?: string; database?: string }, env: NodeJS.ProcessEnv, required: boolean): Storage | undefined {
  if (values['data-dir'] !== undefined && values.database !== undefined) throw new UsageError('--data-dir and --database name two storages: give one', command);
  // An option names the storage; else the environment, where only one may be set.
  const fromEnv = values['data-dir'] === undefined && values.database === undefined;
  const envDir = fromEnv ? env.REFACTOR_BROWSER_DATA_DIR || undefined : undefined;
  const envUrl = fromEnv ? env.REFACTOR_BROWSER_DATABASE || undefined : undefined;
  if (envDir !== undefined && envUrl !== undefined) {
    throw new UsageError('REFACTOR_BROWSER_DATA_DIR and REFACTOR_BROWSER_DATABASE name two storages: set one, or give --data-dir or --database', command);
  }
  const dir = values['data-dir'] ?? envDir;
  const url = values.database ?? envUrl;
  if (dir !== undefined) {
    if (dir.trim() === '') throw new UsageError('--data-dir needs a folder', command);
    return { kind: 'dir', dir };
  }
  if (url !== undefined) {
    if (!/^postgres(ql)?:\/\/./i.test(url)) throw new UsageError(`--database must be a postgres:// URL, got "${withoutCredentials(url)}"`, command);
    return { kind: 'database', url };
  }
  if (required) throw new UsageError(`${command} needs the service's storage: --data-dir DIR or --database postgres://… (or REFACTOR_BROWSER_DATA_DIR)`, command);
  return undefined;
}

function parseWrite(name: WriteCommand['name'], args: string[], env: NodeJS.ProcessEnv): Command {
  const token = env.REFACTOR_BROWSER_TOKEN || undefined;
  if (name === 'post') {
    const { values, positionals } = parse(name, args, postSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 1);
    if (positionals.length === 0) throw new UsageError('post needs a FILE holding the code ("-" reads it from stdin)', name);
    const title = required(name, '--title', values.title, 'a title');
    const language = serviceLanguageOption(name, required(name, '--language', values.language, 'a language name'));
    if (values.comment === undefined) throw new UsageError('post needs --comment C (what the code does, what you would like improved)', name);
    // A person may write several tags in one --tag, separated as the service separates them.
    const tags = (values.tag ?? []).flatMap(splitTags);
    return {
      name, file: positionals[0], title, language, comment: values.comment, tags, token,
      global: globalOptions(name, values, env),
    };
  }
  if (name === 'refactor') {
    const { values, positionals } = parse(name, args, refactorSpec);
    if (values.help) return { name: 'help', topic: name };
    noPositionals(name, positionals, 2);
    if (positionals.length < 2) throw new UsageError('refactor needs a CODE_REF and a FILE holding the refactored code ("-" reads stdin)', name);
    return {
      name, ref: codeRefArgument(name, positionals[0]), file: positionals[1], comment: values.comment ?? '', title: values.title, token,
      global: globalOptions(name, values, env),
    };
  }
  const { values, positionals } = parse(name, args, name === 'delete' ? deleteSpec : globalSpec);
  if (values.help) return { name: 'help', topic: name };
  if (name === 'rate') {
    noPositionals(name, positionals, 3);
    if (positionals.length < 3) throw new UsageError('rate needs a CODE_REF, a REFACTOR_ID and a VALUE from 1 to 5', name);
    return {
      name, ref: codeRefArgument(name, positionals[0]), refactorId: refactorIdArgument(name, positionals[1]),
      value: integerOption(name, 'VALUE', positionals[2], 1, 5), token, global: globalOptions(name, values, env),
    };
  }
  noPositionals(name, positionals, 2);
  if (positionals.length === 0) throw new UsageError('delete needs a CODE_REF (and a REFACTOR_ID to delete a refactoring of it)', name);
  return {
    name, ref: codeRefArgument(name, positionals[0]),
    refactorId: positionals.length > 1 ? refactorIdArgument(name, positionals[1]) : undefined,
    yes: 'yes' in values && values.yes === true, token, global: globalOptions(name, values, env),
  };
}

function required(command: string, flag: string, value: string | undefined, what: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${command} needs ${flag} (${what})`, command);
  return value;
}

function codeRefArgument(command: string, raw: string): string {
  const ref = parseCodeRef(raw);
  if (ref === undefined) throw new UsageError(`"${raw}" is not a code ref (an id like 42, 42-some-title, or a page URL)`, command);
  return ref;
}

function refactorIdArgument(command: string, raw: string): number {
  const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!isId(id)) throw new UsageError(`REFACTOR_ID must be a refactoring's id (a whole number from 1), got "${raw}"`, command);
  return id;
}

/**
 * The global options and `--help` before the command, and what follows them. An option of a command
 * (`--language`) before it is bad usage that says where it goes.
 */
function leadingOptions(argv: readonly string[]): { leading: string[]; helpAsked: boolean; rest: string[] } {
  const leading: string[] = [];
  let helpAsked = false;
  let i = 0;
  for (; i < argv.length && argv[i].startsWith('-') && argv[i] !== '-' && argv[i] !== '--'; i++) {
    const arg = argv[i];
    const option = arg.split('=')[0];
    if (arg === '--help' || arg === '-h') {
      helpAsked = true;
    } else if (GLOBAL_FLAG_OPTIONS.includes(option)) {
      leading.push(arg);
    } else if (GLOBAL_VALUE_OPTIONS.includes(option)) {
      if (arg.includes('=')) {
        leading.push(arg);
      } else {
        if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
        leading.push(arg, argv[++i]);
      }
    } else if (COMMAND_OPTIONS.includes(option)) {
      throw new UsageError(`${option} is an option of a command: put it after the command`);
    } else {
      throw new UsageError(`unknown option ${option}${didYouMean(option, [...GLOBAL_VALUE_OPTIONS, ...GLOBAL_FLAG_OPTIONS, '--help', '--version'])}`);
    }
  }
  return { leading, helpAsked, rest: argv.slice(i) };
}

type Spec = Parameters<typeof parseArgs>[0] extends infer C ? (C extends { options?: infer O } ? O : never) : never;

function parse<S extends NonNullable<Spec>>(command: string, args: string[], options: S) {
  const specs = options as Record<string, { type: 'string' | 'boolean'; short?: string }>;
  const longOf = (arg: string): string | undefined => arg.startsWith('--')
    ? (arg.slice(2) in specs ? arg.slice(2) : undefined)
    : Object.keys(specs).find((long) => specs[long].short !== undefined && arg === `-${specs[long].short}`);
  // A negative number after an option that takes a value is that value (`--page -1`): parseArgs
  // takes it for an option, but no option here is a dash and digits, so the option's own range check
  // answers it.
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const long = longOf(args[i]);
    if (long !== undefined && specs[long].type === 'string' && /^-\d/.test(args[i + 1] ?? '')) joined.push(`--${long}=${args[++i]}`);
    else joined.push(args[i]);
  }
  try {
    return parseArgs({ args: joined, options, allowPositionals: true, strict: true });
  } catch (e) {
    const names = Object.entries(specs).flatMap(([long, o]) => [`--${long}`, ...(o.short ? [`-${o.short}`] : [])]);
    throw new UsageError(parseFailure(e, joined, names, longOf), command);
  }
}

/** parseArgs' refusal in the command line's words: its own name the option, never its internals. */
function parseFailure(e: unknown, args: string[], names: string[], longOf: (arg: string) => string | undefined): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as NodeJS.ErrnoException).code;
  const quoted = /'(-[^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    return `unknown option ${quoted}${didYouMean(quoted.split('=')[0], names)}`;
  }
  // "Option '-l, --language <value>' argument missing", "Option '--page' argument is ambiguous",
  // "Option '--json' does not take an argument".
  const long = /--([a-z][a-z-]*)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && long !== undefined) {
    if (/does not take an argument/.test(message)) return `--${long} takes no value`;
    const at = args.findIndex((arg) => longOf(arg) === long);
    const next = at >= 0 ? args[at + 1] : undefined;
    return next !== undefined && next.startsWith('-') ? `--${long} needs a value (${next} is an option)` : `--${long} needs a value`;
  }
  // Anything else: its first sentence.
  return message.split('. ')[0].replace(/\.$/, '');
}

function noPositionals(command: string, positionals: string[], allowed: number): void {
  if (positionals.length > allowed) throw new UsageError(`unexpected argument "${positionals[allowed]}"`, command);
}

/** `A-B` (1-based, A at most B) or `A` (one line). */
function linesOption(command: string, raw: string): [number, number] {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(raw);
  const first = m ? Number(m[1]) : NaN;
  const last = m?.[2] !== undefined ? Number(m[2]) : first;
  if (!m || first < 1 || last < first || !Number.isSafeInteger(last)) throw new UsageError(`--lines must be A-B, the first and last line (from 1), got "${raw}"`, command);
  return [first, last];
}

/** A language of the service, in the service's spelling. */
function serviceLanguageOption(command: string, language: string): string {
  if (!isServiceLanguage(language)) {
    const near = nearest(language, SERVICE_LANGUAGES);
    throw new UsageError(`--language: the service has no language "${language}"${near ? ` (did you mean ${near}?)` : `; it has ${SERVICE_LANGUAGES.join(', ')}`}`, command);
  }
  return canonicalServiceLanguage(language);
}

/** A list's language: one of the service's, or `all` (the service's word for no filter: none). */
function listLanguageOption(command: string, language: string): string | undefined {
  if (language.trim() === '') throw new UsageError('--language needs a language name', command);
  return language.trim().toLowerCase() === 'all' ? undefined : serviceLanguageOption(command, language);
}

/** One of refactorBrowser.refactoringOrder's values, in any lettercase; default bestRated. */
function orderOption(command: string, raw: string | undefined): RefactoringOrder {
  if (raw === undefined) return DEFAULT_REFACTORING_ORDER;
  const order = REFACTORING_ORDERS.find((o) => o.toLowerCase() === raw.trim().toLowerCase());
  if (order === undefined) throw new UsageError(`--order must be bestRated, newest or oldest, got "${raw}"${didYouMean(raw, REFACTORING_ORDERS)}`, command);
  return order;
}

function integerOption(command: string, flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${flag} must be a whole number, got "${raw}"`, command);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${raw}`, command);
  return n;
}

function globalOptions(
  command: string,
  values: { 'base-url'?: string; timeout?: string; json?: boolean },
  env: NodeJS.ProcessEnv,
): GlobalOptions {
  const baseUrl = values['base-url'] ?? (env.REFACTOR_BROWSER_BASE_URL || undefined);
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) {
    throw new UsageError(`--base-url must be an http or https URL, got "${withoutCredentials(baseUrl)}"`, command);
  }
  if (baseUrl !== undefined && hasCredentials(baseUrl)) {
    throw new UsageError(`--base-url: ${CREDENTIALS_REFUSED}, got "${withoutCredentials(baseUrl)}"`, command);
  }
  let timeoutSeconds = DEFAULT_TIMEOUT_MS / 1000;
  if (values.timeout !== undefined) {
    timeoutSeconds = Number(values.timeout);
    // The client counts whole milliseconds: less than one is no deadline at all.
    if (!/^\s*\d+(\.\d+)?\s*$/.test(values.timeout) || !(timeoutSeconds >= 0.001) || timeoutSeconds > 3600) {
      throw new UsageError(`--timeout must be a number of seconds from 0.001 to 3600, got "${values.timeout}"`, command);
    }
  }
  return { baseUrl, timeoutSeconds, json: values.json ?? false };
}

function hasCredentials(s: string): boolean {
  const u = new URL(s);
  return u.username !== '' || u.password !== '';
}
