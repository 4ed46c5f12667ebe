// Quarx: the round, the cards turned, the answers laid, and the last round's verdicts.
"use strict";
window.TableSightGames = window.TableSightGames || {};
window.TableSightGames.quarx = {
  render(el, snap) {
    const v = snap.view;
    const p = (text, cls) => { const e = document.createElement("p"); e.textContent = text; if (cls) e.className = cls; el.append(e); };
    p(`Round ${v.round}${v.target ? ` · playing to ${v.target}` : ""} · cards left: ${Object.values(v.piles).reduce((a, b) => a + b, 0)}`, "quarx-round");
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
      const ul = document.createElement("ul");
      for (const verdict of last.verdicts) {
        const li = document.createElement("li");
        const pts = last.points[verdict.player] || 0;
        li.textContent = `${verdict.player}: ${verdict.reason}${pts ? `, +${pts}` : ""}`;
        ul.append(li);
      }
      el.append(ul);
    }
  },
};
