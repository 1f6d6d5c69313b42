// name: releases-of-library
// description: A library's releases in version order (1.10 after 1.9), with their dates.
// param: library = "PyTorch"  (a Library name)
//
// position: the release's version_order, 1 for the first known release of the library
// (version order, not the order of the version strings: "1.12" < "1.8" as text).
MATCH (l:Library)-[:HAS_RELEASE]->(r:Release)
WHERE l.name = $library
RETURN r.version_order AS position, r.name AS release, r.version AS version, r.date AS date
ORDER BY position
