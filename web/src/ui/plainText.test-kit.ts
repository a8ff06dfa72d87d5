// For tests: what Plotly draws for one of its texts. Plotly decodes a few named entities and numeric ones when it
// draws (plotly.js src/lib/svg_text_utils.js convertEntities, the same table and pattern), nothing else.
const NAMED: Record<string, string> = {
  mu: 'μ',
  amp: '&',
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
  times: '×',
  plusmn: '±',
  deg: '°',
};

export function plotlyShown(text: string): string {
  return text.replace(/&(#\d+|#x[\da-fA-F]+|[a-z]+);/g, (all, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
      : (NAMED[e] ?? all),
  );
}
