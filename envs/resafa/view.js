// Resafa's table (fed by envs/resafa/table.py `view`, and `fixed`: the trade map and the canal grid): each
// player's area (workshops and garden squares), tracks, camel and cards; the canal network; the trade map; the
// displays. Cards and tiles by name and printed effects.
VIEWS.resafa = (root, t, ctx) => {
  const v = t.view, fx = ctx.fixed || t.fixed;
  const HUE = { blue: "#3f7fc4", white: "#9aa3ad", yellow: "#e0b400", pink: "#d9669b", city: "#c9a227", red: "#c0473a" };
  const half = (h) => el("span", { class: "half", style: `background:${HUE[h.colour] || "#777"}` }, `${h.action}${h.extra}`);
  const acard = (c) => el("div", { class: "card acard", title: c.text || c.id }, c.name === "" ? null : el("b", {}, c.name || c.id),
    el("div", { class: "halves" }, c.halves.map(half)));
  const bcard = (c) => c ? card(c.colour ? `${c.colour} bonus card` : "bonus card", c.text, "bcard") : el("span", { class: "card empty" }, "-");
  if (!fx) return;
  const special = (s) => el("div",
    { class: "card spc" + (s.used ? " spent" : ""), style: `border-top:5px solid ${HUE[s.colour]}`, title: s.text },
    el("b", {}, s.name), el("small", {}, `${s.colour} ${"I".repeat(s.level)} · ${s.timing}${s.vp ? ` · ${s.vp} VP` : ""}`),
    el("small", {}, s.text));
  const wsTitle = (w) => `${w.id} (${w.level}, ${w.face}${w.rot ? `, turned ${90 * w.rot}°` : ""})\n`
    + `rooms: ${w.rooms.join(" / ")}\ngreen: ${w.greens.join(" / ") || "-"}`;
  const ws = (w, small) => w
    ? el("div", { class: "ws" + (small ? "" : " tile"), title: wsTitle(w) }, el("b", {}, w.id.replace("ws-", "")),
      el("small", {}, w.rooms.join(" / ")), w.production ? el("small", {}, `+${w.production} production`) : null)
    : el("span", { class: "card empty" }, "-");
  const area = (cells) => el("div", { class: "area" }, cells.map((c, i) => {
    const even = (Math.floor(i / 5) + (i % 5)) % 2 === 0;
    if (c && c.workshop) return el("div", { class: "cell5 wscell" }, ws(c.workshop, true));
    if (c && c.garden) {  // three strips, filled or not, across or down the square
      const strips = c.garden.strips.map((f) => el("span", { class: "strip3" + (f ? " on" : "") }));
      return el("div", { class: `cell5 garden ${c.garden.orient}` }, strips);
    }
    return el("div", { class: "cell5 " + (even ? "wsfree" : "gfree") });
  }));
  const step = (c, x, k) => el("span", { class: "tstep" + (k === x ? " on" : ""), style: k === x ? `background:${HUE[c]}` : "" });
  const tracks = (tr) => el("div", { class: "tracks" }, Object.entries(tr).map(([c, x]) =>
    el("div", { class: "track" }, el("span", { class: "tname" }, c), Array.from({ length: 11 }, (_, k) => step(c, x, k)))));
  const boards = seatBoards(t, ctx, (s) => {
    const p = v.players[s];
    return [el("div", { class: "strip" }, `${p.coins} coins · ${p.vp} VP · camel at ${p.camel.at} (${p.camel.cargo}, holds ${p.camel.capacity}) · water cubes ${p.water_cubes}`),
      counts(p.store),
      el("div", { class: "pgrid" }, area(p.area), el("div", {}, tracks(p.tracks),
        el("small", {}, `gardens done ${p.gardens_done} · gate ${p.gate} · rows: garden ${p.rows.garden}, workshop ${p.rows.workshop}, canal ${p.rows.canal}`))),
      p.hand ? [el("div", { class: "label" }, "hand"), el("div", { class: "row-cards" }, p.hand.map(acard))]
        : [el("div", { class: "label" }, "hand"), backs(p.hand_size)],
      el("div", { class: "label" }, `played (deck: ${p.deck})`), el("div", { class: "row-cards" }, p.played.length ? p.played.map(acard) : "-"),
      p.bonus_cards.length ? [el("div", { class: "label" }, "bonus cards"), el("div", { class: "row-cards" }, p.bonus_cards.map(bcard))] : null,
      p.sack_cards ? (p.sack_cards.length ? [el("div", { class: "label" }, "sack cards"), el("div", { class: "row-cards" }, p.sack_cards.map(bcard))] : null)
        : (p.sack_size ? [el("div", { class: "label" }, "sack cards"), backs(p.sack_size)] : null),
      p.specials.length ? [el("div", { class: "label" }, "special cards"), el("div", { class: "row-cards" }, p.specials.map(special))] : null];
  });
  // solo: Resafabot's board (it scores nothing; its pieces are owner `bot.owner` on the board)
  const bot = v.bot;
  const who = (o) => (bot && o === bot.owner ? bot.name : `P${o}`);
  if (bot) {
    const b = el("div", { class: "pboard bot" });
    b.style.setProperty("--c", COLORS[bot.owner % COLORS.length]);
    b.append(el("h4", {}, el("span", {}, chip(bot.owner, "R"), ` ${bot.name}${bot.starts ? " (starts this round)" : ""}`),
        el("span", {}, `score ${bot.score} · to beat: ${bot.target}`)),
      el("div", { class: "pgrid" }, tracks(bot.tracks), el("small", {},
        `solo deck: ${bot.deck_top} face up, ${bot.below} below · revealed: ${bot.revealed.join(", ") || "-"}`
        + ` · out of the game: ${bot.out ?? "-"}${bot.last ? ` · last turn: ${bot.last}` : ""}`)),
      el("div", { class: "strip" }, `canal tiles left ${bot.canal_tiles} · trading posts: ${bot.posts.join(", ") || "none"}`
        + ` · water cubes ${bot.water_cubes} · special cards removed: ${bot.specials.join(", ") || "none"}`));
    boards.append(b);
  }
  // the canal network: printed channels (pale), placed canal tiles (their owner's colour), bonus tiles
  const B = 46, net = fx.canal, cv = svg("svg", { viewBox: `-4 -16 ${net.cols * B + 8} ${net.rows * B + 20}`, class: "canal" });
  const arm = (x, y, side, cls) => {  // a channel from the box centre to its side (N, E, S, W)
    const [dx, dy] = [[0, -1], [1, 0], [0, 1], [-1, 0]][side];
    return svg("line", { x1: x, y1: y, x2: x + dx * B / 2, y2: y + dy * B / 2, class: cls });
  };
  v.canal.forEach((b, i) => {
    const r = Math.floor(i / net.cols), c = i % net.cols, x = c * B + B / 2, y = r * B + B / 2;
    const title = `row ${r + 1}, column ${c + 1}${b.bonus ? ": " + b.bonus : ""}${b.bonus_tile ? "; bonus tile: " + b.bonus_tile : ""}`
      + (b.tile ? `; ${b.tile.text || "canal " + b.tile.id} of ${who(b.tile.owner)}` : "");
    const fill = b.tile ? COLORS[b.tile.owner] + "55" : "#e8dcc0";
    const g = svg("g", {}, svg("title", {}, title),
      svg("rect", { x: c * B + 1, y: r * B + 1, width: B - 2, height: B - 2, rx: 4, class: "box", fill }));
    b.printed.forEach((sd) => g.append(arm(x, y, sd, "printed")));
    if (b.tile) b.tile.exits.forEach((sd) => g.append(arm(x, y, sd, "water")));
    if (b.tile && b.tile.tank) g.append(svg("circle", { cx: x, cy: y, r: 7, class: "tank" }));
    if (b.bonus_tile) g.append(svg("rect", { x: c * B + 4, y: r * B + 4, width: 12, height: 12, class: "btile" }));
    cv.append(g);
  });
  const CUBE = ["water cube at its source", "water cube on the canal", "water cube taken"];
  net.sources.forEach((src, k) => cv.append(svg("circle", { cx: src.col * B + B / 2, cy: -8, r: 6, class: "cube c" + v.cubes[k] },
    svg("title", {}, CUBE[v.cubes[k]]))));
  // the trade map: nodes in columns by road distance from Resafa; a road inside a column that skips nodes is an
  // arc (it would run through them); each label goes where it crosses no road, node, post or other label
  const NAME_FONT = "bold 12px sans-serif", DEAL_FONT = "9.5px sans-serif";
  const X = (n) => 40 + n.col * 210, Y = (n) => 176 + n.row * 72;
  const tm = svg("svg", { viewBox: "0 0 920 352", class: "trade" });
  const segs = [], boxes = [], costs = [];  // obstacles: road pieces [x1, y1, x2, y2]; taken boxes [x, y, w, h]
  fx.nodes.forEach((n) => boxes.push([X(n) - 24, Y(n) - 23, 48, 48]));  // node, its camels and its posts
  fx.roads.forEach(([a, b, cost]) => {
    const A = fx.nodes[a], Bn = fx.nodes[b], x1 = X(A), y1 = Y(A), x2 = X(Bn), y2 = Y(Bn);
    let mx = (x1 + x2) / 2, my = (y1 + y2) / 2, road;
    if (x1 === x2 && Math.abs(y1 - y2) > 80) {  // an arc bulging right, drawn as a few straight pieces too
      const bulge = 70, cx = x1 + 2 * bulge;
      road = svg("path", { d: `M${x1},${y1} Q${cx},${my} ${x2},${y2}`, class: "road", fill: "none" });
      for (let k = 0; k < 8; k++) {
        const p = (t) => [(1 - t) ** 2 * x1 + 2 * t * (1 - t) * cx + t * t * x2, (1 - t) ** 2 * y1 + 2 * t * (1 - t) * my + t * t * y2];
        segs.push([...p(k / 8), ...p((k + 1) / 8)]);
      }
      mx = x1 + bulge + 8;
    } else {
      road = svg("line", { x1, y1, x2, y2, class: "road" });
      segs.push([x1, y1, x2, y2]);
    }
    tm.append(road);
    costs.push(svg("text", { x: mx, y: my + 4, class: "rcost", "text-anchor": "middle", stroke: "#fffaf0", "stroke-width": 3,
      "paint-order": "stroke" }, cost));
    boxes.push([mx - 8, my - 8, 16, 16]);
  });
  const crosses = ([x, y, w, h]) => segs.reduce((hit, [x1, y1, x2, y2]) => {
    for (let k = 0; k <= 20; k++) {  // sample points of the road piece inside the box
      const px = x1 + (x2 - x1) * k / 20, py = y1 + (y2 - y1) * k / 20;
      if (px > x - 2 && px < x + w + 2 && py > y - 2 && py < y + h + 2) hit += 1;
    }
    return hit;
  }, 0);
  const overlap = ([x, y, w, h]) => boxes.reduce((o, [a, b, c, d]) =>
    o + Math.max(0, Math.min(x + w, a + c) - Math.max(x, a)) * Math.max(0, Math.min(y + h, b + d) - Math.max(y, b)), 0);
  const measure = document.createElement("canvas").getContext("2d");
  const width = (text, font) => { measure.font = font; return measure.measureText(text).width; };
  const place = (n, lines) => {  // the candidate box (right, left, above, below the node) crossing least
    const x = X(n), y = Y(n), w = Math.max(...lines.map(([t, font]) => width(t, font))) + 6, h = 12 * lines.length + 2;
    const cands = [[x + 27, y - h / 2], [x - 27 - w, y - h / 2], [x + 27, y - h - 8], [x + 27, y + 8],
      [x - 27 - w, y - h - 8], [x - 27 - w, y + 8], [x - w / 2, y - 25 - h], [x - w / 2, y + 27]];
    let best = null;
    cands.forEach(([bx, by], k) => {
      const r = [bx, by, w, h], out = bx < 0 || by < 0 || bx + w > 920 || by + h > 352;
      const cost = (out ? 1e6 : 0) + 1000 * crosses(r) + overlap(r) + k;
      if (!best || cost < best.cost) best = { cost, r };
    });
    boxes.push(best.r);
    return best.r;
  };
  fx.nodes.forEach((n, k) => {
    const cn = v.centres[k], g = svg("g", {}, svg("title", {}, `${n.name || n.id}${cn.deal ? ": " + cn.deal : ""}`));
    const short = cn.short || cn.deal || "";
    const [lx, ly] = place(n, [[n.name || n.id, NAME_FONT], ...(short ? [[short, DEAL_FONT]] : [])]);
    g.append(svg("circle", { cx: X(n), cy: Y(n), r: 13, fill: HUE[n.colour], class: "node" }),
      svg("text", { x: lx + 3, y: ly + 11, class: "nname", style: `font:${NAME_FONT}` }, n.name || n.id),
      short ? svg("text", { x: lx + 3, y: ly + 23, class: "deal", style: `font:${DEAL_FONT}` }, short) : null);
    cn.posts.forEach((p, j) => g.append(svg("rect", { x: X(n) - 22 + j * 11, y: Y(n) + 15, width: 9, height: 9, class: "post", fill: p.owner >= 0 ? COLORS[p.owner] : p.open ? "#fff" : "#999" },
      svg("title", {}, p.owner >= 0 ? `trading post of ${who(p.owner)}` : p.open ? "open post box" : "closed post box"))));
    cn.camels.forEach((s, j) => g.append(svg("circle", { cx: X(n) - 12 + j * 9, cy: Y(n) - 17, r: 5, fill: COLORS[s], class: "camel" })));
    tm.append(g);
  });
  costs.forEach((c) => tm.append(c));  // road costs on top of the roads
  const turn = v.turn ? ` · playing ${v.turn.card}${v.turn.main ? ", main action " + v.turn.main : ""}${v.turn.colour ? ", colour " + v.turn.colour : ""}` : "";
  root.append(el("div", { class: "strip" }, `Resafa · round ${v.round} · start player `, chip(v.first), turn), boards,
    el("div", { class: "board" },
      zone("canal network", cv), zone("trade map (roads with their cost; posts: squares)", tm)),
    el("div", { class: "board" },
      zone("workshop display", el("div", { class: "row-cards" }, v.workshop_display.map((w) => ws(w)))),
      zone("bonus display", el("div", { class: "row-cards" }, v.bonus_display.map(bcard))),
      zone("special cards (face-up tops)", el("div", { class: "row-cards" }, v.specials.map((d) => d.top ? special(d.top)
        : el("span", { class: "card empty", style: `border-top:5px solid ${HUE[d.colour]}` }, `${d.colour} ${"I".repeat(d.level)} · ${d.cards} face down`)))),
      v.specials.some((d) => d.face_down && d.face_down.length) ? zone(v.face_down_label || "face-down special cards",
        el("div", { class: "row-cards" }, v.specials.flatMap((d) => (d.face_down || []).map(special)))) : null,
      zone("supply", counts(v.supply), counts(v.garden_tiles), counts(v.tokens), counts({ "sack deck": v.sack.deck, "sack discard": v.sack.discard }))));
  if (v.sheet) root.append(zone("score sheet", el("table", { class: "sheet" },
    el("tr", {}, el("th", {}, ""), v.sheet.categories.map((c) => el("th", {}, c))),
    v.sheet.rows.map((r, s) => el("tr", {}, el("td", {}, chip(s)), r.map((x) => el("td", {}, x)))))));
};
