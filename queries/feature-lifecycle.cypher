// name: feature-lifecycle
// description: A feature's stability changes: pairs of releases of one library, older first, that stated different stabilities.
// param: feature = "ZeroRedundancyOptimizer"  (a Feature name)
//
// Promotions read Prototype -> Beta -> Stable (from_stability -> to_stability); the other way
// round is a demotion. Every pair of stating releases is listed, not only neighbours: 1.8
// Prototype, 1.9 Beta, 1.10 Stable give three rows. "Older" is the earlier release date (the
// date of the post announcing it): releases without a date are left out, because the version
// order is the PRECEDES chain and following it ([:PRECEDES*]) here is too slow on grand-cypher.
// `ptkg lifecycle NAME` gives the exact answer: every release in version order, and each change
// between consecutive stating releases.
MATCH (a:Release)-[ia:INTRODUCES]->(f:Feature)<-[ib:INTRODUCES]-(b:Release)
WHERE f.name = $feature AND a.library = b.library
  AND NOT a.date IS NULL AND NOT b.date IS NULL AND a.date < b.date
  AND NOT ia.stability IS NULL AND NOT ib.stability IS NULL
  AND ia.stability <> ib.stability
RETURN a.library AS library, a.name AS from_release, a.date AS from_date,
       ia.stability AS from_stability, b.name AS to_release, b.date AS to_date,
       ib.stability AS to_stability
ORDER BY library, from_date, to_date, from_release, to_release
