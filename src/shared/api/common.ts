/**
 * Building blocks of the /v2 wire format (JSON:API layout). These schemas are shared by the
 * service (validation, OpenAPI) and the desktop client (tolerant runtime checks), so they import
 * nothing from Node.
 */
import { Type, type TSchema } from 'typebox';

export const Uuid = Type.String({ format: 'uuid' });
export const DateTime = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const NullableString = Nullable(Type.String());
export const NullableDateTime = Nullable(DateTime);
export const NullableNumber = Nullable(Type.Number());

/** `{ id, type }` pointing at one resource of one of the given types. */
export const ResourceIdentifier = (...types: string[]) =>
  Type.Object({
    id: Type.String(),
    type:
      types.length === 1 ? Type.Literal(types[0]!) : Type.Union(types.map((t) => Type.Literal(t))),
  });

/** To-one relationship; `data` is null when there is no related resource. */
export const ToOne = (...types: string[]) =>
  Type.Object({ data: Nullable(ResourceIdentifier(...types)) });

/** To-many relationship. */
export const ToMany = (...types: string[]) =>
  Type.Object({ data: Type.Array(ResourceIdentifier(...types)) });

export const SelfLink = Type.Object({ self: Type.String() });

export const CollectionLinks = Type.Object({
  first: Type.Optional(Type.String()),
  last: Type.Optional(Type.String()),
  next: Type.Optional(Type.String()),
  prev: Type.Optional(Type.String()),
  self: Type.Optional(Type.String()),
  current: Type.Optional(Type.String()),
});

export const CollectionMeta = Type.Object({
  size: Type.Integer(),
  total: Type.Integer(),
});

export const ErrorObject = Type.Object({
  status: Type.String(),
  title: Type.String(),
  detail: Type.Optional(NullableString),
  code: Type.Optional(NullableString),
  source: Type.Optional(
    Nullable(
      Type.Object({
        pointer: Type.Optional(NullableString),
        parameter: Type.Optional(NullableString),
      }),
    ),
  ),
  meta: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
});

export const ErrorDocument = Type.Object({ errors: Type.Array(ErrorObject) });

/** A single-resource document: `{ data, included? }`. */
export const SingleDocument = <T extends TSchema>(data: T, included?: TSchema) =>
  Type.Object({
    data,
    ...(included ? { included: Type.Optional(Type.Array(included)) } : {}),
    links: Type.Optional(SelfLink),
  });

/** A collection document: `{ data: [], included?, links, meta }`. */
export const ListDocument = <T extends TSchema>(data: T, included?: TSchema) =>
  Type.Object({
    data: Type.Array(data),
    ...(included ? { included: Type.Optional(Type.Array(included)) } : {}),
    links: CollectionLinks,
    meta: CollectionMeta,
  });
