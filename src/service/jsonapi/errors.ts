/** JSON:API error objects and the exception that carries them to the error handler. */

export interface ErrorSource {
  pointer?: string;
  parameter?: string;
}

export interface JsonApiErrorObject {
  status: string;
  title: string;
  detail?: string;
  code?: string;
  source?: ErrorSource;
}

export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  409: 'Conflict',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export const titleFor = (status: number): string => STATUS_TITLES[status] ?? 'Error';

export class ApiError extends Error {
  readonly errors: JsonApiErrorObject[];
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    detail?: string,
    options: { source?: ErrorSource; code?: string; headers?: Record<string, string> } = {},
  ) {
    super(detail ?? titleFor(status));
    this.errors = [
      {
        status: String(status),
        title: titleFor(status),
        ...(detail !== undefined ? { detail } : {}),
        ...(options.code ? { code: options.code } : {}),
        ...(options.source ? { source: options.source } : {}),
      },
    ];
    this.headers = options.headers ?? {};
  }

  /** Several errors of the same status (e.g. all invalid attributes of one body). */
  static many(status: number, errors: Omit<JsonApiErrorObject, 'status' | 'title'>[]): ApiError {
    const err = new ApiError(status, errors[0]?.detail);
    err.errors.splice(
      0,
      err.errors.length,
      ...errors.map((e) => ({ status: String(status), title: titleFor(status), ...e })),
    );
    return err;
  }
}

export const notFound = (detail?: string) => new ApiError(404, detail);

/** Most error objects one answer carries: enough to fix a body, never a copy of a huge one. */
export const MAX_ERRORS = 20;
/** Longest detail, pointer or parameter in an answer; longer ones (quoted input) are cut. */
export const MAX_ERROR_TEXT = 300;

const cut = (text: string): string =>
  text.length <= MAX_ERROR_TEXT
    ? text
    : `${Array.from(text.slice(0, MAX_ERROR_TEXT)).slice(0, -1).join('')}…`;

/**
 * Error objects as sent: at most MAX_ERRORS, each text at most MAX_ERROR_TEXT characters, so a
 * huge bad body (a 200 KB event name, ten thousand bad entries) gets a small answer.
 */
export function boundedErrors<T extends Omit<JsonApiErrorObject, 'status' | 'title'>>(
  errors: T[],
): T[] {
  return errors.slice(0, MAX_ERRORS).map((e) => ({
    ...e,
    ...(e.detail !== undefined ? { detail: cut(e.detail) } : {}),
    ...(e.source
      ? {
          source: Object.fromEntries(
            Object.entries(e.source).map(([k, v]) => [k, typeof v === 'string' ? cut(v) : v]),
          ),
        }
      : {}),
  }));
}
