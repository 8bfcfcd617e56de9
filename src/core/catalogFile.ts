// The catalog file: the JSON a reference service serves (`serve --catalog FILE`) and `import` takes,
// that `mine` writes and `serve --generate N` makes. Declared once here, in the layer every side
// imports; the reader (src/server/catalog/dataset.ts parseDataset) checks a file against these rules
// field by field, since a file on disk is only ever `unknown`. src/server/README.md describes the
// format for the people who write one.

/** Source text: a string, or an array of lines joined with `\n` (a trailing "" gives a final newline). */
export type CatalogText = string | string[];

export interface CatalogFileUser {
  id: number;
  name: string;
  identityUrl: string;
  rating: number;
  website?: string;
}

export interface CatalogFileCode {
  id: number;
  title: string;
  /** One of the service's languages (src/core/languages.ts), by name or slug, any lettercase. */
  language: string;
  /** Derived from the title when left out. */
  permalink?: string;
  userId: number;
  /** `YYYY-MM-DDThh:mm:ss` with `Z` or an offset. */
  createdAt: string;
  updatedAt: string;
  comment?: string;
  trackbackUrl?: string;
  tags?: string[];
  code: CatalogText;
  /** Where `mine` found it: an import knows a code mined before by these three, and adds it once. */
  mined?: CatalogFileMined;
}

/** A mined code's origin: the commit that rewrote it, the file's path, and the function's name in the file. */
export interface CatalogFileMined {
  commit: string;
  path: string;
  function: string;
}

export interface CatalogFileRefactor {
  id: number;
  codeId: number;
  /** null for an anonymous author, who is then named by `userName` (and `userWebsite`). */
  userId: number | null;
  userName?: string;
  userWebsite?: string;
  title?: string;
  rating: number;
  ratingsCount: number;
  createdAt: string;
  comment?: string;
  code: CatalogText;
}

export interface CatalogFile {
  users: CatalogFileUser[];
  codes: CatalogFileCode[];
  refactors: CatalogFileRefactor[];
}

/** The lines of a catalog text, whichever way the file wrote it. */
export function catalogLines(text: CatalogText): string[] {
  return typeof text === 'string' ? text.split('\n') : [...text];
}
