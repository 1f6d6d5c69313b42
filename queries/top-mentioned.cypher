// name: top-mentioned
// description: The entities of one label mentioned by the most posts.
// param: label = "Feature"  (a node label: Library, Release, Feature, Hardware, Platform, Organization, Model)
// param: limit = 10  (how many rows)
//
// posts: how many posts mention it; mentions: how many times, all posts together.
MATCH (p:Post)-[m:MENTIONS]->(e)
WHERE e.label = $label
RETURN e.name AS name, COUNT(p) AS posts, SUM(m.count) AS mentions
ORDER BY posts DESC, mentions DESC, name
LIMIT $limit
