// A Dreams player's phone page: their own marker, their secret guess, the reveal. The token comes
// from the URL fragment (never sent with the page) and goes only in a header or the socket's first message.
"use strict";
(function () {
  const $ = (sel) => document.querySelector(sel);
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  const token = location.hash.slice(1);
  const base = `/api/tables/${encodeURIComponent(tableId)}/dreams/me`;
  let current = null;
  let markerShown = false;
  let denied = false;
  let starKind = null;

  const { h, api, live } = window.TableSightDom;

  function refuse() {
    denied = true;
    $("#denied").hidden = false;
    $("#me").hidden = true;
  }

  async function play(text) {
    let data;
    try {
      data = await api("POST", `${base}/moves`, { move: text }, { "X-Player-Token": token });
    } catch (err) {
      if (err.status === 403 && !current) return refuse();
      $("#error").textContent = err.message;
      return;
    }
    $("#error").textContent = "";
    render(data);
  }

  function choiceButton(text, label, attrs) {
    return h("li", {}, h("button", { type: "button", ...attrs, onclick: () => play(text) }, ...label));
  }

  function phaseText(v, snap) {
    if (snap.over) return `Game over. Winner${snap.winners.length > 1 ? "s" : ""}: ${snap.winners.join(", ")}`;
    switch (v.phase) {
      case "layout": return `Round ${v.round}: the dream cards are being laid out.`;
      case "deal": return `Round ${v.round}: ${v.dealer} deals the Gods markers.`;
      case "stars": return v.turn === v.me.player ? `Round ${v.round}: your turn to place a star.` : `Round ${v.round}: ${v.turn} places a star.`;
      case "guess": return `Round ${v.round}: guess in secret.`;
      default: return "";
    }
  }

  function render(snap) {
    if (current && snap.version !== undefined && current.version > snap.version) return;  // stale
    current = snap;
    const v = snap.view;
    const me = v.me;
    $("#me").hidden = false;
    $("#who").textContent = `${me.player} (${me.colour})`;
    document.title = `Dreams · ${me.player}`;
    $("#phase").textContent = phaseText(v, snap);

    const marker = $("#marker");
    marker.innerHTML = "";
    marker.className = "dreams-marker" + (me.role === "mortal" ? " mortal" : "");
    if (me.marker === null) marker.append("No marker yet.");
    else if (me.role === "mortal") marker.append(h("strong", {}, "☾ mortal"), "You are the mortal. Find the true vision, and blend in.");
    else marker.append(h("strong", {}, me.marker), `You are a God. The true vision is image ${me.marker}.`);
    marker.hidden = !markerShown;
    $("#marker-toggle").textContent = markerShown ? "Hide my marker" : "Show my marker";

    const entries = snap.legal_moves.filter((m) => m.includes(" marker "));
    $("#enter-marker").hidden = entries.length === 0;
    const mc = $("#marker-choices");
    mc.innerHTML = "";
    for (const m of entries) {
      const value = m.split(" ").pop();
      mc.append(choiceButton(m, [value === "mortal" ? "☾ mortal" : value], { "data-marker": value }));
    }

    renderStar(v, me);

    const guesses = snap.legal_moves.filter((m) => m.includes(" guesses "));
    $("#guess").hidden = guesses.length === 0;
    const gc = $("#guess-choices");
    gc.innerHTML = "";
    if (guesses.length) {
      $("#guess-prompt").textContent = me.role === "mortal"
        ? "Which image is the true vision? Your guess is locked at once."
        : "Who is the mortal? Your guess is locked at once.";
      const byColour = Object.fromEntries(Object.entries(v.colours).map(([p, c]) => [c, p]));
      for (const m of guesses) {
        const target = m.split(" ").pop();
        const label = /^\d$/.test(target)
          ? [`image ${target}`]
          : [h("span", { class: "swatch", style: `background:${target}` }), `${byColour[target]} (${target})`];
        gc.append(choiceButton(m, label, { "data-guess": target }));
      }
    }
    $("#my-guess").textContent = me.guess === null ? "" : `Your guess is locked: ${
      /^\d$/.test(me.guess) ? "image " + me.guess : Object.keys(v.colours).find((p) => v.colours[p] === me.guess) + " (" + me.guess + ")"}`;

    const res = $("#result");
    res.innerHTML = "";
    const last = v.results[v.results.length - 1];
    if (last) {
      const mine = last.awards.find((a) => a.player === me.player);
      res.append(
        h("p", { class: "dreams-reveal" }, `Round ${last.number}: the true vision was image ${last.vision}; the mortal was ${last.mortal}.`),
        h("p", { class: "dreams-my-points" }, `You got +${mine.points}${mine.reasons.length ? " (" + mine.reasons.join(", ") + ")" : ""}.`),
      );
    }
    const sc = $("#scores");
    sc.innerHTML = "";
    for (const p of v.players) sc.append(h("li", { "data-player": p }, `${p}: ${v.scores[p]}`));
  }

  function renderStar(v, me) {
    const mine = v.phase === "stars" && v.turn === me.player && !isOver();
    $("#my-star").hidden = !mine;
    if (!mine) return;
    const left = v.stars_left[me.player];
    if (!left.includes(starKind)) starKind = left[0];
    const kinds = $("#star-kinds");
    kinds.innerHTML = "";
    for (const k of left) {
      kinds.append(h("button", {
        type: "button", class: "dreams-kind" + (k === starKind ? " chosen" : ""), "data-kind": k, textContent: k,
        onclick: () => { starKind = k; render(current); },
      }), " ");
    }
    const sky = $("#phone-sky");
    sky.innerHTML = "";
    for (const s of v.stars) {
      sky.append(h("span", { class: `dreams-star kind-${s.kind}`, style: `left:${s.x * 100}%;top:${s.y * 100}%;--ring:${v.colours[s.player]}` }, "★"));
    }
  }

  function isOver() { return Boolean(current && current.over); }

  function connect() {
    live(`${base}/live`, {
      onOpen: (ws) => ws.send(JSON.stringify({ token })),
      onMessage: (snap) => {
        $("#conn").textContent = "live";
        $("#conn").classList.add("live");
        render(snap);
      },
      onClose: (ev) => {
        $("#conn").textContent = "offline";
        $("#conn").classList.remove("live");
        if (ev.code === 4403 || ev.code === 4404) { refuse(); return false; }
        return !denied;
      },
    });
  }

  $("#phone-sky").addEventListener("click", (ev) => {
    const r = ev.currentTarget.getBoundingClientRect();
    const x = Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width)).toFixed(3);
    const y = Math.min(1, Math.max(0, (ev.clientY - r.top) / r.height)).toFixed(3);
    if (current && starKind) play(`${current.view.me.player} places ${starKind} at ${x} ${y}`);
  });
  $("#marker-toggle").addEventListener("click", () => {
    markerShown = !markerShown;
    if (current) render(current);
  });
  if (!tableId || !/^[0-9a-f]{64}$/.test(token)) refuse();
  else connect();
})();
