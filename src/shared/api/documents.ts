/**
 * Request and response documents of the /v2 endpoints. Response documents list which resource
 * types may appear in `included`.
 */
import { Type, type Static } from 'typebox';
import { CollectionLinks, ListDocument, SingleDocument, Uuid } from './common';
import {
  ContainerResource,
  InferNumberResult,
  MetroAreaResource,
  PortResource,
  RailTerminalResource,
  RawEventResource,
  REQUEST_TYPES,
  SearchResult,
  ShipmentResource,
  ShippingLineResource,
  TerminalResource,
  TrackingRequestResource,
  TransportEventResource,
  VesselResource,
  WebhookNotificationResource,
  WebhookResource,
} from './resources';

const anyOf = (...schemas: Parameters<typeof Type.Union>[0]) => Type.Union(schemas);

export const ShipmentIncluded = anyOf([
  ContainerResource,
  PortResource,
  MetroAreaResource,
  TerminalResource,
  RailTerminalResource,
]);
export const ContainerIncluded = anyOf([
  ShipmentResource,
  TerminalResource,
  TransportEventResource,
  PortResource,
  MetroAreaResource,
  RailTerminalResource,
  VesselResource,
]);
export const TransportEventIncluded = anyOf([
  ShipmentResource,
  ContainerResource,
  PortResource,
  MetroAreaResource,
  TerminalResource,
  RailTerminalResource,
  VesselResource,
]);
export const TrackingRequestIncluded = anyOf([
  ShipmentResource,
  ContainerResource,
  PortResource,
  MetroAreaResource,
  TerminalResource,
  RailTerminalResource,
]);

export const ShipmentListDocument = ListDocument(ShipmentResource, ShipmentIncluded);
export const ShipmentDocument = SingleDocument(ShipmentResource, ShipmentIncluded);
export const ContainerListDocument = ListDocument(ContainerResource, ContainerIncluded);
export const ContainerDocument = SingleDocument(ContainerResource, ContainerIncluded);
export const TransportEventListDocument = ListDocument(
  TransportEventResource,
  TransportEventIncluded,
);
export const RawEventListDocument = Type.Object({
  data: Type.Array(RawEventResource),
  links: Type.Optional(CollectionLinks),
});
export const TrackingRequestListDocument = ListDocument(
  TrackingRequestResource,
  TrackingRequestIncluded,
);
export const TrackingRequestDocument = SingleDocument(
  TrackingRequestResource,
  TrackingRequestIncluded,
);
export const PortDocument = SingleDocument(PortResource);
export const MetroAreaDocument = SingleDocument(MetroAreaResource);
export const TerminalDocument = SingleDocument(TerminalResource);
export const VesselDocument = SingleDocument(VesselResource);
export const ShippingLineDocument = SingleDocument(ShippingLineResource);
export const ShippingLineListDocument = Type.Object({
  data: Type.Array(ShippingLineResource),
  links: Type.Optional(CollectionLinks),
});
export const WebhookListDocument = ListDocument(WebhookResource);
export const WebhookNotificationListDocument = ListDocument(WebhookNotificationResource);
export const InferNumberDocument = Type.Object({ data: InferNumberResult });
export const SearchDocument = Type.Object({ data: Type.Array(SearchResult) });

// ---------------------------------------------------------------------------------------------
// Write shapes

/** Longest list of staged values one tracking request takes (a bound on the work it asks for). */
const MAX_INITIAL_CUSTOM_FIELDS = 200;

export const InitialCustomFields = Type.Object(
  {
    shipment: Type.Optional(
      Type.Array(Type.Object({ api_slug: Type.String(), value: Type.Unknown() }), {
        maxItems: MAX_INITIAL_CUSTOM_FIELDS,
        description: 'Values for the shipment the request creates (Shipment definitions).',
      }),
    ),
    containers: Type.Optional(
      Type.Array(
        Type.Object({
          api_slug: Type.String(),
          value: Type.Unknown(),
          number: Type.Optional(
            Type.String({
              description: 'The container the value is for; omitted or empty: every container.',
            }),
          ),
        }),
        {
          maxItems: MAX_INITIAL_CUSTOM_FIELDS,
          description: 'Values for the containers the request creates (Container definitions).',
        },
      ),
    ),
  },
  {
    description:
      'Custom field values set on the shipment and its containers once the request creates them. Each api_slug must name a definition of the account; values are checked when the request is made.',
  },
);
export type InitialCustomFields = Static<typeof InitialCustomFields>;

export const TrackingRequestCreateBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('tracking_request'),
    attributes: Type.Object({
      request_type: Type.Enum(REQUEST_TYPES),
      request_number: Type.String(),
      scac: Type.Optional(
        Type.String({ description: 'Required unless `auto_detect_vocc_scac` is true.' }),
      ),
      auto_detect_vocc_scac: Type.Optional(
        Type.Boolean({
          description:
            'Infer the SCAC from request_number when scac is not given. Quayside infers it while creating the request: the answer shows the detected scac, or status `failed` with failed_reason `scac_auto_detect_failed` (scac null) when no supported line fits.',
        }),
      ),
      ref_numbers: Type.Optional(Type.Array(Type.String())),
      shipment_tags: Type.Optional(Type.Array(Type.String())),
      initial_custom_fields: Type.Optional(InitialCustomFields),
    }),
    relationships: Type.Optional(
      Type.Object({
        customer: Type.Optional(
          Type.Object({
            data: Type.Object({ id: Type.String(), type: Type.Literal('party') }),
          }),
        ),
      }),
    ),
  }),
});
export type TrackingRequestCreateBody = Static<typeof TrackingRequestCreateBody>;

export const TrackingRequestUpdateBody = Type.Object({
  data: Type.Object({
    type: Type.Optional(Type.Literal('tracking_request')),
    id: Type.Optional(Uuid),
    attributes: Type.Object({
      ref_numbers: Type.Optional(Type.Array(Type.String())),
      tags: Type.Optional(Type.Array(Type.String())),
    }),
  }),
});
export type TrackingRequestUpdateBody = Static<typeof TrackingRequestUpdateBody>;

export const InferNumberBody = Type.Object({ number: Type.String() });
export type InferNumberBody = Static<typeof InferNumberBody>;
