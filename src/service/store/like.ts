import { sql } from 'kysely';

/** A LIKE pattern matching `text` anywhere, with the wildcards in `text` taken literally (escape `\`). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The right side of `upper(column) like …` matching `text` anywhere, ignoring case on both
 * engines (SQLite's LIKE ignores ASCII case, PostgreSQL's does not: both sides go through the
 * database's own upper()). Wildcards in `text` are taken literally.
 */
export const containingText = (text: string) =>
  sql<string>`upper(${likePattern(text)}) escape '\\'`;
