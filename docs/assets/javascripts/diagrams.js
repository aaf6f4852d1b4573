// Diagrams stay readable. Mermaid's default (useMaxWidth) shrinks a wide diagram to fit the column,
// and at phone width its labels become too small to read (issue 9). Here a diagram is drawn at its
// natural size. One too wide for its column is shrunk, but only as far as its 16 px text stays above 12 px;
// a left-to-right flowchart that would need more is redrawn top to bottom once Material has drawn it, if
// that is narrower (a chart with many sources is narrower sideways); one still too wide is shrunk as far
// as that allows, and past that it scrolls sideways inside its own block (extra.css).
// overrides/main.html loads this right after the vendored mermaid, only on pages with a diagram.
// When every diagram is final, <html data-diagrams="drawn"> (the browser tests wait for it).
(() => {
  const SIDEWAYS = /^(\s*(?:flowchart|graph)\s+)(LR|RL)\b/m;
  const SMALLEST = 0.76; // of mermaid's 16 px text: 12.2 px
  const stacked = (source) => source.replace(SIDEWAYS, "$1TB");

  // Material calls mermaid.initialize() itself before it draws the first diagram: wrap that call.
  const initialize = mermaid.initialize.bind(mermaid);
  mermaid.initialize = (config) => {
    const natural = {};
    for (const [kind, options] of Object.entries(mermaid.mermaidAPI.getConfig())) {
      if (options && typeof options === "object" && "useMaxWidth" in options) {
        natural[kind] = { ...(config[kind] || {}), useMaxWidth: false };
      }
    }
    initialize({ ...config, ...natural });
  };

  // Material reads each diagram's source when the document is ready, after this script has run.
  const sources = [...document.querySelectorAll("pre.mermaid > code")].map((code) => code.textContent);
  const widthOf = (svg) => parseFloat((svg.match(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+)/) || [])[1]) || Infinity;

  // Material draws each diagram in place of its block, in a closed shadow root; redraw the ones
  // that came out too wide, the same way.
  const redraw = async (host, source, index) => {
    const { svg, bindFunctions } = await mermaid.render(`__mermaid_stacked_${index}`, stacked(source));
    if (widthOf(svg) >= host.scrollWidth) return; // top to bottom is no narrower: keep the chart as it is
    const fresh = document.createElement("div");
    fresh.className = "mermaid";
    const root = fresh.attachShadow({ mode: "closed" });
    root.innerHTML = svg;
    host.replaceWith(fresh);
    bindFunctions?.(root);
  };
  const settle = async () => {
    for (let waited = 0; document.querySelector("pre.mermaid") && waited < 15000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const hosts = [...document.querySelectorAll(".md-typeset div.mermaid")];
    const shrinkable = (host) => host.clientWidth / host.scrollWidth >= SMALLEST; // a little smaller fits
    await Promise.all(hosts.map((host, i) =>
      host.scrollWidth > host.clientWidth + 1 && !shrinkable(host) && SIDEWAYS.test(sources[i] || "")
        ? redraw(host, sources[i], i).catch((error) => console.warn("diagram", i, error))
        : null));
    for (const host of document.querySelectorAll(".md-typeset div.mermaid")) {
      if (host.scrollWidth > host.clientWidth + 1) {
        host.style.zoom = String(Math.max(host.clientWidth / host.scrollWidth, SMALLEST));
      }
    }
    document.documentElement.dataset.diagrams = "drawn";
  };
  document.addEventListener("DOMContentLoaded", () => settle());
})();
