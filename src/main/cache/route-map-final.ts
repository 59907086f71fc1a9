/**
 * SQL over a cached container `c` and its shipment `s`: the box moves on from its port of
 * discharge by rail (it is on rail, was loaded on rail, or its shipment's destination lies past
 * the port) and is not at its ramp yet, nor picked up or returned. Its route map still changes
 * (the service draws the rail leg and the ramp), so arriving at the port does not make it final.
 */
export const RAIL_PENDING_SQL = `(
  (c.current_status = 'on_rail'
    OR json_extract(c.json, '$.attributes.pod_rail_loaded_at') IS NOT NULL
    OR coalesce(json_extract(s.json, '$.attributes.destination_locode') <> s.pod_locode, 0))
  AND json_extract(c.json, '$.attributes.ind_ata_at') IS NULL
  AND json_extract(c.json, '$.attributes.ind_rail_unloaded_at') IS NULL
  AND c.picked_up_at IS NULL AND c.empty_returned_at IS NULL)`;
