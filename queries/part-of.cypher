// name: part-of
// description: What an entity is part of (PART_OF from it): the libraries a feature belongs to, the library a library joined.
// param: name = "FSDP"  (an entity name, any label)
//
// The other way round (what belongs to a library) is features-of-library.
MATCH (x)-[p:PART_OF]->(w)
WHERE x.name = $name
RETURN w.label AS label, w.name AS whole, p.count AS reads
ORDER BY label, whole, reads
