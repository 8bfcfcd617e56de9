// One way in to tokenizing, whatever the language: its grammar's syntax tree where it has one
// (grammars.ts), else its characters (lexical.ts). The language is the service's name, in any
// lettercase or as its slug.
import { canonicalServiceLanguage } from '../core/languages';
import { hasGrammar, type Grammars } from './grammars';
import { lexicalTokens } from './lexical';
import type { Tokenized } from './tokens';

export class Tokenizers {
  constructor(readonly grammars: Grammars) {}

  async tokenize(text: string, language: string): Promise<Tokenized> {
    const name = canonicalServiceLanguage(language);
    if (hasGrammar(name)) return { tokens: await this.grammars.tokens(text, name), by: 'tree' };
    return { tokens: lexicalTokens(text, name), by: 'lexical' };
  }
}
