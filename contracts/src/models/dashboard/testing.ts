// Test helpers for dashboard schemas: the messages and paths a parse rejects with.
import type { z } from 'zod';

export function rejection(schema: z.ZodType, value: unknown): { path: string; message: string }[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}
