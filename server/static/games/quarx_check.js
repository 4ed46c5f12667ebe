// A home-page tool: count the spheres on a photo of Quarx cards, or on the camera's picture.
"use strict";
window.TableSightHomeTools = window.TableSightHomeTools || {};
window.TableSightHomeTools.quarxCheck = {
  mount(el) {
    const { h, api, stylesheet } = window.TableSightDom;
    stylesheet("/static/games/quarx.css");
    const out = h("p", { id: "quarx-result", "aria-live": "polite" });
    const say = (d) => {
      const cards = (d.number_cards || []).join(" + ");
      // spheres null: a card is unsure, and the sentence says what to do about it.
      out.textContent = d.spheres === null ? d.sentence
        : `${d.spheres} spheres on ${(d.cards || []).length} cards = ${cards || "nothing"}`;
    };
    const count = async (path, form) => {
      out.textContent = "counting…";
      try { say(await api("POST", path, form)); } catch (err) { out.textContent = err.message; }
    };
    const send = (file) => {
      const form = new FormData();
      form.append("image", file);
      return count("/api/quarx/count", form);
    };
    const box = h("div", { id: "quarx-check" },
      h("p", {}, "Drop a photo of the cards here, or ",
        h("input", { type: "file", id: "quarx-file", "aria-label": "a photo of Quarx cards", accept: "image/*", onchange: (ev) => ev.target.files[0] && send(ev.target.files[0]) })),
      out,
      h("p", {}, h("button", { id: "quarx-live", type: "button", text: "Count the camera picture", onclick: () => count("/api/quarx/count-camera") })));
    box.addEventListener("dragover", (ev) => { ev.preventDefault(); box.classList.add("drag"); });
    box.addEventListener("dragleave", () => box.classList.remove("drag"));
    box.addEventListener("drop", (ev) => {
      ev.preventDefault();
      box.classList.remove("drag");
      if (ev.dataTransfer.files[0]) send(ev.dataTransfer.files[0]);
    });
    el.append(h("h2", { text: "Check a Quarx count" }), box);
  },
};
