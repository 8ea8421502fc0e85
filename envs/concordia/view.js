// Concordia's table (fed by envs/concordia/table.py `view`, and `fixed`: the board): the map with its cities,
// goods, houses, routes and colonists; the Forum; the player boards with their cards by name.
VIEWS.concordia = (root, t, ctx) => {
  const v = t.view, m = ctx.fixed || t.fixed;
  const GOOD = { brick: "#b5532f", food: "#d9b43c", tool: "#6d7b8c", wine: "#7b2d5b", cloth: "#3f8f6a" };
  const xs = m.cities.map((c) => c.x), ys = m.cities.map((c) => c.y);
  const x0 = Math.min(...xs) - 60, y0 = Math.min(...ys) - 50, w = Math.max(...xs) - x0 + 60, h = Math.max(...ys) - y0 + 50;
  const map = svg("svg", { viewBox: `${x0} ${y0} ${w} ${h}`, class: "map" });
  const provinces = [...new Set(m.cities.map((c) => c.province))];
  const hue = (p) => (provinces.indexOf(p) * 360) / provinces.length;
  for (const p of provinces) {  // a province: a soft patch around its cities, its name and bonus marker
    const cs = m.cities.filter((c) => c.province === p && c.letter !== "X");
    if (!cs.length) continue;
    for (const c of cs) map.append(svg("circle", { cx: c.x, cy: c.y, r: 62, fill: `hsl(${hue(p)} 45% 70% / .35)` }));
    const pv = v.provinces.find((q) => q.name === p);
    const cx = cs.reduce((a, c) => a + c.x, 0) / cs.length, cy = Math.min(...cs.map((c) => c.y)) - 36;
    map.append(svg("text", { x: cx, y: cy, class: "prov" }, `${p}`),
      svg("rect", { x: cx - 34, y: cy + 3, width: 68, height: 13, rx: 3, fill: pv.bonus === "goods" ? GOOD[pv.good] : "#bbb" }),
      svg("text", { x: cx, y: cy + 13, class: "provb" }, pv.bonus === "goods" ? pv.good : "coin side"));
  }
  m.routes.forEach(([a, b, kind], r) => {
    const A = m.cities[a], B = m.cities[b];
    map.append(svg("line", { x1: A.x, y1: A.y, x2: B.x, y2: B.y, class: "route " + kind }));
    const o = v.routes[r];
    if (o) map.append(svg(kind === "sea" ? "rect" : "circle", kind === "sea"
      ? { x: (A.x + B.x) / 2 - 9, y: (A.y + B.y) / 2 - 9, width: 18, height: 18, transform: `rotate(45 ${(A.x + B.x) / 2} ${(A.y + B.y) / 2})`, fill: COLORS[o.seat], class: "col" }
      : { cx: (A.x + B.x) / 2, cy: (A.y + B.y) / 2, r: 10, fill: COLORS[o.seat], class: "col" }, svg("title", {}, `P${o.seat} ${kind} colonist`)));
  });
  m.cities.forEach((c, i) => {
    const s = v.cities[i], roma = c.letter === "X";
    const g = svg("g", {}, svg("title", {}, `${c.name} (${c.province})${s.good ? ": " + s.good : ""}`));
    g.append(svg("circle", { cx: c.x, cy: c.y, r: roma ? 24 : 17, fill: roma ? "#f2c14e" : s.good ? GOOD[s.good] : "#ddd", class: "city" }),
      svg("text", { x: c.x, y: c.y + (roma ? 40 : 33), class: "cname" }, c.name));
    s.houses.forEach((seat, k) => g.append(svg("rect", { x: c.x - 20 + k * 11, y: c.y - 30, width: 10, height: 10, fill: COLORS[seat], class: "house" })));
    s.colonists.forEach((col, k) => {  // colonists in the city: a row under its name (sea ones as diamonds)
      const x = c.x - (s.colonists.length - 1) * 8 + k * 16, y = c.y + (roma ? 54 : 47);
      g.append(col.kind === "sea"
        ? svg("rect", { x: x - 6, y: y - 6, width: 12, height: 12, transform: `rotate(45 ${x} ${y})`, fill: COLORS[col.seat], class: "col" })
        : svg("circle", { cx: x, cy: y, r: 7, fill: COLORS[col.seat], class: "col" }));
    });
    map.append(g);
  });
  const pcard = (c, cls = "") => c ? card(c.name, `${c.god} · ${c.deck}${c.cost.length ? " · cost " + c.cost.join(", ") : ""}`, "pers " + cls) : el("span", { class: "card empty" }, "-");
  const boards = seatBoards(t, ctx, (s) => {
    const p = v.players[s];
    return [el("div", { class: "strip" }, `${p.money} sesterces · houses ${p.houses} · storehouse colonists: land ${p.storehouse_colonists.land}, sea ${p.storehouse_colonists.sea}`,
        p.praefectus_magnus ? el("span", { class: "chip", style: "background:#444" }, "Praefectus Magnus") : null,
        p.concordia ? el("span", { class: "chip", style: "background:#a07a00" }, "Concordia") : null),
      counts(p.goods),
      el("div", { class: "label" }, `hand (${p.hand.length})`), el("div", { class: "row-cards" }, p.hand.map((c) => pcard(c))),
      el("div", { class: "label" }, `discard pile (${p.discard.length})`), el("div", { class: "row-cards" }, p.discard.slice(-3).map((c) => pcard(c, "spent")))];
  });
  const forum = zone(`Forum (deck: ${v.deck} cards)`, el("div", { class: "row-cards" }, v.forum.map((c) => pcard(c))));
  root.append(el("div", { class: "strip" }, `Concordia · ${m.map} · turn ${v.turn}`), el("div", { class: "mapwrap" }, map), forum, boards);
  if (v.sheet) root.append(zone("score (if the game ended now)", el("table", { class: "sheet" },
    el("tr", {}, el("th", {}, ""), v.sheet.categories.map((c) => el("th", {}, c))),
    v.sheet.rows.map((r, s) => el("tr", {}, el("td", {}, chip(s)), r.map((x) => el("td", {}, x)))))));
};
