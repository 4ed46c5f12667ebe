// Quarx: the round, the cards turned, the answers laid, and the last round's verdicts.
"use strict";
window.TableSightGames = window.TableSightGames || {};
window.TableSightGames.quarx = {
  render(el, snap) {
    const { h } = window.TableSightDom;
    const v = snap.view;
    const p = (text, cls) => el.append(h("p", { class: cls, text }));
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
      el.append(h("ul", {}, ...last.verdicts.map((verdict) => {
        const pts = last.points[verdict.player] || 0;
        return h("li", { text: `${verdict.player}: ${verdict.reason}${pts ? `, +${pts}` : ""}` });
      })));
    }
  },
};
