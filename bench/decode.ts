// Figure 1: decoding a codes list into typed objects against fast-xml-parser's own validation and
// parse of the same string with the same options: what the body checks and the typed walk add.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { renderCodeListXml } from '../src/server/render/xmlRender';
import { decodeCodes, parserOptions } from '../src/core/xmlDecode';
import { generateCatalog } from '../src/server/catalog/generatedCatalog';
import { figure, interleave, median, type Figure } from './measure';

const GOAL = 1.5;

export async function decodeFigures(): Promise<Figure[]> {
  const catalog = generateCatalog({ codes: 2000, refactorsPerCode: 0 });
  const parser = new XMLParser(parserOptions);
  const out: Figure[] = [];
  for (const [items, inner, rounds] of [[25, 100, 31], [2000, 2, 21]] as const) {
    const xml = renderCodeListXml(catalog.recentCodes.all.slice(0, items));
    // The two must agree on what they read, or the comparison means nothing.
    if (decodeCodes(xml).length !== items) throw new Error(`decodeCodes did not read ${items} items`);
    const parse = (): unknown => {
      if (XMLValidator.validate(xml) !== true) throw new Error('the list does not validate');
      return parser.parse(xml);
    };
    const { base, subj, ratios } = await interleave(parse, () => decodeCodes(xml), { rounds, inner, warmup: inner, maxMs: 20_000 });
    out.push(figure(
      { name: `decode.codes${items}`, goal: GOAL, unit: 'ms per list', note: `${(xml.length / 1024).toFixed(0)} KiB; baseline XMLValidator.validate + XMLParser.parse with parserOptions` },
      median(subj), median(base), ratios,
    ));
  }
  return out;
}
