// "Teach it your dice": photos of the user's own dice, corrected by clicking, then "Learn".
// Self-contained: it fills <details id="teach"> if the page has one and talks only to /api/teach
// (server/routes/teach.py). Needs dom.js (TableSightDom.h).
"use strict";
(() => {
  const { h } = window.TableSightDom;
  const POLL_MS = 400;          // learning progress is polled while it runs
  const KEY_STEP = 0.02;        // arrow keys move the box being added by this share of the photo
  const COLOURS = ["white", "black", "red", "green", "blue", "yellow", "orange", "purple", "pink", "grey", "brown"];
  let root = null;
  let state = null;             // GET /api/teach
  let editing = null;           // {photo, die} or {photo, box} for a die being added
  let draft = null;             // {photo, x1, y1, x2, y2, from} box being drawn or moved by keys
  let polling = null;

  async function call(method, path, body) {
    const init = { method };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) { init.body = JSON.stringify(body); init.headers = { "Content-Type": "application/json" }; }
    const res = await fetch(path, init);
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const d = data.detail || {};
      throw new Error(d.reason || `${res.status} ${res.statusText}`);
    }
    return data;
  }

  const $ = (sel) => root.querySelector(sel);
  function say(text) { $("#teach-error").textContent = text || ""; }

  // "red 4", "4", "? unsure": what the reader (or the user) says this die is.
  function label(d) {
    if (d.value === null) return "? unsure";
    return d.colour ? `${d.colour} ${d.value}` : String(d.value);
  }

  async function refresh() {
    state = await call("GET", "/api/teach");
    render();
    if (state.learn.state === "running" && polling === null) polling = setInterval(poll, POLL_MS);
  }

  async function poll() {
    try { state = await call("GET", "/api/teach"); } catch (err) { say(err.message); return; }
    renderLearn();
    if (state.learn.state !== "running") { clearInterval(polling); polling = null; render(); }
  }

  async function act(fn) {
    say("");
    try { await fn(); } catch (err) { say(err.message); }
    try { await refresh(); } catch (err) { say(err.message); }
  }

  // -- building the panel ----------------------------------------------------------------------
  function build() {
    const file = h("input", { type: "file", id: "teach-file", accept: "image/*" });
    file.addEventListener("change", () => {
      if (!file.files.length) return;
      const form = new FormData();
      form.append("image", file.files[0]);
      file.value = "";
      status("reading the photo…");
      act(() => call("POST", "/api/teach/photos/upload", form));
    });
    root.append(
      h("p", { class: "status", text: "Roll about ten of your dice and take a photo, 3 to 5 times, until every value 1 to 6 has shown at least twice. " +
        "The camera proposes each die; " +
        "click a die to correct it or remove it, drag on a photo (or click two corners) to add one it missed." }),
      h("p", {},
        h("button", { type: "button", id: "teach-take", text: "Take a photo",
          onclick: () => { status("reading the camera picture…"); act(() => call("POST", "/api/teach/photos/camera")); } }),
        " ", h("label", { for: "teach-file", text: "or upload one: " }), file),
      h("p", { id: "teach-count", class: "status", "aria-live": "polite" }),
      h("div", { id: "teach-photos" }),
      buildEditor(),
      h("p", {},
        h("button", { type: "button", id: "teach-learn", text: "Learn", onclick: () => act(() => call("POST", "/api/teach/learn")) }),
        " ", h("progress", { id: "teach-progress", max: 1, value: 0, hidden: true, "aria-label": "learning progress" })),
      h("p", { id: "teach-status", class: "status", "aria-live": "polite" }),
      h("p", { id: "teach-result", "aria-live": "polite" }),
      h("p", { id: "teach-profile", class: "status" }),
      h("p", { id: "teach-error", class: "error", role: "alert" }),
    );
  }

  function status(text) { $("#teach-status").textContent = text; }

  function buildEditor() {
    const value = h("select", { id: "teach-value" },
      ...[1, 2, 3, 4, 5, 6].map((v) => h("option", { value: String(v), text: String(v) })));
    const colour = h("input", { id: "teach-colour", maxlength: 20, autocomplete: "off", placeholder: "none" });
    colour.setAttribute("list", "teach-colours");  // `list` is a read-only property: an attribute only
    return h("form", { id: "teach-editor", class: "teach-editor", hidden: true,
      onsubmit: (ev) => { ev.preventDefault(); save(); } },
      h("datalist", { id: "teach-colours" }, ...COLOURS.map((c) => h("option", { value: c }))),
      h("p", { id: "teach-editing", class: "status" }),
      h("label", { for: "teach-value", text: "Value " }), value, " ",
      h("label", { for: "teach-colour", text: "Colour " }), colour, " ",
      h("button", { type: "submit", id: "teach-save", text: "Save" }), " ",
      h("button", { type: "button", id: "teach-remove", text: "Remove this die", onclick: remove }), " ",
      h("button", { type: "button", id: "teach-cancel", text: "Cancel", onclick: closeEditor }));
  }

  // -- rendering -------------------------------------------------------------------------------
  function render() {
    const { photos, limits } = state;
    $("#teach-count").textContent = `${photos.length} photo${photos.length === 1 ? "" : "s"} ` +
      `(${limits.suggested_photos[0]} to ${limits.suggested_photos[1]} are best, at most ${limits.photos})` + valuesShown(photos, limits.min_per_value);
    $("#teach-take").disabled = photos.length >= limits.photos || state.learn.state === "running";
    $("#teach-file").disabled = $("#teach-take").disabled;
    const list = $("#teach-photos");
    list.replaceChildren(...photos.map(renderPhoto));
    if (draft) drawDraft();
    renderLearn();
    const p = state.profile;
    $("#teach-profile").textContent = p.active ? `Reading with your dice profile (${p.origin}).` : "Reading with the shipped reader.";
  }

  // The value layer is refitted only when every value shows on `least` dice (vision.teach.MIN_PER_VALUE).
  function valuesShown(photos, least) {
    if (!photos.length) return "";
    const counts = [0, 0, 0, 0, 0, 0, 0];
    for (const p of photos) for (const d of p.dice) if (d.value !== null) counts[d.value] += 1;
    const short = [1, 2, 3, 4, 5, 6].filter((v) => counts[v] < least);
    return short.length ? `; roll again until every value has shown ${least} times: still short of ${short.join(", ")}`
      : `; every value has shown at least ${least} times`;
  }

  function pct(v, whole) { return `${(100 * v / whole).toFixed(3)}%`; }

  function renderPhoto(photo) {
    const frame = h("div", { class: "teach-frame", tabindex: 0, "data-photo": photo.id,
      "aria-label": `photo ${photo.id}: drag to add a die; with "Add a die", arrow keys move the new box` });
    frame.append(h("img", { src: `/api/teach/photos/${photo.id}/image.jpg`, alt: `photo ${photo.id} (${photo.name})`, draggable: false }));
    for (const d of photo.dice) {
      const [x1, y1, x2, y2] = d.box;
      const chosen = editing && editing.photo === photo.id && editing.die === d.id;
      frame.append(h("button", {
        type: "button", class: `teach-die${d.value === null ? " unsure" : ""}${d.added ? " added" : ""}${chosen ? " chosen" : ""}`,
        "data-die": d.id, "aria-label": `die ${d.id}: ${label(d)}. Correct it`,
        style: `left:${pct(x1, photo.width)};top:${pct(y1, photo.height)};width:${pct(x2 - x1, photo.width)};height:${pct(y2 - y1, photo.height)}`,
        onclick: (ev) => { ev.stopPropagation(); openEditor(photo, d); },
        onpointerdown: (ev) => ev.stopPropagation(),
      }, h("span", { class: "teach-label", text: label(d) })));
    }
    wireDrawing(frame, photo);
    const unsure = photo.dice.filter((d) => d.value === null).length;
    return h("figure", { class: "teach-photo", "data-photo": photo.id }, frame,
      h("figcaption", {},
        `Photo ${photo.id}: ${photo.dice.length} dice${unsure ? `, ${unsure} unsure: say their values` : ""}. `,
        photo.note ? h("span", { class: "status", text: photo.note + ". " }) : null,
        h("button", { type: "button", class: "teach-add", text: "Add a die", onclick: () => startKeyboardAdd(frame, photo) }), " ",
        h("button", { type: "button", class: "teach-drop", text: "Remove photo",
          onclick: () => act(() => call("DELETE", `/api/teach/photos/${photo.id}`)) })));
  }

  function renderLearn() {
    const l = state.learn;
    const bar = $("#teach-progress");
    bar.hidden = l.state !== "running" && l.state !== "done";
    bar.value = l.progress;
    $("#teach-learn").disabled = l.state === "running" || state.photos.length < state.limits.min_photos;
    if (l.state === "running") status(`learning: ${l.message}`);
    else if (l.state === "failed") status(`learning failed: ${l.message}`);
    else if (l.state === "done") status(`learned in ${l.result.seconds} s from ${l.result.photos} photos, ${l.result.dice} dice`);
    $("#teach-result").textContent = l.state === "done" ? `${l.result.summary}. ${l.result.message}` : "";
    $("#teach-result").className = l.state === "done" ? `teach-result ${l.result.kept}` : "teach-result";
  }

  // -- correcting ------------------------------------------------------------------------------
  function openEditor(photo, d) {
    editing = d ? { photo: photo.id, die: d.id } : { photo: photo.id, box: draftBox() };
    $("#teach-editing").textContent = d ? `Photo ${photo.id}, die ${d.id} (the camera said ${d.proposed.value === null ? "unsure" : d.proposed.value}):`
      : `Photo ${photo.id}, a die the camera missed:`;
    $("#teach-value").value = String((d && d.value) || (d && d.proposed.value) || 1);
    $("#teach-colour").value = (d && d.colour) || "";
    $("#teach-remove").hidden = !d;
    $("#teach-editor").hidden = false;
    for (const b of root.querySelectorAll(".teach-die.chosen")) b.classList.remove("chosen");
    if (d) root.querySelector(`.teach-photo[data-photo="${photo.id}"] .teach-die[data-die="${d.id}"]`)?.classList.add("chosen");
    $("#teach-value").focus();
  }

  function closeEditor() {
    editing = null;
    draft = null;
    $("#teach-editor").hidden = true;
    for (const e of root.querySelectorAll(".teach-draft")) e.remove();
    for (const b of root.querySelectorAll(".teach-die.chosen")) b.classList.remove("chosen");
  }

  function save() {
    const e = editing;
    if (!e) return;
    const value = Number($("#teach-value").value);
    const colour = $("#teach-colour").value.trim() || null;
    closeEditor();
    if (e.die !== undefined) act(() => call("PATCH", `/api/teach/photos/${e.photo}/dice/${e.die}`, { value, colour }));
    else act(() => call("POST", `/api/teach/photos/${e.photo}/dice`, { box: e.box, value, colour }));
  }

  function remove() {
    const e = editing;
    closeEditor();
    if (e && e.die !== undefined) act(() => call("DELETE", `/api/teach/photos/${e.photo}/dice/${e.die}`));
  }

  // -- adding a die: drag, two clicks, or the keyboard -----------------------------------------
  function photoPoint(frame, photo, ev) {
    const r = frame.getBoundingClientRect();
    return [(ev.clientX - r.left) / r.width * photo.width, (ev.clientY - r.top) / r.height * photo.height];
  }

  function wireDrawing(frame, photo) {
    frame.addEventListener("pointerdown", (ev) => {
      const [x, y] = photoPoint(frame, photo, ev);
      if (draft && draft.photo === photo.id && draft.from === "click") {  // second click: the other corner
        Object.assign(draft, { x2: x, y2: y, from: "drag" });
        finishDraft(photo);
        return;
      }
      draft = { photo: photo.id, x1: x, y1: y, x2: x, y2: y, from: "drag", down: true };
      frame.setPointerCapture?.(ev.pointerId);
      drawDraft();
    });
    frame.addEventListener("pointermove", (ev) => {
      if (!draft || !draft.down || draft.photo !== photo.id) return;
      [draft.x2, draft.y2] = photoPoint(frame, photo, ev);
      drawDraft();
    });
    frame.addEventListener("pointerup", () => {
      if (!draft || !draft.down || draft.photo !== photo.id) return;
      draft.down = false;
      const small = Math.abs(draft.x2 - draft.x1) < 4 && Math.abs(draft.y2 - draft.y1) < 4;
      if (small) { draft.from = "click"; status("click the die's other corner"); drawDraft(); return; }
      finishDraft(photo);
    });
    frame.addEventListener("keydown", (ev) => {
      if (!draft || draft.photo !== photo.id || draft.from !== "keys") return;
      const step = KEY_STEP * photo.width;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (moves[ev.key]) {
        const [dx, dy] = moves[ev.key];
        if (ev.shiftKey) { draft.x2 += dx; draft.y2 += dy; } else { draft.x1 += dx; draft.x2 += dx; draft.y1 += dy; draft.y2 += dy; }
        drawDraft();
      } else if (ev.key === "Enter") finishDraft(photo);
      else if (ev.key === "Escape") closeEditor();
      else return;
      ev.preventDefault();
    });
  }

  function startKeyboardAdd(frame, photo) {
    const side = photo.dice.length ? median(photo.dice.map((d) => d.box[2] - d.box[0])) : photo.width / 12;
    const cx = photo.width / 2, cy = photo.height / 2;
    draft = { photo: photo.id, x1: cx - side / 2, y1: cy - side / 2, x2: cx + side / 2, y2: cy + side / 2, from: "keys" };
    drawDraft();
    status("arrow keys move the new box, shift + arrows resize it, Enter places it, Escape cancels; or drag on the photo");
    frame.focus();
  }

  function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }

  function draftBox() {
    return [Math.min(draft.x1, draft.x2), Math.min(draft.y1, draft.y2), Math.max(draft.x1, draft.x2), Math.max(draft.y1, draft.y2)]
      .map((v) => Math.round(v * 10) / 10);
  }

  function drawDraft() {
    for (const e of root.querySelectorAll(".teach-draft")) e.remove();
    if (!draft) return;
    const photo = state.photos.find((p) => p.id === draft.photo);
    const frame = root.querySelector(`.teach-frame[data-photo="${draft.photo}"]`);
    if (!photo || !frame) return;
    const [x1, y1, x2, y2] = draftBox();
    frame.append(h("div", { class: "teach-draft", "aria-hidden": "true",
      style: `left:${pct(x1, photo.width)};top:${pct(y1, photo.height)};width:${pct(Math.max(x2 - x1, 2), photo.width)};height:${pct(Math.max(y2 - y1, 2), photo.height)}` }));
  }

  function finishDraft(photo) {
    openEditor(photo, undefined);
  }

  document.addEventListener("DOMContentLoaded", () => {
    root = document.getElementById("teach");
    if (!root) return;
    build();
    // Loaded only when opened: a page that never teaches asks nothing of the server.
    root.addEventListener("toggle", () => { if (root.open && state === null) refresh().catch((err) => say(err.message)); });
    if (root.open) refresh().catch((err) => say(err.message));
  });
})();
