// What a reader's browser shows on a page once it is ready, measured in the page. Evaluated by
// tools/browser/visit.py; returns plain data, and the tests judge it. Diagrams are drawn by Material
// inside closed shadow roots: the init script in visit.py keeps each one in window.__shadowRoots.
() => {
  const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
  const rect = (el) => el.getBoundingClientRect();
  const lineOf = (el) => el.closest("[id]")?.id || "";

  // Formulas: every arithmatex element holds a typeset container whose characters are drawn.
  // MathJax's CHTML output draws a character as the ::before content of an mjx-c element.
  const formulas = [...document.querySelectorAll(".arithmatex")].map((el, index) => {
    const box = el.querySelector("mjx-container");
    const chars = box ? [...box.querySelectorAll("mjx-c")] : [];
    // a character without ::before content has lost its glyph; invisible ones have none to lose
    const INVISIBLE = /^mjx-c(200[B-D]|206[0-4]|FEFF)$/i;  // function application after \ln, ...
    const blank = chars.filter((c) => {
      if ([...c.classList].some((name) => INVISIBLE.test(name))) return false;
      const content = getComputedStyle(c, "::before").content;
      return !content || content === "none" || content === "normal" || content === '""';
    });
    const drawn = chars.filter((c) => rect(c).width > 0);
    const source = (el.textContent || "").trim().slice(0, 60);
    return {
      index,
      source,
      display: el.tagName === "DIV",
      typeset: !!box,
      error: !!(box && box.querySelector("mjx-merror")),
      width: box ? rect(box).width : 0,
      height: box ? rect(box).height : 0,
      chars: chars.length,
      blank: blank.length,
      drawn: drawn.length,
      // a display formula wider than the column scrolls inside itself: the reader sees it cut
      overflow: !!(box && el.tagName === "DIV" && box.scrollWidth > box.clientWidth + 1),
    };
  });
  const mathFonts = [...document.fonts].filter((f) => f.family.startsWith("MJX")).map((f) => [f.family, f.status]);

  // Diagrams: the SVG mermaid drew, the size its text is drawn at, and its accessible name.
  const roots = window.__shadowRoots || [];
  const hosts = [...document.querySelectorAll(".md-typeset .mermaid")];
  const diagrams = hosts.map((host, index) => {
    const root = roots.find((r) => r.host === host)?.root;
    const svg = root && root.querySelector("svg");
    if (!svg) return { index, svg: false };
    const box = rect(svg);
    const viewBox = svg.viewBox && svg.viewBox.baseVal;
    const scale = viewBox && viewBox.width ? box.width / viewBox.width : 1;
    const sizes = [];
    for (const el of svg.querySelectorAll("text, tspan, foreignObject *")) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const px = parseFloat(getComputedStyle(el).fontSize) * scale;
      sizes.push({ text: el.textContent.trim().slice(0, 40), px: Math.round(px * 10) / 10, width: rect(el).width });
    }
    const ids = (svg.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean);
    const label = ids.map((id) => root.getElementById(id)?.textContent || "").join(" ").trim()
      || svg.getAttribute("aria-label") || "";
    const describedBy = (svg.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    const description = describedBy.map((id) => root.getElementById(id)?.textContent || "").join(" ").trim();
    return {
      index, svg: true, width: box.width, height: box.height, hostWidth: rect(host).width,
      overflow: host.scrollWidth > host.clientWidth + 1,
      texts: sizes, label, description,
    };
  });
  const pendingDiagrams = document.querySelectorAll("pre.mermaid").length;

  // Sideways scrolling of the page itself, and the elements that stick out past the viewport.
  const viewport = document.documentElement.clientWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  const sticking = [];
  for (const el of scrollWidth > viewport + 1 ? document.querySelectorAll("body *") : []) {
    const r = rect(el);
    if (r.right <= viewport + 1 || r.width === 0) continue;
    // inside something that scrolls or clips sideways: not the page's problem
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const ox = getComputedStyle(p).overflowX;
      if (ox !== "visible") { clipped = rect(p).right <= viewport + 1; break; }
    }
    if (!clipped) sticking.push(`${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : ""} #${lineOf(el)} right=${Math.round(r.right)}`);
  }

  // Copy buttons drawn over code: the button's box against the boxes of the first line's characters
  // that are visible (inside the block, not scrolled away).
  const covered = [];
  for (const nav of document.querySelectorAll(".md-typeset pre > .md-code__nav")) {
    const pre = nav.parentElement, code = pre.querySelector("code");
    const button = rect(nav);
    if (!code || button.width === 0 || !nav.checkVisibility()) continue;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let started = false, done = false;
    for (let node = walker.nextNode(); node && !done; node = walker.nextNode()) {
      const cut = node.textContent.indexOf("\n");
      if (!started) { range.setStart(node, 0); started = true; }
      if (cut >= 0) { range.setEnd(node, cut); done = true; } else { range.setEnd(node, node.textContent.length); }
    }
    if (!started) continue;
    const box = rect(pre);
    const hit = [...range.getClientRects()].some((r) => r.width > 0 && r.left < Math.min(button.right, box.right)
      && r.right > button.left && r.top < button.bottom && r.bottom > button.top);
    if (hit) covered.push({ id: pre.id, line: range.toString().slice(0, 60) });
  }

  // Text of the page's own interface (tooltips, labels, placeholders, admonition titles),
  // with the language it must be in: the page's, unless an element says otherwise.
  const ui = [];
  const langOf = (el) => el.closest("[lang]")?.getAttribute("lang") || "";
  // labels Material makes from the page's own headings and titles are content, not interface
  const content = new Set([...document.querySelectorAll(".md-typeset :is(h1, h2, h3, h4, h5, h6), .md-nav__link")]
    .map((el) => el.textContent.replace("¶", "").trim()));
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (el.closest("[hreflang]") || el.closest("pre, code")) continue;
    for (const attr of ["title", "aria-label", "placeholder"]) {
      const text = el.getAttribute(attr);
      if (text && text.trim() && !content.has(text.trim())) ui.push({ kind: attr, text: text.trim(), lang: langOf(el), where: `${el.tagName.toLowerCase()}.${(el.className && typeof el.className === "string" ? el.className.split(" ")[0] : "")}` });
    }
  }
  for (const el of document.querySelectorAll(".md-typeset .admonition-title, .md-typeset details > summary")) {
    ui.push({ kind: "admonition title", text: el.textContent.trim(), lang: langOf(el), where: `#${lineOf(el)}` });
  }

  const images = [...document.querySelectorAll(".md-content img")].map((img) => ({
    src: img.getAttribute("src"), alt: img.getAttribute("alt"), lang: langOf(img),
  }));
  const switcher = [...document.querySelectorAll("a.md-select__link[hreflang]")].map((a) => ({
    lang: a.getAttribute("hreflang"), href: a.href,
  }));

  return {
    lang: document.documentElement.lang,
    title: document.title,
    formulas, mathFonts, diagrams, pendingDiagrams,
    scrollWidth, viewport, sticking: sticking.slice(0, 10), covered,
    ui, images, switcher, cjk: CJK.source,
  };
}
