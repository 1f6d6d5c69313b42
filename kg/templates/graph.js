/* ptkg graph view: vis-network on precomputed positions, filters, search and the evidence panel.
 *
 * The page opens still, on positions computed in Python so that no two labels overlap (up to
 * 150 nodes); the "physics" box lets the layout move. Filters hide labels, relationship types,
 * or all but one release (library, then version) and its neighbors; a node that the filters
 * leave without any edge is hidden too (unless the "hide nodes..." box is cleared). One node at
 * a time carries the highlight ring: the one searched for, jumped to or clicked.
 *
 * window.ptkg exposes the data, the network and the visible state, for tests and for anyone
 * curious in the console. body[data-ready="true"] and window.ptkgReadyAt (ms since navigation)
 * mark the first stable frame.
 */
"use strict";

(() => {
  const {el, Panel, markReady} = ptkgCommon;
  const data = ptkgCommon.readData();
  const $ = (id) => document.getElementById(id);
  const labelStyle = (label) => data.styles.labels[label] || {color: "#444", shape: "dot"};
  const big = !data.physics && data.nodes.length > 0;

  document.title = data.title;
  $("title").textContent = data.title;
  $("subtitle").textContent = data.subtitle;
  $("notice").textContent = data.notice;
  $("physics").checked = data.physics;

  const state = {
    labels: new Set(data.labels),
    types: new Set(data.types),
    release: null,
    hideOrphans: true,
    orphans: 0,
    nodeVisible: data.nodes.map(() => true),
    edgeVisible: data.edges.map(() => true),
    highlighted: null,
  };
  const api = {data, state, network: null, nodes: null, edges: null};
  window.ptkg = api;

  function showCounts() {
    const n = state.nodeVisible.filter(Boolean).length;
    const m = state.edgeVisible.filter(Boolean).length;
    const counts = $("counts");
    Object.assign(counts.dataset, {nodes: data.nodes.length, edges: data.edges.length,
                                   visibleNodes: n, visibleEdges: m, orphans: state.orphans});
    const total = `${data.nodes.length} nodes · ${data.edges.length} edges`;
    const orphans = state.orphans ? `; ${state.orphans} left without edges hidden` : "";
    counts.textContent = n === data.nodes.length && m === data.edges.length
      ? total : `${total} (showing ${n} · ${m}${orphans})`;
  }

  // ------------------------------------------------------------------ legend and filters
  const labelCounts = {}, typeCounts = {};
  for (const node of data.nodes) labelCounts[node.label] = (labelCounts[node.label] || 0) + 1;
  for (const edge of data.edges) typeCounts[edge.type] = (typeCounts[edge.type] || 0) + 1;

  function checkbox(name, value, checked) {
    return el("input", {type: "checkbox", name, value, checked});
  }
  for (const label of data.labels) {
    const box = checkbox("label", label, true);
    $("label-filters").append(el("label", {}, box, ptkgCommon.shapeIcon(labelStyle(label)),
                                 label, el("span", {className: "count"}, labelCounts[label])));
    box.addEventListener("change", () => {
      box.checked ? state.labels.add(label) : state.labels.delete(label);
      applyFilters();
    });
  }
  for (const type of data.types) {
    const box = checkbox("type", type, true);
    const color = type === "INTRODUCES" ? data.styles.stability.Beta : data.styles.types[type];
    $("type-filters").append(el("label", {}, box, ptkgCommon.lineIcon(color, 2), type,
                                el("span", {className: "count"}, typeCounts[type])));
    box.addEventListener("change", () => {
      box.checked ? state.types.add(type) : state.types.delete(type);
      applyFilters();
    });
  }
  /* The release filter: a library, then one of its releases in version order. */
  const releaseCount = data.releaseGroups.reduce((n, g) => n + g.releases.length, 0);
  function fillReleases(group) {
    const select = $("release-filter");
    const groups = group === "" ? data.releaseGroups : [data.releaseGroups[Number(group)]];
    select.replaceChildren(el("option", {value: ""}, group === "" ? "All releases"
      : `All ${groups[0].library} releases`));
    for (const g of groups) {
      const options = g.releases.map((i) => el("option", {value: String(i)},
                                                data.nodes[i].name));
      if (groups.length > 1) select.append(el("optgroup", {label: g.library}, ...options));
      else select.append(...options);
    }
  }
  if (!releaseCount) {
    $("release-library").replaceChildren(el("option", {value: ""}, "no releases"));
    $("release-filter").replaceChildren(el("option", {value: ""}, "no releases"));
    $("release-library").disabled = true;
    $("release-filter").disabled = true;
  } else {
    data.releaseGroups.forEach((g, k) => $("release-library").append(
      el("option", {value: String(k)}, `${g.library} (${g.releases.length})`)));
    fillReleases("");
  }
  /* Fit the view to what shows (after the release filter or a reset changed it). */
  function fitVisible() {
    if (!api.network) return;
    const shown = data.nodes.map((_, i) => i).filter((i) => state.nodeVisible[i]);
    if (shown.length) api.network.fit({nodes: shown, animation: false});
  }
  $("release-library").addEventListener("change", (event) => {
    fillReleases(event.target.value);
    if (state.release !== null) {
      state.release = null;
      applyFilters();
      fitVisible();
    }
  });
  $("release-filter").addEventListener("change", (event) => {
    state.release = event.target.value === "" ? null : Number(event.target.value);
    applyFilters();
    fitVisible();
  });
  $("orphans").addEventListener("change", (event) => {
    state.hideOrphans = event.target.checked;
    applyFilters();
  });
  ptkgCommon.stabilityKey($("stability-key"), data.styles);
  $("reset").addEventListener("click", () => {
    for (const box of document.querySelectorAll("#filters input[type=checkbox]")) {
      box.checked = true;
    }
    state.labels = new Set(data.labels);
    state.types = new Set(data.types);
    state.hideOrphans = true;
    if (releaseCount) {
      $("release-library").value = "";
      fillReleases("");
    }
    state.release = null;
    applyFilters();
    fitVisible();
  });

  const neighbors = data.nodes.map(() => []);
  for (const edge of data.edges) {
    neighbors[edge.from].push(edge.to);
    neighbors[edge.to].push(edge.from);
  }

  const centers = new Set(data.centers);
  /* Labels and release decide which nodes may show; types, and both ends showing, which edges;
   * then a node that had edges and has none left is hidden (an orphan the filters made). */
  function applyFilters() {
    const near = state.release === null ? null : new Set([state.release,
                                                          ...neighbors[state.release]]);
    const candidate = data.nodes.map((node, i) => state.labels.has(node.label)
                                     && (near === null || near.has(i)));
    const degree = data.nodes.map(() => 0);
    const nodeUpdates = [], edgeUpdates = [];
    data.edges.forEach((edge, j) => {
      const visible = state.types.has(edge.type) && candidate[edge.from] && candidate[edge.to];
      if (visible !== state.edgeVisible[j]) edgeUpdates.push({id: j, hidden: !visible});
      state.edgeVisible[j] = visible;
      if (visible) {
        degree[edge.from] += 1;
        degree[edge.to] += 1;
      }
    });
    state.orphans = 0;
    data.nodes.forEach((node, i) => {
      let visible = candidate[i];
      if (visible && state.hideOrphans && degree[i] === 0 && neighbors[i].length
          && !centers.has(i) && i !== state.release) {
        visible = false;
        state.orphans += 1;
      }
      if (visible !== state.nodeVisible[i]) nodeUpdates.push({id: i, hidden: !visible});
      state.nodeVisible[i] = visible;
    });
    if (api.nodes) {
      api.nodes.update(nodeUpdates);
      api.edges.update(edgeUpdates);
    }
    showCounts();
  }
  api.applyFilters = applyFilters;

  showCounts();
  if (data.empty) {
    $("empty").textContent = data.empty;
    $("empty").hidden = false;
    for (const id of ["search", "physics", "fit", "reset", "release-filter", "release-library",
                      "orphans"]) {
      $(id).disabled = true;
    }
    markReady();
    return;
  }

  // ------------------------------------------------------------------ the network
  function visNode(node, i) {
    const style = labelStyle(node.label);
    return {
      id: i, label: node.text, title: node.text === node.name ? undefined : node.name,
      x: node.x, y: node.y, size: node.size,
      shape: style.shape, color: {background: style.color, border: style.dashes ? "#222" : style.color,
                                   highlight: {background: style.color, border: "#111"},
                                   hover: {background: style.color, border: "#111"}},
      shapeProperties: {borderDashes: style.dashes ? [3, 2] : false},
      borderWidth: style.dashes ? 2 : 1,
    };
  }
  function visEdge(edge, j) {
    let color = data.styles.types[edge.type] || data.styles.edge;
    let width = 1;
    if (edge.type === "INTRODUCES") {
      color = data.styles.stability[edge.props.stability || ""];
      width = 2.5;
    } else if (edge.type === "MENTIONS") {
      width = 0.6;
    }
    const smooth = edge.curve ? {enabled: true, type: "curvedCW", roundness: edge.curve}
                              : {enabled: false};
    return {
      id: j, from: edge.from, to: edge.to, label: edge.type, width, smooth,
      color: {color, highlight: "#111", hover: "#333"},
      font: edge.type === "MENTIONS" ? {color: "#9a9a9a"} : {},
    };
  }

  const nodes = new vis.DataSet(data.nodes.map(visNode));
  const edges = new vis.DataSet(data.edges.map(visEdge));
  const options = {
    autoResize: true,
    layout: {improvedLayout: false, randomSeed: 1},
    // the "physics" box turns the same solver on for a page that opened still
    physics: {
      enabled: data.physics, solver: "barnesHut",
      barnesHut: {gravitationalConstant: -4000, springLength: 140, springConstant: 0.02,
                  damping: 0.3, avoidOverlap: 0.2},
      stabilization: {enabled: data.physics, iterations: 300, updateInterval: 50, fit: true},
    },
    interaction: {hover: true, hideEdgesOnDrag: big, hideEdgesOnZoom: big, tooltipDelay: 300,
                  multiselect: false, keyboard: false},
    // label sizes as the layout assumed them: no bold label on selection or hover
    nodes: {font: {face: "system-ui, DejaVu Sans, sans-serif", size: 13, color: "#1f2328",
                   strokeWidth: 3, strokeColor: "#ffffff"},
            chosen: {node: true, label: false},
            scaling: {label: {drawThreshold: 6}}},
    // relationship types are read when zoomed in (9px text at a scale of 1.2 and more)
    edges: {arrows: {to: {enabled: true, scaleFactor: 0.45}}, selectionWidth: 2,
            hoverWidth: 1.5, chosen: {edge: true, label: false},
            font: {face: "system-ui, DejaVu Sans, sans-serif", size: 9, color: "#57606a",
                   strokeWidth: 2, strokeColor: "#ffffff", align: "middle"},
            scaling: {label: {drawThreshold: 12}}},
  };
  // the panel of a focused page opens first, so that the view is fitted to the canvas it has
  const panel = new Panel($("panel"), data, (i) => jumpTo(i));
  api.panel = panel;
  if (data.centers.length) panel.showNode(data.centers[0]);

  const network = new vis.Network($("network"), {}, options);
  Object.assign(api, {network, nodes, edges});

  if (data.physics) {
    network.once("stabilizationIterationsDone", () => network.once("afterDrawing", markReady));
  } else {
    // the labels' sizes are known once drawn: fit again so that none sticks out of the view
    network.once("afterDrawing", () => {
      network.fit({animation: false});
      network.once("afterDrawing", markReady);
    });
  }
  network.setData({nodes, edges});
  if (!data.physics) network.fit({animation: false});

  // ------------------------------------------------------------------ panel and search

  /* The highlight ring: on one node at a time (null: on none). */
  function highlight(i) {
    if (state.highlighted !== null) {
      nodes.update({id: state.highlighted, borderWidth: visNode(data.nodes[state.highlighted])
        .borderWidth, color: visNode(data.nodes[state.highlighted]).color});
    }
    state.highlighted = i;
    if (i === null) return;
    const style = labelStyle(data.nodes[i].label);
    nodes.update({id: i, borderWidth: 5, color: {background: style.color, border: "#ff2d55",
                                                 highlight: {background: style.color,
                                                             border: "#ff2d55"}}});
  }

  function jumpTo(i) {
    $("status").textContent = state.nodeVisible[i] ? "" : "hidden by the filters";
    panel.showNode(i);
    highlight(i);
    network.setSize("100%", "100%");  // the panel may have just narrowed the canvas
    network.selectNodes([i]);
    network.focus(i, {scale: Math.max(network.getScale(), 0.8), animation: false});
  }
  api.jumpTo = jumpTo;
  api.showNode = (i) => panel.showNode(i);
  api.showEdge = (j) => panel.showEdge(j);

  network.on("click", (params) => {
    $("status").textContent = "";
    if (params.nodes.length) {
      panel.showNode(params.nodes[0]);
      highlight(params.nodes[0]);
    } else if (params.edges.length) {
      panel.showEdge(params.edges[0]);
      highlight(null);
    } else {
      panel.hide();
      highlight(null);
    }
  });

  const names = $("names");
  const seen = new Set();
  for (const node of data.nodes) {
    if (!seen.has(node.name)) names.append(el("option", {value: node.name}));
    seen.add(node.name);
  }

  /* The node named (name or alias; exact, then prefix, then substring; case-insensitive). */
  function find(query) {
    const q = query.trim().toLocaleLowerCase();
    if (!q) return null;
    const tests = [
      (n) => n.name.toLocaleLowerCase() === q,
      (n) => n.aliases.some((a) => a.toLocaleLowerCase() === q),
      (n) => n.name.toLocaleLowerCase().startsWith(q),
      (n) => n.name.toLocaleLowerCase().includes(q),
    ];
    for (const test of tests) {
      const i = data.nodes.findIndex(test);
      if (i >= 0) return i;
    }
    return null;
  }
  function search() {
    const i = find($("search").value);
    if (i === null) {
      $("status").textContent = $("search").value.trim() ? "no such name" : "";
      return;
    }
    jumpTo(i);
  }
  api.find = find;
  $("search").addEventListener("keydown", (event) => {
    if (event.key === "Enter") search();
  });
  $("search").addEventListener("change", search);

  $("physics").addEventListener("change", (event) => {
    network.setOptions({physics: {enabled: event.target.checked}});
  });
  $("fit").addEventListener("click", () => network.fit({animation: false}));

  if (data.centers.length) {
    network.selectNodes(data.centers);
    highlight(data.centers[0]);
  }

  // ------------------------------------------------------------------ start here
  const plural = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const start = [["start-releases", data.start.releases, (n) => plural(n, "feature")],
                 ["start-features", data.start.features, (n) => plural(n, "relation")]];
  for (const [id, rows, unit] of start) {
    for (const [i, n] of rows) {
      const button = el("button", {type: "button", className: "jump"}, data.nodes[i].name);
      button.addEventListener("click", () => jumpTo(i));
      $(id).append(el("div", {className: "start-row"}, button,
                      el("span", {className: "count"}, unit(n))));
    }
  }
  $("start").hidden = !(data.start.releases.length || data.start.features.length);
})();
