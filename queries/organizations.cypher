// name: organizations
// description: Who built what: the libraries, features and releases developed by each organization.
// param: organization = "Microsoft"  (optional: one Organization name; every one when absent)
MATCH (x)-[d:DEVELOPED_BY]->(o:Organization)
WHERE $organization IS NULL OR o.name = $organization
RETURN o.name AS organization, x.label AS label, x.name AS name, d.count AS reads
ORDER BY organization, label, name
