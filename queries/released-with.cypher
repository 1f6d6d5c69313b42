// name: released-with
// description: The library releases that shipped alongside a core release.
// param: release = "PyTorch 1.5"  (the core Release name)
// param: library = "torchvision"  (optional: a Library name: only its releases, "Which torchvision release shipped with PyTorch 2.0?")
MATCH (lib:Release)-[:RELEASED_WITH]->(core:Release)
WHERE core.name = $release AND ($library IS NULL OR coalesce(lib.library, "") = $library)
RETURN lib.library AS library, lib.name AS release, lib.version AS version
ORDER BY library, release
