// name: features-by-release
// description: The features a release introduces, with the stability that release gave each.
// param: release = "PyTorch 1.8"  (a Release name: library and version)
//
// stability: what this release's post states (null when it states none);
// latest_stability: the feature's stability as of its latest release.
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
WHERE r.name = $release
RETURN f.name AS feature, i.stability AS stability, f.stability AS latest_stability
ORDER BY feature
