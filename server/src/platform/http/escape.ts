// HTML attribute escaping for the few values the gateway writes into the console's page.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeAttribute = (s: string): string => s.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
