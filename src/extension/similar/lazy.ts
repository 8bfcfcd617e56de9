// What Find Refactorings for This Code imports on first use (commands.ts): one module, which the
// Node extension host reads from a bundle of its own, dist/similarity.js.
export { adaptedRefactorings, findSimilar } from './actions';
export { SimilarFinder } from './finder';
