"""Benchmark: the whole-corpus graph page, a focused page, the timeline and the matrix, opened
in headless Chromium.

Run from the repo root (Debian's ``chromium`` and the ``test`` extra's playwright needed)::

    .venv/bin/python bench/render.py [--corpus PATH | --graph PATH] [--runs 5] [--screenshots DIR]

``--screenshots DIR`` saves, from the first run, ``graph-overview.png`` (the page as it opens),
``graph.png`` (after the search: the evidence panel) and ``timeline.png`` (scrolled to the
middle of the first lane's dots).

1. The graph of ``../shared/corpus/pytorch_blog.jsonl`` (or ``--corpus``) is built with the
   blank model (rule components alone; no cache), unless ``--graph`` gives one.
2. ``ptkg.render.render_graph`` (the whole graph, and ``--focus torch.compile --depth 2``),
   ``render_timeline`` and ``render_matrix`` write the pages (timed: layout, JSON and template,
   file write).
3. Each page is opened ``--runs`` times in headless Chromium from ``file://``, a fresh browser
   context each time, offline, every non-``file://`` request aborted, with the flags of
   ``tests/browser``. Measured:

   - **first stable frame**: ``window.ptkgReadyAt``, set by the page at its first frame drawn
     after the layout is settled (physics off: the first frame; physics on: the first after
     stabilization), in ms since navigation start: it covers parsing the 1 MB page, the JSON,
     building the network and drawing it;
   - **wall**: from ``page.goto`` to the page's ready mark, as the test harness sees it;
   - **search → panel**: a name put in the search box and Enter pressed (in the page) until
     the evidence panel shows it and the network has drawn the jump: the page is interactive;
   - **labels** (graph pages): labels drawn at the opening zoom, pairs of label boxes that
     overlap, and the labels' size on screen in px (as ``tests/browser/test_views.py``).

Medians and ranges are printed, with the node and edge counts, the file sizes, the load
average and whether the 5 s target is met. A benchmark, not a test: it never fails on timings.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "pytorch_blog.jsonl"
CHROMIUM = os.environ.get("PTKG_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND"]
VIEWPORT = {"width": 1400, "height": 900}
TARGET_MS = 5000
SEARCH = "PyTorch 2.0"
FOCUS = "torch.compile"


#: Put a name in the search box and press Enter, in the page; ms until the panel shows it and
#: the next frame is out (measured in the page: Playwright's own input waits are not).
SEARCH_JS = """(name) => new Promise((resolve) => {
    const box = document.getElementById("search");
    const started = performance.now();
    box.value = name;
    box.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
    requestAnimationFrame(() => setTimeout(() => {
        const title = document.querySelector("#panel:not([hidden]) h2");
        resolve(title && title.textContent === name ? performance.now() - started : -1);
    }));
})"""


#: Timeline screenshot: scroll the first lane so that its median dot is in the middle.
SCROLL_JS = """() => {
    const box = document.getElementById("timeline");
    if (!box) return;
    const xs = [...document.querySelectorAll(".lane")].slice(0, 1).flatMap((lane) =>
        [...lane.querySelectorAll("circle.cell")].map((c) => c.getBoundingClientRect().x));
    if (!xs.length) return;
    xs.sort((a, b) => a - b);
    box.scrollLeft = xs[Math.floor(xs.length / 2)] - box.getBoundingClientRect().x
        - box.clientWidth / 2;
}"""


#: The label figures of a graph page, as tests/browser/test_views.py measures them.
LABELS_JS = """() => {
  const net = ptkg.network, boxes = [];
  let undrawn = 0;
  for (const id of Object.keys(net.body.nodes)) {
    const label = net.body.nodes[id].labelModule;
    if (!label.visible()) { undrawn += 1; continue; }
    const s = label.size;
    boxes.push([s.left, s.top, s.left + s.width, s.top + s.height]);
  }
  let overlapping = 0;
  const tolerance = 0.5 / net.getScale();
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const p = boxes[i], q = boxes[j];
    if (Math.min(p[2], q[2]) - Math.max(p[0], q[0]) > tolerance
        && Math.min(p[3], q[3]) - Math.max(p[1], q[1]) > tolerance) overlapping += 1;
  }
  return {labels: boxes.length, undrawn, overlapping, fontPx: 13 * net.getScale()};
}"""


def open_once(browser, path: Path, *, search: str | None, screenshot: Path | None) -> dict:
    """Open ``path`` in a fresh offline context; the page's figures for this run."""
    context = browser.new_context(viewport=VIEWPORT, offline=True)
    page = context.new_page()
    requests, errors = [], []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file://")
               else r.abort())
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    started = time.perf_counter()
    page.goto(path.resolve().as_uri())
    page.wait_for_selector("body[data-ready='true']", state="attached", timeout=60_000)
    wall = (time.perf_counter() - started) * 1000
    figures = {"ready": page.evaluate("window.ptkgReadyAt"), "wall": wall,
               "requests": len(requests), "errors": errors}
    if page.evaluate("Boolean(window.ptkg && window.ptkg.network)"):
        figures["labels"] = page.evaluate(LABELS_JS)
    if search and screenshot:
        page.screenshot(path=str(screenshot.with_name(f"{screenshot.stem}-overview.png")))
    if search:
        figures["search"] = page.evaluate(SEARCH_JS, search)
    if screenshot:
        page.evaluate(SCROLL_JS)
        page.screenshot(path=str(screenshot))
    context.close()
    return figures


