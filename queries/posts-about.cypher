// name: posts-about
// description: The posts that mention an entity, the most mentions first.
// param: name = "torch.fx"  (an entity name, any label)
//
// label: the label of the entity mentioned (two entities of different labels may share a name).
MATCH (p:Post)-[m:MENTIONS]->(e)
WHERE e.name = $name
RETURN p.url AS url, p.title AS title, p.date AS date, m.count AS mentions, e.label AS label
ORDER BY mentions DESC, url, label
