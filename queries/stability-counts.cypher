// name: stability-counts
// description: How many features each release introduces, per stated stability.
// param: release = "PyTorch 1.8"  (optional: one Release name; every release when absent)
//
// stability: Stable, Beta, Prototype, or "unstated" when the release's post gives none.
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
WHERE $release IS NULL OR r.name = $release
RETURN r.name AS release, coalesce(i.stability, "unstated") AS stability, COUNT(f) AS features
ORDER BY release, stability
