// name: supported-hardware
// description: The devices, backends and platforms an entity supports: a feature, a library or a release, and for a library each of its releases, with the sentences and posts that say so.
// param: name = "PyTorch/XLA"  (an entity name, any label)
//
// The other way round (what supports a device) is hardware-support. supporter: the asked
// entity, or the release of the asked library that states the support. Rows are in device,
// then release order.
MATCH (s)-[r:SUPPORTS]->(d:Hardware|Platform)
WHERE coalesce(s.name, "") = $name OR coalesce(s.library, "") = $name
RETURN d.label AS label, d.name AS device, s.label AS supporter_label, s.name AS supporter,
       r.evidence AS sentences, r.sources AS posts
ORDER BY label, device, s.version_order, supporter, supporter_label
