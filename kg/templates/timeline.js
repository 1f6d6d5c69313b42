/* ptkg timeline view: one lane per library, releases as columns in version order, one row per
 * feature with a dot, colored by stability, under each release that introduced it; a line
 * joins a feature's dots. Drawn as SVG with textContent only. "Newest release first" turns
 * the columns around and puts the newest release's features on top; the release heads stay
 * in view while the rows scroll; rows that look like extraction noise carry a flag.
 */
"use strict";

(() => {
  const {el, svg, Panel, markReady} = ptkgCommon;
  const data = ptkgCommon.readData();
  const $ = (id) => document.getElementById(id);
  const NAME_W = 290, COL_W = 64, HEAD_H = 44, ROW_H = 20, PAD = 16;

  document.title = data.title;
  $("title").textContent = data.title;
  ptkgCommon.stabilityKey($("stability-key"), data.styles);
  const panel = new Panel($("panel"), data, (i) => panel.showNode(i));
  const api = {data, panel};
  window.ptkg = api;

  const releases = data.libraries.reduce((n, lib) => n + lib.releases.length, 0);
  const features = data.libraries.reduce((n, lib) => n + lib.features.length, 0);
  const cells = data.libraries.reduce(
    (n, lib) => n + lib.features.reduce((m, f) => m + f.cells.length, 0), 0);
  const suspects = data.libraries.reduce(
    (n, lib) => n + lib.features.filter((f) => f.suspect.length).length, 0);
  Object.assign($("counts").dataset, {libraries: data.libraries.length, releases, features,
                                      cells, suspect: suspects});
  $("suspect-count").textContent = String(suspects);
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  $("counts").textContent = `${plural(releases, "release", "releases")} of `
    + `${plural(data.libraries.length, "library", "libraries")} · `
    + `${plural(features, "feature", "features")} · `
    + `${plural(cells, "introduction", "introductions")}`;

  if (data.empty) {
    $("empty").textContent = data.empty;
    $("empty").hidden = false;
    for (const id of ["library-filter", "newest-first", "suspect-only"]) $(id).disabled = true;
    markReady();
    return;
  }

  function truncate(text, max) {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  }

  const view = {newestFirst: Boolean(data.newestFirst), suspectOnly: false, library: ""};
  api.view = view;
  $("newest-first").checked = view.newestFirst;

  let selected = null;
  function select(circle, edge) {
    if (selected) selected.classList.remove("selected");
    selected = circle;
    circle.classList.add("selected");
    panel.showEdge(edge);
  }
  function clearPanel() {
    if (selected) selected.classList.remove("selected");
    selected = null;
    panel.hide();
  }
  function showFeature(library, feature) {
    panel.showNode(feature.node);
    if (feature.suspect.length) {
      panel.element.append(...ptkgCommon.suspectReport(data.nodes[feature.node], feature.suspect,
                                                       library.name));
    }
  }

  /* A library's lane: release heads that stay in view on top, feature names that stay in view
   * on the left, and the grid of releases × features. */
  function lane(library, k) {
    const count = library.releases.length;
    const col = (c) => (view.newestFirst ? count - 1 - c : c);
    const first = (f) => Math.min(...f.cells.map((c) => col(c.column)));
    let features = library.features;
    if (view.newestFirst) {
      // the newest release's features on top: by their first column in the turned order
      features = features.map((f, r) => [f, r]).sort((a, b) => first(a[0]) - first(b[0])
        || a[1] - b[1]).map(([f]) => f);
    }
    if (view.suspectOnly) features = features.filter((f) => f.suspect.length);
    const rows = Math.max(features.length, 1);
    const height = rows * ROW_H + 6;
    const width = library.releases.length * COL_W + PAD;
    const x = (column) => column * COL_W + COL_W / 2;
    const rowY = (r) => r * ROW_H + ROW_H / 2;
    const heads = svg("svg", {class: "heads", width, height: HEAD_H,
                              viewBox: `0 0 ${width} ${HEAD_H}`});
    const names = svg("svg", {class: "names", width: NAME_W, height,
                              viewBox: `0 0 ${NAME_W} ${height}`});
    const grid = svg("svg", {class: "cells", width, height, viewBox: `0 0 ${width} ${height}`,
                             role: "img", "aria-label": `${library.name} releases`});
    for (let r = 0; r < features.length; r += 2) {
      for (const [root, w] of [[names, NAME_W], [grid, width]]) {
        root.append(svg("rect", {class: "stripe", x: 0, y: r * ROW_H, width: w,
                                 height: ROW_H}));
      }
    }
    library.releases.forEach((release, c) => {
      const column = col(c);
      const name = data.nodes[release.node].name;
      grid.append(svg("line", {class: "column", x1: x(column), y1: 0, x2: x(column),
                               y2: height}));
      const version = svg("text", {class: "version", x: x(column), y: 16,
                                   "text-anchor": "middle"},
                          truncate(release.version || name, 10), svg("title", {}, name));
      version.addEventListener("click", () => panel.showNode(release.node));
      heads.append(version, svg("text", {class: "date", x: x(column), y: 31,
                                         "text-anchor": "middle"}, release.date));
    });
    if (!features.length) {
      names.append(svg("text", {class: "none", x: NAME_W - 12, y: rowY(0) + 4,
                                "text-anchor": "end"}, view.suspectOnly
        ? "no row looks like noise" : "no feature introduced"));
    }
    features.forEach((feature, r) => {
      const y = rowY(r);
      const node = data.nodes[feature.node];
      const suspect = feature.suspect.length > 0;
      if (suspect) {
        for (const [root, w] of [[names, NAME_W], [grid, width]]) {
          root.append(svg("rect", {class: "suspect-row", x: 0, y: r * ROW_H, width: w,
                                   height: ROW_H}));
        }
      }
      const label = svg("text", {class: suspect ? "feature suspect" : "feature", x: NAME_W - 12,
                                 y: y + 4, "text-anchor": "end",
                                 "data-node": String(feature.node)},
                        (suspect ? "⚑ " : "") + truncate(node.name, suspect ? 38 : 40),
                        svg("title", {}, suspect ? `${node.name}: looks like noise `
                            + `(${feature.suspect.join(", ")})` : node.name));
      label.addEventListener("click", () => showFeature(library, feature));
      names.append(label);
      if (feature.cells.length > 1) {
        const xs = feature.cells.map((c) => x(col(c.column)));
        grid.append(svg("line", {class: "through", x1: Math.min(...xs), y1: y,
                                 x2: Math.max(...xs), y2: y}));
      }
      for (const cell of feature.cells) {
        const release = data.nodes[library.releases[cell.column].node].name;
        const circle = svg("circle", {class: "cell", cx: x(col(cell.column)), cy: y, r: 6.5,
                                      fill: data.styles.stability[cell.stability] || "#444",
                                      "data-edge": cell.edge},
                           svg("title", {}, `${node.name}: `
                               + `${cell.stability || "stability not stated"} in ${release}`));
        circle.addEventListener("click", () => select(circle, cell.edge));
        grid.append(circle);
      }
    });
    return el("section", {className: "lane", dataset: {library: library.name, index: String(k)}},
      el("div", {className: "lane-grid"},
         el("div", {className: "corner", style: `width:${NAME_W}px;height:${HEAD_H}px`},
            el("h2", {}, library.name),
            el("div", {className: "meta"},
               `${plural(library.releases.length, "release", "releases")} · `
               + plural(library.features.length, "feature", "features")
               + (view.newestFirst ? " · newest first" : ""))),
         el("div", {className: "heads"}, heads),
         el("div", {className: "names"}, names),
         el("div", {className: "cells"}, grid)));
  }

  const container = $("timeline");
  function draw() {
    selected = null;
    container.replaceChildren(...data.libraries.map((library, k) => {
      const section = lane(library, k);
      section.hidden = view.library !== "" && String(k) !== view.library;
      return section;
    }));
  }
  data.libraries.forEach((library, k) => {
    $("library-filter").append(el("option", {value: String(k)}, library.name));
  });
  draw();
  $("library-filter").addEventListener("change", (event) => {
    view.library = event.target.value;
    clearPanel();  // the panel spoke of the library shown before
    for (const section of container.querySelectorAll(".lane")) {
      section.hidden = view.library !== "" && section.dataset.index !== view.library;
    }
    container.scrollTop = 0;
  });
  $("newest-first").addEventListener("change", (event) => {
    view.newestFirst = event.target.checked;
    clearPanel();
    draw();
  });
  $("suspect-only").addEventListener("change", (event) => {
    view.suspectOnly = event.target.checked;
    clearPanel();
    draw();
  });
  requestAnimationFrame(() => requestAnimationFrame(markReady));
})();
