/**
 * Route validators compiled on their route's first request instead of at start. Compiling every
 * route's schemas with Ajv, as Fastify does when it gets ready, was a quarter of `quayside
 * serve`'s start (about 340 of 1,390 ms in a CPU profile), and a service just started is asked
 * for a handful of its routes, most of them never. The validators are the ones Fastify would have
 * built (its own Ajv compiler, with the app's Ajv options); only when they are built moves.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import type {
  FastifySchemaCompiler,
  FastifySchemaValidationError,
  FastifyServerOptions,
} from 'fastify';

type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];

/** What @fastify/ajv-compiler's pool builds at run time (its declared type says otherwise). */
type RouteCompiler = FastifySchemaCompiler<unknown>;
type RouteSchema = Parameters<RouteCompiler>[0];
type Validator = ReturnType<RouteCompiler>;

export class LazyValidators {
  /** Validators not yet built: each builds itself (and leaves this set) when first used. */
  private readonly unbuilt = new Set<() => void>();
  /** Every route schema given (see `schemas`). */
  private readonly given: RouteSchema[] = [];

  /** For Fastify's `schemaController.compilersFactory.buildValidator`. */
  readonly buildValidator: ValidatorFactory = (externalSchemas, options) => {
    const compile = (AjvCompiler() as unknown as (...args: unknown[]) => RouteCompiler)(
      externalSchemas,
      options,
    );
    return ((route: RouteSchema) => {
      this.given.push(route);
      return this.lazy(() => compile(route));
    }) as never;
  };

  /**
   * The schemas of every route part (params, query string, body) with their route: the service's
   * Ajv does not check them against the JSON Schema meta-schema at each start (see app.ts), a
   * test does, here.
   */
  schemas(): readonly { url: string; method: string; httpPart?: string; schema: unknown }[] {
    return this.given;
  }

  /** Builds every validator not built yet; how many. A schema Ajv rejects throws here. */
  buildAll(): number {
    const pending = [...this.unbuilt];
    for (const build of pending) build();
    return pending.length;
  }

  private lazy(compile: () => Validator): Validator {
    let built: Validator | undefined;
    const build = () => {
      built ??= compile();
      this.unbuilt.delete(build);
      return built;
    };
    this.unbuilt.add(build);
    const validate = ((data: unknown) => {
      const validator = build();
      const result = validator(data);
      // Fastify reads a failed validation's errors from the function it was given.
      validate.errors = validator.errors as FastifySchemaValidationError[] | null | undefined;
      return result;
    }) as Validator;
    return validate;
  }
}
