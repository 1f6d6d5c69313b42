// name: announcements
// description: The posts that announce each release, with their dates: when a release came out.
// param: library = "PyTorch"  (optional: one Library name; every library when absent)
// param: release = "PyTorch 1.8"  (optional: one Release name: "When was PyTorch 2.12 released?")
//
// Rows are in library, then version order, then url.
MATCH (p:Post)-[:ANNOUNCES]->(r:Release)
WHERE ($library IS NULL OR r.library = $library) AND ($release IS NULL OR r.name = $release)
RETURN r.library AS library, r.name AS release, p.date AS date, p.title AS title, p.url AS url
ORDER BY library, r.version_order, url
