/** A LIKE pattern matching `text` anywhere, with the wildcards in `text` taken literally (escape `\`). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
