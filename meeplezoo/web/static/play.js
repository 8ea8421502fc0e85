frame("play");
const $ = (id) => document.getElementById(id);
let catalog = [], game = null, timer = null;
async function api(path, body) {
  const r = await fetch(path, body ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {});
  const j = await r.json();
  if (!r.ok) throw new Error(j.error);
  return j;
}
function fillSeats() {
  const g = catalog.find((x) => x.name === $("game").value);
  $("players").innerHTML = g.players.map((n) => `<option>${n}</option>`).join("");
  $("players").value = g.players.includes(2) ? 2 : g.players[0];
  const keys = Object.entries(g.options).map(([k, v]) => `${k}=${v}`).join(", ");
  $("options").value = "";
  $("options").placeholder = keys || "no options";
  $("options").title = keys ? `the game's config (defaults: ${keys})` : "this game has no options";
  fillSeat();
}
function fillSeat() {
  const n = +$("players").value;
  $("seat").innerHTML = [...Array(n).keys()].map((s) => `<option value="${s}">P${s}</option>`).join("");
}
function show(v) {
  showTable($("table"), v.table, { names: v.seats, fixed: v.table.fixed });
  $("setupPanel").hidden = true;
  $("decision").hidden = v.over;
  $("status").className = "status" + (v.thinking ? " thinking" : "");
  $("status").textContent = v.your_turn ? `Your move: ${v.table.pending}` : v.thinking ? `P${v.table.to_act} (${v.seats[v.table.to_act]}) is thinking` : "";
  $("actions").innerHTML = "";
  for (const a of v.legal) $("actions").append(el("button", { "data-action": a.id, onclick: () => move(a.id) }, a.name));
  $("log").innerHTML = "";
  for (const e of v.log)  // a seat's decision as this seat may read it; a solo automa's turn belongs to no seat
    $("log").append(el("li", { class: e.seat === null ? "automa" : "" }, e.seat === null ? e.name : `P${e.seat} ${e.name ?? "(" + e.pending + ")"}`));
  $("log").scrollTop = 1e9;
  if (v.over) {
    const r = v.result, best = Math.min(...r.ranks);
    const rows = r.scores.map((s, i) => `<tr><td>P${i} ${v.seats[i]}</td><td>${s}</td><td>${r.ranks[i] + 1}</td></tr>`).join("");
    const winners = r.ranks.map((x, i) => (x === best ? `P${i}` : null)).filter((x) => x).join(", ");
    $("result").hidden = false;
    $("result").innerHTML = `<h3 id="winner">Game over · winner: ${winners}</h3>` +
      (r.forfeit ? `<p>P${r.forfeit.seat} forfeits: ${r.forfeit.reason}</p>` : "") +
      `<table class="sheet"><tr><th>seat</th><th>score</th><th>rank</th></tr>${rows}</table>` +
      (r.stored_id ? `<p><a id="stored" href="/watch?id=${r.stored_id}&seat=${v.seat}">watch the stored game #${r.stored_id}</a></p>` : "");
  }
  clearTimeout(timer);
  if (v.thinking) timer = setTimeout(refresh, 300);
}
async function refresh() {
  try { show(await api(`/api/play/${game.id}?token=${game.token}`)); } catch (e) { $("status").textContent = e.message; }
}
async function move(a) {
  $("actions").innerHTML = "";  // one click, one move: no double submission
  try { show(await api(`/api/play/${game.id}/act`, { token: game.token, action: a })); }
  catch (e) { await refresh(); $("status").textContent = e.message; }
}
$("setup").onsubmit = async (ev) => {
  ev.preventDefault();
  const n = +$("players").value, seat = +$("seat").value;
  let bots = $("bots").value.split(",").map((s) => s.trim()).filter((s) => s);
  if (bots.length === 1) bots = Array(n - 1).fill(bots[0]);
  const config = { num_players: n };
  try {
    const opts = $("options").value.split(",").map((s) => s.trim()).filter((s) => s);
    game = await api("/api/play", { game: $("game").value, config, options: opts, seat, bots, seed: +$("seed").value });
    history.replaceState(null, "", `/play?id=${game.id}#${game.token}`);
    refresh();
  } catch (e) { $("err").textContent = e.message; }
};
(async () => {
  catalog = (await api("/api/catalog")).games;
  $("game").innerHTML = catalog.map((g) => `<option>${g.name}</option>`).join("");
  $("game").onchange = fillSeats; $("players").onchange = fillSeat;
  fillSeats();
  const id = new URLSearchParams(location.search).get("id"), token = location.hash.slice(1);
  if (id && token) { game = { id, token }; refresh(); }   // a reload keeps the game
})();
