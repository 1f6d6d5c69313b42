// name: hardware-support
// description: What supports a device, backend or platform: each library and feature, and each release that states it.
// param: hardware = "MPS"  (a Hardware or Platform name)
//
// supporter: the release's library, else the library or feature itself; version: the
// release's version (null when a library or feature supports it directly); device: what
// it supports, the asked device or a product of its family (VARIANT_OF: the H100 of
// Hopper). Rows are in supporter, then version order: a library's first release row is the
// release it is supported "since".
MATCH (s)-[:SUPPORTS]->(d:Hardware|Platform)-[:VARIANT_OF*0..1]->(h:Hardware|Platform)
WHERE h.name = $hardware
RETURN coalesce(s.library, s.name) AS supporter, s.version AS version, s.label AS label,
       s.name AS name, d.name AS device
ORDER BY supporter, label, s.version_order, name, device
