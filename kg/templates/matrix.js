/* ptkg matrix view: per library, one row per feature, one column per release in version order;
 * a cell is colored by the stability that release stated, marked when it deprecates (⊘) or
 * removes (✕) the row's entity, and opens its evidence. Rows sort and filter in the page.
 * Built with textContent only; window.ptkg exposes the data and the view state for tests.
 */
"use strict";

(() => {
  const {el, Panel, markReady} = ptkgCommon;
  const data = ptkgCommon.readData();
  const $ = (id) => document.getElementById(id);
  const UNSTATED = "";
  const RANK = {"": 0, Prototype: 1, Beta: 2, "API-Unstable": 2, Stable: 3, "API-Stable": 3};

  document.title = data.title;
  $("title").textContent = data.title;
  const panel = new Panel($("panel"), data, (i) => panel.showNode(i));
  const view = {library: 0, find: "", sort: "first", deprecatedOnly: false, suspectOnly: false,
                stabilities: new Set(Object.keys(data.styles.stability))};
  const api = {data, panel, view};
  window.ptkg = api;

  if (data.empty) {
    $("empty").textContent = data.empty;
    $("empty").hidden = false;
    for (const id of ["library", "find", "sort", "deprecated-only", "suspect-only"]) {
      $(id).disabled = true;
    }
    $("counts").textContent = "0 features × 0 releases";
    markReady();
    return;
  }

  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  data.libraries.forEach((library, k) => $("library").append(el("option", {value: String(k)},
    `${library.name} (${plural(library.rows.length, "row", "rows")})`)));
  for (const [name, color] of Object.entries(data.styles.stability)) {
    const box = el("input", {type: "checkbox", name: "stability", value: name, checked: true});
    box.addEventListener("change", () => {
      box.checked ? view.stabilities.add(name) : view.stabilities.delete(name);
      draw();
    });
    $("stability-filters").append(el("label", {}, box,
      el("span", {className: "swatch", style: `background:${color}`}), name || "not stated"));
  }

  function cellTitle(row, cell, library) {
    const name = data.nodes[row.node].name;
    const release = data.nodes[library.releases[cell.column].node].name;
    const parts = [];
    if (cell.introduced) {
      parts.push(cell.stability ? `${cell.stability} in ${release}` + (cell.stated
        ? ` (stated: ${cell.stated})` : "") : `in ${release}, stability not stated`);
    }
    if (cell.deprecated) parts.push(`deprecated by ${release}`);
    if (cell.removed) parts.push(`removed by ${release}`);
    return `${name}: ${parts.join("; ")}`;
  }

  function openCell(row, cell, library, button) {
    const current = document.querySelector("#matrix .cell.selected");
    if (current) current.classList.remove("selected");
    button.classList.add("selected");
    requestAnimationFrame(() => button.scrollIntoView({block: "nearest", inline: "nearest"}));
    const node = data.nodes[row.node];
    const release = data.nodes[library.releases[cell.column].node];
    const extra = row.suspect.length ? ptkgCommon.suspectReport(node, row.suspect, release.name)
                                     : null;
    panel.showEdges(`${node.name} in ${release.name}`, cellTitle(row, cell, library),
                    cell.edges, extra);
  }

  function openRow(row, library) {
    panel.showNode(row.node);
    if (row.suspect.length) {
      panel.element.append(...ptkgCommon.suspectReport(data.nodes[row.node], row.suspect,
                                                       library.name));
    }
  }

  function matches(row) {
    const name = data.nodes[row.node].name.toLocaleLowerCase();
    if (view.find && !name.includes(view.find)) return false;
    if (view.deprecatedOnly && !row.cells.some((c) => c.deprecated || c.removed)) return false;
    if (view.suspectOnly && !row.suspect.length) return false;
    const introduced = row.cells.filter((c) => c.introduced);
    if (introduced.length && !introduced.some((c) => view.stabilities.has(c.stability))) {
      return false;
    }
    return true;
  }

  function sorted(rows) {
    const name = (r) => data.nodes[r.node].name.toLocaleLowerCase();
    const byName = (a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
    const keys = {
      first: (a, b) => a.first - b.first || byName(a, b),
      "first-desc": (a, b) => b.first - a.first || byName(a, b),
      name: byName,
      latest: (a, b) => RANK[b.latest] - RANK[a.latest] || a.first - b.first || byName(a, b),
      releases: (a, b) => b.cells.length - a.cells.length || a.first - b.first || byName(a, b),
    };
    return [...rows].sort(keys[view.sort]);
  }

  function draw() {
    const library = data.libraries[view.library];
    const rows = sorted(library.rows.filter(matches));
    const head = el("tr", {},
      el("th", {className: "corner", scope: "col"},
         el("button", {type: "button", className: "sort-name", title: "Sort by name"},
            `${library.name}: ${plural(rows.length, "row", "rows")}`)));
    head.querySelector(".sort-name").addEventListener("click", () => {
      view.sort = "name";
      $("sort").value = "name";
      draw();
    });
    library.releases.forEach((release) => {
      const node = data.nodes[release.node];
      const button = el("button", {type: "button", className: "release",
                                   title: [node.name, release.date, release.gap]
                                     .filter(Boolean).join(" · ")},
                        el("span", {className: "version"}, release.version || node.name),
                        el("span", {className: "date"}, release.date.slice(0, 7)));
      button.addEventListener("click", () => {
        panel.showNode(release.node);
        if (release.gap) panel.element.append(el("p", {className: "note"}, release.gap));
      });
      head.append(el("th", {scope: "col", className: release.gap ? "gap" : ""}, button));
    });
    const body = rows.map((row) => {
      const node = data.nodes[row.node];
      const suspect = row.suspect.length > 0;
      const name = el("button", {type: "button", className: "name",
                                 title: suspect ? `${node.name}: looks like noise `
                                   + `(${row.suspect.join(", ")})` : node.name},
                      suspect ? "⚑ " : "", node.name,
                      node.label !== "Feature" ? el("span", {className: "kind"},
                                                    ` ${node.label}`) : null);
      name.addEventListener("click", () => openRow(row, library));
      const tr = el("tr", {className: suspect ? "suspect" : "",
                           dataset: {node: String(row.node)}},
                    el("th", {scope: "row"}, name));
      const cells = new Map(row.cells.map((c) => [c.column, c]));
      library.releases.forEach((release, column) => {
        const cell = cells.get(column);
        if (!cell) {
          tr.append(el("td", {className: release.gap ? "gap" : ""}));
          return;
        }
        const color = cell.introduced ? data.styles.stability[cell.stability || UNSTATED]
                                      : "transparent";
        const mark = cell.removed ? "✕" : cell.deprecated ? "⊘" : "";
        const button = el("button", {type: "button", className: "cell",
                                     title: cellTitle(row, cell, library),
                                     style: `background:${color}`,
                                     dataset: {stability: cell.stability, column: String(column),
                                               mark: cell.removed ? "removed"
                                                 : cell.deprecated ? "deprecated" : ""}},
                          mark);
        button.addEventListener("click", () => openCell(row, cell, library, button));
        tr.append(el("td", {className: release.gap ? "gap" : ""}, button));
      });
      return tr;
    });
    const table = el("table", {className: "matrix"}, el("thead", {}, head),
                     el("tbody", {}, ...body));
    if (!rows.length) {
      table.append(el("caption", {}, "No row matches the filters."));
    }
    $("matrix").replaceChildren(table);
    const cellCount = rows.reduce((n, r) => n + r.cells.length, 0);
    Object.assign($("counts").dataset, {library: library.name, rows: rows.length,
                                        allRows: library.rows.length,
                                        releases: library.releases.length, cells: cellCount});
    const shown = rows.length === library.rows.length ? ""
      : ` (showing ${rows.length} of ${library.rows.length})`;
    $("counts").textContent = `${plural(library.rows.length, "row", "rows")} × `
      + `${plural(library.releases.length, "release", "releases")} · `
      + `${plural(cellCount, "cell", "cells")}${shown}`;
    $("suspect-count").textContent = String(library.rows.filter((r) => r.suspect.length).length);
  }
  api.draw = draw;

  $("library").addEventListener("change", (event) => {
    view.library = Number(event.target.value);
    panel.hide();
    draw();
  });
  $("find").addEventListener("input", (event) => {
    view.find = event.target.value.trim().toLocaleLowerCase();
    draw();
  });
  $("sort").addEventListener("change", (event) => {
    view.sort = event.target.value;
    draw();
  });
  $("deprecated-only").addEventListener("change", (event) => {
    view.deprecatedOnly = event.target.checked;
    draw();
  });
  $("suspect-only").addEventListener("change", (event) => {
    view.suspectOnly = event.target.checked;
    draw();
  });
  draw();
  requestAnimationFrame(() => requestAnimationFrame(markReady));
})();
