// Figure 1: decoding a codes list into typed objects against fast-xml-parser's own parse of the
// same string with the same options: what the checks and the typed walk add on top of parsing.
import { XMLParser } from 'fast-xml-parser';
import { renderCodeListXml } from '../src/server/xmlRender';
import { decodeCodes, parserOptions } from '../src/api/xmlDecode';
import { generateCatalog } from './catalogGen';
import { figure, interleave, median, type Figure } from './measure';

const GOAL = 1.3;

export async function decodeFigures(): Promise<Figure[]> {
  const catalog = generateCatalog(2000);
  const parser = new XMLParser(parserOptions);
  const out: Figure[] = [];
  for (const [items, inner, rounds] of [[25, 200, 31], [2000, 3, 21]] as const) {
    const xml = renderCodeListXml(catalog.recentCodes.all.slice(0, items));
    // The two must agree on what they read, or the comparison means nothing.
    if (decodeCodes(xml).length !== items) throw new Error(`decodeCodes did not read ${items} items`);
    const { base, subj, ratios } = await interleave(() => parser.parse(xml), () => decodeCodes(xml), { rounds, inner, warmup: inner, maxMs: 20_000 });
    out.push(figure(
      { name: `decode.codes${items}`, goal: GOAL, unit: 'ms per list', note: `${(xml.length / 1024).toFixed(0)} KiB; baseline XMLParser.parse with parserOptions` },
      median(subj), median(base), ratios,
    ));
  }
  return out;
}
