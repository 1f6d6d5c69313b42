// name: organizations
// description: Who built what: the libraries, features and releases developed by each organization.
// param: organization = "Microsoft"  (optional: one Organization name; every one when absent)
// param: name = "ZeroRedundancyOptimizer"  (optional: an entity name, any label: only what it is developed by)
//
// coalesce(x.name, "") is x.name (names are never null): with both parameters given it keeps
// grand-cypher 1.2.0 from index-hinting both ends of the edge (no rows at all).
MATCH (x)-[d:DEVELOPED_BY]->(o:Organization)
WHERE ($organization IS NULL OR o.name = $organization)
  AND ($name IS NULL OR coalesce(x.name, "") = $name)
RETURN o.name AS organization, x.label AS label, x.name AS name, d.count AS reads
ORDER BY organization, label, name
