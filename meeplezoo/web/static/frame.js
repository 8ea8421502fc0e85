// The shared page frame and the table renderer: draws a seat's structured table (envs/<game>/table.py).
const COLORS = ["#d9534f", "#337ab7", "#e0a800", "#5cb85c", "#8e44ad"];
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) k === "class" ? (e.className = v) : k.startsWith("on") ? (e[k] = v) : e.setAttribute(k, v);
  for (const k of kids) if (k != null) e.append(k.nodeType ? k : String(k));
  return e;
}
function frame(active) {
  const h = el("header", {}, el("span", { class: "brand" }, "♟ MeepleZoo"),
    el("a", { href: "/play", class: active === "play" ? "on" : "" }, "Play"),
    el("a", { href: "/watch", class: active === "watch" ? "on" : "" }, "Watch"));
  document.body.prepend(h);
}
const pretty = (k) => k.replace(/_/g, " ");
function value(v, ownerLike, legend) {
  if (v && typeof v === "object" && !Array.isArray(v) && "hidden" in v)
    return el("span", {}, el("span", { class: "back" }), `× ${v.hidden}`);
  if (Array.isArray(v)) {
    const flat = v.flat(2);
    const cells = el("div", { class: "cells" });
    if (!flat.length) return el("span", { class: "cell empty" }, "-");
    const named = legend && legend.ids, slots = legend && legend.slots && !Array.isArray(v[0]);
    for (const [i, x] of flat.entries()) {
      let text = x;
      if (named && x >= 0 && x < named.length) text = named[x];
      else if (slots && i < legend.slots.length) text = `${legend.slots[i]} ${x}`;
      const c = el("span", { class: "cell" + (text !== x ? " named" : "") }, text);
      if (x === -1 && text === x) c.className = "cell empty";
      else if (ownerLike && x >= 0 && x < 5) c.className = "cell seat" + x;
      cells.append(c);
    }
    return cells;
  }
  return el("span", { class: "num" }, v);
}
const OWNERISH = /owner|occ|ship|dock_at|loc_owner|first|active|winner/;
function drawTable(root, t, names) {
  root.innerHTML = "";
  const players = el("div", { class: "players" });
  t.players.forEach((p, s) => {
    const b = el("div", { class: "pboard" + (s === t.seat ? " me" : "") + (s === t.to_act ? " active" : "") });
    b.style.setProperty("--c", COLORS[s % COLORS.length]);
    b.append(el("h4", {}, el("span", {}, `P${s} ${names ? names[s] : ""}${s === t.seat ? " (you)" : ""}`),
      el("span", {}, `score ${t.scores[s]}`)));
    for (const [k, v] of Object.entries(p))
      b.append(el("div", { class: "row" }, el("div", { class: "label" }, pretty(k)), value(v, false, t.legend[k])));
    players.append(b);
  });
  const board = el("div", { class: "board" });
  for (const [k, v] of Object.entries(t.board))
    board.append(el("div", { class: "zone" }, el("div", { class: "label" }, pretty(k)), value(v, OWNERISH.test(k), t.legend[k])));
  root.append(players, board);
}
