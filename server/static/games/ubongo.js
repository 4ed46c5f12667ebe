// Ubongo: the current puzzle area of each player, the dice on the table, grabbing by clicking
// two dice, entering a shape by clicking a cell (rotate / mirror first), and the dice hint.
"use strict";
(function () {
  // What this page has selected; kept across live updates of the same table.
  const ui = { tableId: null, player: null, pick: { black: null, white: null }, shape: null, rot: 0, mirror: false, hint: null, shown: null, busy: false };
  let last = null; // { el, snap, api } of the latest render, to redraw after a click

  const { h } = window.TableSightDom;

  // ---- shapes -----------------------------------------------------------------------
  const norm = (cells) => {
    const r0 = Math.min(...cells.map((c) => c[0]));
    const c0 = Math.min(...cells.map((c) => c[1]));
    return cells.map(([r, c]) => [r - r0, c - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  };
  function oriented(cells, rot, mirror) {
    let cs = cells.map(([r, c]) => [r, mirror ? -c : c]);
    for (let i = 0; i < rot; i++) cs = cs.map(([r, c]) => [c, -r]); // a quarter turn clockwise
    return norm(cs);
  }
  const cellName = ([r, c]) => `r${r + 1}c${c + 1}`;
  const hue = (name) => [...name].reduce((a, ch) => (a * 31 + ch.charCodeAt(0)) % 360, 7);

  function mini(cells) {
    const rows = 1 + Math.max(...cells.map((c) => c[0]));
    const cols = 1 + Math.max(...cells.map((c) => c[1]));
    const on = new Set(cells.map(cellName));
    const g = h("div", { class: "ubongo-mini" });
    g.style.gridTemplateColumns = `repeat(${cols}, .6rem)`;
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) g.append(h("span", { class: on.has(cellName([r, c])) ? "on" : "" }));
    return g;
  }

  // ---- actions ----------------------------------------------------------------------
  const redraw = () => last && draw(last.el, last.snap, last.api);

  async function send(text) {
    if (ui.busy) return;
    ui.busy = true;
    try { await last.api.play(text); } finally { ui.busy = false; }
  }

  async function askHint(player) {
    ui.hint = { player, loading: true };
    redraw();
    try {
      const data = await window.TableSightDom.api("GET", `/api/tables/${encodeURIComponent(last.api.tableId)}/ubongo/hint?player=${encodeURIComponent(player)}`);
      ui.hint = { player, data, version: last.snap.version };
    } catch (err) {
      ui.hint = { player, error: err.message };
    }
    redraw();
  }

  // ---- drawing ----------------------------------------------------------------------
  function draw(el, snap, api) {
    last = { el, snap, api };
    el.innerHTML = "";
    const v = snap.view;
    const me = ui.player;
    el.append(h("p", { class: "ubongo-status", text: `Puzzle area ${v.area_number} of ${v.areas} · round ${v.round} · die-roller: ${v.roller_name}` }));
    el.append(h("p", { class: "ubongo-phase", text: phaseText(v) }));
    if (v.last && v.last.area) el.append(h("p", { class: "ubongo-last", text: lastText(v.last) }));
    if (snap.over) {
      const order = [...snap.players].sort((a, b) => v.ranks[a] - v.ranks[b]);
      el.append(h("p", { class: "ubongo-final", text: "Final: " + order.map((p) => `${v.ranks[p]}. ${p} (${snap.scores[p]})`).join(", ") }));
    }

    // Whose controls these are: one button per player.
    const who = h("div", { class: "ubongo-row ubongo-players" }, h("span", { text: "Playing as:" }));
    for (const p of snap.players) {
      who.append(h("button", { type: "button", class: p === me ? "active" : "", "data-player": p,
        onclick: () => { ui.player = p; ui.pick = { black: null, white: null }; ui.shape = null; redraw(); } }, p));
    }
    el.append(who);

    el.append(diceRow(v, "black"), diceRow(v, "white"));
    if (v.phase === "roll") el.append(rollForm(v));
    if (v.phase === "take" && v.to_move.includes(me)) {
      const ready = ui.pick.black && ui.pick.white;
      el.append(h("div", { class: "ubongo-row" },
        h("button", { type: "button", class: "ubongo-take", disabled: ready ? null : "disabled",
          onclick: () => send(`${me} takes black ${ui.pick.black} white ${ui.pick.white}`).then(() => { ui.pick = { black: null, white: null }; }) },
          ready ? `${me} takes black ${ui.pick.black} white ${ui.pick.white}` : `${me}: click one black and one white die`)));
    }
    if (v.phase === "enter" && v.to_move.includes(me)) el.append(enterControls(v, me));

    const hintRow = h("div", { class: "ubongo-row" });
    if (!snap.over && me && !(me in v.finished)) {
      hintRow.append(h("button", { type: "button", class: "ubongo-hint-button", onclick: () => askHint(me) }, `Hint for ${me}`));
    }
    el.append(hintRow);
    if (ui.hint && ui.hint.player === me) el.append(hintBox(v, me));

    const boards = h("div", { class: "ubongo-boards" });
    for (const p of snap.players) boards.append(boardEl(v, p, p === me));
    el.append(boards);
  }

  function phaseText(v) {
    if (v.phase === "over") return "The game is over.";
    if (v.phase === "roll") return `${v.roller_name} rolls all dice: draw at random, or type the faces (roll black … white …).`;
    if (v.phase === "take") return `Grab one black and one white die: ${v.to_move.join(", ")}.`;
    return `Enter zero to two shapes, then Done: ${v.to_move.join(", ")}.`;
  }

  function lastText(l) {
    const gained = Object.entries(l.gained).filter(([p]) => p !== l.consolation).map(([p, n]) => `${p} +${n}`);
    let t = `Area ${l.area}, round ${l.round}: ${gained.length ? gained.join(", ") : "nobody finished"}`;
    if (l.consolation) t += `; consolation point for ${l.consolation}`;
    return t;
  }

  function diceRow(v, colour) {
    const row = h("div", { class: `ubongo-row ubongo-dice-${colour}` }, h("span", { text: colour === "black" ? "Black dice:" : "White dice:" }));
    const shown = v[colour];
    if (!shown.length) {
      row.append(h("small", { text: `not rolled (faces: ${v.dice_faces[colour].map((d) => d.join(" ")).join(" | ")})` }));
      return row;
    }
    // Who took which face: hand the taken faces out in table order.
    const owners = [];
    for (const [p, pair] of Object.entries(v.taken)) owners.push([pair[colour === "black" ? 0 : 1], p]);
    shown.forEach((face, i) => {
      const k = owners.findIndex(([f]) => f === face);
      const owner = k >= 0 ? owners.splice(k, 1)[0][1] : null;
      const picked = !owner && ui.pick[colour] === face && shown.indexOf(face) === i;
      const die = h("div", { class: `ubongo-die ${colour}${owner ? " taken" : ""}${picked ? " picked" : ""}`, "data-face": face, "data-colour": colour, title: face },
        mini(v.shapes[face]), h("small", { text: owner ? `${face} · ${owner}` : face }));
      if (!owner && v.phase === "take") {
        window.TableSightDraw.htmlButton(die, `${colour} die ${face}${picked ? " (picked)" : ""}`, () => { ui.pick[colour] = ui.pick[colour] === face ? null : face; redraw(); });
        die.setAttribute("aria-pressed", picked ? "true" : "false");
      } else {
        die.setAttribute("role", "img");
        die.setAttribute("aria-label", owner ? `${colour} die ${face}, taken by ${owner}` : `${colour} die ${face}`);
      }
      row.append(die);
    });
    return row;
  }

  // A person enters the faces the dice show: one choice per die in play.
  function rollForm(v) {
    const row = h("div", { class: "ubongo-row ubongo-roll" }, h("span", { text: "Rolled:" }));
    const selects = { black: [], white: [] };
    for (const colour of ["black", "white"]) {
      v.dice_faces[colour].forEach((faces, i) => {
        const sel = h("select", { "data-colour": colour, "data-die": String(i + 1), title: `${colour} die ${i + 1}` });
        for (const f of [...new Set(faces)]) sel.append(h("option", { value: f }, f));
        selects[colour].push(sel);
        row.append(sel);
      });
    }
    row.append(h("button", { type: "button", class: "ubongo-roll-enter",
      onclick: () => send(`roll black ${selects.black.map((s) => s.value).join(" ")} white ${selects.white.map((s) => s.value).join(" ")}`) }, "Enter roll"));
    return row;
  }

  function enterControls(v, me) {
    const box = h("div", { class: "ubongo-enter" });
    const row = h("div", { class: "ubongo-row ubongo-shapes" }, h("span", { text: `${me} enters:` }));
    const unused = v.unused[me] || [];
    if (ui.shape && !unused.includes(ui.shape)) ui.shape = null;
    for (const s of unused) {
      row.append(h("button", { type: "button", class: s === ui.shape ? "active" : "", "data-shape": s,
        onclick: () => { ui.shape = ui.shape === s ? null : s; ui.rot = 0; ui.mirror = false; redraw(); } }, s));
    }
    row.append(h("button", { type: "button", class: "ubongo-done", onclick: () => send(`${me} done`) }, "Done"));
    box.append(row);
    if (ui.shape) {
      box.append(h("div", { class: "ubongo-row" },
        h("span", { class: "ubongo-preview" }, mini(oriented(v.shapes[ui.shape], ui.rot, ui.mirror))),
        h("button", { type: "button", class: "ubongo-rotate", onclick: () => { ui.rot = (ui.rot + 1) % 4; redraw(); } }, "Rotate ⟳"),
        h("button", { type: "button", class: "ubongo-mirror", onclick: () => { ui.mirror = !ui.mirror; redraw(); } }, "Mirror ⇋"),
        h("small", { text: "then click the cell for the leftmost square of its top row" })));
    }
    return box;
  }

  function hintBox(v, me) {
    const box = h("div", { class: "ubongo-hint" });
    const hint = ui.hint;
    if (hint.loading) { box.append(h("p", { text: "thinking…" })); return box; }
    if (hint.error) { box.append(h("p", { class: "error", text: hint.error })); return box; }
    const d = hint.data;
    const f = d.fill;
    if (f.cells_left !== null) {
      const fillText = f.can_fill === false ? "can no longer be filled with these dice"
        : f.min_rounds === null ? "fill unknown (search too large)" : `can be filled in ${f.min_rounds} round${f.min_rounds === 1 ? "" : "s"} at best`;
      box.append(h("p", { text: `${me}: ${f.cells_left} empty cells, ${fillText}.` }));
    }
    if (!d.hints.length) { box.append(h("p", { text: "No dice to choose now." })); return box; }
    const ol = h("ol");
    for (const x of d.hints) {
      const pair = [x.black, x.white].filter(Boolean).join(" + ");
      let what = x.rounds_left === null ? "cannot finish" : x.rounds_left === 0 ? "fills the area now"
        : `${x.rounds_left} more round${x.rounds_left === 1 ? "" : "s"} at best`;
      if (x.chance !== null && x.rounds_left === 1) what += `, next roll finishes ${Math.round(100 * x.chance)}%`;
      if (!x.exact) what += " (estimate)";
      const li = h("li", {}, `${pair}: ${what}, ${x.cells_left} cells left `);
      if (x.entry.length) {
        li.append(h("button", { type: "button", class: "ubongo-show", onclick: () => { ui.shown = ui.shown === x.entry ? null : x.entry; redraw(); } }, "show"));
        if (v.phase === "enter" && v.to_move.includes(me)) {
          li.append(" ", h("button", { type: "button", class: "ubongo-play-hint", onclick: async () => { for (const t of x.entry) await send(t); } }, "enter it"));
        }
      }
      ol.append(li);
    }
    box.append(ol);
    return box;
  }

  function boardEl(v, p, selected) {
    const finished = p in v.finished;
    let status = finished ? `filled, +${v.finished[p]}` : "";
    if (!finished && v.taken[p]) status = `grabbed ${v.taken[p].join(" + ")}${v.done.includes(p) ? ", done" : ""}`;
    const pts = (v.points[p] || []).join(" · ");
    const board = h("div", { class: `ubongo-board${selected ? " selected" : ""}`, "data-player": p },
      h("h3", { text: `${p}${status ? ` — ${status}` : ""}` }),
      h("small", { text: pts ? `areas: ${pts}` : "" }));
    const filledBy = new Map();
    for (const e of v.filled[p] || []) for (const c of e.cells) filledBy.set(cellName(c), e.shape);
    const inArea = new Set(v.area_cells.map(cellName));
    const hinted = new Set(selected && ui.shown ? ui.shown.flatMap((t) => t.split(" at ")[1].split(" ")) : []);
    const placing = selected && ui.shape && v.phase === "enter" && v.to_move.includes(p);
    const grid = h("div", { class: `ubongo-grid${placing ? " placing" : ""}` });
    // The grid spans the area's cells: the engine's view says which cells, the page how to lay them out.
    const rows = 1 + Math.max(...v.area_cells.map((cell) => cell[0]));
    const cols = 1 + Math.max(...v.area_cells.map((cell) => cell[1]));
    grid.style.gridTemplateColumns = `repeat(${cols}, 1.6rem)`;
    const cellEls = new Map();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const name = cellName([r, c]);
        if (!inArea.has(name)) { grid.append(h("span", { class: "void" })); continue; }
        const shape = filledBy.get(name);
        const cell = h("span", { class: `cell${shape ? " filled" : ""}${hinted.has(name) ? " hinted" : ""}`, "data-cell": name, title: shape ? `${name}: ${shape}` : name });
        if (shape) { cell.style.background = `hsl(${hue(shape)} 55% 45%)`; cell.textContent = shape; }
        cellEls.set(name, cell);
        grid.append(cell);
      }
    }
    if (placing) {
      const cells = oriented(v.shapes[ui.shape], ui.rot, ui.mirror);
      const at = ([r, c]) => cells.map(([sr, sc]) => [sr + r - cells[0][0], sc + c - cells[0][1]]);
      const clear = () => cellEls.forEach((e) => e.classList.remove("ghost-ok", "ghost-bad"));
      for (const [name, cell] of cellEls) {
        const rc = name.slice(1).split("c").map((n) => Number(n) - 1);
        const target = at(rc).map(cellName);
        const ok = target.every((t) => inArea.has(t) && !filledBy.has(t));
        cell.addEventListener("mouseenter", () => { clear(); for (const t of target) if (cellEls.has(t)) cellEls.get(t).classList.add(ok ? "ghost-ok" : "ghost-bad"); });
        cell.addEventListener("mouseleave", clear);
        const enter = () => send(`${p} enters ${ui.shape} at ${target.join(" ")}`);
        window.TableSightDraw.htmlButton(cell, `${ui.shape} with its first square at ${name}${ok ? "" : " (does not fit)"}`, enter);
        cell.addEventListener("focus", () => { clear(); for (const t of target) if (cellEls.has(t)) cellEls.get(t).classList.add(ok ? "ghost-ok" : "ghost-bad"); });
      }
    }
    board.append(grid);
    return board;
  }

  window.TableSightGames = window.TableSightGames || {};
  window.TableSightGames.ubongo = {
    // End of game: each player's points area by area.
    breakdown(snap) {
      const out = {};
      for (const p of snap.players) {
        out[p] = {};
        (snap.view.points[p] || []).forEach((pts, i) => { out[p][`area ${i + 1}`] = pts; });
      }
      return out;
    },
    render(el, snap, api) {
      if (ui.tableId !== api.tableId) {
        Object.assign(ui, { tableId: api.tableId, player: null, pick: { black: null, white: null }, shape: null, rot: 0, mirror: false, hint: null, shown: null });
      }
      const v = snap.view;
      // Follow the game: when the selected player has nothing to do, switch to one who has.
      if (!ui.player || !snap.players.includes(ui.player) || (v.to_move.length && !v.to_move.includes(ui.player) && v.phase !== "roll")) {
        ui.player = v.to_move.find((p) => p !== v.roller_name || v.phase !== "roll") || snap.players[0];
      }
      if (ui.hint && ui.hint.version !== undefined && ui.hint.version !== snap.version) ui.hint = null;
      if (ui.shown && !(v.phase === "enter")) ui.shown = null;
      draw(el, snap, api);
    },
  };
})();
