// TableSight page: plain JS. One live WebSocket per open table; every change re-renders.
"use strict";
window.TableSightGames = window.TableSightGames || {};
const $ = (sel) => document.querySelector(sel);

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = data.detail || {};
    const err = new Error(d.reason || res.statusText);
    err.rule = d.rule;
    err.status = res.status;
    throw err;
  }
  return data;
}

function showError(el, err) {
  el.textContent = err ? (err.rule ? `${err.message} (rule: ${err.rule})` : err.message) : "";
}

// ---- home ---------------------------------------------------------------------------
async function showHome() {
  $("#home").hidden = false;
  const games = await api("GET", "/api/games");
  const select = $("#game");
  select.innerHTML = "";
  for (const g of games) {
    const opt = document.createElement("option");
    opt.value = g.name;
    opt.textContent = `${g.title} (${g.min_players}-${g.max_players} players)`;
    select.append(opt);
  }
  const list = $("#tables");
  list.innerHTML = "";
  for (const t of (await api("GET", "/api/tables")).reverse()) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/table/${t.id}`;
    a.textContent = `${t.game}: ${t.players.join(", ")}`;
    li.append(a);
    list.append(li);
  }
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
  setupQuarxCheck();
  setupDemo();
}

// The names in the home page's players field ("Ann, Ben").
function typedPlayers() {
  return $("#players").value.split(",").map((s) => s.trim()).filter(Boolean);
}

// With the demo as the camera, one button per bundled clip starts a table that plays it.
const DEMO_TITLES = { diceline: "Diceline", ubongo: "Ubongo", quarx: "Quarx" };
async function setupDemo() {
  const { h } = window.TableSightDom;
  let demo;
  try { demo = await api("GET", "/api/demo"); } catch (err) { return; }
  if (!demo.available || !demo.clips.length) return;
  const box = $("#demo-clips");
  box.innerHTML = "";
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

function setupQuarxCheck() {
  const box = $("#quarx-check");
  const out = $("#quarx-result");
  const send = async (file) => {
    out.textContent = "counting…";
    const form = new FormData();
    form.append("image", file);
    const res = await fetch("/api/quarx/count", { method: "POST", body: form });
    const data = await res.json().catch(() => ({}));
    out.textContent = res.ok ? quarxText(data) : (data.detail && data.detail.reason) || res.statusText;
  };
  $("#quarx-file").addEventListener("change", (ev) => ev.target.files[0] && send(ev.target.files[0]));
  box.addEventListener("dragover", (ev) => { ev.preventDefault(); box.classList.add("drag"); });
  box.addEventListener("dragleave", () => box.classList.remove("drag"));
  box.addEventListener("drop", (ev) => {
    ev.preventDefault();
    box.classList.remove("drag");
    if (ev.dataTransfer.files[0]) send(ev.dataTransfer.files[0]);
  });
  $("#quarx-live").addEventListener("click", async () => {
    out.textContent = "counting…";
    const res = await fetch("/api/quarx/count-camera", { method: "POST" });
    const data = await res.json().catch(() => ({}));
    out.textContent = res.ok ? quarxText(data) : (data.detail && data.detail.reason) || res.statusText;
  });
}

function quarxText(d) {
  const cards = (d.number_cards || []).join(" + ");
  return `${d.spheres} spheres on ${(d.cards || []).length} cards = ${cards || "nothing"}`;
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
  setupCamera();
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
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/tables/${id}/live`);
  ws.onopen = () => { $("#conn").textContent = "live"; $("#conn").classList.add("live"); };
  ws.onmessage = (ev) => render(JSON.parse(ev.data), tableApi);
  ws.onclose = () => {
    $("#conn").textContent = "offline";
    $("#conn").classList.remove("live");
    setTimeout(() => connect(id, tableApi), 1000);
  };
}

function render(snap, tableApi) {
  if (current && snap.version !== undefined && current.version > snap.version) return;  // stale
  current = snap;
  $("#table-title").textContent = `${snap.title} · table ${snap.id}`;
  const body = $("#scores tbody");
  body.innerHTML = "";
  for (const p of snap.players) {
    const tr = document.createElement("tr");
    tr.dataset.player = p;
    if (snap.to_move.includes(p)) tr.classList.add("to-move");
    if (snap.winners.includes(p)) tr.classList.add("winner");
    const name = document.createElement("td");
    name.textContent = p;
    const pts = document.createElement("td");
    pts.className = "points";
    pts.textContent = snap.scores[p];
    tr.append(name, pts);
    body.append(tr);
  }
  let status;
  if (snap.over) status = `Game over. Winner${snap.winners.length > 1 ? "s" : ""}: ${snap.winners.join(", ")}`;
  else if (snap.chance) status = `Waiting for ${snap.chance}`;
  else status = snap.to_move.length ? `To move: ${snap.to_move.join(", ")}` : "";
  $("#status").textContent = status;
  $("#chance-box").hidden = !snap.chance;
  $("#chance-text").textContent = snap.chance || "";
  renderMoves(snap, tableApi);
  const hist = $("#history");
  hist.innerHTML = "";
  snap.history.forEach((text, i) => {
    const li = document.createElement("li");
    li.textContent = text;
    const source = (snap.sources || [])[i];
    if (source === "camera") li.classList.add("camera");
    if (source === "demo") { li.classList.add("demo"); li.title = "typed by the demo for the players: no camera can see this move, or the camera missed it"; }
    hist.append(li);
  });
  renderCamera(snap, tableApi);
  const renderer = window.TableSightGames[snap.game];
  const view = $("#game-view");
  if (renderer) { view.innerHTML = ""; renderer.render(view, snap, tableApi); }
  else loadGameScript(snap, tableApi);
}

const triedScripts = new Set();
function loadGameScript(snap, tableApi) {
  if (triedScripts.has(snap.game)) return;
  triedScripts.add(snap.game);
  const s = document.createElement("script");
  s.src = `/static/games/${snap.game}.js`;
  s.onload = () => current && render(current, tableApi);
  document.body.append(s);
}

function renderMoves(snap, tableApi) {
  const list = $("#legal-moves");
  list.innerHTML = "";
  const filter = $("#move-filter").value.trim().toLowerCase();
  const moves = snap.legal_moves.filter((m) => !filter || m.toLowerCase().includes(filter));
  for (const m of moves.slice(0, 400)) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m;
    b.addEventListener("click", () => tableApi.play(m));
    li.append(b);
    list.append(li);
  }
}

function renderCamera(snap, tableApi) {
  const cam = snap.camera || { watching: false };
  $("#watch").checked = !!cam.watching;
  $("#camera-note").textContent = cam.watching
    ? `camera: ${cam.state}${cam.detail ? " · " + cam.detail : ""} · ${cam.applied || 0} moves played by the camera`
    : "";
  const box = $("#candidates");
  const cands = snap.candidates || [];
  box.hidden = cands.length === 0;
  $("#candidates-reason").textContent = snap.candidates_reason ? `The camera is not sure: ${snap.candidates_reason}. Which was it?` : "";
  const list = $("#candidate-list");
  list.innerHTML = "";
  cands.forEach((moves, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "candidate";
    b.textContent = moves.join(" ; ");
    b.addEventListener("click", async () => {
      try { await api("POST", `/api/tables/${tableApi.tableId}/camera/choose`, { candidate: i }); showError($("#error"), null); }
      catch (err) { showError($("#error"), err); }
    });
    li.append(b);
    list.append(li);
  });
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
      let text = st.state === "off" ? "no camera source" : `${st.source}: ${st.state}${st.detail ? " (" + st.detail + ")" : ""}`;
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
