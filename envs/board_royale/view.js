// Board Royale's table (fed by envs/board_royale/table.py `view`): the crafting field, the piles, the players
// with their face-up items and hands (yours by card, the others' as card backs plus what you know of them).
VIEWS.board_royale = (root, t, ctx) => {
  const v = t.view;
  const cost = (o) => Object.entries(o).map(([k, x]) => `${x} ${k}`).join(", ");
  const item = (it) => it ? el("div", { class: `card item ${it.colour}` + (it.used ? " spent" : ""), title: it.text },
    el("b", {}, it.name), el("small", {}, `${it.category}${it.escape_points ? ` · ${it.escape_points} escape pts` : ""}`),
    Object.keys(it.craft).length ? el("small", {}, `craft: ${cost(it.craft)}`) : null,
    Object.keys(it.use).length ? el("small", {}, `use: ${cost(it.use)}`) : null, el("small", { class: "txt" }, it.text))
    : el("span", { class: "card empty" }, "-");
  const hand = (o) => el("div", { class: "row-cards" }, Object.entries(o).flatMap(([k, x]) =>
    Array.from({ length: x }, () => el("span", { class: "rescard " + k.toLowerCase() }, k))));
  const boards = seatBoards(t, ctx, (s) => {
    const p = v.players[s];
    return [el("div", { class: "strip" }, p.alive ? "alive" : el("span", { class: "warn" }, `out (rank ${p.out_rank})`),
        ` · escape points ${p.escape_points} · ${p.hand_size} cards in hand`),
      p.hand ? [el("div", { class: "label" }, "hand"), Object.keys(p.hand).length ? hand(p.hand) : "-"]
        : [el("div", { class: "label" }, "hand"), backs(p.hand_size),
           Object.keys(p.known).length ? [el("div", { class: "label" }, "cards you know of"), hand(p.known)] : null],
      el("div", { class: "label" }, "face-up items"), el("div", { class: "row-cards" }, p.items.length ? p.items.map(item) : "-")];
  });
  const banner = [];
  if (v.trade) banner.push(el("div", { class: "banner" }, `Trade offer to P${v.trade.with}: gives ${cost(v.trade.give) || "nothing"}, asks ${cost(v.trade.ask) || "nothing"}`));
  if (v.attack) banner.push(el("div", { class: "banner" }, `Attack on P${v.attack.on}` + (v.attack.joiners.length ? `: ${v.attack.joiners.map((j) => `P${j.seat} ${j.item}`).join(", ")}` : "")));
  if (v.winner) banner.push(el("div", { class: "banner" }, `P${v.winner.seat} wins: ${v.winner.how}`));
  root.append(el("div", { class: "strip" }, `Board Royale · ${v.round ? "round " + v.round : "preparation round"} · first `, chip(v.first_player)),
    ...banner, boards,
    zone("crafting field", el("div", { class: "row-cards" }, v.field.map(item))),
    el("div", { class: "board" },
      zone("resource deck", backs(v.resource_deck)),
      zone("resource discard", Object.keys(v.resource_discard).length ? counts(v.resource_discard) : "-"),
      zone("item deck", backs(v.item_deck)),
      zone("item discard", el("div", { class: "row-cards" }, v.item_discard.length ? v.item_discard.map((x) => card(x)) : "-")),
      v.loot.length ? zone("loot waiting", el("div", { class: "row-cards" }, v.loot.map((x) => card(x)))) : null));
};
