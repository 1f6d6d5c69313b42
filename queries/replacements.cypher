// name: replacements
// description: What replaced what: a new name, or a new thing that takes an older one's place (REPLACES), with the sentences and posts that say so.
// param: name = "MAGMA"  (optional: an entity name, any label: what replaced it, and what it replaced; every replacement when absent)
//
// A row is replacement REPLACES replaced, read from "X replaces Y", "Y was deprecated in favor
// of X", "X (formerly known as Y)", "X instead of Y" and a heading "Y -> X" (docs/schema.md).
// coalesce(x.name, "") is x.name (names are never null): it keeps grand-cypher 1.2.0 from
// index-hinting both ends of the edge for the OR.
MATCH (new)-[r:REPLACES]->(old)
WHERE $name IS NULL OR coalesce(old.name, "") = $name OR coalesce(new.name, "") = $name
RETURN old.label AS replaced_label, old.name AS replaced, new.label AS label,
       new.name AS replacement, r.evidence AS sentences, r.sources AS posts
ORDER BY replaced, replacement, replaced_label, label
