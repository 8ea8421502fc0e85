frame("watch");
const $ = (id) => document.getElementById(id);
let data = null, idx = 0, source = null;
async function load() {
  const seat = $("view").value || "all";
  let r;
  if (source.id) r = await fetch(`/api/stored/${encodeURIComponent(source.id)}?seat=${encodeURIComponent(seat)}`);
  else r = await fetch(`/api/replay?seat=${encodeURIComponent(seat)}`, { method: "POST", headers: { "content-type": "application/json" }, body: source.text });
  const j = await r.json();
  if (!r.ok) { $("err").textContent = j.error; return; }
  $("err").textContent = "";
  data = j;
  // a seat's name per seat (an export may leave seats out)
  const named = Array.isArray(j.seats) ? j.seats : [];
  data.seats = Array.from({ length: j.num_players ?? named.length }, (_, i) => (named[i] != null ? String(named[i]) : ""));
  if (!$("view").options.length) {
    $("view").replaceChildren(el("option", { value: "all" }, "everything"), ...data.seats.map((s, i) => el("option", { value: i }, `P${i} ${s}`)));
    $("view").value = seat;
  }
  const f = j.forfeit;
  $("forfeit").hidden = !f;
  $("forfeit").textContent = f ? forfeitText(f) : "";
  $("slider").max = j.frames.length - 1;
  go(Math.min(idx, j.frames.length - 1));
  chart();
}
function go(i) {
  idx = Math.max(0, Math.min(i, data.frames.length - 1));
  const f = data.frames[idx];
  $("slider").value = idx;
  showTable($("table"), f.table, { names: data.seats, fixed: data.fixed });
  $("where").textContent = `position ${idx} of ${data.frames.length - 1}`;
  const d = f.decision;
  const automa = (xs) => (xs && xs.length ? ` · then ${xs.join(" · ")}` : "");
  $("decision").textContent = (idx === 0 && data.setup && data.setup.length ? `at the setup: ${data.setup.join(" · ")} · ` : "")
    + (d ? `next: P${d.seat} ${d.name ?? "(" + d.pending + ")"}${automa(d.automa)}` : "final position");
  chart();
}
// the chart's quantity per frame: the game's own (table.chart: a label, a value per seat, maybe a goal) or the score
function series(f) {
  const c = f.table.chart;
  return c && Array.isArray(c.values) ? c : { label: "score", values: f.table.scores };
}
const W = 280, H = 190, L = 40, R = 8, T = 8, B = 34;  // the chart's size and its margins (axes, labels)
function chart() {
  const F = data.frames, S = F.map(series), n = S[0].values.length, goal = S[0].goal;
  const all = S.flatMap((x) => x.values).concat(goal ? [goal.value] : []);
  const lo = Math.min(0, ...all), hi = Math.max(lo + 1, ...all);
  const X = (i) => L + (i / Math.max(1, F.length - 1)) * (W - L - R), Y = (v) => H - B - ((v - lo) / (hi - lo)) * (H - B - T);
  const fmt = (v) => String(Math.round(v * 10) / 10);
  // y ticks: multiples of a round step (1, 2 or 5 times a power of ten) giving about four of them
  const raw = (hi - lo) / 4, mag = 10 ** Math.floor(Math.log10(raw)), step = [1, 2, 5, 10].find((k) => k * mag >= raw) * mag;
  const yTicks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) yTicks.push(v);
  const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img" },
    svg("line", { class: "axis x", x1: L, y1: H - B, x2: W - R, y2: H - B }),
    svg("line", { class: "axis y", x1: L, y1: T, x2: L, y2: H - B }),
    yTicks.map((v) => [svg("line", { class: "grid", x1: L, y1: Y(v), x2: W - R, y2: Y(v) }),
      svg("text", { class: "tick y", x: L - 4, y: Y(v) + 4 }, fmt(v))]),
    [0, F.length - 1].map((i) => svg("text", { class: "tick x", x: X(i), y: H - B + 13 }, String(i))),
    svg("text", { class: "axis-label x", x: (L + W - R) / 2, y: H - 4 }, "position (decisions made)"),
    svg("text", { class: "axis-label y", transform: `translate(11 ${(T + H - B) / 2}) rotate(-90)` }, S[idx].label),
    goal ? [svg("line", { class: "goal", x1: L, y1: Y(goal.value), x2: W - R, y2: Y(goal.value) }),
      svg("text", { class: "goal-label", x: W - R - 2, y: Y(goal.value) + (Y(goal.value) - T < 12 ? 11 : -3) }, goal.label)] : null,
    Array.from({ length: n }, (_, s) => svg("polyline", { class: "line", "data-seat": s, stroke: COLORS[s % COLORS.length],
      points: S.map((x, i) => `${X(i).toFixed(1)},${Y(x.values[s]).toFixed(1)}`).join(" ") })),
    svg("line", { class: "cursor", x1: X(idx), y1: T, x2: X(idx), y2: H - B }));
  $("chart").replaceChildren(g);
  const label = String(S[idx].label);
  $("chart-title").textContent = label === "score" ? "Scores" : label.charAt(0).toUpperCase() + label.slice(1);
  $("legend").replaceChildren(...Array.from({ length: n }, (_, s) =>
    el("li", { "data-seat": s }, el("span", { class: "swatch", style: `background:${COLORS[s % COLORS.length]}` }),
      `P${s} ${data.seats[s]}`, el("b", {}, fmt(S[idx].values[s])))));
}
$("back").onclick = () => go(idx - 1); $("fwd").onclick = () => go(idx + 1);
$("slider").oninput = () => go(+$("slider").value);
$("view").onchange = load;
$("file").onchange = async () => { source = { text: await $("file").files[0].text() }; $("view").replaceChildren(); idx = 0; load(); };
function watchGame(id) {
  source = { id: String(id) };
  $("view").replaceChildren(); idx = 0;
  for (const tr of $("games").tBodies[0].rows) tr.classList.toggle("on", tr.dataset.id === source.id);
  return load();
}
// --- the stored games: sorted, filtered and paged by the server (GET /api/stored) ---
const list = { sort: "id", order: "desc", game: "", agent: "", page: 1, per_page: 10 };
const FIRST_ORDER = { id: "desc", decisions: "desc", finished: "desc", game: "asc", agents: "asc" };
function result(g) {
  if (g.truncated) return "truncated";
  const won = g.seats.map((_, s) => s).filter((s) => g.ranks[s] === 0).map((s) => `P${s}`);
  return `${won.join(", ")} won` + (g.forfeit ? ` · P${g.forfeit.seat} forfeits` : "");
}
function choices(sel, first, names) {
  const keep = sel.value;
  sel.replaceChildren(el("option", { value: "" }, first), ...names.map((x) => el("option", { value: x }, x)));
  sel.value = names.includes(keep) ? keep : "";
}
let asked = 0;  // the latest list request: an older answer arriving late is dropped
async function showList() {
  const ask = ++asked, q = new URLSearchParams(Object.entries(list).filter(([, v]) => v !== ""));
  const r = await fetch(`/api/stored?${q}`), j = await r.json();
  if (ask !== asked) return;
  if (!r.ok) { $("err").textContent = j.error; return; }
  choices($("f-game"), "every game", j.choices.games);
  choices($("f-agent"), "any agent", j.choices.agents);
  $("games").tBodies[0].replaceChildren(...j.games.map((g) => {
    const tr = el("tr", { "data-id": g.id, class: source && source.id === String(g.id) ? "on" : "" },
      el("td", {}, el("button", { class: "open", title: "watch this game" }, `#${g.id}`)),
      el("td", {}, g.game, g.settings.length ? el("small", {}, ` ${g.settings.join(" ")}`) : null),
      el("td", {}, g.seats.map((x, s) => `P${s} ${x}`).join(" vs ")),
      el("td", {}, result(g)), el("td", { class: "n" }, g.decisions), el("td", {}, String(g.finished).slice(0, 16).replace("T", " ")));
    tr.onclick = () => watchGame(g.id);
    return tr;
  }));
  for (const b of $("games").tHead.querySelectorAll("button[data-sort]")) {
    const on = b.dataset.sort === list.sort;
    b.parentElement.setAttribute("aria-sort", on ? (list.order === "asc" ? "ascending" : "descending") : "none");
  }
  $("count").textContent = `(${j.total}${list.game || list.agent ? " shown by the filter" : ""})`;
  $("page").textContent = `page ${j.page} of ${j.pages}`;
  $("prev").disabled = j.page <= 1; $("next").disabled = j.page >= j.pages;
}
for (const b of $("games").tHead.querySelectorAll("button[data-sort]"))
  b.onclick = () => {
    const key = b.dataset.sort;
    list.order = key === list.sort ? (list.order === "asc" ? "desc" : "asc") : FIRST_ORDER[key];
    list.sort = key; list.page = 1; showList();
  };
$("f-game").onchange = () => { list.game = $("f-game").value; list.page = 1; showList(); };
$("f-agent").onchange = () => { list.agent = $("f-agent").value; list.page = 1; showList(); };
$("prev").onclick = () => { list.page -= 1; showList(); };
$("next").onclick = () => { list.page += 1; showList(); };
(async () => {
  const p = new URLSearchParams(location.search);
  const listed = showList();
  if (p.get("id")) {
    $("list-box").open = false;  // a link to one game: its table first, the list folded above it
    await watchGame(p.get("id"));
    if (p.get("seat")) { $("view").value = p.get("seat"); await load(); }
  }
  await listed;
})();
