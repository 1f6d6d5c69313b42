// name: deprecations
// description: What releases deprecate or remove (features, libraries, hardware, platforms, releases), with the sentences and posts that say so.
// param: release = "PyTorch 2.2"  (optional: one Release name; every release when absent)
//
// change: DEPRECATES or REMOVES; sentences and posts are parallel lists (sentence i was read in
// post i). Rows are in library, then version order (1.10 after 1.9).
MATCH (r:Release)-[d:DEPRECATES|REMOVES]->(x)
WHERE $release IS NULL OR r.name = $release
RETURN r.library AS library, r.name AS release, type(d) AS change, x.label AS label,
       x.name AS name, d.evidence AS sentences, d.sources AS posts
ORDER BY library, r.version_order, change, label, name
