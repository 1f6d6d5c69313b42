// name: features-of-library
// description: The features that belong to a library (PART_OF), with their latest stability.
// param: library = "PyTorch/XLA"  (a Library name)
MATCH (f:Feature)-[:PART_OF]->(l:Library)
WHERE l.name = $library
RETURN f.name AS feature, f.stability AS stability
ORDER BY feature
