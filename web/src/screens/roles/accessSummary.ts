// The role table's Akses column (spec 01 sections 2 and 9): up to 6 navigation names, or about 60 characters.
export const ACCESS_MAX_NAMES = 6;
export const ACCESS_MAX_CHARS = 60;

export function accessSummary(labels: readonly string[]): string {
  const shown = labels.slice(0, ACCESS_MAX_NAMES);
  let text = shown.join(', ');
  if (labels.length > ACCESS_MAX_NAMES) text += ', …';
  if (text.length > ACCESS_MAX_CHARS) text = `${text.slice(0, ACCESS_MAX_CHARS).trimEnd().replace(/,$/, '')}…`;
  return text;
}
