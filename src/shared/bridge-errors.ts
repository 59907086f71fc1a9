/** Failure shapes of bridge calls. Import-free so the renderer and preload bundle nothing extra. */

/** Error codes a bridge call can fail with; the message is plain words for the user. */
export type BridgeErrorCode =
  | 'invalid_argument'
  | 'unknown_method'
  | 'forbidden'
  | 'failed'
  /** Not a failure: a newer call of the same method replaced this one, whose answer is moot. */
  | 'superseded';

export interface BridgeFailure {
  code: BridgeErrorCode;
  message: string;
  /** For invalid_argument: where in the argument and what is wrong. */
  issues?: { path: string; message: string }[];
}

/** The envelope every transport carries back; never a thrown error across the boundary. */
export type BridgeReply<T = unknown> =
  { ok: true; result: T } | { ok: false; error: BridgeFailure };

/**
 * What a failed bridge call rejects with, on either transport: a plain object (it survives
 * Electron's contextBridge cloning, which would strip an Error down to its message).
 */
export interface BridgeRejection extends BridgeFailure {
  method: string;
}

export function isBridgeRejection(value: unknown): value is BridgeRejection {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BridgeRejection).code === 'string' &&
    typeof (value as BridgeRejection).message === 'string'
  );
}
