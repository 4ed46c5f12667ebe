// Dazzling Diceline: each player's 3x3 bonus board, dice, layout tiles, markers and score breakdown;
// the selection board, the action spaces and the displays. Clicking a tile, a row or a layout tile
// plays the legal move it stands for (use a tile, turn it up, take a row, complete a layout).
// "Suggest a move" asks the advisor (GET /api/tables/{id}/advice) only when clicked, never by itself.
"use strict";
(function () {

  const { h } = window.TableSightDom;
  // The advisor's last answer for this table; dropped as soon as the table moves on.
  const advice = { tableId: null, version: null, loading: false, data: null, error: null };
  const ADVICE_QUERY = "iterations=60&seconds=5";  // ~1 s of one core; the server stops at 5 s on a busy machine
  let last = null;

  // A click plays a move only when that exact text is legal now: the engine stays the judge.
  function clickable(el, text, legal, api) {
    if (!legal.has(text)) return el;
    el.classList.add("clickable");
    el.title = text;
    el.addEventListener("click", () => api.play(text));
    return el;
  }

  function mini(pattern) {
    const g = h("span", { class: "dl-mini" });
    for (const ch of pattern.replace(/\//g, "")) g.append(h("span", { class: ch === "#" ? "on" : "" }));
    return g;
  }

  const LETTER = { die: "D", movement: "M", order: "O", vp: "V" };

  function board(p, legal, api) {
    const g = h("div", { class: "dl-grid" });
    for (const c of p.board) {
      const cell = h("div", { class: "dl-cell" });
      if (c.tile) {
        cell.classList.add("tile", `dl-k-${c.tile}`);
        if (!c.face_up) cell.classList.add("down");
        cell.append(h("span", { text: LETTER[c.tile] || "?" }));
        cell.title = `${c.tile} tile, face ${c.face_up ? "up" : "down"}`;
        clickable(cell, c.face_up ? `use ${c.tile} ${c.cell}` : `turn up ${c.cell}`, legal, api);
      }
      cell.append(h("small", { text: c.shows.length ? c.shows.join("/") : "start" }));
      g.append(cell);
    }
    return g;
  }

  function score(s) {
    const t = h("table", { class: "dl-score" });
    const row = (a, b, cls) => t.append(h("tr", { class: cls || "" }, h("td", { text: a }), h("td", { text: String(b) })));
    for (const [k, v] of Object.entries(s.during_game)) if (v) row(k, v);
    row("points so far", s.so_far, "total");
    for (const [k, v] of Object.entries(s.at_end)) if (v) row(`at end: ${k}`, v);
    row("if the game ended now", s.if_ended_now, "total");
    return t;
  }

  function player(p, v, legal, api) {
    const box = h("div", { class: "dl-player" + (v.to_move.includes(p.name) ? " to-move" : ""), "data-player": p.name });
    const place = v.order.indexOf(p.name);
    box.append(h("h3", { text: `${p.name}${place >= 0 ? ` · ${place + 1}${["st", "nd", "rd", "th"][Math.min(place, 3)]}` : ""}` }));
    const dice = h("div", {}, h("span", { text: "dice: " }));
    if (!p.dice.length) dice.append(h("span", { text: "none" }));
    for (const d of p.dice) dice.append(h("span", { class: `dl-die dl-${d.space}`, title: d.made !== d.space ? `a ${d.made} die in a ${d.space} space` : null, text: String(d.value) }));
    box.append(dice, board(p, legal, api));
    const lay = h("div", {}, h("span", { text: "layouts: " }));
    for (const l of p.layouts) lay.append(clickable(h("span", { title: `layout ${l.tile}` }, mini(l.pattern)), `complete layout ${l.tile}`, legal, api));
    lay.append(h("span", { text: ` completed ${p.completed.length}` }));
    box.append(lay);
    box.append(h("div", { text: `markers: ${p.markers_at_hand} at hand, ${p.markers_in_stock} in stock · order track space ${p.order_space}` }));
    box.append(score(p.score));
    return box;
  }

  function shared(v, legal, api) {
    const wrap = h("div", { class: "dl-shared" });
    if (v.selection_rows.some((r) => r)) {
      const t = h("table", {}, h("tr", {}, h("th", { text: "row" }), h("th", { text: "red" }), h("th", { text: "green" }), h("th", { text: "grey" })));
      v.selection_rows.forEach((r, i) => {
        if (!r) return;
        const tr = h("tr", { class: "dl-row" }, h("td", { text: String(i + 1) }),
          h("td", {}, h("span", { class: "dl-die dl-red", text: String(r.red) })),
          h("td", {}, h("span", { class: "dl-die dl-green", text: String(r.green) })),
          h("td", {}, ...r.grey.map((g) => h("span", { class: "dl-die dl-grey", text: String(g) }))));
        clickable(tr, legal.has(`take row ${i + 1}`) ? `take row ${i + 1}` : `return row ${i + 1}`, legal, api);
        t.append(tr);
      });
      wrap.append(h("div", {}, h("strong", { text: "Selection board" }), t));
    }
    const spaces = h("table", {}, h("tr", {}, h("th", { text: "space" }), h("th", { text: "die" }), h("th", { text: "markers" })));
    for (const s of v.action_spaces) {
      const die = s.die ? `${s.die.player}: ${s.die.value}${s.die.made !== s.colour ? ` (${s.die.made} die)` : ""}` : "";
      const markers = s.markers ? `${s.markers.join(", ") || "-"} (${s.markers.length}/${s.marker_spaces})` : "";
      spaces.append(h("tr", {}, h("td", {}, h("span", { class: `dl-die dl-${s.colour}`, text: s.space })), h("td", { text: die }), h("td", { text: markers })));
    }
    wrap.append(h("div", {}, h("strong", { text: "Action spaces" }), spaces));
    const disp = h("div", {}, h("strong", { text: "Bonus tiles on the board: " }));
    for (const k of v.bonus_display) disp.append(h("span", { class: `dl-die dl-k-${k}`, style: "color:#fff", text: k }));
    disp.append(h("div", { text: `bonus deck: ${v.bonus_deck_left} · layout deck: ${v.layout_deck_left}` }));
    const lay = h("div", {}, h("span", { text: "Layout tiles on the red board: " }));
    for (const l of v.layout_display) lay.append(h("span", { title: `layout ${l.tile}` }, mini(l.pattern), h("small", { text: String(l.tile) })));
    disp.append(lay);
    const track = v.order_track.map((stack, i) => `${i === 0 ? "START" : i}: ${stack.join(" < ") || "-"}`).join(" · ");
    disp.append(h("div", { text: `order track (bottom < top): ${track}` }));
    disp.append(h("div", { text: `pool: ${Object.entries(v.pool).map(([c, n]) => `${n} ${c}`).join(", ")}` }));
    wrap.append(disp);
    return wrap;
  }

  async function suggest() {
    const { snap, api } = last;
    Object.assign(advice, { tableId: api.tableId, version: snap.version, loading: true, data: null, error: null });
    redraw();
    try {
      const data = await window.TableSightDom.api("GET", `/api/tables/${encodeURIComponent(api.tableId)}/advice?${ADVICE_QUERY}`);
      if (advice.version !== snap.version) return;  // the table moved on while the advisor thought
      advice.data = data;
    } catch (err) {
      if (advice.version !== snap.version) return;
      advice.error = err.message;
    }
    advice.loading = false;
    redraw();
  }

  function redraw() {
    if (!last) return;
    last.el.innerHTML = "";
    draw(last.el, last.snap, last.api);
  }

  function adviceBox(snap, api) {
    const box = h("div", { class: "dl-advice" });
    if (snap.over || snap.chance || !snap.to_move.length) return box;
    box.append(h("button", { type: "button", class: "dl-suggest", disabled: advice.loading ? "disabled" : null, onclick: suggest },
      `Suggest a move for ${snap.to_move[0]}`));
    if (advice.loading) box.append(h("span", { text: " thinking…" }));
    if (advice.error) box.append(h("p", { class: "error", text: advice.error }));
    const d = advice.data;
    if (!d || !d.moves.length) return box;
    box.append(h("div", { class: "dl-why", text: `Suggested: ${d.explanation}` }));
    const list = h("ol", { class: "dl-ranking" });
    for (const m of d.moves) {
      list.append(h("li", {}, h("button", { type: "button", title: "play this move", onclick: () => api.play(m.move) }, m.move),
        h("span", { text: ` ${m.expected_points.toFixed(1)} points expected, margin ${m.expected_margin >= 0 ? "+" : ""}${m.expected_margin.toFixed(1)} (${m.rollouts} rollouts) · ${m.reason}` })));
    }
    box.append(list, h("small", { text: `${d.player} to move · ${d.iterations} rollouts${d.stopped_by_time ? " (stopped at the time cap)" : ""}` }));
    return box;
  }

  window.TableSightGames = window.TableSightGames || {};
  window.TableSightGames.diceline = {
    render(el, snap, api) {
      if (advice.tableId !== api.tableId || advice.version !== snap.version) {
        Object.assign(advice, { tableId: api.tableId, version: snap.version, loading: false, data: null, error: null });
      }
      last = { el, snap, api };
      draw(el, snap, api);
    },
  };

  function draw(el, snap, api) {
    const v = snap.view;
    const legal = new Set(snap.legal_moves || []);
    let head = `Round ${v.round} of 5 · ${v.phase}`;
    if (v.turn) {
      const bits = [];
      if (Object.keys(v.turn.unspent_tiles).length) bits.push(`unspent tiles: ${Object.entries(v.turn.unspent_tiles).map(([k, n]) => `${n} ${k}`).join(", ")}`);
      if (v.turn.steps_left) bits.push(`${v.turn.steps_left} steps left (${v.turn.steps})`);
      if (v.turn.main_done) bits.push("die used: say 'done' to end the turn");
      if (bits.length) head += ` · ${bits.join(" · ")}`;
    }
    el.append(h("div", { class: "dl-head", text: head }));
    const sums = Object.entries(v.scores || {}).map(([n, s]) => `${n} ${s.so_far} (if the game ended now: ${s.if_ended_now})`);
    if (sums.length) el.append(h("div", { class: "dl-sums", text: `Points so far: ${sums.join(" · ")}` }));
    el.append(adviceBox(snap, api));
    const players = h("div", { class: "dl-players" });
    for (const p of v.players) players.append(player(p, v, legal, api));
    el.append(players, shared(v, legal, api));
  }
})();
