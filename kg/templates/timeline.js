/* ptkg timeline view: one lane per library, releases as columns in version order, one row per
 * feature with a dot, colored by stability, under each release that introduced it; a line
 * joins a feature's dots. Drawn as SVG with textContent only.
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
  Object.assign($("counts").dataset, {libraries: data.libraries.length, releases, features,
                                      cells});
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  $("counts").textContent = `${plural(releases, "release", "releases")} of `
    + `${plural(data.libraries.length, "library", "libraries")} · `
    + `${plural(features, "feature", "features")} · `
    + `${plural(cells, "introduction", "introductions")}`;

  if (data.empty) {
    $("empty").textContent = data.empty;
    $("empty").hidden = false;
    $("library-filter").disabled = true;
    markReady();
    return;
  }

  function truncate(text, max) {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  }

  let selected = null;
  function select(circle, edge) {
    if (selected) selected.classList.remove("selected");
    selected = circle;
    circle.classList.add("selected");
    panel.showEdge(edge);
  }

  /* A library's lane: release heads that stay in view on top, feature names that stay in view
   * on the left, and the grid of releases × features. */
  function lane(library, k) {
    const rows = Math.max(library.features.length, 1);
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
    for (let r = 0; r < library.features.length; r += 2) {
      for (const [root, w] of [[names, NAME_W], [grid, width]]) {
        root.append(svg("rect", {class: "stripe", x: 0, y: r * ROW_H, width: w,
                                 height: ROW_H}));
      }
    }
    library.releases.forEach((release, column) => {
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
    if (!library.features.length) {
      names.append(svg("text", {class: "none", x: NAME_W - 12, y: rowY(0) + 4,
                                "text-anchor": "end"}, "no feature introduced"));
    }
    library.features.forEach((feature, r) => {
      const y = rowY(r);
      const node = data.nodes[feature.node];
      const label = svg("text", {class: "feature", x: NAME_W - 12, y: y + 4,
                                 "text-anchor": "end"}, truncate(node.name, 40),
                        svg("title", {}, node.name));
      label.addEventListener("click", () => panel.showNode(feature.node));
      names.append(label);
      if (feature.cells.length > 1) {
        const first = feature.cells[0].column, last = feature.cells.at(-1).column;
        grid.append(svg("line", {class: "through", x1: x(first), y1: y, x2: x(last), y2: y}));
      }
      for (const cell of feature.cells) {
        const release = data.nodes[library.releases[cell.column].node].name;
        const circle = svg("circle", {class: "cell", cx: x(cell.column), cy: y, r: 6.5,
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
               + plural(library.features.length, "feature", "features"))),
         el("div", {className: "heads"}, heads),
         el("div", {className: "names"}, names),
         el("div", {className: "cells"}, grid)));
  }

  const container = $("timeline");
  data.libraries.forEach((library, k) => {
    container.append(lane(library, k));
    $("library-filter").append(el("option", {value: String(k)}, library.name));
  });
  $("library-filter").addEventListener("change", (event) => {
    for (const section of container.querySelectorAll(".lane")) {
      section.hidden = event.target.value !== "" && section.dataset.index !== event.target.value;
    }
  });
  requestAnimationFrame(() => requestAnimationFrame(markReady));
})();
