// Test support: a logger that keeps the error lines it is given (what a test asserts the gateway said), and says
// nothing else.
import type { Logger } from '../log.js';

export function errorCollector(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, debug() {}, info() {}, warn() {}, error: (m: string) => void errors.push(m) };
}