def summarize(values: list[float]) -> str:
    return (f"{statistics.median(values):7.0f} ms (min {min(values):.0f}, "
            f"max {max(values):.0f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--graph", type=Path, help="Use this graph file instead of building.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, help="Folder for the pages (default: a temp dir).")
    parser.add_argument("--screenshots", type=Path, help="Save a screenshot of each page here.")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from ptkg.build import build
    from ptkg.graph import read_graph
    from ptkg.render import render_graph, render_matrix, render_timeline

    out = args.out or Path(tempfile.mkdtemp(prefix="ptkg-bench-render-"))
    out.mkdir(parents=True, exist_ok=True)
    graph_path = args.graph
    if graph_path is None:
        if not args.corpus.exists():
            print(f"no corpus at {args.corpus}; pass --corpus or --graph", file=sys.stderr)
            return 1
        graph_path = out / "graph.json"
        started = time.perf_counter()
        build([args.corpus], graph_path, model="blank", cache=False)
        print(f"built {graph_path} from {args.corpus} (blank model) in "
              f"{time.perf_counter() - started:.1f} s")
    graph = read_graph(graph_path)

    pages = {}
    for name, render in [
            ("graph", lambda: render_graph(graph, out / "graph.html")),
            ("focus", lambda: render_graph(graph, out / "focus.html", focus=FOCUS, depth=2)),
            ("timeline", lambda: render_timeline(graph, out / "timeline.html")),
            ("matrix", lambda: render_matrix(graph, out / "matrix.html"))]:
        started = time.perf_counter()
        pages[name] = (render(), time.perf_counter() - started)

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} CPUs; runs: {args.runs}")
    print(f"graph: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                             headless=True)
        print(f"chromium {browser.version}")
        results = {}
        for name, (summary, render_seconds) in pages.items():
            runs = []
            for run in range(args.runs):
                shot = (args.screenshots / f"{name}.png"
                        if args.screenshots and run == 0 else None)
                if shot:
                    shot.parent.mkdir(parents=True, exist_ok=True)
                runs.append(open_once(browser, summary.path,
                                      search=SEARCH if name in ("graph", "focus") else None,
                                      screenshot=shot))
            results[name] = runs
            counts = ", ".join(f"{v} {k}" for k, v in summary.counts.items())
            print(f"\n{name}: {summary.path} ({counts})")
            print(f"  file size           {summary.size / 1e6:7.2f} MB")
            print(f"  render (Python)     {render_seconds * 1000:7.0f} ms")
            print(f"  first stable frame  {summarize([r['ready'] for r in runs])}")
            print(f"  wall (goto → ready) {summarize([r['wall'] for r in runs])}")
            if name in ("graph", "focus"):
                print(f"  search → panel      {summarize([r['search'] for r in runs])}")
                labels = runs[0]["labels"]
                print(f"  labels              {labels['labels']} drawn, {labels['undrawn']} "
                      f"not drawn (zoom in), {labels['overlapping']} overlapping pairs, "
                      f"{labels['fontPx']:.1f} px on screen")
            print(f"  requests            {sorted({r['requests'] for r in runs})} "
                  "(1 = the page itself)")
            errors = sorted({e for r in runs for e in r["errors"]})
            print(f"  console errors      {errors or 'none'}")
        browser.close()
    worst = max(statistics.median(r["ready"] for r in runs) for runs in results.values())
    print(f"\ntarget: first stable frame < {TARGET_MS / 1000:.0f} s: "
          f"{'met' if worst < TARGET_MS else 'NOT met'} (slowest median {worst:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
