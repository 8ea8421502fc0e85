frame("play");
const $ = (id) => document.getElementById(id);
let catalog = [], game = null, timer = null;
async function api(path, body) {
  const r = await fetch(path, body ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {});
  const j = await r.json();
  if (!r.ok) throw new Error(j.error);
  return j;
}
const options = (values) => values.map(([value, text]) => el("option", { value }, text));
// what the catalog says of one allowed bot: its description, or its other fields (bounds) in one line
function aboutBot(x) {
  if (x == null) return "";
  if (typeof x !== "object") return String(x);
  const text = x.description ?? x.help;
  if (typeof text === "string") return text;
  return Object.entries(x).filter(([k]) => k !== "name").map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join("; ");
}
// the bots this server allows for a game: the catalog lists names, or entries {name, ...}, or {name: about}
function botHints(g) {
  const raw = g.bots ?? g.agents ?? [];
  const entries = Array.isArray(raw) ? raw.map((a) => (a && typeof a === "object" ? [a.name, a] : [a, null]))
    : raw && typeof raw === "object" ? Object.entries(raw) : [];
  return entries.filter(([n]) => typeof n === "string" && n && n !== "human").map(([name, x]) => ({ name, about: aboutBot(x) }));
}
function fillSeats() {
  const g = catalog.find((x) => x.name === $("game").value);
  $("players").replaceChildren(...options(g.players.map((n) => [n, n])));
  $("players").value = g.players.includes(2) ? 2 : g.players[0];
  const keys = Object.entries(g.options).map(([k, v]) => `${k}=${v}`).join(", ");
  $("options").value = "";
  $("options").placeholder = keys || "no options";
  $("options").title = keys ? `the game's config (defaults: ${keys})` : "this game has no options";
  const bots = botHints(g);
  $("bot-names").replaceChildren(...bots.map((b) => el("option", { value: b.name }, b.about)));
  $("bots").title = "agent spec(s), comma separated: one for all, or one per bot seat"
    + (bots.length ? `; this server allows: ${bots.map((b) => (b.about ? `${b.name} (${b.about})` : b.name)).join(", ")}` : "");
  fillSeat();
}
function fillSeat() {
  const n = +$("players").value;
  $("seat").replaceChildren(...options([...Array(n).keys()].map((s) => [s, `P${s}`])));
}
function show(v) {
  const seats = Array.isArray(v.seats) ? v.seats : [];
  showTable($("table"), v.table, { names: seats, fixed: v.table.fixed });
  $("setupPanel").hidden = true;
  $("fixed-seed").hidden = v.fixed_seed !== true;  // absent (an older server): not fixed
  $("decision").hidden = v.over;
  $("status").className = "status" + (v.thinking ? " thinking" : "");
  $("status").textContent = v.your_turn ? `Your move: ${v.table.pending}` : v.thinking ? `P${v.table.to_act} (${seats[v.table.to_act]}) is thinking` : "";
  $("actions").replaceChildren(...v.legal.map((a) => el("button", { "data-action": a.id, onclick: () => move(a.id) }, a.name)));
  $("log").replaceChildren(...v.log.map((e) =>  // a seat's decision as this seat may read it; a solo automa's turn belongs to no seat
    el("li", { class: e.seat === null ? "automa" : "" }, e.seat === null ? e.name : `P${e.seat} ${e.name ?? "(" + e.pending + ")"}`)));
  $("log").scrollTop = 1e9;
  if (v.over) {
    const r = v.result, best = Math.min(...r.ranks);
    const winners = r.ranks.map((x, i) => (x === best ? `P${i}` : null)).filter((x) => x).join(", ");
    const stored = Number.isInteger(r.stored_id) && Number.isInteger(v.seat);  // the link is built from numbers only
    $("result").hidden = false;
    $("result").replaceChildren(
      el("h3", { id: "winner" }, `Game over · winner: ${winners}`),
      r.forfeit ? el("p", { id: "forfeit" }, forfeitText(r.forfeit)) : null,
      r.store_error ? el("p", { class: "error", id: "store-error" }, r.store_error) : null,
      r.seed != null ? el("p", { id: "seed-told" }, `seed ${r.seed} (told now that the game is over)`) : null,
      el("table", { class: "sheet" }, el("tr", {}, el("th", {}, "seat"), el("th", {}, "score"), el("th", {}, "rank (0 = won)")),
        r.scores.map((s, i) => el("tr", {}, el("td", {}, `P${i} ${seats[i]}`), el("td", {}, s), el("td", {}, r.ranks[i])))),
      stored ? el("p", {}, el("a", { id: "stored", href: `/watch?id=${r.stored_id}&seat=${v.seat}` }, `watch the stored game #${r.stored_id}`)) : null);
  }
  clearTimeout(timer);
  if (v.thinking) timer = setTimeout(refresh, 300);
}
async function refresh() {
  try { show(await api(`/api/play/${encodeURIComponent(game.id)}?token=${encodeURIComponent(game.token)}`)); } catch (e) { $("status").textContent = e.message; }
}
async function move(a) {
  $("actions").replaceChildren();  // one click, one move: no double submission
  try { show(await api(`/api/play/${encodeURIComponent(game.id)}/act`, { token: game.token, action: a })); }
  catch (e) { await refresh(); $("status").textContent = e.message; }
}
$("setup").onsubmit = async (ev) => {
  ev.preventDefault();
  $("err").textContent = "";
  const n = +$("players").value, seat = +$("seat").value;
  let bots = $("bots").value.split(",").map((s) => s.trim()).filter((s) => s);
  if (bots.length === 1) bots = Array(n - 1).fill(bots[0]);
  const opts = $("options").value.split(",").map((s) => s.trim()).filter((s) => s);
  const body = { game: $("game").value, config: { num_players: n }, options: opts, seat, bots };
  const seed = $("seed").value.trim();  // empty: the server picks a secret seed
  if (seed) {
    if (!/^\d+$/.test(seed) || !Number.isSafeInteger(+seed)) {
      $("err").textContent = `seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or empty for a secret one; got ${JSON.stringify(seed)}`;
      return;
    }
    body.seed = +seed;
  }
  try {
    game = await api("/api/play", body);
    history.replaceState(null, "", `/play?id=${encodeURIComponent(game.id)}#${game.token}`);
    refresh();
  } catch (e) { $("err").textContent = e.message; }
};
(async () => {
  catalog = (await api("/api/catalog")).games;
  $("game").replaceChildren(...options(catalog.map((g) => [g.name, g.name])));
  $("game").onchange = fillSeats; $("players").onchange = fillSeat;
  fillSeats();
  const id = new URLSearchParams(location.search).get("id"), token = location.hash.slice(1);
  if (id && token) { game = { id, token }; refresh(); }   // a reload keeps the game
})();
