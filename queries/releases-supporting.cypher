// name: releases-supporting
// description: The releases that support a device, backend or platform: said of the release, or, in the post that says the release introduces a feature, of that feature; with the stability the release gave that feature.
// param: hardware = "MPS"  (a Hardware or Platform name)
//
// via: the hardware itself when the release is said to support it, else the feature that
// does; device: what the statement names, the asked device or a product of its family
// (VARIANT_OF: the H100 of Hopper); stability is the release's word on that feature (null
// when it stated none); sentences and posts are the release's own statement. A feature's
// support counts for a release only when a post that says the release introduces it says it
// (i.devices, see docs/schema.md): a support another post states later is not the release's.
// Rows are in library, then version order (1.10 after 1.9).
MATCH (r:Release)-[i:INTRODUCES|SUPPORTS]->(f)-[:SUPPORTS*0..1]->(d:Hardware|Platform)
      -[:VARIANT_OF*0..1]->(h:Hardware|Platform)
WHERE h.name = $hardware AND (type(i) = "SUPPORTS" OR i.devices CONTAINS "|" + d.name + "|")
RETURN r.library AS library, r.name AS release, f.name AS via, d.name AS device,
       i.stability AS stability, i.evidence AS sentences, i.sources AS posts
ORDER BY library, r.version_order, via, device
