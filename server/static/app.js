// TableSight page: plain JS. One live WebSocket per open table; every change re-renders.
// Each game's view is a plugin: static/games/<game>.js (registering TableSightGames[game]) with
// static/games/<game>.css; home-page tools register in TableSightHomeTools.
"use strict";
window.TableSightGames = window.TableSightGames || {};
window.TableSightHomeTools = window.TableSightHomeTools || {};
const $ = (sel) => document.querySelector(sel);
const { h, api, live, stylesheet } = window.TableSightDom;
const draw = window.TableSightDraw;

function showError(el, err) {
  el.textContent = err ? (err.rule ? `${err.message} (rule: ${err.rule})` : err.message) : "";
}

// ---- home ---------------------------------------------------------------------------
async function showHome() {
  $("#home").hidden = false;
  const games = await api("GET", "/api/games");
  const select = $("#game");
  select.replaceChildren(...games.map((g) => h("option", { value: g.name, text: `${g.title} (${g.min_players}-${g.max_players} players)` })));
  const tables = (await api("GET", "/api/tables")).reverse();
  $("#tables").replaceChildren(...tables.map((t) => h("li", {}, h("a", { href: `/table/${t.id}`, text: `${t.game}: ${t.players.join(", ")}` }))));
  $("#new-table").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const players = typedPlayers();
    const body = { game: select.value, players };
    if ($("#seed").value !== "") body.seed = Number($("#seed").value);
    try {
      if ($("#options").value.trim()) body.options = JSON.parse($("#options").value);
      const t = await api("POST", "/api/tables", body);
      // Only the page that created the table holds this: it can re-issue a lost private link.
      localStorage.setItem(`tablesight-creator:${t.id}`, t.creator_token);
      location.href = `/table/${t.id}`;
    } catch (err) {
      showError($("#home-error"), err);
    }
  });
  for (const tool of Object.values(window.TableSightHomeTools)) tool.mount($("#home-tools"));
  setupDemo();
  firstRun();
}

// First run with this camera: offer the set-up wizard (never forced: the demo needs none).
async function firstRun() {
  try {
    const [st, settings] = await Promise.all([api("GET", "/api/camera/status"), api("GET", "/api/camera/settings")]);
    $("#first-run").hidden = st.state === "off" || settings.set_up;
  } catch (err) { /* no camera: nothing to set up */ }
}

// The names in the home page's players field ("Ann, Ben").
function typedPlayers() {
  return $("#players").value.split(",").map((s) => s.trim()).filter(Boolean);
}

// With the demo as the camera, one button per bundled clip starts a table that plays it.
const DEMO_TITLES = { diceline: "Diceline", ubongo: "Ubongo", quarx: "Quarx" };
async function setupDemo() {
  let demo;
  try { demo = await api("GET", "/api/demo"); } catch (err) { return; }
  if (!demo.available || !demo.clips.length) return;
  const box = $("#demo-clips");
  box.replaceChildren();
  for (const clip of demo.clips) {
    const title = DEMO_TITLES[clip.game] || clip.game;
    const who = clip.players ? clip.players.join(", ") : "the players above (or Ann, Ben)";
    const start = async () => {
      const players = typedPlayers();
      const body = clip.players || !players.length ? {} : { players };
      try {
        const res = await api("POST", `/api/demo/${clip.game}`, body);
        location.href = `/table/${res.table}`;
      } catch (err) { showError($("#demo-error"), err); }
    };
    box.append(h("button", { type: "button", class: "demo-clip", "data-game": clip.game, onclick: start,
      title: `${clip.seconds} s of footage, ${who}` }, `Watch the demo: ${title}`), " ");
  }
  $("#demo").hidden = false;
}

// ---- table --------------------------------------------------------------------------
let current = null;

