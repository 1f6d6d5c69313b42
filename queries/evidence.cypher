// name: evidence
// description: The sentences and posts behind the relations from one entity to another.
// param: source = "torchvision 0.6"  (the name of the relation's start node)
// param: target = "PyTorch 1.5"  (the name of the relation's end node)
// param: type = "RELEASED_WITH"  (optional: one relationship type; every type when absent)
//
// sentences and posts are parallel lists: sentence i was read in post i. What has replaced
// the source since is a row too (REPLACES, its source the replacement): "Is functorch part of
// PyTorch now?" holds, and its APIs are torch.func now.
// coalesce(b.name, "") is b.name (names are never null): it keeps grand-cypher 1.2.0 from
// index-hinting both ends of one edge, which misses edges keyed by type (no rows at all).
MATCH (a)-[r]->(b)
WHERE (a.name = $source AND coalesce(b.name, "") = $target AND ($type IS NULL OR type(r) = $type))
   OR (type(r) = "REPLACES" AND coalesce(b.name, "") = $source)
RETURN type(r) AS relation, a.label AS source_label, a.name AS source, b.label AS target_label,
       b.name AS target, r.count AS reads, r.evidence AS sentences, r.sources AS posts,
       r.rules AS rules
ORDER BY relation, source_label, target_label
