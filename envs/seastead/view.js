// Seastead's table (fed by envs/seastead/table.py `view`): four flotillas of six locations, the displays,
// the two player boards.
VIEWS.seastead = (root, t, ctx) => {
  const v = t.view;
  const dock = (d) => d ? card(`dock ${d.resource}`, `${d.sections.map((s) => (s ? s[0].toUpperCase() : "·")).join(" ")} · ${d.points} VP`, "dock")
    : el("span", { class: "card empty" }, "-");
  const spec = (sp) => sp ? card(`${sp.name} (${sp.vp} VP)`, sp.text, "spec" + (sp.spent ? " spent" : "")) : el("span", { class: "card empty" }, "-");
  const info = el("div", { class: "strip" },
    el("span", {}, `Round ${v.round}`), el("span", {}, "first ", chip(v.first_player)),
    v.end_round ? el("span", { class: "warn" }, `last round: ${v.end_round}`) : null,
    el("span", {}, "supply "), counts(v.supply), el("span", {}, `cleanup supply ${v.cleanup_supply}`),
    v.decree ? el("span", { title: v.decree.text }, `decree: ${v.decree.title}`) : null);
  const flotillas = el("div", { class: "flotillas" }, v.flotillas.map((f, i) =>
    el("div", { class: "flotilla" + (f.locked ? " locked" : "") },
      el("div", { class: "fhead" }, el("b", {}, `${i + 1}. ${f.name}`), el("small", {}, ` side ${f.side} · demand ${f.demand}${f.locked ? " · locked" : ""}`)),
      f.locations.map((l, p) => el("div", { class: "loc" + (l.owner >= 0 ? " built" : ""), style: l.owner >= 0 ? `--c:${COLORS[l.owner]}` : "" },
        el("span", { class: "cost" }, l.cost), el("span", { class: "eff" }, l.effect),
        l.building ? el("span", { class: "bld" }, l.building) : null,
        l.ship >= 0 ? el("span", { class: "ship", style: `background:${COLORS[l.ship]}`, title: `P${l.ship}'s ship` }, `ship P${l.ship}`) : null,
        l.dock ? el("span", { class: "dockat" }, dock(l.dock)) : null)))));
  const displays = el("div", { class: "board" },
    zone("revealed dive card", v.revealed ? el("div", { class: "halves" }, v.revealed.map((h, i) => card(`half ${i + 1}`, h, "divehalf"))) : el("span", { class: "card empty" }, "none")),
    zone("dock display", el("div", { class: "row-cards" }, v.dock_display.map(dock))),
    zone("specialist display", el("div", { class: "row-cards" }, v.spec_display.map(spec))),
    zone("decks", counts(v.decks)),
    v.decrees_drawn.length ? zone("decrees drawn", v.decrees_drawn.join(", ")) : null);
  const boards = seatBoards(t, ctx, (s) => {
    const p = v.players[s];
    if (!p) return el("div", {}, "the Boss");
    return [counts(p.resources),
      el("div", { class: "strip" }, `cleanup ${p.cleanup}`, p.shortfall ? ` · shortfall ${p.shortfall}` : "",
        ` · ships on board ${p.ships_on_board} · boxed ${p.ships_boxed} · columns ${p.columns}`),
      el("div", { class: "label" }, "buildings left"), counts(p.buildings_left),
      el("div", { class: "label" }, "specialists"), el("div", { class: "row-cards" }, p.specialists.length ? p.specialists.map(spec) : "-")];
  });
  root.append(info, boards, flotillas, displays);
  if (v.sheet) root.append(zone("score sheet", el("table", { class: "sheet" },
    el("tr", {}, el("th", {}, ""), v.sheet.seats.map((name) => el("th", {}, name))),
    v.sheet.categories.map((c, i) => el("tr", {}, el("td", {}, c), v.sheet.rows.map((r) => el("td", {}, r[i])))))));
};
