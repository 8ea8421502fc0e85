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
  $("forfeit").textContent = f ? `P${f.seat} forfeits: ${f.reason}` : "";
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
function chart() {
  const c = $("chart"), g = c.getContext("2d"), F = data.frames, n = F[0].table.scores.length;
  const all = F.flatMap((f) => f.table.scores), lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  g.clearRect(0, 0, c.width, c.height);
  const X = (i) => 4 + (i / Math.max(1, F.length - 1)) * (c.width - 8), Y = (v) => c.height - 4 - ((v - lo) / (hi - lo)) * (c.height - 8);
  for (let s = 0; s < n; s++) {
    g.strokeStyle = COLORS[s]; g.lineWidth = 2; g.beginPath();
    F.forEach((f, i) => (i ? g.lineTo(X(i), Y(f.table.scores[s])) : g.moveTo(X(i), Y(f.table.scores[s]))));
    g.stroke();
  }
  g.strokeStyle = "#000"; g.beginPath(); g.moveTo(X(idx), 0); g.lineTo(X(idx), c.height); g.stroke();
}
$("back").onclick = () => go(idx - 1); $("fwd").onclick = () => go(idx + 1);
$("slider").oninput = () => go(+$("slider").value);
$("view").onchange = load;
$("games").onchange = () => { source = { id: $("games").value }; $("view").replaceChildren(); idx = 0; load(); };
$("file").onchange = async () => { source = { text: await $("file").files[0].text() }; $("view").replaceChildren(); idx = 0; load(); };
(async () => {
  const j = await (await fetch("/api/stored")).json();
  $("games").replaceChildren(...j.games.map((g) => el("option", { value: g.id }, `#${g.id} ${g.game}: ${g.seats.join(" vs ")}`)));
  const p = new URLSearchParams(location.search);
  if (p.get("id")) {
    source = { id: p.get("id") };
    $("view").replaceChildren();
    await load();
    if (p.get("seat")) { $("view").value = p.get("seat"); await load(); }
  }
})();
