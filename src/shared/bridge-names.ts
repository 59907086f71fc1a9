/**
 * The bridge's method names, import-free so the sandboxed preload can bundle it without TypeBox.
 * src/shared/bridge.ts checks at compile time that this list and the contract agree.
 */
export const BRIDGE_METHOD_LIST = [
  'getAppInfo',
  'getSettings',
  'updateSettings',
  'getSyncStatus',
  'getClock',
  'syncNow',
  'listContainers',
  'getBoardFacets',
  'getViewCounts',
  'getContainerDetail',
  'exportContainersCsv',
  'exportContainersXlsx',
  'getRouteMap',
  'listShipments',
  'getShipmentDetail',
  'listShippingLines',
  'createTrackingRequest',
  'listTrackingRequests',
  'listAlerts',
  'markAlertsRead',
  'testConnection',
  'setRemoteApiKey',
  'getRemoteApiKeyStatus',
  'getCacheInfo',
  'clearCache',
] as const;
