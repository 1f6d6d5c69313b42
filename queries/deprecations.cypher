// name: deprecations
// description: What releases deprecate or remove (features, libraries, hardware, platforms, releases), with the sentences and posts that say so.
// param: release = "PyTorch 1.5"  (optional: one Release name; every release when absent)
// param: library = "torchvision"  (optional: a Library name: only its releases' deprecations)
// param: name = "Python 2"  (optional: an entity name, any label: only when it is what ends)
// param: versions_of = "Python"  (optional: a Library name: only its releases as what ends, "Which CUDA versions were removed?")
//
// Asked about a core release, the rows are also those of the library releases shipped with it
// (RELEASED_WITH): "What did PyTorch 1.5 drop support for?" is Python 2, by PyTorch 1.5 and by
// torchaudio 0.5, torchtext 0.6 and torchvision 0.6; the release column says whose it is.
// They are also what the asked release's own post says another release ended (d.stated_in,
// see docs/schema.md): "Torchscript was deprecated in 2.10", in the 2.12 post, is a row of
// PyTorch 2.10 when PyTorch 2.12 is asked.
// change: DEPRECATES or REMOVES; sentences and posts are parallel lists (sentence i was read in
// post i). Rows are in library, then version order (1.10 after 1.9). coalesce(x.name, "") is
// x.name (never null): it keeps grand-cypher 1.2.0 from index-hinting both ends of an edge.
MATCH (x)<-[d:DEPRECATES|REMOVES]-(r:Release)-[:RELEASED_WITH*0..1]->(asked:Release)
WHERE (($release IS NULL AND r.name = asked.name) OR asked.name = $release
       OR (r.name = asked.name
           AND coalesce(d.stated_in, "") CONTAINS "|" + coalesce($release, "") + "|"))
  AND ($library IS NULL OR coalesce(r.library, "") = $library)
  AND ($name IS NULL OR coalesce(x.name, "") = $name)
  AND ($versions_of IS NULL OR coalesce(x.library, "") = $versions_of)
RETURN r.library AS library, r.name AS release, type(d) AS change, x.label AS label,
       x.name AS name, d.evidence AS sentences, d.sources AS posts
ORDER BY library, r.version_order, change, label, name
