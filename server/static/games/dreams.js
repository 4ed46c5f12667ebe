// Dreams on the shared screen: the firmament and its stars, the four dream cards, whose turn,
// who has guessed, the reveal and its points, the Gods track, and the hand-out of private links.
// It shows only the public snapshot: no role and no guess before the reveal.
"use strict";
window.TableSightGames = window.TableSightGames || {};
(function () {
  const KIND_LABEL = { clear: "clear", grey: "grey", black: "black" };
  // Survives re-renders: which star kind is chosen, which link is on screen, the link list.
  const ui = { kind: null, kindFor: null, shownLink: null, links: null, linksFor: null, linksLoading: null, lastSnap: null };

  const { h } = window.TableSightDom;

  function starEl(s, colours) {
    return h("span", {
      class: `dreams-star kind-${s.kind}`,
      "data-player": s.player,
      "data-kind": s.kind,
      title: `${s.player}: ${s.kind}`,
      style: `left:${s.x * 100}%;top:${s.y * 100}%;--ring:${colours[s.player] || "#fff"}`,
    }, "★");
  }

  function firmament(stars, colours, onClick) {
    const f = h("div", { class: "dreams-firmament" + (onClick ? " clickable" : ""), role: "img",
      "aria-label": `The firmament: ${stars.length ? stars.map((s) => `${s.player}'s ${s.kind} star`).join(", ") : "no stars yet"}` });
    for (const s of stars) f.append(starEl(s, colours));
    if (onClick) {
      // The keyboard: arrow keys move a cross on the firmament, Enter places the star there.
      const cross = h("span", { class: "dreams-cross", "aria-hidden": "true" }, "+");
      const at = { x: 0.5, y: 0.5 };
      const put = () => {
        cross.style.left = `${at.x * 100}%`;
        cross.style.top = `${at.y * 100}%`;
        f.setAttribute("aria-label", `The firmament: the cross is ${Math.round(at.x * 100)}% across, ${Math.round(at.y * 100)}% down; arrow keys move it, Enter places the star`);
      };
      f.append(cross);
      f.setAttribute("role", "application");
      f.setAttribute("tabindex", "0");
      f.addEventListener("keydown", (ev) => {
        const step = ev.shiftKey ? 0.01 : 0.05;
        const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
        if (moves[ev.key]) {
          ev.preventDefault();
          at.x = Math.min(1, Math.max(0, at.x + moves[ev.key][0]));
          at.y = Math.min(1, Math.max(0, at.y + moves[ev.key][1]));
          put();
        } else if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          onClick(at.x.toFixed(3), at.y.toFixed(3));
        }
      });
      put();
      f.addEventListener("click", (ev) => {
        const r = f.getBoundingClientRect();
        const x = Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width));
        const y = Math.min(1, Math.max(0, (ev.clientY - r.top) / r.height));
        onClick(x.toFixed(3), y.toFixed(3));
      });
    }
    return f;
  }

  function cards(cardList, stars, colours, vision) {
    const grid = h("div", { class: "dreams-cards" });
    for (const c of cardList) {
      const card = h("div", { class: "dreams-card" + (vision === c.image ? " vision" : ""), "data-image": String(c.image) },
        h("span", { class: "dreams-image-number" }, String(c.image)),
        h("span", { class: "dreams-card-id" }, `dream card ${c.card}`));
      for (const s of stars) card.append(starEl(s, colours));
      grid.append(card);
    }
    return grid;
  }

  function track(v) {
    const t = h("div", { class: "dreams-track", title: `Gods track, the game ends after a round in which someone reaches ${v.goal}` });
    for (let i = 0; i <= 20; i++) {
      const cell = h("div", { class: "dreams-space" + (i === v.goal ? " goal" : "") }, h("small", {}, String(i)));
      for (const p of v.players) {
        if (v.scores[p] === i) cell.append(h("span", { class: "dreams-moon", title: p, style: `background:${v.colours[p]}` }, "☾"));
      }
      t.append(cell);
    }
    return t;
  }

  function statusLine(v, snap) {
    const s = h("p", { class: "dreams-turn" });
    if (snap.over) s.textContent = `Game over after round ${v.round}. Winner${snap.winners.length > 1 ? "s" : ""}: ${snap.winners.join(", ")}`;
    else if (v.phase === "layout") s.textContent = `Round ${v.round}: lay out four dream cards (${v.dealer} deals this round).`;
    else if (v.phase === "deal") {
      s.textContent = `Round ${v.round}: ${v.dealer} mixes and deals the Gods markers.`;
      if (v.markers_entered.length) s.textContent += ` Entered on their own links: ${v.markers_entered.join(", ")}.`;
      if (v.void_deals) s.textContent += " The markers entered were not one stack: everybody enter yours again.";
    } else if (v.phase === "stars") s.textContent = `Round ${v.round}: ${v.turn} places a star (${v.stars_left[v.turn].join(", ")} left).`;
    else if (v.phase === "guess") {
      const waiting = v.players.filter((p) => !v.guessed.includes(p));
      s.textContent = `Round ${v.round}: everybody guesses on their own link. Waiting for ${waiting.join(", ")}.`;
    }
    return s;
  }

  function starPicker(v, api, errorEl) {
    if (ui.kindFor !== `${v.round}:${v.turn}:${v.stars.length}` || !v.stars_left[v.turn].includes(ui.kind)) {
      ui.kind = v.stars_left[v.turn][0];
      ui.kindFor = `${v.round}:${v.turn}:${v.stars.length}`;
    }
    const box = h("div", { class: "dreams-picker" }, `${v.turn}'s star: `);
    for (const k of v.stars_left[v.turn]) {
      box.append(h("button", {
        type: "button", class: "dreams-kind" + (ui.kind === k ? " chosen" : ""), "data-kind": k, textContent: KIND_LABEL[k],
        onclick: (ev) => {
          ui.kind = k;
          for (const b of box.querySelectorAll("button")) b.classList.toggle("chosen", b === ev.currentTarget);
        },
      }));
    }
    box.append(h("span", { class: "hint" }, " then click its place on the firmament"));
    return box;
  }

  function guessBoard(v) {
    const ul = h("ul", { class: "dreams-guessed" });
    for (const p of v.players) {
      const done = v.guessed.includes(p);
      ul.append(h("li", { "data-player": p, class: done ? "locked" : "" }, `${p}: ${done ? "guess locked" : "thinking…"}`));
    }
    return ul;
  }

  function result(r, colours) {
    const box = h("div", { class: "dreams-result", "data-round": String(r.number) });
    box.append(h("p", { class: "dreams-reveal" },
      `Round ${r.number}: the true vision was image ${r.vision}; the mortal was ${r.mortal} (${colours[r.mortal]}).`));
    const ul = h("ul", { class: "dreams-awards" });
    for (const a of r.awards) {
      const g = r.guesses[a.player];
      const guessed = a.player === r.mortal ? `guessed image ${g}` : `suspected ${Object.keys(colours).find((p) => colours[p] === g)} (${g})`;
      ul.append(h("li", { "data-player": a.player },
        `${a.player} ${guessed}: +${a.points}${a.reasons.length ? " (" + a.reasons.join(", ") + ")" : ""} → ${r.scores[a.player]}`));
    }
    box.append(ul);
    return box;
  }

  // One request at a time; whoever asks while it runs shares it.
  function loadLinks(tableId, version) {
    if (!ui.linksLoading) {
      ui.linksLoading = window.TableSightDom.api("GET", `/api/tables/${encodeURIComponent(tableId)}/dreams/links`)
        .then((data) => {
          ui.links = data;
          ui.linksFor = `${tableId}:${version}`;
          return true;
        })
        .catch(() => false)
        .finally(() => { ui.linksLoading = null; });
    }
    return ui.linksLoading;
  }

  // The creator token: kept only by the page that created the table (see app.js).
  function creatorToken(tableId) {
    try { return localStorage.getItem(`tablesight-creator:${tableId}`); } catch (err) { return null; }
  }

  async function requestLink(tableId, player, creator) {
    const headers = creator ? { "X-Creator-Token": creator } : {};
    try {
      return await window.TableSightDom.api("POST", `/api/tables/${encodeURIComponent(tableId)}/dreams/links/${encodeURIComponent(player)}`, undefined, headers);
    } catch (err) { return null; }  // the list still says who has their link
  }

  function shownLinkLine(rerender) {
    return h("p", { class: "dreams-link" }, `${ui.shownLink.player}: `,
      // Text, not a link: a tap here would open the player's secrets on the shared screen.
      h("code", { class: "dreams-link-url", textContent: ui.shownLink.url }), " ",
      h("button", { type: "button", class: "dreams-link-hide", textContent: "Hide", onclick: () => { ui.shownLink = null; rerender(); } }));
  }

  // After set-up: the creating page may issue a player's link again; the old one stops working.
  function reissuePanel(box, creator, api, rerender) {
    box.append(h("h3", {}, "Private links"),
      h("p", { class: "hint" }, "Lost a link, or never took it? Issue it again here: the old link stops working at once."));
    if (ui.shownLink) box.append(shownLinkLine(rerender));
    const ul = h("ul", { class: "dreams-link-list" });
    for (const entry of ui.links.players) {
      ul.append(h("li", {}, `${entry.player} `, h("button", {
        type: "button", class: "dreams-link-reissue", "data-player": entry.player, textContent: `New link for ${entry.player}`,
        onclick: async () => {
          const data = await requestLink(api.tableId, entry.player, creator);
          if (data) ui.shownLink = data;
          rerender();
        },
      })));
    }
    box.append(ul);
  }

  function linksPanel(v, snap, api, rerender) {
    const box = h("div", { class: "dreams-links" });
    if (!ui.links || ui.linksFor !== `${api.tableId}:${snap.version}`) {
      loadLinks(api.tableId, snap.version).then((ok) => { if (ok) rerender(); });
    }
    const creator = creatorToken(api.tableId);
    if (ui.links && !ui.links.open && creator) {
      reissuePanel(box, creator, api, rerender);
      return box;
    }
    if (!ui.links || !ui.links.open) {
      if (ui.links) box.append(h("p", { class: "hint" }, "Private links were handed out during set-up; only the page that created the table can issue one again."));
      return box;
    }
    box.append(h("h3", {}, "Private links"),
      h("p", { class: "hint" }, "One at a time, come to the screen, show your link, open it on your phone, hide it. Each link is shown once."));
    if (ui.shownLink) box.append(shownLinkLine(rerender));
    const ul = h("ul", { class: "dreams-link-list" });
    for (const entry of ui.links.players) {
      const li = h("li", {}, `${entry.player} `);
      if (entry.shown) {
        li.append(h("span", { class: "hint" }, "has their link"));
        if (creator) {
          li.append(" ", h("button", {
            type: "button", class: "dreams-link-reissue", "data-player": entry.player, textContent: `New link for ${entry.player}`,
            onclick: async () => { const data = await requestLink(api.tableId, entry.player, creator); if (data) ui.shownLink = data; rerender(); },
          }));
        }
      } else {
        li.append(h("button", {
          type: "button", "data-player": entry.player, textContent: `Show ${entry.player}'s link`,
          onclick: async () => {
            const data = await requestLink(api.tableId, entry.player, null);
            if (data) ui.shownLink = data;
            entry.shown = true;
            rerender();
          },
        }));
      }
      ul.append(li);
    }
    box.append(ul);
    return box;
  }

  window.TableSightGames.dreams = {
    // End of game: each player's points round by round.
    breakdown(snap) {
      const out = {};
      for (const p of snap.players) out[p] = {};
      for (const r of snap.view.results) for (const a of r.awards) if (a.points) out[a.player][`round ${r.number}`] = a.points;
      return out;
    },
    render(el, snap, api) {
      const v = snap.view;
      ui.lastSnap = snap;
      // A late answer (the link list) redraws the newest snapshot drawn, never an older one.
      const rerender = () => { const latest = ui.lastSnap; el.innerHTML = ""; window.TableSightGames.dreams.render(el, latest, api); };
      el.classList.add("dreams");
      el.append(statusLine(v, snap));
      const error = h("p", { class: "error dreams-error", role: "alert" });
      const last = v.results[v.results.length - 1];
      // Between rounds the last round's sky stays up with the reveal, until new cards are laid out.
      const showLast = last && (v.phase === "layout" || snap.over);
      const stars = showLast ? last.stars : v.stars;
      const cardList = showLast ? last.cards.map((c, i) => ({ image: i + 1, card: c })) : v.cards;
      let onClick = null;
      if (v.phase === "stars" && !snap.over) {
        el.append(starPicker(v, api, error));
        onClick = async (x, y) => {
          try { await api.play(`${v.turn} places ${ui.kind} at ${x} ${y}`); error.textContent = ""; }
          catch (err) { error.textContent = err.message; }
        };
      }
      const sky = h("div", { class: "dreams-sky" }, firmament(stars, v.colours, onClick));
      if (cardList.length) sky.append(cards(cardList, stars, v.colours, showLast ? last.vision : null));
      el.append(sky, error);
      if (v.phase === "guess") el.append(guessBoard(v));
      if (last) el.append(result(last, v.colours));
      el.append(track(v));
      el.append(linksPanel(v, snap, api, rerender));
    },
  };
})();
