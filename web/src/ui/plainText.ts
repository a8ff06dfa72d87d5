// Device and user texts (names, labels, values a device sent, units) shown where a library reads a string as markup:
// Leaflet's tooltip and popup content is HTML, Plotly's legend, axis titles, tick suffixes and annotations take its
// pseudo-HTML (<b>, <br>, <a href>, entities) and its hover templates read %{...}. Every such text goes through one of
// these helpers, so `<img src=x onerror=...>` from a device is shown as those characters (issue 23). React's JSX is
// already text; these are for the strings handed to those libraries only.
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `s` as HTML text content or attribute value: markup characters as entities. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch]!);
}

/** Plotly decodes only a few named entities (amp, lt, gt, nbsp, ...) and numeric ones: quotes go as numbers. */
const PLOTLY_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

/**
 * `s` for a Plotly text (trace name, pie label, axis title, tick suffix, annotation, hover template value): markup
 * characters as entities Plotly decodes back to the characters when it draws, and a template opening `%{` as
 * `&#37;{`, so a value inserted into a hover template cannot name another variable (Plotly substitutes templates
 * before it decodes entities, so the `%{` is drawn as those two characters).
 */
export function plotlyText(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => PLOTLY_ENTITIES[ch]!).replace(/%\{/g, '&#37;{');
}

/** plotlyText for an optional text (a setting a card may leave empty). */
export function plotlyTextOf(s: string | undefined): string | undefined {
  return s === undefined ? undefined : plotlyText(s);
}
