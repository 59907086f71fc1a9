/**
 * Reads compiled once and run with new arguments. Building and compiling a Kysely query costs
 * about twice what running a small indexed read costs; the hottest reads (a resource's key on
 * every detail request) skip that. Works on both engines: the compiled SQL and its parameter
 * order come from Kysely itself, only the argument values are swapped in.
 */
import { SelectQueryNode, createQueryId, type Compilable, type Kysely } from 'kysely';

type Slot = { argument: number } | { constant: unknown };

/**
 * `build` makes the query from its arguments (strings: ids and keys); it is called once, with
 * markers the compiled parameters are matched against. An argument must reach the query as a
 * parameter unchanged (no `.toUpperCase()` in `build`): that is checked here, once.
 */
export function preparedRead<Args extends string[], Row>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the query is built by the caller
  db: Kysely<any>,
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>,
): (...args: Args) => Promise<Row[]> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000prepared-argument-${i}\u0000`);
  const compiled = build(...(markers as Args)).compile();
  // Reads only: the write counter (db.ts) must see every write compiled.
  if (!SelectQueryNode.is(compiled.query)) throw new Error('preparedRead: not a select');
  const slots: Slot[] = compiled.parameters.map((value) => {
    const argument = markers.indexOf(value as string);
    return argument >= 0 ? { argument } : { constant: value };
  });
  const used = new Set(slots.flatMap((slot) => ('argument' in slot ? [slot.argument] : [])));
  if (used.size !== arity) throw new Error('preparedRead: an argument is not a query parameter');
  return async (...args: Args) => {
    const parameters = slots.map((slot) =>
      'argument' in slot ? args[slot.argument] : slot.constant,
    );
    const result = await db.executeQuery<Row>({
      ...compiled,
      queryId: createQueryId(),
      parameters,
    });
    return result.rows;
  };
}
