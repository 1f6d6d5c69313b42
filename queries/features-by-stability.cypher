// name: features-by-stability
// description: The features a release, or every release, introduces with one stated stability: what became Stable in a release, what is new in Beta, which features are API-Stable.
// param: release = "PyTorch 1.10"  (optional: a Release name, library and version; every release when absent)
// param: stability = "Stable"  (a stability: Stable, Beta, Prototype, API-Stable or API-Unstable)
//
// latest_stability: the feature's stability as of its latest release; release: the release that
// states the stability. Rows are in library, then version order (1.10 after 1.9), then feature.
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
WHERE ($release IS NULL OR r.name = $release) AND i.stability = $stability
RETURN f.name AS feature, i.stability AS stability, f.stability AS latest_stability,
       r.name AS release, i.named AS named
ORDER BY r.library, r.version_order, feature
