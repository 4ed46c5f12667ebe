// Drawing helpers for the table views (loaded after dom.js): SVG elements, dice drawn as dice,
// player marks that never rely on colour alone (a letter and a shape as well), SVG shapes that
// work as keyboard buttons, the score-over-time chart, and the browser's own speech.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";

  // s("rect", {x: 1, class: "a"}, child, ...): an SVG element; "text" sets textContent.
  function s(tag, attrs, ...kids) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }

  // A picture with a text alternative and its own <title>: role "img", or "group" when it holds
  // buttons (an img's content is hidden from assistive technology, so its buttons would be too).
  function picture(viewBox, label, cls, role) {
    const svg = s("svg", { viewBox, class: cls || null, role: role || "img", "aria-label": label, preserveAspectRatio: "xMidYMin meet" });
    svg.append(s("title", { text: label }));
    return svg;
  }

  // Dice body colours and the pip colour that stands out on each; the words say the colour too.
  const DIE = {
    red: ["#c62828", "#fff"], green: ["#2e7d32", "#fff"], grey: ["#78909c", "#fff"], white: ["#fafafa", "#222"],
    black: ["#263238", "#fff"], blue: ["#1565c0", "#fff"], yellow: ["#f9a825", "#222"], purple: ["#6a1b9a", "#fff"],
    orange: ["#ef6c00", "#fff"], ivory: ["#f5efe0", "#222"],
  };
  const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
    5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };

  // A die of `colour` showing `value` (null: unsure, drawn as "?") at x, y, `size` wide.
  function die(x, y, size, colour, value, extra) {
    const [body, pip] = DIE[colour] || ["#9e9e9e", "#fff"];
    const name = `${colour} ${value === null || value === undefined ? "unsure" : value}${extra ? ", " + extra : ""}`;
    const g = s("g", { class: "die", "data-die": `${colour} ${value}`, role: "img", "aria-label": name });
    g.append(s("title", { text: name }));
    g.append(s("rect", { x, y, width: size, height: size, rx: size * 0.18, fill: body, stroke: "#111", "stroke-width": Math.max(1, size / 24) }));
    if (PIPS[value]) {
      const r = size * 0.09, step = size * 0.27, o = size * 0.23;
      for (const [cx, cy] of PIPS[value]) g.append(s("circle", { cx: x + o + cx * step, cy: y + o + cy * step, r, fill: pip }));
    } else {
      g.append(s("text", { x: x + size / 2, y: y + size * 0.7, "text-anchor": "middle", "font-size": size * 0.6, fill: pip, text: "?" }));
    }
    return g;
  }

  // Each player: a colour, and also a letter and a shape, so no one tells players apart by colour alone.
  const PLAYER_COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f"];
  const SHAPES = ["circle", "square", "diamond", "triangle", "circle", "square"];
  function playerStyle(players, name) {
    const i = Math.max(0, players.indexOf(name));
    return { colour: PLAYER_COLOURS[i % 6], shape: SHAPES[i % 6], letter: (name || "?").slice(0, 1).toUpperCase(), dash: ["", "8 4", "2 3", "10 3 2 3", "4 4", "1 2"][i % 6] };
  }
  // A player token at (cx, cy), radius r: the shape in the player's colour with their initial.
  function token(players, name, cx, cy, r) {
    const st = playerStyle(players, name);
    const g = s("g", { class: "token", role: "img", "aria-label": name });
    g.append(s("title", { text: name }));
    let shape;
    if (st.shape === "square") shape = s("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, rx: r * 0.2 });
    else if (st.shape === "diamond") shape = s("polygon", { points: `${cx},${cy - r * 1.2} ${cx + r * 1.2},${cy} ${cx},${cy + r * 1.2} ${cx - r * 1.2},${cy}` });
    else if (st.shape === "triangle") shape = s("polygon", { points: `${cx},${cy - r * 1.2} ${cx + r * 1.15},${cy + r * 0.85} ${cx - r * 1.15},${cy + r * 0.85}` });
    else shape = s("circle", { cx, cy, r });
    shape.setAttribute("fill", st.colour);
    shape.setAttribute("stroke", "#fff");
    shape.setAttribute("stroke-width", Math.max(1, r / 6));
    g.append(shape, s("text", { x: cx, y: cy + r * 0.4, "text-anchor": "middle", "font-size": r * 1.15, "font-weight": 700, fill: "#fff", text: st.letter }));
    return g;
  }
  // The same mark as an HTML element, for tables and lists.
  function mark(players, name) {
    const sv = s("svg", { viewBox: "0 0 20 20", width: "1.1em", height: "1.1em", class: "player-mark", "aria-hidden": "true" });
    sv.append(token(players, name, 10, 10, 7.5));
    return sv;
  }

  // An SVG element that acts as a button: focusable, named, Enter or Space activates it.
  function asButton(el, label, onActivate) {
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
    el.classList.add("svg-button");
    el.addEventListener("click", onActivate);
    el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onActivate(ev); } });
    return el;
  }
  // The same for an HTML element (a div drawn as a die or a cell).
  function htmlButton(el, label, onActivate) { return asButton(el, label, onActivate); }

  // Score over time: one line per player (colour, dash pattern and the name at the line's end).
  function chart(timeline, players) {
    const W = 640, H = 300, L = 44, R = 90, T = 16, B = 34;
    const max = Math.max(1, ...timeline.flatMap((row) => players.map((p) => row[p] || 0)));
    const min = Math.min(0, ...timeline.flatMap((row) => players.map((p) => row[p] || 0)));
    const n = Math.max(1, timeline.length - 1);
    const X = (i) => L + (W - L - R) * i / n, Y = (v) => T + (H - T - B) * (1 - (v - min) / (max - min || 1));
    const label = "Score over time: " + players.map((p) => `${p} ${timeline[timeline.length - 1][p]}`).join(", ");
    const svg = picture(`0 0 ${W} ${H}`, label, "score-chart");
    const ticks = 5;
    for (let k = 0; k <= ticks; k++) {
      const v = Math.round(min + (max - min) * k / ticks);
      svg.append(s("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: "#ddd" }),
        s("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end", "font-size": 12, fill: "#333", text: String(v) }));
    }
    svg.append(s("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", "font-size": 12, fill: "#333", text: `moves (${n})` }));
    players.forEach((p) => {
      const st = playerStyle(players, p);
      const pts = timeline.map((row, i) => `${X(i).toFixed(1)},${Y(row[p] || 0).toFixed(1)}`).join(" ");
      svg.append(s("polyline", { points: pts, fill: "none", stroke: st.colour, "stroke-width": 3, "stroke-dasharray": st.dash || null }));
      const last = timeline[timeline.length - 1][p] || 0;
      svg.append(token(players, p, X(n) + 12, Y(last), 8),
        s("text", { x: X(n) + 24, y: Y(last) + 4, "font-size": 13, fill: "#222", text: `${p} ${last}` }));
    });
    return svg;
  }

  // The browser's own speech, off unless the person switched it on (stored per browser).
  const SPEAK_KEY = "tablesight-speak";
  const speech = {
    get on() { try { return localStorage.getItem(SPEAK_KEY) === "on"; } catch (err) { return false; } },
    set on(v) { try { localStorage.setItem(SPEAK_KEY, v ? "on" : "off"); } catch (err) { /* private mode: off */ } },
    say(text) {
      if (!speech.on || !window.speechSynthesis || !text) return;
      window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
    },
  };

  window.TableSightDraw = { s, picture, die, token, mark, playerStyle, asButton, htmlButton, chart, speech, DIE };
})();
