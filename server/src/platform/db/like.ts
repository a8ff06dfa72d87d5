// Searching text with LIKE on either engine: what a user typed is matched literally (its `%`, `_` and `\` escaped),
// with the ESCAPE clause SQLite needs (its LIKE has no escape character unless told; PostgreSQL's is `\` already, and
// the store turns LIKE into ILIKE there so both ignore case).
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** `text` with LIKE's wildcards and escape character escaped by `\` */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column LIKE pattern ESCAPE '\'` (drizzle's `like` has no ESCAPE clause) */
export const likeEscaped = (column: AnyColumn | SQL, pattern: string): SQL =>
  sql`${column} like ${pattern} escape '\\'`;

/** the pattern of a text anywhere in a value */
export const containing = (text: string): string => `%${escapeLike(text)}%`;
