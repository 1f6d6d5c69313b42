/* ptkg pages: what the graph view and the timeline view share.
 *
 * The data comes from the <script type="application/json" id="ptkg-data"> element. Every
 * string of it is put in the page with textContent (never innerHTML), and only http(s) URLs
 * become links, so the text of a post cannot add markup or run script.
 */
"use strict";

const ptkgCommon = (() => {
  function readData() {
    return JSON.parse(document.getElementById("ptkg-data").textContent);
  }

  /* An element with properties (className, type, title, ...) and children (nodes or text). */
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (key === "dataset") Object.assign(node.dataset, value);
      else node[key] = value;
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function safeUrl(url) {
    return typeof url === "string" && /^https?:\/\//i.test(url) ? url : null;
  }

  /* A link to a post when the URL is http(s), else the URL as plain text. */
  function link(url, text) {
    const href = safeUrl(url);
    if (!href) return el("span", {className: "source"}, text || String(url));
    return el("a", {className: "source", href, target: "_blank", rel: "noopener noreferrer"},
              text || href);
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  /* A 14px icon of a vis-network shape, for the legend. */
  function shapeIcon(style) {
    const c = style.color, s = 14, h = s / 2;
    const shapes = {
      dot: () => svg("circle", {cx: h, cy: h, r: 5.5}),
      square: () => svg("rect", {x: 2, y: 2, width: 10, height: 10}),
      diamond: () => svg("polygon", {points: `${h},1 13,${h} ${h},13 1,${h}`}),
      triangle: () => svg("polygon", {points: `${h},1.5 13,12.5 1,12.5`}),
      triangleDown: () => svg("polygon", {points: `1,1.5 13,1.5 ${h},12.5`}),
      hexagon: () => svg("polygon", {points: "4,1.5 10,1.5 13,7 10,12.5 4,12.5 1,7"}),
      star: () => svg("polygon", {points:
        "7,0.5 8.8,5 13.5,5.2 9.8,8.2 11.1,13 7,10.3 2.9,13 4.2,8.2 0.5,5.2 5.2,5"}),
    };
    const shape = (shapes[style.shape] || shapes.dot)();
    shape.setAttribute("fill", c);
    shape.setAttribute("stroke", style.dashes ? "#222" : c);
    if (style.dashes) shape.setAttribute("stroke-dasharray", "2 1.5");
    return svg("svg", {class: "icon", width: s, height: s, viewBox: `0 0 ${s} ${s}`}, shape);
  }

  function lineIcon(color, width) {
    return svg("svg", {class: "icon", width: 22, height: 10, viewBox: "0 0 22 10"},
               svg("line", {x1: 1, y1: 5, x2: 21, y2: 5, stroke: color,
                            "stroke-width": width || 3}));
  }

  function stabilityKey(container, styles) {
    for (const [name, color] of Object.entries(styles.stability)) {
      container.append(el("div", {className: "key"}, lineIcon(color),
                          name || "not stated"));
    }
  }

  function formatValue(value) {
    if (Array.isArray(value)) return value.map(formatValue).join(", ");
    if (value !== null && typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  /* The evidence panel: a node or an edge, its properties, aliases and sentences. */
  class Panel {
    constructor(element, data, onJump) {
      this.element = element;
      this.data = data;
      this.onJump = onJump;
      this.adjacent = data.nodes.map(() => []);
      data.edges.forEach((edge, j) => {
        this.adjacent[edge.from].push(j);
        if (edge.to !== edge.from) this.adjacent[edge.to].push(j);
      });
      this.current = null;
    }

    hide() {
      this.element.hidden = true;
      this.element.replaceChildren();
      this.current = null;
    }

    open(kind, index, children) {
      const close = el("button", {type: "button", className: "close", title: "Close"}, "×");
      close.addEventListener("click", () => this.hide());
      this.element.replaceChildren(close, ...children);
      this.element.hidden = false;
      this.element.scrollTop = 0;
      this.element.dataset.kind = kind;
      this.element.dataset.index = String(index);
      this.current = {kind, index};
    }

    chip(label) {
      const style = this.data.styles.labels[label] || {color: "#444"};
      return el("span", {className: "chip", style: `background:${style.color}`}, label);
    }

    jump(index) {
      const node = this.data.nodes[index];
      const button = el("button", {type: "button", className: "jump"}, node.name);
      button.addEventListener("click", () => this.onJump(index));
      return button;
    }

    properties(props) {
      const rows = Object.entries(props).map(([key, value]) => {
        const cell = key === "url" ? el("td", {}, link(value)) : el("td", {}, formatValue(value));
        return el("tr", {}, el("td", {}, key), cell);
      });
      return rows.length ? el("table", {}, el("tbody", {}, ...rows)) : null;
    }

    /* Each sentence, with a link to it in its post (the URL with a #:~:text= fragment). */
    evidence(edge) {
      return edge.evidence.map(([url, sentence, href]) => el("div", {className: "evidence"},
        sentence, link(href || url, this.data.posts[url] || url)));
    }

    /* Several edges in one panel: a matrix cell (what one release said of one feature). */
    showEdges(title, subtitle, indices, extra) {
      const parts = [el("h2", {}, title)];
      if (subtitle) parts.push(el("p", {}, subtitle));
      for (const j of indices) {
        const edge = this.data.edges[j];
        const head = el("div", {className: "relation-head"}, this.jump(edge.from), " → ",
                        edge.type, this.stability(edge.props.stability), " → ",
                        this.jump(edge.to));
        const stated = edge.props.stated
          ? el("div", {className: "note"}, `stated as: ${formatValue(edge.props.stated)}`) : null;
        const sentences = edge.evidence.length ? this.evidence(edge)
          : [el("p", {className: "note"}, "Derived from other relations: no sentence.")];
        parts.push(el("div", {className: "relation", dataset: {edge: String(j)}}, head, stated,
                      ...sentences));
      }
      if (extra) parts.push(...extra);
      this.open("cell", indices.join(","), parts.filter(Boolean));
    }

    stability(value) {
      if (!value) return null;
      return el("span", {className: "stability",
                         style: `color:${this.data.styles.stability[value] || "#444"}`},
                ` [${value}]`);
    }

    showNode(index) {
      const node = this.data.nodes[index];
      const parts = [el("h2", {}, node.name), this.chip(node.label)];
      if (node.label === "Post" && node.props.url) parts.push(el("p", {}, link(node.props.url,
                                                                             "Open the post")));
      parts.push(this.properties(node.props));
      if (node.aliases.length) {
        parts.push(el("h3", {}, "Aliases"),
                   el("ul", {}, ...node.aliases.map((a) => el("li", {}, a))));
      }
      const relations = [], mentions = [];
      for (const j of this.adjacent[index]) {
        const edge = this.data.edges[j];
        if (edge.type === "MENTIONS") mentions.push(edge);
        else relations.push(edge);
      }
      if (relations.length) {
        parts.push(el("h3", {}, `Relations (${relations.length})`));
        for (const edge of relations) {
          const out = edge.from === index;
          const other = out ? edge.to : edge.from;
          const head = el("div", {className: "relation-head"}, out ? "→ " : "← ", edge.type,
                          this.stability(edge.props.stability), " ", this.jump(other));
          parts.push(el("div", {className: "relation"}, head, ...this.evidence(edge)));
        }
      }
      if (mentions.length) {
        const outward = node.label === "Post";
        parts.push(el("h3", {}, outward ? `Mentions (${mentions.length})`
                                        : `Mentioned in ${mentions.length} `
                                          + (mentions.length === 1 ? "post" : "posts")));
        parts.push(el("ul", {}, ...mentions.map((edge) => {
          const other = outward ? edge.to : edge.from;
          const count = edge.props.count > 1 ? ` ×${edge.props.count}` : "";
          return el("li", {}, this.jump(other), count);
        })));
      }
      this.open("node", index, parts.filter(Boolean));
    }

    showEdge(index) {
      const edge = this.data.edges[index];
      const parts = [
        el("h2", {}, edge.type, this.stability(edge.props.stability)),
        el("p", {}, this.jump(edge.from), " → ", this.jump(edge.to)),
        this.properties(edge.props),
      ];
      if (edge.evidence.length) {
        parts.push(el("h3", {}, `Evidence (${edge.evidence.length})`), ...this.evidence(edge));
      } else {
        parts.push(el("p", {className: "note"}, edge.type === "MENTIONS"
          ? "The post names the entity." : "Derived from other relations: no sentence."));
      }
      this.open("edge", index, parts.filter(Boolean));
    }
  }

  /* A row that looks like extraction noise: the reasons, and a line to paste in a report. */
  function suspectReport(node, reasons, where) {
    const line = `ptkg: suspect ${node.label} ${JSON.stringify(node.name)} (${reasons.join(", ")})`
      + (where ? ` in ${where}` : "");
    const box = el("textarea", {className: "report-line", readOnly: true, rows: 3,
                                value: line, ariaLabel: "A line to paste in a report"});
    box.addEventListener("focus", () => box.select());
    return [el("h3", {}, "Looks like noise"),
            el("p", {className: "note"}, `Flagged: ${reasons.join(", ")}. If it is not a real `
               + "feature, report it with this line (or reject it in the project's curation "
               + "file):"), box];
  }

  function markReady() {
    if (document.body.dataset.ready === "true") return;
    window.ptkgReadyAt = performance.now();
    document.body.dataset.ready = "true";
  }

  return {readData, el, svg, link, safeUrl, shapeIcon, lineIcon, stabilityKey, Panel, markReady,
          suspectReport, formatValue};
})();
