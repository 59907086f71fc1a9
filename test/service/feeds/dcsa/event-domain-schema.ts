/**
 * The DCSA T&T 2.2 YAML references its event shapes from the DCSA EVENT_DOMAIN on SwaggerHub,
 * which is not available offline. This is a transcription of those shapes (event domain as used
 * by T&T 2.2, with the DCSA_DOMAIN simple types inlined), registered under the URL the YAML uses
 * so the YAML's own response schema resolves against it.
 */
export const EVENT_DOMAIN_ID = 'https://api.swaggerhub.com/domains/dcsaorg/EVENT_DOMAIN/1.0.4';

const location = {
  type: 'object',
  properties: {
    locationName: { type: 'string', maxLength: 100 },
    UNLocationCode: { type: 'string', pattern: '^[A-Z]{2}[A-Z2-9]{3}$', maxLength: 5 },
    facilityCode: { type: 'string', maxLength: 6 },
    facilityCodeListProvider: { type: 'string', enum: ['BIC', 'SMDG'] },
  },
};

export const eventDomain = {
  $id: EVENT_DOMAIN_ID,
  components: {
    schemas: {
      baseEvent: {
        type: 'object',
        properties: {
          eventID: { type: 'string', format: 'uuid' },
          eventCreatedDateTime: { type: 'string', format: 'date-time' },
          eventType: { type: 'string' },
          eventClassifierCode: { type: 'string', enum: ['ACT', 'PLN', 'EST'] },
          eventDateTime: { type: 'string', format: 'date-time' },
          documentReferences: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                documentReferenceType: { type: 'string', enum: ['BKG', 'TRD'] },
                documentReferenceValue: { type: 'string', maxLength: 100 },
              },
              required: ['documentReferenceType', 'documentReferenceValue'],
            },
          },
          references: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                referenceType: { type: 'string', enum: ['FF', 'SI', 'PO', 'CR', 'AAO'] },
                referenceValue: { type: 'string', maxLength: 100 },
              },
              required: ['referenceType', 'referenceValue'],
            },
          },
        },
        required: ['eventCreatedDateTime', 'eventType', 'eventClassifierCode', 'eventDateTime'],
      },
      transportCall: {
        type: 'object',
        properties: {
          transportCallID: { type: 'string', maxLength: 100 },
          transportCallSequenceNumber: { type: 'integer' },
          carrierServiceCode: { type: 'string', maxLength: 5 },
          carrierVoyageNumber: { type: 'string', maxLength: 50 },
          exportVoyageNumber: { type: 'string', maxLength: 50 },
          importVoyageNumber: { type: 'string', maxLength: 50 },
          UNLocationCode: { type: 'string', pattern: '^[A-Z]{2}[A-Z2-9]{3}$', maxLength: 5 },
          facilityCode: { type: 'string', maxLength: 6 },
          facilityCodeListProvider: { type: 'string', enum: ['BIC', 'SMDG'] },
          facilityTypeCode: {
            type: 'string',
            enum: [
              'BOCR',
              'CLOC',
              'COFS',
              'COYA',
              'OFFD',
              'DEPO',
              'INTE',
              'POTE',
              'PBPL',
              'BRTH',
              'RAMP',
            ],
          },
          otherFacility: { type: 'string', maxLength: 50 },
          modeOfTransport: { type: 'string', enum: ['VESSEL', 'RAIL', 'TRUCK', 'BARGE'] },
          location,
          vessel: {
            type: 'object',
            properties: {
              vesselIMONumber: { type: 'string', pattern: '^\\d{7}$', maxLength: 7 },
              vesselName: { type: 'string', maxLength: 35 },
              vesselFlag: { type: 'string', minLength: 2, maxLength: 2 },
              vesselCallSignNumber: { type: 'string', maxLength: 10 },
              vesselOperatorCarrierCode: { type: 'string', maxLength: 10 },
            },
          },
        },
        required: ['transportCallID', 'modeOfTransport'],
      },
      transportEvent: {
        allOf: [
          { $ref: '#/components/schemas/baseEvent' },
          {
            type: 'object',
            properties: {
              eventType: { type: 'string', enum: ['TRANSPORT'] },
              transportEventTypeCode: { type: 'string', enum: ['ARRI', 'DEPA'] },
              delayReasonCode: { type: 'string', maxLength: 3 },
              changeRemark: { type: 'string', maxLength: 250 },
              transportCall: { $ref: '#/components/schemas/transportCall' },
            },
            required: ['transportCall', 'transportEventTypeCode'],
          },
        ],
      },
      equipmentEvent: {
        allOf: [
          { $ref: '#/components/schemas/baseEvent' },
          {
            type: 'object',
            properties: {
              eventType: { type: 'string', enum: ['EQUIPMENT'] },
              equipmentEventTypeCode: {
                type: 'string',
                enum: [
                  'LOAD',
                  'DISC',
                  'GTIN',
                  'GTOT',
                  'STUF',
                  'STRP',
                  'PICK',
                  'DROP',
                  'INSP',
                  'RSEA',
                  'RMVD',
                ],
              },
              equipmentReference: { type: 'string', maxLength: 15 },
              ISOEquipmentCode: { type: 'string', maxLength: 4 },
              emptyIndicatorCode: { type: 'string', enum: ['EMPTY', 'LADEN'] },
              transportCall: { $ref: '#/components/schemas/transportCall' },
              eventLocation: location,
            },
            required: ['equipmentEventTypeCode', 'emptyIndicatorCode'],
          },
        ],
      },
      shipmentEvent: {
        allOf: [
          { $ref: '#/components/schemas/baseEvent' },
          {
            type: 'object',
            properties: {
              eventType: { type: 'string', enum: ['SHIPMENT'] },
              eventClassifierCode: { type: 'string', enum: ['ACT'] },
              shipmentEventTypeCode: {
                type: 'string',
                enum: [
                  'RECE',
                  'DRFT',
                  'PENA',
                  'PENU',
                  'REJE',
                  'APPR',
                  'ISSU',
                  'SURR',
                  'SUBM',
                  'VOID',
                  'CONF',
                ],
              },
              documentID: { type: 'string', maxLength: 100 },
              documentTypeCode: { type: 'string', enum: ['BKG', 'SHI', 'SRM', 'TRD', 'ARN'] },
              reason: { type: 'string', maxLength: 250 },
            },
            required: ['documentID', 'shipmentEventTypeCode', 'documentTypeCode'],
          },
        ],
      },
    },
  },
};
