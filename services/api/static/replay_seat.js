// The replay viewer's "as seat N saw it", beside the operator's view: one hand as that seat's
// live stream showed it (…/hands/N/seats/S: the streams' own redaction, done on the server; a
// tile it was not shown comes as null and is drawn face down here), with what the seat could
// do and its rulings at each step. Uses el, tile, tiles, fill, api and CLAIMS of replay.js.
"use strict";
let seatReplay = null, seatLoads = 0;
const ALWAYS_OPEN = ["request_autoplay", "leave_table"];  // offered always: not a choice

// the views' compact hands: "23m555p" is 2m 3m 5p 5p 5p
function parseTiles(text) {
  const out = [];
  let digits = "";
  for (const c of text || "") {
    if (c >= "0" && c <= "9") digits += c;
    else { for (const d of digits) out.push(d + c); digits = ""; }
  }
  return out;
}
const backs = (n) => Array.from({ length: n }, () => el("span", { class: "tile back", title: "not shown to this seat" }, ""));

function clearSeat() {
  seatReplay = null;
  for (const id of ["seat-title", "seat-event", "seat-stopped", "seat-centre", "seat-seats", "seat-window", "seat-rulings"]) $(id).replaceChildren();
  $("seat-stopped").hidden = true;
  $("seat-side").hidden = true;
}

async function openSeat(seat) {
  const mine = loading, mineSeat = ++seatLoads;
  clearSeat();
  if (seat === "" || !replay || !replay.frames.length) return;
  try {
    const found = await api(`/v1/ops/replay/tables/${encodeURIComponent(replay.table_id)}/hands/${replay.hand}/seats/${seat}`);
    if (mine !== loading || mineSeat !== seatLoads) return;  // another was opened meanwhile
    seatReplay = found;
    $("seat-stopped").hidden = !found.stopped;
    $("seat-stopped").textContent = found.stopped ? "The fold stopped: " + found.stopped : "";
    showSeat(replay.frames[step].version);  // the step shown now, wherever it moved meanwhile
  } catch (error) { problem(error); }
}

function showSeat(version) {
  if (!seatReplay) return;
  $("seat-side").hidden = false;
  const me = seatReplay.seat;
  $("seat-title").textContent = `As seat ${me} (${seatReplay.players[me] || ""}) saw it`;
  const f = seatReplay.frames.find((x) => x.version === version);
  if (!f) {
    fill($("seat-event"), `v${version}: past where this seat's frames stop`);
    for (const id of ["seat-centre", "seat-seats", "seat-window", "seat-rulings"]) $(id).replaceChildren();
    return;
  }
  fill($("seat-event"), el("b", {}, `v${f.version} ${f.type}`), " · its stream sent ",
    el("code", { id: "seat-payload" }, JSON.stringify(f.event.payload)));
  const h = f.view.hand;
  fill($("seat-centre"), h ? el("div", {},
    el("span", { id: "seat-wall" }, `wall: ${h.wall_remaining} to draw`), " · 宝: ",
    h.bao ? tile(h.bao, "wild") : h.bao_hidden ? "set aside, not shown before its 听" : "none", " · ",
    h.wildcards.length ? ["混: ", tiles(h.wildcards, "wild"), " · "] : null,
    `dealer: seat ${h.dealer} · turn: seat ${h.turn} (${h.step})`) : null);
  fill($("seat-seats"), h ? h.seats.map((s) => seatCard(s, h, f.view.players, me)) : []);
  fill($("seat-window"), h && h.window ? el("div", { id: "seat-claim-window" }, el("b", {}, "claim window on "),
    tile(h.window.tile), ` from seat ${h.window.from_seat}: it may `,
    h.window.my_options.length ? h.window.my_options.map((k) => CLAIMS[k] || k).join("/") : "not claim",
    h.window.my_answer ? ` · it answered ${CLAIMS[h.window.my_answer] || h.window.my_answer}` : "") : null);
  fill($("seat-rulings"), rulingsView(f));
}

function seatCard(s, h, players, me) {
  const badges = [];
  if (s.seat === h.dealer) badges.push("庄");
  if (s.ready) badges.push("听 " + s.ready);
  const hidden = s.concealed === null;
  return el("div", { class: "seat" + (s.seat === h.turn ? " turn" : "") + (s.seat === me ? " me" : ""), "data-seat": s.seat },
    el("h3", {}, `seat ${s.seat} · ${players[s.seat] || ""} `, badges.map((b) => [el("span", { class: "badge" }, b), " "])),
    el("div", { class: "row concealed" }, el("b", {}, "hand"),
      hidden ? backs(s.tile_count) : [tiles(parseTiles(s.concealed)), s.drawn ? tile(s.drawn, "drawn") : null]),
    el("div", { class: "row melds" }, el("b", {}, "melds"), s.melds.map((m) =>
      el("span", { class: "meld", title: m.kind }, m.face_down ? backs(4) : tiles(parseTiles(m.tiles))))),
    el("div", { class: "row discards" }, el("b", {}, "discards"), tiles(s.discards)),
    s.flowers.length ? el("div", { class: "row" }, el("b", {}, "flowers"), tiles(s.flowers)) : null);
}

function commandText(c) {
  const what = c.tiles ? c.tiles.join(" ") : c.tile || "";
  return [c.command, what, c.ready ? "as 听" + (c.ready === true ? "" : " " + c.ready) : ""].filter(Boolean).join(" ");
}

function rulingsView(f) {
  const r = f.rulings, o = f.options, out = [];
  const choices = o.commands.filter((c) => !ALWAYS_OPEN.includes(c.command));
  out.push(el("div", { id: "seat-could" }, el("b", {}, "could do: "),
    choices.length ? choices.map(commandText).join(" · ") : "nothing to choose"));
  if (o.deadline) out.push(el("div", {}, `the table waits on it: ${o.deadline.wait}, ${o.deadline.seconds} s`));
  if (r.claims.length) {
    out.push(el("div", { id: "seat-claims" }, el("b", {}, "claims: "), r.claims.map((c) =>
      el("span", { class: "claim " + (c.offered ? "offered" : "refused"), "data-claim": c.kind },
        `${CLAIMS[c.kind] || c.kind} ${c.offered ? "✓" : "✗ " + c.blocker}`))));
  }
  if (r.waits.length) out.push(el("div", { id: "seat-waits" }, el("b", {}, "waits on: "), tiles(r.waits.map((w) => w.tile))));
  if (r.ready_blockers.length) out.push(el("div", { id: "seat-no-ready" }, el("b", {}, "why no 听: "), r.ready_blockers.join("; ")));
  if (r.discards.length) {
    out.push(el("div", { id: "seat-discards" }, el("b", {}, "discards that leave a wait: "), r.discards.map((d) =>
      el("span", { class: "ruled-discard" }, tile(d.discard), " → ", tiles(d.waits.map((w) => w.tile)),
        d.ready_blockers.length ? ` (no 听: ${d.ready_blockers.join("; ")}) ` : " (may 听) "))));
  }
  const s = r.self_drawn;
  if (s) out.push(el("div", { id: "seat-self-drawn" }, el("b", {}, "自摸: "),
    s.allowed ? `allowed, ${s.score.fan} 番 (${s.score.patterns.join(", ")})` : "not allowed: " + s.blocker));
  return out;
}
