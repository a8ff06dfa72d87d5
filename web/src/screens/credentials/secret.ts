// How a secret shows on screen until it is revealed: only its last four characters, so cards can be told apart.
const VISIBLE_TAIL = 4;

export function maskSecret(secret: string): string {
  if (secret.length <= VISIBLE_TAIL) return '•'.repeat(secret.length);
  return `${'•'.repeat(12)}${secret.slice(-VISIBLE_TAIL)}`;
}
