// name: feature-stability
// description: Every release that introduces a feature, with the stability it gave and the post it said so in.
// param: feature = "torch.fx"  (a Feature name)
//
// stability: what the release's post states (null when it states none); named: the name that
// post gave the feature when not its own (BetterTransformer as 2.0's "Accelerated PyTorch 2
// Transformers"). Rows are in library, then version order (1.10 after 1.9).
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
WHERE f.name = $feature
RETURN r.library AS library, r.name AS release, r.version AS version, r.date AS date,
       i.stability AS stability, i.named AS named, i.sources AS posts
ORDER BY library, r.version_order
