// Dazzling Diceline: each player's 3x3 bonus board, dice, layout tiles, markers and score breakdown;
// the selection board, the action spaces and the displays. Clicking a tile, a row or a layout tile
// plays the legal move it stands for (use a tile, turn it up, take a row, complete a layout).
// "Suggest a move" asks the advisor (GET /api/tables/{id}/advice) only when clicked, never by itself.
"use strict";
(function () {

  const { h } = window.TableSightDom;
  const paint = window.TableSightDraw;
  // The advisor's last answer for this table; dropped as soon as the table moves on.
  const advice = { tableId: null, version: null, loading: false, data: null, error: null };
  const ADVICE_QUERY = "iterations=60&seconds=5";  // ~1 s of one core; the server stops at 5 s on a busy machine
  let last = null;

  // A click plays a move only when that exact text is legal now: the engine stays the judge.
  function clickable(el, text, legal, api) {
    if (!legal.has(text)) return el;
    el.classList.add("clickable");
    el.title = text;
    // A key press does what the click does (the legal moves list below offers the same moves too).
    window.TableSightDraw.htmlButton(el, text, () => api.play(text));
    return el;
  }

  function mini(pattern) {
    const g = h("span", { class: "dl-mini" });
    for (const ch of pattern.replace(/\//g, "")) g.append(h("span", { class: ch === "#" ? "on" : "" }));
    return g;
  }

  const LETTER = { die: "D", movement: "M", order: "O", vp: "V" };

  // A player's 3x3 bonus board, drawn: bonus tiles with their letter and word (face down hatched,
  // with a dashed edge), the printed numbers of the empty cells. A cell with a legal move is a button.
  const TILE_DRAW = { die: ["#6d4c41", "die"], movement: ["#1565c0", "move"], order: ["#7b1fa2", "order"], vp: ["#8d6e00", "points"] };
  function board(p, legal, api) {
    const { s } = paint;
    const tiles = p.board.filter((c) => c.tile).map((c) => `${c.cell} ${c.tile} ${c.face_up ? "face up" : "face down"}`);
    const svg = paint.picture("0 0 198 198", `${p.name}'s bonus board: ${tiles.join(", ") || "no tiles"}`, "dl-grid-svg", "group");
    p.board.forEach((c, i) => {
      const x = (i % 3) * 66 + 2, y = Math.floor(i / 3) * 66 + 2;
      const g = s("g", { class: "dl-cell", "data-cell": c.cell });
      if (c.tile) {
        const [fill, word] = TILE_DRAW[c.tile] || ["#555", c.tile];
        g.classList.add("tile", `dl-k-${c.tile}`);
        g.append(s("rect", { x, y, width: 62, height: 62, rx: 6, fill, stroke: "#222", "stroke-width": c.face_up ? 1 : 2, "stroke-dasharray": c.face_up ? null : "5 3" }));
        if (!c.face_up) {
          g.classList.add("down");
          for (let k = 8; k < 62; k += 10) g.append(s("line", { x1: x + k, y1: y + 2, x2: x + 2, y2: y + k, stroke: "rgba(0,0,0,.45)", "stroke-width": 3 }));
        }
        g.append(s("text", { x: x + 31, y: y + 30, "text-anchor": "middle", "font-size": 22, "font-weight": 800, fill: "#fff", stroke: "#000", "stroke-width": c.face_up ? 0 : 3, "paint-order": "stroke", text: LETTER[c.tile] || "?" }),
          s("text", { x: x + 31, y: y + 50, "text-anchor": "middle", "font-size": 12, fill: "#fff", stroke: "#000", "stroke-width": c.face_up ? 0 : 3, "paint-order": "stroke", text: c.face_up ? word : "face down" }));
      } else {
        g.append(s("rect", { x, y, width: 62, height: 62, rx: 6, fill: "#fafafa", stroke: "#90a4ae" }),
          s("text", { x: x + 31, y: y + 38, "text-anchor": "middle", "font-size": c.shows.length ? 18 : 13, fill: "#37474f", text: c.shows.length ? c.shows.join("/") : "start" }));
      }
      const move = c.tile ? (c.face_up ? `use ${c.tile} ${c.cell}` : `turn up ${c.cell}`) : null;
      if (move && legal.has(move)) {
        g.classList.add("clickable");
        g.setAttribute("title", move);  // the move it plays, as on every clickable part of the view
        g.append(s("title", { text: move }), s("rect", { x: x + 2, y: y + 2, width: 58, height: 58, rx: 5, fill: "none", stroke: "#ff9800", "stroke-width": 4 }));
        paint.asButton(g, move, () => api.play(move));
      } else {
        g.setAttribute("role", "img");
        g.setAttribute("aria-label", c.tile ? `${c.cell}: ${c.tile} tile, face ${c.face_up ? "up" : "down"}` : `${c.cell}: ${c.shows.join("/") || "start"}`);
      }
      svg.append(g);
    });
    return svg;
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
    const dice = h("div", { class: "dl-dice" }, h("span", { text: "dice: " }));
    if (!p.dice.length) dice.append(h("span", { text: "none" }));
    for (const d of p.dice) {
      const sv = paint.s("svg", { viewBox: "0 0 30 30", width: "30", height: "30", class: "dl-die-svg" });
      sv.append(paint.die(1, 1, 28, d.made, d.value, d.made !== d.space ? `in a ${d.space} space` : `${d.space} space`));
      dice.append(sv);
    }
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
    // End of game: the book's scoring, line by line, for every player.
    breakdown(snap) {
      const out = {};
      for (const p of snap.view.players) {
        out[p.name] = {};
        for (const [k, val] of Object.entries(p.score.during_game)) if (val) out[p.name][k] = val;
        for (const [k, val] of Object.entries(p.score.at_end)) if (val) out[p.name][`end: ${k}`] = val;
      }
      return out;
    },
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
    el.append(boardPicture(v, snap, legal, api));
    el.append(players);
    el.append(h("details", { class: "dl-words" }, h("summary", { text: "The shared board in words" }), shared(v, legal, api)));
  }

  // ---- the shared board, drawn ------------------------------------------------------------
  const TILE_WORDS = { die: "die", movement: "move", order: "order", vp: "points" };
  const TILE_FILL = { die: "#6d4c41", movement: "#1565c0", order: "#7b1fa2", vp: "#8d6e00" };

  function boardPicture(v, snap, legal, api) {
    const { s } = paint;
    const players = v.players.map((p) => p.name);
    const spaces = v.action_spaces;
    const perRow = 4, spaceW = 118, spaceH = 84;
    const spaceRows = Math.ceil(spaces.length / perRow);
    const selRows = v.selection_rows.length;
    const top = 34;
    const height = Math.max(top + selRows * 52 + 10, top + spaceRows * (spaceH + 8)) + 190;
    const label = `Diceline board, round ${v.round}: ${v.selection_rows.filter(Boolean).length} rows on the selection board, `
      + `${spaces.filter((sp) => sp.die).length} of ${spaces.length} action spaces with a die, order track ${v.order_track.map((st, i) => `${i === 0 ? "start" : i}: ${st.join(" under ") || "empty"}`).join("; ")}`;
    const svg = paint.picture(`0 0 760 ${height}`, label, "board-picture dl-board", "group");
    svg.append(s("rect", { x: 0, y: 0, width: 760, height, rx: 12, fill: "#f3efe6" }));
    // Selection board: one row of red, green and two grey dice per row; a row you may take is a button.
    svg.append(s("text", { x: 12, y: 22, "font-size": 16, "font-weight": 700, fill: "#333", text: "Selection board" }));
    v.selection_rows.forEach((r, i) => {
      const y = top + i * 52;
      const g = s("g", { class: "dl-sel-row", "data-row": String(i + 1) });
      g.append(s("rect", { x: 8, y: y - 4, width: 226, height: 48, rx: 6, fill: r ? "#fff" : "#e7e1d4", stroke: "#bcaaa4" }),
        s("text", { x: 16, y: y + 28, "font-size": 16, fill: "#333", text: String(i + 1) }));
      if (r) [["red", r.red], ["green", r.green], ["grey", r.grey[0]], ["grey", r.grey[1]]].forEach(([c, val], k) => g.append(paint.die(36 + k * 48, y, 40, c, val)));
      else g.append(s("text", { x: 40, y: y + 28, "font-size": 14, fill: "#4e4e4e", text: "empty" }));
      const move = legal.has(`take row ${i + 1}`) ? `take row ${i + 1}` : legal.has(`return row ${i + 1}`) ? `return row ${i + 1}` : null;
      if (move) { g.classList.add("playable"); paint.asButton(g, move, () => api.play(move)); }
      svg.append(g);
    });
    // Action spaces: the colour band and its name, the die on it (drawn, with its player's mark), markers.
    svg.append(s("text", { x: 250, y: 22, "font-size": 16, "font-weight": 700, fill: "#333", text: "Action spaces" }));
    spaces.forEach((sp, i) => {
      const x = 250 + (i % perRow) * (spaceW + 8), y = top - 6 + Math.floor(i / perRow) * (spaceH + 8);
      const band = (paint.DIE[sp.colour] || ["#9e9e9e"])[0];
      const g = s("g", { class: "dl-space", "data-space": sp.space, role: "img",
        "aria-label": `${sp.space} space${sp.die ? `: ${sp.die.player}'s ${sp.die.made} ${sp.die.value}` : ", free"}${sp.markers && sp.markers.length ? `; markers ${sp.markers.join(", ")}` : ""}` });
      g.append(s("rect", { x, y, width: spaceW, height: spaceH, rx: 6, fill: "#fff", stroke: band, "stroke-width": 3 }),
        s("rect", { x, y, width: spaceW, height: 20, rx: 6, fill: band }),
        s("text", { x: x + 6, y: y + 15, "font-size": 13, "font-weight": 700, fill: "#fff", text: sp.space }));
      if (sp.die) {
        g.append(paint.die(x + 8, y + 28, 44, sp.die.made, sp.die.value), paint.token(players, sp.die.player, x + 70, y + 50, 11));
      }
      (sp.markers || []).forEach((m, k) => g.append(paint.token(players, m, x + 96, y + 32 + k * 16, 6)));
      svg.append(g);
    });
    // Bonus tiles on the board (letters and words, not colour alone), the layout tiles, the pool.
    let y = height - 150;
    svg.append(s("text", { x: 12, y, "font-size": 16, "font-weight": 700, fill: "#333", text: "Bonus tiles" }));
    v.bonus_display.forEach((k, i) => {
      const x = 120 + i * 72;
      svg.append(s("g", { role: "img", "aria-label": `bonus tile: ${k}` }, s("title", { text: `bonus tile: ${k}` }),
        s("rect", { x, y: y - 18, width: 66, height: 26, rx: 5, fill: TILE_FILL[k] || "#555" }),
        s("text", { x: x + 33, y: y, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#fff", text: TILE_WORDS[k] || k })));
    });
    svg.append(s("text", { x: 480, y, "font-size": 13, fill: "#333", text: `pool: ${Object.entries(v.pool).map(([c, n]) => `${n} ${c}`).join(", ")}` }));
    // The order track: START and spaces 1-5, each with its stack of player markers, bottom first.
    y += 24;
    svg.append(s("text", { x: 12, y: y + 16, "font-size": 16, "font-weight": 700, fill: "#333", text: "Order track" }));
    v.order_track.forEach((stack, i) => {
      const x = 120 + i * 104;
      const g = s("g", { class: "dl-track", role: "img", "aria-label": `order track ${i === 0 ? "start" : i}: ${stack.length ? stack.join(", then on top ") : "empty"}` });
      g.append(s("rect", { x, y, width: 96, height: 96, rx: 6, fill: "#fff", stroke: "#8d6e63" }),
        s("text", { x: x + 6, y: y + 16, "font-size": 13, "font-weight": 700, fill: "#4e342e", text: i === 0 ? "START" : String(i) }));
      stack.forEach((name, k) => g.append(paint.token(players, name, x + 48, y + 80 - k * 22, 10)));
      svg.append(g);
    });
    return svg;
  }
})();
