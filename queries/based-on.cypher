// name: based-on
// description: What an entity is built on, and what is built on it (BASED_ON either way), with the sentences and posts that say so.
// param: name = "ZeroRedundancyOptimizer"  (an entity name, any label)
//
// A row is source BASED_ON target: the asked entity is the source when it builds on the
// target ("TorchRec ... powered by FBGEMM"), the target when something builds on it.
// coalesce(x.name, "") is x.name (names are never null): it keeps grand-cypher 1.2.0 from
// index-hinting both ends of the edge for the OR (no rows at all).
MATCH (a)-[b:BASED_ON]->(c)
WHERE coalesce(a.name, "") = $name OR coalesce(c.name, "") = $name
RETURN a.label AS source_label, a.name AS source, c.label AS target_label, c.name AS target,
       b.evidence AS sentences, b.sources AS posts
ORDER BY source, target, source_label, target_label
