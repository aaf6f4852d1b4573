// Search loads its index when the reader first opens search, not with every page: the index holds
// the text of every page (megabytes once the course is written), and a page without it is light
// (issue 9). Each language searches its own pages: hooks/i18n_fixes.py writes
// search/search_index.<lang>.json beside the index of all languages.
//
// Material's bundle requests search/search_index.json (XMLHttpRequest) as soon as it runs;
// overrides/main.html loads this script just before the bundle, and it holds that request back
// until the search toggle opens (a click on the search box, or Material's keyboard shortcut).
(() => {
  const toggle = document.querySelector('[data-md-toggle="search"]');
  if (!toggle) return;
  const opened = new Promise((resolve) => {
    if (toggle.checked) resolve();
    toggle.addEventListener("change", () => toggle.checked && resolve());
  });
  const lang = document.documentElement.lang;
  const { open, send } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    const where = new URL(String(url), location.href);
    if (where.pathname.endsWith("/search/search_index.json")) {
      this.searchIndex = true;
      where.pathname = where.pathname.replace(/\.json$/, `.${lang}.json`);
      url = where.href;
    }
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    if (!this.searchIndex) return send.apply(this, args);
    opened.then(() => send.apply(this, args));
  };
})();
