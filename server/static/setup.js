// The camera set-up wizard: pick a camera (each with its preview), check its picture (focus,
// light, size, framing, each said in words), calibrate (markers or four clicks), read the table
// once, save for this camera. Every step works from the keyboard; calibrating by clicks has the
// markers button as its keyboard alternative.
"use strict";
(function () {
  const { h, api } = window.TableSightDom;
  const $ = (sel) => document.querySelector(sel);
  const state = { check: null, game: null, clicks: null };
  const say = (sel, text) => { $(sel).textContent = text; };
  const fail = (err) => say("#setup-error", err ? err.message : "");

  const back = new URLSearchParams(location.search).get("back");
  if (back && /^\/table\/[A-Za-z0-9_-]+$/.test(back)) { $("#back").href = back; $("#back").textContent = "Back to the table"; }

  // The live picture: one JPEG a second (a still per request keeps the wizard light on a laptop).
  function refreshLive() {
    const img = $("#live");
    if (state.clicks) return;  // hold the picture still while corners are being clicked
    img.src = `/api/camera/frame.jpg?t=${Date.now()}`;
  }

  // ---- 1. pick ------------------------------------------------------------------------
  async function loadSources() {
    let data;
    try { data = await api("GET", "/api/camera/sources"); } catch (err) { say("#pick-status", err.message); return; }
    const box = $("#sources");
    box.replaceChildren();
    for (const src of data.sources) {
      const id = `src-${src.id.replace(/[^A-Za-z0-9]/g, "-")}`;
      const input = h("input", { type: "radio", name: "source", value: src.id, id, checked: src.id === data.current });
      box.append(h("label", { class: "source", for: id, "data-source": src.id },
        h("img", { src: `/api/camera/preview.jpg?source=${encodeURIComponent(src.id)}`, alt: `preview of ${src.name}`, loading: "lazy" }),
        h("span", {}, input, " ", src.name),
        src.in_use ? h("span", { class: "in-use", text: "✓ in use now" }) : null));
    }
    const webcams = data.sources.filter((x) => x.kind === "webcam").length;
    say("#pick-status", `${webcams} webcam${webcams === 1 ? "" : "s"} answered; ${data.sources.length - webcams} other choice${data.sources.length - webcams === 1 ? "" : "s"} (demo footage, video files).`);
  }

  $("#use-source").addEventListener("click", async () => {
    const chosen = document.querySelector('input[name="source"]:checked');
    if (!chosen) { say("#use-status", "pick one first"); return; }
    try {
      const res = await api("POST", "/api/camera/source", { source: chosen.value });
      say("#use-status", `now using ${chosen.value}${res.settings.set_up ? " (set up before: its settings are back)" : ""}`);
      fail(null);
      await loadSources();
      setTimeout(() => { refreshLive(); runCheck(); }, 600);
    } catch (err) { fail(err); }
  });

  // ---- 2. check -----------------------------------------------------------------------
  const MARK = { good: "✓ good", fix: "✗ fix", unsure: "? unsure" };
  const ASPECT = { resolution: "Size", focus: "Focus", exposure: "Light", framing: "Framing" };
  async function runCheck() {
    try {
      const res = await api("GET", "/api/camera/check");
      state.check = res;
      $("#findings").replaceChildren(...res.findings.map((f) =>
        h("li", { class: f.verdict, "data-aspect": f.aspect }, h("span", { class: "mark", text: MARK[f.verdict] }), ` ${ASPECT[f.aspect]}: ${f.say}`)));
      fail(null);
    } catch (err) { fail(err); }
  }
  $("#check").addEventListener("click", runCheck);

  // ---- 3. calibrate -------------------------------------------------------------------
  async function calibrate(body) {
    try {
      const res = await api("POST", "/api/camera/calibration", body);
      say("#cal-status", `calibrated: corners ${res.calibration.corners.map((c) => c.map(Math.round).join(",")).join(" ")}`);
      runCheck();
    } catch (err) { say("#cal-status", `not calibrated: ${err.message}`); }
  }
  $("#cal-markers").addEventListener("click", () => calibrate({ markers: true }));
  $("#cal-clicks").addEventListener("click", () => {
    state.clicks = [];
    $("#live").classList.add("clicking");
    say("#cal-status", "click the 4 corners of the board on the picture in step 2");
  });
  $("#live").addEventListener("click", (ev) => {
    if (!state.clicks) return;
    const img = ev.currentTarget, r = img.getBoundingClientRect();
    state.clicks.push([(ev.clientX - r.left) * img.naturalWidth / r.width, (ev.clientY - r.top) * img.naturalHeight / r.height]);
    say("#cal-status", `corner ${state.clicks.length} of 4`);
    if (state.clicks.length === 4) {
      const corners = state.clicks;
      state.clicks = null;
      img.classList.remove("clicking");
      calibrate({ corners });
    }
  });

  // ---- 4. test reading ----------------------------------------------------------------
  $("#test").addEventListener("click", async () => {
    const game = $("#test-game").value;
    $("#test-said").replaceChildren(h("li", { text: "reading…" }));
    try {
      const res = await api("POST", "/api/camera/test-reading", { game });
      state.game = game;
      $("#test-picture").src = res.picture;
      $("#test-picture").hidden = false;
      const unsure = res.labels.filter((l) => !l.sure).length;
      $("#test-said").replaceChildren(...res.said.map((t) => h("li", { text: t })),
        h("li", { class: "status", text: `${res.labels.length} thing${res.labels.length === 1 ? "" : "s"} labelled on the picture${unsure ? `, ${unsure} unsure` : ""}` }));
      fail(null);
    } catch (err) { $("#test-said").replaceChildren(); fail(err); }
  });

  // ---- save ---------------------------------------------------------------------------
  $("#save").addEventListener("click", async () => {
    try {
      const res = await api("POST", "/api/camera/settings", { set_up: true, game: state.game, check: state.check });
      say("#save-status", `Saved for ${res.camera}. Next time this camera is used, its calibration and check are back.`);
      fail(null);
    } catch (err) { fail(err); }
  });

  async function showExposure() {
    try {
      const info = await api("GET", "/api/server");
      $("#exposure-warning").textContent = info.warning || "";
      $("#exposure-warning").hidden = !info.warning;
    } catch (err) { /* best effort */ }
  }

  showExposure();
  loadSources();
  refreshLive();
  setInterval(refreshLive, 1000);
  setTimeout(runCheck, 800);
})();