async function showTable(id) {
  $("#table").hidden = false;
  const tableApi = {
    tableId: id,
    play: (text) => play(id, text),
    undo: () => api("POST", `/api/tables/${id}/undo`),
  };
  $("#move-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const text = $("#move-text").value.trim();
    if (text && (await play(id, text))) $("#move-text").value = "";
  });
  $("#undo").addEventListener("click", async () => {
    try { render(await tableApi.undo(), tableApi); showError($("#error"), null); }
    catch (err) { showError($("#error"), err); }
  });
  $("#chance-random").addEventListener("click", () => play(id, "random"));
  $("#watch").addEventListener("change", async (ev) => {
    try { await api("POST", "/api/camera/watch", { table: ev.target.checked ? id : null }); showError($("#error"), null); }
    catch (err) { ev.target.checked = false; showError($("#error"), err); }
  });
  $("#move-filter").addEventListener("input", () => current && renderMoves(current, tableApi));
  $("#last-move-undo").addEventListener("click", async () => {
    try { await tableApi.undo(); showError($("#error"), null); } catch (err) { showError($("#error"), err); }
  });
  $("#speak").checked = draw.speech.on;
  $("#speak").addEventListener("change", (ev) => { draw.speech.on = ev.target.checked; if (ev.target.checked) draw.speech.say("speech on"); });
  $("#setup-link").href = `/setup?back=${encodeURIComponent(location.pathname)}`;
  // The live picture shows only what this table's game uses.
  api("POST", "/api/camera/focus", { table: id }).catch(() => {});
  setupCamera();
  setupWorkerLink(id);
  render(await api("GET", `/api/tables/${id}`), tableApi);
  connect(id, tableApi);
}

async function play(id, text) {
  try {
    await api("POST", `/api/tables/${id}/moves`, { move: text, source: "page" });
    showError($("#error"), null);
    return true;
  } catch (err) {
    showError($("#error"), err);
    return false;
  }
}

function connect(id, tableApi) {
  live(`/api/tables/${id}/live`, {
    onOpen: () => { $("#conn").textContent = "live"; $("#conn").classList.add("live"); },
    onMessage: (snap) => render(snap, tableApi),
    onClose: () => { $("#conn").textContent = "offline"; $("#conn").classList.remove("live"); },
  });
}

function render(snap, tableApi) {
  if (current && snap.version !== undefined && current.version > snap.version) return;  // stale
  const before = current && current.id === snap.id ? current : null;
  current = snap;
  renderLastMove(snap, before);
  renderEnd(snap);
  $("#table-title").textContent = `${snap.title} · table ${snap.id}`;
  $("#scores tbody").replaceChildren(...snap.players.map((p) => {
    const cls = [snap.to_move.includes(p) ? "to-move" : "", snap.winners.includes(p) ? "winner" : ""].filter(Boolean).join(" ");
    const note = snap.winners.includes(p) ? " (winner)" : snap.to_move.includes(p) ? " (to move)" : "";
    return h("tr", { "data-player": p, class: cls || null },
      h("th", { scope: "row" }, draw.mark(snap.players, p), " ", p, h("span", { class: "visually-hidden", text: note })),
      h("td", { class: "points", text: String(snap.scores[p]) }));
  }));
  let status;
  if (snap.over) status = `Game over. Winner${snap.winners.length > 1 ? "s" : ""}: ${snap.winners.join(", ")}`;
  else if (snap.chance) status = `Waiting for ${snap.chance}`;
  else status = snap.to_move.length ? `To move: ${snap.to_move.join(", ")}` : "";
  $("#status").textContent = status;
  $("#chance-box").hidden = !snap.chance;
  $("#chance-text").textContent = snap.chance || "";
  renderMoves(snap, tableApi);
  $("#history").replaceChildren(...snap.history.map((text, i) => {
    const source = (snap.sources || [])[i];
    const latest = i === snap.history.length - 1 ? " latest" : "";
    if (source === "camera") return h("li", { class: "camera" + latest, text });
    if (source === "demo") return h("li", { class: "demo" + latest, text, title: "typed by the demo for the players: no camera can see this move, or the camera missed it" });
    return h("li", { class: latest.trim() || null, text });
  }));
  renderCamera(snap, tableApi);
  const renderer = window.TableSightGames[snap.game];
  const view = $("#game-view");
  if (renderer) { view.replaceChildren(); renderer.render(view, snap, tableApi); }
  else loadGameScript(snap, tableApi);
}

