// The attention explorer (docs/*/attention-explorer.md): pick a poem, point at a character, and see
// which earlier tokens every head of a layer looked at to write it. The data is the JSON that
// `minigpt attention` exports (assets/explorer/attention.json): per poem its tokens and, per layer and
// head, row t of the attention weights in thousandths (row t is where position t looks, and position t
// writes token t + 1). Every word shown comes from the page (data-* attributes of .attn-explorer), so
// one script serves both languages. Colours are fixed: the same in the light and the dark theme.
// overrides/main.html loads this script only on pages that have an explorer.
(() => {
  const root = document.querySelector(".attn-explorer");
  if (!root) return;
  const text = root.dataset;
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, key) => values[key] ?? "");
  const el = (tag, props = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === "role" || key.startsWith("aria")) node.setAttribute(key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), value);
      else node[key] = value;
    }
    for (const child of children) node.append(child);
    return node;
  };

  // Colour of a weight in [0, 1]: a fixed ramp from pale yellow to dark red.
  const RAMP = [[255, 250, 235], [254, 217, 118], [253, 141, 60], [227, 26, 28], [128, 0, 38]];
  const colour = (w) => {
    const x = Math.min(Math.max(w, 0), 1) * (RAMP.length - 1);
    const i = Math.min(Math.floor(x), RAMP.length - 2), f = x - i;
    const c = RAMP[i].map((v, j) => Math.round(v + f * (RAMP[i + 1][j] - v)));
    return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
  };
  const ink = (w) => (w > 0.55 ? "#ffffff" : "#000000"); // text that stays readable on colour(w)
  const SELECTED = "#1a237e"; // outline of the selected row and the selected map
  const EMPTY = "#ffffff"; // the masked upper triangle of a map

  const SPECIAL = /^<(\w+)>$/;
  const state = { poem: 0, layer: 0, head: -1, k: 0 }; // head -1: the average over heads
  let data = null;

  const status = el("p", { className: "attn-status", textContent: text.loading });
  root.replaceChildren(status);
  const config = JSON.parse(document.getElementById("__config").textContent);
  const url = new URL(config.base.replace(/\/?$/, "/") + "assets/explorer/attention.json", location.href);
  fetch(url)
    .then((r) => { if (!r.ok) throw new Error(r.status); return r.text(); })
    .then((body) => { data = JSON.parse(body); data.kib = Math.round(body.length / 1024); build(); })
    .catch(() => { status.textContent = text.failed; });

  // Row t of the current poem, layer and head (or the mean over heads), as weights in [0, 1].
  const row = (t) => {
    const layer = data.poems[state.poem].attn[state.layer];
    const heads = state.head < 0 ? layer : [layer[state.head]];
    return heads[0][t].map((_, j) => heads.reduce((s, h) => s + h[t][j], 0) / heads.length / data.scale);
  };
  const headName = (h) => (h < 0 ? text.average : fill(text.head, { n: h + 1 }));
  const tokenText = (tok) => { const m = SPECIAL.exec(tok); return m ? m[1] : tok; };

  let tokens = [], maps = [], layerButtons = [], headButtons = [], poemBox, caption, meta, select;

  function build() {
    const m = data.model;
    select = el("select", { className: "attn-poem-select", id: "attn-poem" });
    data.poems.forEach((p, i) => {
      const label = p.kind === "model"
        ? fill(text.optionModel, { form: p.form, keywords: p.keywords.join(" ") })
        : fill(text.optionReal, { form: p.form, title: p.title || "", author: p.author || "" });
      select.append(el("option", { value: i, textContent: label }));
    });
    select.addEventListener("change", () => { state.poem = +select.value; state.k = 0; drawPoem(); update(); });
    layerButtons = Array.from({ length: m.n_layer }, (_, l) => el("button", {
      type: "button", className: "attn-pick", textContent: fill(text.layer, { n: l + 1 }),
      onclick: () => { state.layer = l; update(); },
    }));
    headButtons = [-1, ...Array.from({ length: m.n_head }, (_, h) => h)].map((h) => el("button", {
      type: "button", className: "attn-pick", textContent: headName(h),
      onclick: () => { state.head = h; update(); },
    }));
    const controls = el("div", { className: "attn-controls" }, [
      el("div", { className: "attn-field" }, [el("label", { htmlFor: "attn-poem", textContent: text.poem }), select]),
      el("div", { className: "attn-field", role: "group", ariaLabel: text.layerGroup }, [
        el("span", { className: "attn-field-name", textContent: text.layerGroup, ariaHidden: "true" }), ...layerButtons]),
      el("div", { className: "attn-field", role: "group", ariaLabel: text.headGroup }, [
        el("span", { className: "attn-field-name", textContent: text.headGroup, ariaHidden: "true" }), ...headButtons]),
    ]);
    meta = el("p", { className: "attn-meta" });
    poemBox = el("div", { className: "attn-poem", role: "group", ariaLabel: text.poemText });
    poemBox.addEventListener("keydown", onKey);
    caption = el("p", { className: "attn-caption", ariaLive: "polite" });
    const grid = el("div", { className: "attn-maps" });
    maps = [...Array.from({ length: m.n_head }, (_, h) => h), -1].map((h) => {
      const canvas = el("canvas", { className: "attn-map", role: "img" });
      const name = el("figcaption", { textContent: headName(h) });
      const figure = el("figure", { className: "attn-figure" }, [canvas, name]);
      canvas.addEventListener("click", (e) => { state.head = h; pick(e, canvas); update(); });
      canvas.addEventListener("pointermove", (e) => { if (e.pointerType === "mouse") { pick(e, canvas); update(); } });
      grid.append(figure);
      return { h, canvas, figure };
    });
    const legend = el("div", { className: "attn-legend" }, [
      el("span", { textContent: "0" }), el("span", { className: "attn-ramp" }), el("span", { textContent: "1" }),
      el("span", { className: "attn-legend-text", textContent: text.legend }),
    ]);
    const model = el("p", { className: "attn-model", textContent: fill(text.model, {
      name: m.name, n_layer: m.n_layer, n_head: m.n_head, n_embd: m.n_embd, params: m.params.toLocaleString("en"),
      step: m.step, max_steps: m.max_steps ?? m.step, val_loss: m.val_loss ?? "?", kib: data.kib,
    }) });
    root.replaceChildren(controls, meta, poemBox, caption, grid, legend, model);
    drawPoem();
    update();
    new ResizeObserver(() => drawMaps()).observe(grid);
    root.dataset.ready = "true"; // the browser tests wait for it
  }

  // A point on a map -> the row under it becomes the selected character.
  function pick(e, canvas) {
    const n = data.poems[state.poem].tokens.length - 1;
    const r = canvas.getBoundingClientRect();
    const t = Math.floor(((e.clientY - r.top) / r.height) * n);
    if (t >= 0 && t < n) state.k = t + 1;
  }

  function drawPoem() {
    const poem = data.poems[state.poem];
    meta.textContent = poem.kind === "model"
      ? fill(text.metaModel, { command: poem.command })
      : fill(text.metaReal, { title: poem.title || "", author: poem.author || "" });
    const sep = poem.tokens.lastIndexOf("<sep>");
    if (!state.k) state.k = sep + 1; // the poem's first character
    tokens = poem.tokens.map((tok, k) => {
      const special = SPECIAL.test(tok);
      const node = el(k === 0 ? "span" : "button", {
        className: "attn-tok" + (special ? " attn-special" : ""), textContent: tokenText(tok),
      });
      if (k > 0) {
        node.type = "button";
        node.tabIndex = -1;
        node.dataset.k = k;
        node.addEventListener("pointerenter", (e) => { if (e.pointerType === "mouse") select_(k, false); });
        node.addEventListener("click", () => select_(k, true));
        node.addEventListener("focus", () => { if (state.k !== k) select_(k, false); });
      }
      return node;
    });
    // one line for the prompt (<bos> form <sep> keywords <sep>), then a line per line of the poem
    const lines = [[]];
    tokens.forEach((node, k) => {
      lines[lines.length - 1].push(node);
      if ((k === sep || /^[，。？！；]$/.test(poem.tokens[k])) && k < tokens.length - 2) lines.push([]);
    });
    poemBox.replaceChildren(...lines.map((nodes) => el("div", { className: "attn-line", lang: "zh" }, nodes)));
  }

  function select_(k, focus) {
    state.k = k;
    update();
    if (focus) tokens[k].focus();
  }

  function onKey(e) {
    const n = tokens.length;
    const next = { ArrowRight: state.k + 1, ArrowDown: state.k + 1, ArrowLeft: state.k - 1, ArrowUp: state.k - 1,
                   Home: 1, End: n - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    select_(Math.min(Math.max(next, 1), n - 1), true);
  }

  function update() {
    const poem = data.poems[state.poem];
    const t = state.k - 1; // the row: position t looks at 0..t to write token k
    const w = row(t);
    tokens.forEach((node, j) => {
      node.classList.toggle("attn-current", j === state.k);
      node.classList.toggle("attn-later", j > state.k);
      if (node.tabIndex !== undefined && j > 0) node.tabIndex = j === state.k ? 0 : -1;
      if (j < state.k) {
        node.style.background = colour(w[j]);
        node.style.color = ink(w[j]);
        node.dataset.weight = w[j].toFixed(3);
      } else {
        node.style.background = node.style.color = "";
        delete node.dataset.weight;
      }
    });
    layerButtons.forEach((b, l) => b.setAttribute("aria-pressed", String(l === state.layer)));
    headButtons.forEach((b, i) => b.setAttribute("aria-pressed", String(i - 1 === state.head)));
    const top = w.map((v, j) => [v, j]).sort((a, b) => b[0] - a[0]).slice(0, 3);
    caption.replaceChildren(
      fill(text.caption, { char: tokenText(poem.tokens[state.k]), layer: state.layer + 1, head: headName(state.head) }),
      ...top.map(([v, j]) => el("span", { className: "attn-chip", lang: "zh", textContent: `${tokenText(poem.tokens[j])} ${v.toFixed(3)}`,
                                          style: `background:${colour(v)};color:${ink(v)}` })),
    );
    drawMaps();
  }

  function drawMaps() {
    if (!data) return;
    const poem = data.poems[state.poem];
    const n = poem.tokens.length - 1;
    const layer = poem.attn[state.layer];
    const ratio = window.devicePixelRatio || 1;
    for (const { h, canvas, figure } of maps) {
      figure.classList.toggle("attn-selected", h === state.head);
      canvas.setAttribute("aria-label", fill(text.mapLabel, { layer: state.layer + 1, head: headName(h) }));
      const size = Math.round(canvas.getBoundingClientRect().width * ratio);
      if (!size) continue;
      canvas.width = canvas.height = size;
      const g = canvas.getContext("2d");
      g.fillStyle = EMPTY;
      g.fillRect(0, 0, size, size);
      const cell = size / n;
      for (let t = 0; t < n; t++) {
        for (let j = 0; j <= t; j++) {
          const v = h < 0 ? layer.reduce((s, head) => s + head[t][j], 0) / layer.length : layer[h][t][j];
          g.fillStyle = colour(v / data.scale);
          g.fillRect(Math.floor(j * cell), Math.floor(t * cell), Math.ceil(cell), Math.ceil(cell));
        }
      }
      g.strokeStyle = SELECTED;
      g.lineWidth = Math.max(1.5, ratio * 1.5);
      g.strokeRect(0, (state.k - 1) * cell, state.k * cell, cell);
    }
  }
})();
