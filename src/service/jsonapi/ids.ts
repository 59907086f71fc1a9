const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path or relationship id can name a stored record (anything else is not found). */
export const isUuid = (value: string) => UUID_RE.test(value);
