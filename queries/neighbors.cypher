// name: neighbors
// description: An entity's typed neighborhood: every relation to or from it, except MENTIONS.
// param: name = "torch.fx"  (an entity name, any label)
//
// The posts that mention an entity are in posts-about. coalesce(x.name, "") is x.name (names
// are never null): it keeps grand-cypher 1.2.0 from index-hinting both ends of the edge for
// the OR, which misses edges keyed by type (no rows at all).
MATCH (a)-[r]->(b)
WHERE (coalesce(a.name, "") = $name OR coalesce(b.name, "") = $name) AND type(r) <> "MENTIONS"
RETURN a.label AS source_label, a.name AS source, type(r) AS relation, b.label AS target_label,
       b.name AS target
ORDER BY relation, source, target, source_label, target_label
