// The shared page frame: the header, the helpers every game's view uses, and the view loader.
// A game's view (envs/<game>/view.js, served at /views/<game>.js) registers VIEWS[game] = (root, table, ctx)
// and draws the seat's structured table (envs/<game>/table.py: its `view` part) as the game's table.
// A game without one is drawn field by field (drawTable).
// Every string from the server reaches the page as text: el() and svg() append text nodes, never markup, and
// no page or view hands a string to an HTML parser (tests/web/test_static_pages.py checks that).
const COLORS = ["#d9534f", "#337ab7", "#e0a800", "#5cb85c", "#8e44ad"];
const VIEWS = {};
// attribute names are the code's own (never a server string); a link or script points into this site only
const ATTR_NAME = /^[A-Za-z][\w:-]*$/, URL_ATTR = /^(href|src|action|formaction|xlink:href)$/i;
function checkAttr(k, v) {
  if (!ATTR_NAME.test(k)) throw new TypeError(`bad attribute name ${JSON.stringify(k)}`);
  if (/^on/i.test(k) && typeof v !== "function") throw new TypeError(`${k} takes a function`);
  if (URL_ATTR.test(k) && !/^\/(?![\/\\])/.test(String(v))) throw new TypeError(`${k} must be a path on this site`);
}
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    checkAttr(k, v);
    if (k === "class") e.className = v;
    else if (/^on/i.test(k)) e[k.toLowerCase()] = v;
    else if (k === "style") e.style.cssText = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids.flat(Infinity)) if (k != null && k !== false) e.append(k.nodeType ? k : String(k));
  return e;
}
function svg(tag, attrs = {}, ...kids) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    checkAttr(k, v);
    if (/^on/i.test(k)) e[k.toLowerCase()] = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids.flat(Infinity)) if (k != null) e.append(k.nodeType ? k : String(k));
  return e;
}
function frame(active) {
  const h = el("header", {}, el("span", { class: "brand" }, "♟ MeepleZoo"),
    el("a", { href: "/play", class: active === "play" ? "on" : "" }, "Play"),
    el("a", { href: "/watch", class: active === "watch" ? "on" : "" }, "Watch"));
  document.body.prepend(h);
}
// --- helpers for the game views ---
// a forfeit as the arena stores it ({seat, reason, detail, decision}); an older web game's has no detail
const forfeitText = (f) => `P${f.seat} forfeits: ${f.reason}${f.detail != null ? ` (${f.detail})` : ""}`;
const chip = (s, text) => el("span", { class: "chip", style: `background:${COLORS[s % COLORS.length]}` }, text ?? `P${s}`);
const zone = (label, ...kids) => el("div", { class: "zone" }, el("div", { class: "label" }, label), ...kids);
const card = (title, body, cls = "") => el("div", { class: "card " + cls, title: body || "" }, el("b", {}, title), body ? el("small", {}, body) : null);
const backs = (n, label = "") => el("span", { class: "backs" }, el("span", { class: "back" }), `× ${n}${label ? " " + label : ""}`);
const counts = (obj) => el("div", { class: "counts" }, Object.entries(obj).map(([k, v]) => el("span", { class: "count " + k.replace(/\W/g, "") }, el("i", {}, k), el("b", {}, v))));
const hidden = (v) => v && typeof v === "object" && !Array.isArray(v) && "hidden" in v;
// the player boards: a frame per seat (name, score, to act, you) around body(seat)
function seatBoards(t, ctx, body) {
  return el("div", { class: "players" }, t.scores.map((_, s) => {
    const b = el("div", { class: "pboard" + (s === t.seat ? " me" : "") + (s === t.to_act ? " active" : "") });
    b.style.setProperty("--c", COLORS[s % COLORS.length]);
    b.append(el("h4", {}, el("span", {}, chip(s), ` ${ctx.names ? ctx.names[s] : ""}${s === t.seat ? " (you)" : ""}`),
      el("span", {}, `score ${t.scores[s]}`)));
    for (const k of [body(s)].flat(Infinity)) if (k != null && k !== false) b.append(k.nodeType ? k : String(k));
    return b;
  }));
}
const loading = {};
function loadView(game) {
  if (typeof game !== "string" || !/^[a-z][a-z0-9_]*$/.test(game)) return Promise.resolve(null);  // a game's name
  if (!Object.hasOwn(loading, game))
    loading[game] = new Promise((done) => {
      const s = el("script", { src: `/views/${game}.js` });
      s.onload = () => done(Object.hasOwn(VIEWS, game) && typeof VIEWS[game] === "function" ? VIEWS[game] : null);
      s.onerror = () => done(null);
      document.head.append(s);
    });
  return loading[game];
}
// draw a table with its game's view (ctx: seat names, `fixed`: the game's fixed content, sent once)
async function showTable(root, t, ctx = {}) {
  const view = await loadView(t.game);
  root.replaceChildren();
  root.dataset.game = t.game;
  if (view && t.view) view(root, t, ctx);
  else drawTable(root, t, ctx.names);
}
// --- the generic fallback: every field of the structured table ---
const pretty = (k) => k.replace(/_/g, " ");
function value(v, ownerLike, legend) {
  if (hidden(v)) return backs(v.hidden);
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
  root.replaceChildren();
  const players = seatBoards(t, { names }, (s) =>
    Object.entries(t.players[s]).map(([k, v]) => el("div", { class: "row" }, el("div", { class: "label" }, pretty(k)), value(v, false, t.legend[k]))));
  const board = el("div", { class: "board" });
  for (const [k, v] of Object.entries(t.board))
    board.append(el("div", { class: "zone" }, el("div", { class: "label" }, pretty(k)), value(v, OWNERISH.test(k), t.legend[k])));
  root.append(players, board);
}
