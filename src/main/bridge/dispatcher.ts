/**
 * The one registration wrapper for bridge handlers. Every transport (Electron IPC, browser-mode
 * HTTP) hands raw `(method, argument)` pairs from the renderer to `dispatch`, which checks the
 * method exists, validates the argument against the contract's schema, runs the handler and
 * wraps the outcome in a BridgeReply. A handler never sees an unvalidated argument.
 */
import { Compile } from 'typebox/compile';
import {
  bridgeMethods,
  type BridgeArgument,
  type BridgeMethod,
  type BridgeReply,
  type BridgeResult,
} from '../../shared/bridge';

export type BridgeHandlers = {
  [M in BridgeMethod]: (argument: BridgeArgument<M>) => Promise<BridgeResult<M>> | BridgeResult<M>;
};

/** Thrown by handlers for failures the user should read as they are. */
export class BridgeHandlerError extends Error {
  constructor(
    message: string,
    readonly code: 'failed' | 'superseded' = 'failed',
  ) {
    super(message);
  }
}

const validators = Object.fromEntries(
  Object.entries(bridgeMethods).map(([name, spec]) => [name, Compile(spec.argument)]),
) as { [M in BridgeMethod]: ReturnType<typeof Compile> };

const isBridgeMethod = (name: string): name is BridgeMethod =>
  Object.prototype.hasOwnProperty.call(bridgeMethods, name);

export type BridgeDispatcher = (method: string, argument: unknown) => Promise<BridgeReply>;

export function createBridgeDispatcher(
  handlers: BridgeHandlers,
  onUnexpectedError: (method: string, error: unknown) => void = () => {},
): BridgeDispatcher {
  return async (method, rawArgument) => {
    if (typeof method !== 'string' || !isBridgeMethod(method)) {
      return {
        ok: false,
        error: { code: 'unknown_method', message: `Unknown bridge method "${String(method)}".` },
      };
    }
    // Transports send null for "no argument"; JSON cannot carry undefined.
    const argument = rawArgument === undefined ? null : rawArgument;
    const validator = validators[method];
    if (!validator.Check(argument)) {
      const issues = [...validator.Errors(argument)].slice(0, 10).map((issue) => ({
        path: issue.instancePath || '/',
        message: issue.message,
      }));
      const first = issues[0];
      return {
        ok: false,
        error: {
          code: 'invalid_argument',
          message: `Invalid argument for ${method}: ${first ? `${first.path} ${first.message}` : 'does not match the contract'}.`,
          issues,
        },
      };
    }
    try {
      const handler = handlers[method] as (argument: unknown) => unknown;
      return { ok: true, result: await handler(argument) };
    } catch (error) {
      if (error instanceof BridgeHandlerError) {
        return { ok: false, error: { code: error.code, message: error.message } };
      }
      onUnexpectedError(method, error);
      return {
        ok: false,
        error: { code: 'failed', message: `${method} failed unexpectedly; see the app log.` },
      };
    }
  };
}
