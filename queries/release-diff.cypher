// name: release-diff
// description: Two releases side by side: every feature either introduces, with the stability each release's post states for it and the one an older release stated before.
// param: a = "PyTorch 1.9"  (a Release name: the older release)
// param: b = "PyTorch 1.10"  (a Release name: the newer release, of the same library)
//
// A feature both releases introduce has two rows (a's first): its stability then and now. A
// feature with one row is new in b, or not restated by b. `previous_stability` is what the last
// older release of the library to state one said (1.10's Stable torch.fx: 1.8's Beta, which
// 1.9 did not restate); `ptkg diff A B` names the promotions and demotions. coalesce(r.name, "")
// keeps grand-cypher 1.2.0 from index-hinting the OR.
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
WHERE coalesce(r.name, "") = $a OR coalesce(r.name, "") = $b
RETURN f.name AS feature, r.name AS release, i.stability AS stability, i.named AS named,
       i.previous_stability AS previous_stability, i.previous_release AS previous_release,
       r.version_order AS position
ORDER BY feature, position, release
