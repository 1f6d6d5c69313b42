// name: feature-stability
// description: Every release that introduces a feature, or a feature named after it and built on it, with the stability it gave and the post it said so in.
// param: feature = "torch.fx"  (a Feature name)
//
// feature: the asked feature, or one named after it and built on it (BASED_ON: 2.12's
// "Inductor FlexAttention pipelining" of FlexAttention), whose own stability the row gives;
// stability: what the release's post states (null when it states none); named: the name that
// post gave the feature when not its own (BetterTransformer as 2.0's "Accelerated PyTorch 2
// Transformers"). Rows are in library, then version order (1.10 after 1.9).
MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)-[:BASED_ON*0..1]->(g:Feature)
WHERE g.name = $feature AND f.name CONTAINS g.name
RETURN r.library AS library, r.name AS release, r.version AS version, r.date AS date,
       f.name AS feature, i.stability AS stability, i.named AS named, i.sources AS posts
ORDER BY library, r.version_order, feature
