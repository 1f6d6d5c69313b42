// name: posts-about
// description: The posts that mention an entity or a version of it, the most mentions first.
// param: name = "torch.fx"  (an entity name, any label)
//
// label: the label of the entity mentioned (two entities of different labels may share a name);
// mentioned: the name the post mentions, the asked one or a variant of it (VARIANT_OF: FSDP2 of
// FSDP, MI300X of MI300), so a post about FSDP2 only is a post about FSDP too, or the Feature
// that is the asked Library or Model (SAME_AS: "Emformer Module" of Emformer; one of the same
// name, such as the Feature functorch, is listed once, as itself).
MATCH (p:Post)-[m:MENTIONS]->(e)-[:VARIANT_OF|SAME_AS*0..1]->(f)
WHERE f.name = $name AND (e.label = f.label OR e.name <> f.name)
RETURN p.url AS url, p.title AS title, p.date AS date, m.count AS mentions, e.label AS label,
       e.name AS mentioned
ORDER BY mentions DESC, url, label, mentioned
