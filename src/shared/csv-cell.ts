/**
 * One CSV cell (RFC 4180). Text cells that a spreadsheet would run as a formula are prefixed
 * with an apostrophe. No Node imports: the renderer bundles this file.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
