// Everything the extension's similarity feature runs, in one module it imports when first used: the
// Node extension host loads it (with the parser) from a bundle of its own beside the extension's,
// dist/similarity.js, so that activation reads none of it; the browser's host, which loads one file,
// has it inside its bundle. Values only through here: error classes compared with `instanceof` must
// come from the same copy that throws them.
export { GrammarError, Grammars, hasGrammar } from './grammars';
export { fingerprintsFileOf, SimilarPipeline } from './pipeline';
export { Tokenizers } from './tokenize';
export { MAX_COMPARED_LINES, TooLongError } from './tokens';
