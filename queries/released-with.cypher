// name: released-with
// description: The library releases that shipped alongside a core release.
// param: release = "PyTorch 1.5"  (the core Release name)
MATCH (lib:Release)-[:RELEASED_WITH]->(core:Release)
WHERE core.name = $release
RETURN lib.library AS library, lib.name AS release, lib.version AS version
ORDER BY library, release
