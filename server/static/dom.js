// Small DOM helpers the game views share (loaded before app.js and the game scripts).
"use strict";
window.TableSightDom = {
  // h("div", {class: "x", text: "hi", onclick: f, "data-id": 3, disabled: false}, child, ...)
  // Keys the element has as properties (disabled, value, title, type) are set as properties,
  // so `disabled: false` means enabled; data-*, aria-* and unknown keys become attributes.
  h(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === "class") e.className = v;
      else if (k === "text" || k === "textContent") e.textContent = v;
      else if (k === "style") e.style.cssText = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k.startsWith("data-") || k.startsWith("aria-") || !(k in e)) e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  },
  // A game's stylesheet, added once however often the view re-renders.
  addStyle(id, css) {
    if (document.getElementById(id)) return;
    const s = document.createElement("style");
    s.id = id;
    s.textContent = css;
    document.head.append(s);
  },
};
