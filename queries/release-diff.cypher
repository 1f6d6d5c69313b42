// name: release-diff
// description: Two releases side by side: every feature either introduces, with the stability each release's post states for it.
// param: a = "PyTorch 1.9"  (a Release name: the older release)
// param: b = "PyTorch 1.10"  (a Release name: the newer release, of the same library)
//
// A feature both releases introduce has two rows (a's first): its stability then and now. A
// feature with one row is new in b, or not restated by b. Each row states only that release's
// post: `ptkg diff A B` carries a feature's stability as of a from any earlier release that
// stated it, and names promotions and demotions. coalesce(r.name, "") keeps grand-cypher 1.2.0
// from index-hinting the OR.
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
WHERE coalesce(r.name, "") = $a OR coalesce(r.name, "") = $b
RETURN f.name AS feature, r.name AS release, i.stability AS stability, i.named AS named,
       r.version_order AS position
ORDER BY feature, position, release
