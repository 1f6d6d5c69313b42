// name: features-by-release
// description: The features a release introduces, with the stability that release gave each.
// param: release = "PyTorch 1.10"  (a Release name: library and version)
// param: hardware = "CUDA"  (optional: a Hardware or Platform name: only the features the release's post says run on it, "What did PyTorch 2.12 add for ROCm?")
//
// stability: what this release's post states (null when it states none); named: the name
// that post gave the feature when not the node's (2.0's "Accelerated PyTorch 2 Transformers");
// latest_stability: the feature's stability as of its latest release. The hardware is
// tested on i.devices (see docs/schema.md), what a post that states the INTRODUCES says the
// feature supports.
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
WHERE r.name = $release
  AND ($hardware IS NULL OR coalesce(i.devices, "") CONTAINS "|" + coalesce($hardware, "") + "|")
RETURN f.name AS feature, i.stability AS stability, f.stability AS latest_stability,
       i.named AS named
ORDER BY feature
