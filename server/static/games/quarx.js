// Quarx: the round, the Quarx cards drawn with their spheres, the number cards laid (face down,
// then face up), the camera's count at a glance, and the last round's verdicts.
"use strict";
window.TableSightGames = window.TableSightGames || {};
(function () {
  const { h } = window.TableSightDom;
  const draw = window.TableSightDraw;
  const { s } = draw;
  const NUMBER_COLOURS = { red: "#c62828", orange: "#ef6c00", yellow: "#f9a825", green: "#2e7d32", blue: "#1565c0", purple: "#6a1b9a" };
  let lastSpoken = null;

  // A Quarx card with `n` spheres marked on it (a grid of dots) and the count written large.
  function card(g, x, y, n, label) {
    const w = 90, hgt = 126;
    const grp = s("g", { class: "quarx-card", role: "img", "aria-label": label });
    grp.append(s("title", { text: label }));
    grp.append(s("rect", { x, y, width: w, height: hgt, rx: 8, fill: "#fffdf5", stroke: "#5d4037", "stroke-width": 2 }));
    if (typeof n === "number") {
      const cols = 3, r = 6;
      for (let i = 0; i < n; i++) {
        const cx = x + 18 + (i % cols) * 27, cy = y + 16 + Math.floor(i / cols) * 15;
        if (cy < y + hgt - 40) grp.append(s("circle", { cx, cy, r, fill: "#6a1b9a", class: "sphere" }));
      }
      grp.append(s("text", { x: x + w / 2, y: y + hgt - 10, "text-anchor": "middle", "font-size": 34, "font-weight": 800, fill: "#222", text: String(n) }));
    } else {
      grp.append(s("text", { x: x + w / 2, y: y + hgt / 2 + 14, "text-anchor": "middle", "font-size": 40, "font-weight": 800, fill: "#5d4037", text: "?" }));
    }
    g.append(grp);
  }

  // A pile of number cards: face down (the colour's back, with the colour's name) or the values face up.
  function pile(g, x, y, player, colour, cards) {
    const fill = NUMBER_COLOURS[colour] || "#607d8b";
    const label = cards === null ? `${player} (${colour}) laid face down` : `${player} (${colour}): ${cards.join(" + ") || "nothing"}`;
    const grp = s("g", { class: "quarx-pile", role: "img", "aria-label": label, "data-player": player });
    grp.append(s("title", { text: label }));
    if (cards === null) {
      grp.append(s("rect", { x, y, width: 56, height: 78, rx: 6, fill, stroke: "#111" }),
        s("text", { x: x + 28, y: y + 46, "text-anchor": "middle", "font-size": 13, fill: "#fff", "font-weight": 700, text: "face down" }));
    } else {
      cards.forEach((v, i) => grp.append(s("rect", { x: x + i * 30, y, width: 56, height: 78, rx: 6, fill: "#fff", stroke: fill, "stroke-width": 3 }),
        s("text", { x: x + i * 30 + 5, y: y + 24, "font-size": 18, "font-weight": 800, fill: "#222", text: String(v) })));
    }
    grp.append(s("text", { x, y: y + 98, "font-size": 15, fill: "#222", text: `${player} · ${colour}` }));
    g.append(grp);
  }

  function table(v, snap) {
    const last = v.rounds[v.rounds.length - 1];
    const showLast = (v.phase === "reveal" || snap.over) && last;
    const faces = showLast ? last.revealed : v.phase === "reveal" ? [] : v.revealed;
    const label = faces.length ? `${showLast ? `Round ${last.round}'s` : "The"} Quarx cards: ${faces.map((n) => (typeof n === "number" ? n : "hidden")).join(", ")}` : "No Quarx cards face up";
    const svg = draw.picture("0 0 640 300", label, "board-picture quarx-table");
    svg.append(s("rect", { x: 0, y: 0, width: 640, height: 300, rx: 12, fill: "#e8f5e9" }));
    svg.append(s("text", { x: 12, y: 22, "font-size": 16, "font-weight": 700, fill: "#1b5e20", text: showLast ? `Round ${last.round}: the cards as they were` : `Round ${v.round}: Quarx cards` }));
    faces.forEach((n, i) => card(svg, 12 + i * 100, 32, typeof n === "number" ? n : null, typeof n === "number" ? `Quarx card, ${n} spheres` : "Quarx card, count hidden until everyone has laid"));
    // The number cards, in a row under the Quarx cards: this round's piles (face down) or, after
    // scoring, the cards laid.
    const laid = showLast ? Object.entries(last.laid || {}) : v.answers.map((a) => [a.player, null]);
    let x = 0;
    const row = s("g", { class: "quarx-piles" });
    for (const [player, cards] of laid) {
      pile(row, x, 0, player, (v.colours || {})[player] || "", cards);
      x += cards ? 40 + Math.max(1, cards.length) * 30 + 30 : 90;
    }
    // Six players with five cards each are wider than the table: the row shrinks, nobody is left out.
    row.setAttribute("transform", `translate(12 170) scale(${Math.min(1, 616 / Math.max(1, x))})`);
    svg.append(row);
    return svg;
  }

  // What the camera counts now, large, per card; an unsure card is outlined with its reason.
  function glance(cam, round) {
    const g = cam && cam.watching ? cam.glance : null;
    const box = h("div", { class: "quarx-glance", "aria-live": "polite" });
    if (!g) return box;
    box.append(h("h3", { text: "The camera counts" }));
    const row = h("div", { class: "quarx-glance-cards" });
    for (const c of g.cards) {
      const unsure = c.spheres === null && !c.hidden;
      row.append(h("div", { class: `quarx-glance-card${unsure ? " unsure" : ""}${c.hidden ? " hidden-count" : ""}`, role: "img",
        "aria-label": c.hidden ? "count hidden until everyone has laid" : unsure ? `unsure: ${c.reason}` : `${c.spheres} spheres` },
        h("span", { class: "n", text: c.hidden ? "·" : unsure ? "?" : String(c.spheres) }),
        unsure ? h("small", { text: `unsure: ${c.reason}` }) : null));
    }
    box.append(row);
        const unsureCards = g.cards.filter((c) => c.spheres === null && !c.hidden).length;
    const why = unsureCards ? `${unsureCards} card${unsureCards > 1 ? "s" : ""} unsure (outlined)` : g.reason;
    box.append(h("p", { class: "quarx-glance-total", text: g.total !== null ? `${g.total} spheres` : (why ? `no total yet: ${why}` : "") }));
    // Said once per round and count: a hand passing over the cards does not make it say it again.
    if (g.total !== null && `${round}:${g.total}` !== lastSpoken) { lastSpoken = `${round}:${g.total}`; draw.speech.say(`${g.total} spheres`); }
    return box;
  }

  window.TableSightGames.quarx = {
    render(el, snap) {
      const v = snap.view;
      const p = (text, cls) => el.append(h("p", { class: cls, text }));
      p(`Round ${v.round}${v.target ? ` · playing to ${v.target}` : ""} · cards left: ${Object.values(v.piles).reduce((a, b) => a + b, 0)}`, "quarx-round");
      el.append(glance(snap.camera, v.round));
      el.append(table(v, snap));
      if (v.phase === "reveal") p(`Turn over ${v.cards_to_turn} cards, then enter the spheres on each (or draw at random).`);
      const laid = () => v.answers.map((a) => `${a.player} (place ${a.group})`).join(", ") || "nobody";
      if (v.phase === "answer") p(`${v.turned} cards face up. Laid so far: ${laid()}`);
      if (v.phase === "turn") {
        p(`${v.total} spheres. Everyone has laid (${laid()}): turn the number cards over.`, "quarx-turn");
      }
      if (v.colours) {
        p(`Number cards: ${Object.entries(v.colours).map(([who, colour]) => `${who} ${colour}`).join(", ")}`, "quarx-colours");
      }
      const last = v.rounds[v.rounds.length - 1];
      if (last) {
        p(`Round ${last.round}: ${last.total} spheres (${last.revealed.join(" + ") || "total only"})`, "quarx-last");
        el.append(h("ul", {}, ...last.verdicts.map((verdict) => {
          const pts = last.points[verdict.player] || 0;
          return h("li", { text: `${verdict.player}: ${verdict.reason}${pts ? `, +${pts}` : ""}` });
        })));
      }
    },
    // End of game: each player's points round by round.
    breakdown(snap) {
      const out = {};
      for (const p of snap.players) out[p] = {};
      for (const r of snap.view.rounds) for (const [p, pts] of Object.entries(r.points)) if (pts) out[p][`round ${r.round}`] = pts;
      return out;
    },
  };
})();
