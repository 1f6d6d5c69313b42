// name: features-by-stability
// description: The features a release introduces with one stated stability: what became Stable in a release, what is new in Beta.
// param: release = "PyTorch 1.10"  (a Release name: library and version)
// param: stability = "Stable"  (a stability: Stable, Beta, Prototype, API-Stable or API-Unstable)
//
// latest_stability: the feature's stability as of its latest release.
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
WHERE r.name = $release AND i.stability = $stability
RETURN f.name AS feature, i.stability AS stability, f.stability AS latest_stability
ORDER BY feature
