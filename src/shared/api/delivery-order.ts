/**
 * What a delivery order said, as the service keeps it with the order's document (a Quayside
 * extension: the document's `delivery_order` attribute, set on upload). Every desktop reads it
 * back from the document list, so the order made on one desktop is checked for staleness on all.
 */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable } from './common';

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const DeliveryOrderAttribute = Type.Object(
  {
    container: Type.Object(
      { id: Id, number: Type.String({ minLength: 1, maxLength: 20 }) },
      { additionalProperties: false },
    ),
    trucker: Type.Object(
      { id: Id, name: Type.String({ minLength: 1, maxLength: 200 }) },
      { additionalProperties: false },
    ),
    /** When the order was made and handed over for sending. */
    sent_at: DateTime,
    /** The last free day the order stated: a calendar day of its zone, and whose it is. */
    last_free_day: Nullable(
      Type.Object(
        {
          date: Day,
          time_zone: Type.String({ minLength: 1, maxLength: 64 }),
          source: Nullable(
            Type.Union([Type.Literal('terminal'), Type.Literal('line'), Type.Literal('rail')]),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    terminal: Nullable(Type.String({ maxLength: 200 })),
    pickup_appointment_at: Nullable(DateTime),
    /** The active holds the order named (their codes). */
    holds: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 }),
    pickup_number: Nullable(Type.String({ maxLength: 64 })),
  },
  {
    additionalProperties: false,
    'x-quayside-extension': true,
    description:
      'Quayside extension: what a delivery order stated when it was made (its container and trucker, when, the last free day with its source, terminal, pickup appointment, holds and pickup number), set on upload and kept with the document, so every client can tell when a later change makes the order wrong. Null for other documents.',
  },
);
export type DeliveryOrderAttribute = Static<typeof DeliveryOrderAttribute>;