const triedScripts = new Set();
function loadGameScript(snap, tableApi) {
  if (triedScripts.has(snap.game)) return;
  triedScripts.add(snap.game);
  stylesheet(`/static/games/${snap.game}.css`);
  document.body.append(h("script", { src: `/static/games/${snap.game}.js`, onload: () => current && render(current, tableApi) }));
}

const SOURCE_WORDS = { camera: "by the camera", demo: "typed by the demo", page: "from the page", api: "from the API", player: "from a player's phone" };

// The move just made, large, and when the camera made it, one click to take it back.
function renderLastMove(snap, before) {
  const n = snap.history.length;
  const box = $("#last-move");
  box.hidden = n === 0;
  if (!n) return;
  const source = (snap.sources || [])[n - 1];
  $("#last-move-text").textContent = `Last move: ${snap.history[n - 1]}${SOURCE_WORDS[source] ? ` (${SOURCE_WORDS[source]})` : ""}`;
  box.classList.toggle("camera", source === "camera");
  $("#last-move-undo").hidden = source !== "camera" || snap.over;
  // Speak a camera move once, when it arrives (not on the first render of the page).
  if (before && n > before.history.length && source === "camera") draw.speech.say(`camera: ${snap.history[n - 1]}`);
}

// End of game: the score over time and every player's points, broken down by the game's plugin.
function renderEnd(snap) {
  const box = $("#game-end");
  box.hidden = !snap.over;
  if (!snap.over) return;
  const timeline = snap.score_timeline || [snap.scores];
  $("#game-end-chart").replaceChildren(draw.chart(timeline, snap.players));
  const plugin = window.TableSightGames[snap.game];
  const parts = plugin && plugin.breakdown ? plugin.breakdown(snap) : null;
  const labels = parts ? [...new Set(snap.players.flatMap((p) => Object.keys(parts[p] || {})))]
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true })) : [];
  const table = h("table", { class: "breakdown" }, h("caption", { text: "Every player's points" }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Player" }), ...labels.map((l) => h("th", { scope: "col", text: l })), h("th", { scope: "col", text: "Total" }))));
  const body = h("tbody");
  for (const p of snap.players) {
    body.append(h("tr", { "data-player": p }, h("th", { scope: "row" }, draw.mark(snap.players, p), " ", p),
      ...labels.map((l) => h("td", { text: String((parts[p] || {})[l] ?? 0) })), h("td", { class: "total", text: String(snap.scores[p]) })));
  }
  table.append(body);
  $("#game-end-breakdown").replaceChildren(table);
}

function renderMoves(snap, tableApi) {
  const filter = $("#move-filter").value.trim().toLowerCase();
  const moves = snap.legal_moves.filter((m) => !filter || m.toLowerCase().includes(filter));
  $("#legal-moves").replaceChildren(...moves.slice(0, 400).map((m) =>
    h("li", {}, h("button", { type: "button", text: m, onclick: () => tableApi.play(m) }))));
}

function renderCamera(snap, tableApi) {
  const cam = snap.camera || { watching: false };
  $("#watch").checked = !!cam.watching;
  const waits = cam.watching && cam.waiting ? cam.waiting : snap.camera_waits_for;
  $("#camera-waiting").textContent = waits ? `The camera waits for: ${waits}` : "";
  $("#camera-note").textContent = cam.worker ? workerNote(cam) : cam.watching
    ? `camera: ${cam.state}${cam.detail ? " · " + cam.detail : ""} · ${cam.applied || 0} moves played by the camera`
    : "";
  // A camera worker at this table (tablesight camera): its picture instead of this server's camera.
  const workerStream = `/api/tables/${tableApi.tableId}/camera/stream.mjpg`;
  if (cam.worker && !$("#camera").src.endsWith(workerStream)) $("#camera").src = workerStream;
  const box = $("#candidates");
  const cands = snap.candidates || [];
  box.hidden = cands.length === 0;
  $("#candidates-reason").textContent = snap.candidates_reason ? `The camera is not sure: ${snap.candidates_reason}. Which was it?` : "";
  const choose = async (i) => {
    try { await api("POST", `/api/tables/${tableApi.tableId}/camera/choose`, { candidate: i }); showError($("#error"), null); }
    catch (err) { showError($("#error"), err); }
  };
  $("#candidate-list").replaceChildren(...cands.map((moves, i) =>
    h("li", {}, h("button", { type: "button", class: "candidate", text: moves.join(" ; "), onclick: () => choose(i) }))));
}

// The worker's own words, and how long ago the server last heard it (it reports every few seconds).
function workerNote(cam) {
  const ago = Math.max(0, Math.round(Date.now() / 1000 - (cam.heard || 0)));
  const heard = ago > 15 ? ` · not heard for ${ago} s` : "";
  return `camera worker (${cam.source || "?"}): ${cam.state}${cam.detail ? " · " + cam.detail : ""} · ` +
    `${cam.applied || 0} moves played by the camera · ${cam.cpu_ms || 0} ms CPU a frame${heard}`;
}

// Only the page that created the table (it holds the creator token) may show the camera token.
function setupWorkerLink(tableId) {
  const creator = localStorage.getItem(`tablesight-creator:${tableId}`);
  if (!creator) return;
  const show = async () => {
    try {
      const res = await api("POST", `/api/tables/${tableId}/camera/token`, {}, { "X-Creator-Token": creator });
      $("#worker-link").replaceChildren("Run at the table's own computer: ", h("code", { text: res.command }));
    } catch (err) { showError($("#worker-link"), err); }
  };
  $("#worker-link").replaceChildren(h("button", { type: "button", id: "show-worker", text: "A camera at this table: show the command", onclick: show }));
}

function setupCalibration(img) {
  let clicks = null;
  const say = (text) => { $("#calibration").textContent = text; };
  const send = async (body) => {
    try {
      const res = await api("POST", "/api/camera/calibration", body);
      say(`calibrated: corners ${res.calibration.corners.map((c) => c.map(Math.round).join(",")).join(" ")}`);
    } catch (err) { say(`not calibrated: ${err.message}`); }
  };
  $("#calibrate").addEventListener("click", () => { clicks = []; say("click the 4 corners of the board on the picture"); });
  $("#calibrate-markers").addEventListener("click", () => send({ markers: true }));
  img.addEventListener("click", (ev) => {
    if (!clicks) return;
    const r = img.getBoundingClientRect();
    // Clicks are in page pixels; the server wants pixels of the camera's own picture.
    clicks.push([(ev.clientX - r.left) * img.naturalWidth / r.width, (ev.clientY - r.top) * img.naturalHeight / r.height]);
    say(`corner ${clicks.length} of 4`);
    if (clicks.length === 4) { const corners = clicks; clicks = null; send({ corners }); }
  });
}

function setupCamera() {
  const img = $("#camera");
  setupCalibration(img);
  img.src = "/api/camera/stream.mjpg";
  const poll = async () => {
    try {
      const st = await api("GET", "/api/camera/status");
      let text = st.state === "off" ? "no camera source (start the server with --source auto, a webcam index or a video file)" : `${st.source}: ${st.state}${st.detail ? " (" + st.detail + ")" : ""}`;
      img.hidden = st.state === "off";  // no broken picture where there is no camera
      if (st.losses) text += ` · lost ${st.losses}× (last: ${st.last_problem})`;
      if (st.annotation && st.annotation !== "on") text += ` · detector ${st.annotation}`;
      $("#camera-status").textContent = text;
    } catch (err) { $("#camera-status").textContent = "camera status unavailable"; }
  };
  poll();
  setInterval(poll, 3000);
}

// Bound beyond this machine: say so on every page, not only in the terminal.
async function showExposure() {
  try {
    const info = await api("GET", "/api/server");
    const el = $("#exposure-warning");
    el.textContent = info.warning || "";
    el.hidden = !info.warning;
  } catch (err) { /* the warning is best effort; the terminal has said it too */ }
}

const m = location.pathname.match(/^\/table\/([^/]+)$/);
showExposure();
if (m) showTable(decodeURIComponent(m[1])); else showHome();
