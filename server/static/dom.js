// The page's shared helpers (loaded before app.js and the game scripts): one to build elements,
// one to call the API, one to stay live over a WebSocket, one to add a stylesheet.
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

  // api("POST", path, body, headers): a JSON body (or FormData) in, the JSON answer out. A refusal
  // throws an Error whose message is the server's reason, with .rule (the rule it names) and .status.
  async api(method, path, body, headers) {
    const head = { ...(headers || {}) };
    let payload;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) { head["Content-Type"] = "application/json"; payload = JSON.stringify(body); }
    const res = await fetch(path, { method, headers: head, body: payload });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const d = data.detail || {};
      const err = new Error(d.reason || res.statusText);
      err.rule = d.rule;
      err.status = res.status;
      throw err;
    }
    return data;
  },

  // live(path, {onOpen(ws), onMessage(data), onClose(event)}): a WebSocket to `path` that opens
  // again a second after it closes, unless onClose returns false.
  live(path, handlers) {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const open = () => {
      const ws = new WebSocket(`${proto}://${location.host}${path}`);
      ws.onopen = () => handlers.onOpen && handlers.onOpen(ws);
      ws.onmessage = (ev) => handlers.onMessage(JSON.parse(ev.data));
      ws.onclose = (ev) => {
        if (!handlers.onClose || handlers.onClose(ev) !== false) setTimeout(open, 1000);
      };
    };
    open();
  },

  // A stylesheet linked once, however often a view re-renders.
  stylesheet(href) {
    if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
    document.head.append(window.TableSightDom.h("link", { rel: "stylesheet", href }));
  },
};
