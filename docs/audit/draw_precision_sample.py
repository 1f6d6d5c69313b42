"""Draw the precision sample of a ptkg graph: 100 entity nodes (not Post), seed 12.

Usage: python docs/audit/draw_precision_sample.py GRAPH.json [SEED] > sample.json

The non-Post nodes of the node-link JSON written by `ptkg build` are sorted by id and
`random.Random(SEED).sample(nodes, 100)` picks the sample (seed 12: precision.md; seed 1201:
precision-1201.md). Stdlib only.
"""
import json
import random
import sys

SEED = 12
SIZE = 100


def draw(graph_path, seed=SEED, size=SIZE):
    with open(graph_path, encoding="utf-8") as f:
        graph = json.load(f)
    nodes = sorted((n for n in graph["nodes"] if n.get("label") != "Post"),
                   key=lambda n: n["id"])
    return random.Random(seed).sample(nodes, size)


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: draw_precision_sample.py GRAPH.json [SEED]")
    sample = draw(argv[1], int(argv[2]) if len(argv) == 3 else SEED)
    json.dump([{"id": n["id"], "label": n["label"], "name": n["name"]} for n in sample],
              sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
