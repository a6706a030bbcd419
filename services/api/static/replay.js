// The replay viewer: reads /v1/ops/replay/... with the operator key kept in sessionStorage.
"use strict";
const $ = (id) => document.getElementById(id);
const SUITS = { m: "万", p: "饼", s: "条" };
const HONOURS = { "1z": "东", "2z": "南", "3z": "西", "4z": "北", "5z": "白", "6z": "发", "7z": "中" };
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const CLAIMS = { win: "胡", kong: "杠", pong: "碰", chi: "吃", ready_chi: "吃听", ready_pong: "碰听", pass: "pass" };
let replay = null, step = 0, tableId = null, brokenVersion = null;
let loading = 0;  // moves on at each table or hand opened: an answer for an older one is dropped

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function tile(name, extra) {
  const suit = name.slice(-1), rank = name.slice(0, -1);
  const cls = "tile " + suit + (extra ? " " + extra : "");
  if (suit === "z") return el("span", { class: cls, "data-tile": name, title: name }, HONOURS[name] || name);
  if (suit === "f") return el("span", { class: cls, "data-tile": name, title: name }, FLOWERS[Number(rank) - 1] || name);
  return el("span", { class: cls, "data-tile": name, title: name }, rank, el("small", {}, SUITS[suit] || suit));
}
// replaceChildren, leaving out what is not there (the DOM would write "null")
const fill = (node, ...children) => node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined));
const tiles = (list, extra) => (list || []).map((t) => tile(t, extra));

async function api(path) {
  const key = sessionStorage.getItem("paiju-operator-key") || "";
  const response = await fetch(path, { headers: { Authorization: "Bearer " + key } });
  const body = response.headers.get("content-type")?.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error((body && body.detail) || response.status + " " + response.statusText);
  return body;
}

function problem(error) {
  $("problem").textContent = error ? String(error.message || error) : "";
  $("problem").hidden = !error;
}

// Opening a table clears every trace of the last one first: its hand must never stay on screen
// under the new table's title and verdict (support would read the wrong table's tiles).
function clearTable() {
  loading += 1;
  replay = null; tableId = null; brokenVersion = null; step = 0;
  clearSeat();
  for (const id of ["table-title", "verdict", "check-lines", "hands", "counter", "event", "stopped", "centre", "seats", "window", "settlement"]) $(id).replaceChildren();
  $("verdict").className = "";
  $("event").className = "";
  $("stopped").hidden = true;
  $("slider").max = 0; $("slider").value = 0;
  $("seat-choice").value = "";
  for (const option of [...$("seat-choice").options].slice(1)) option.remove();
  $("table").hidden = true;
  $("hand").hidden = true;
}

async function openTable(id) {
  problem(null);
  clearTable();
  const mine = loading;
  try {
    const found = await api("/v1/ops/replay/tables/" + encodeURIComponent(id));
    if (mine !== loading) return false;  // another table was opened meanwhile
    tableId = id;
    $("table").hidden = false;
    $("table-title").textContent = `${found.table_id} · ${found.variant} · ${found.players.join(", ")} · ${found.events} events`;
    const verdict = $("verdict");
    verdict.textContent = found.checks.verdict;
    verdict.className = found.checks.ok ? "ok" : "bad";
    $("check-lines").textContent = found.checks.lines.join("\n");
    brokenVersion = found.broken_version;
    const holding = found.hands.find((h) => h.from_version <= brokenVersion && brokenVersion <= h.to_version);
    if (holding) {
      const go = el("button", { id: "goto-broken" }, `show the altered event (version ${brokenVersion})`);
      go.addEventListener("click", async () => {
        await openHand(holding.hand);
        if (replay) show(replay.frames.findIndex((f) => f.version === brokenVersion));
      });
      verdict.append(" ", go);
    }
    $("hands").replaceChildren(...found.hands.map((h) =>
      el("button", { class: "hand-button", "data-hand": h.hand }, `hand ${h.hand}` + (h.ended ? ` (${h.ended.replace("hand_", "")})` : " (in play)"))));
    $("seat-choice").append(...found.players.map((p, seat) => el("option", { value: seat }, `${seat} · ${p}`)));
    for (const b of $("hands").querySelectorAll("button")) b.addEventListener("click", () => openHand(Number(b.dataset.hand)));
    history.replaceState(null, "", "?table=" + encodeURIComponent(id));
    return true;
  } catch (error) { problem(error); return false; }
}

async function openHand(number) {
  problem(null);
  const mine = ++loading;
  try {
    const found = await api(`/v1/ops/replay/tables/${encodeURIComponent(tableId)}/hands/${number}`);
    if (mine !== loading) return;  // another table or hand was opened meanwhile
    replay = found;
    clearSeat();  // the last hand's seat frames: openSeat below reads this hand's
    $("hand").hidden = false;
    $("slider").max = Math.max(0, replay.frames.length - 1);
    $("stopped").hidden = !replay.stopped;
    $("stopped").textContent = replay.stopped ? "The fold stopped: " + replay.stopped : "";
    history.replaceState(null, "", `?table=${encodeURIComponent(tableId)}&hand=${number}`);
    show(0);
    await openSeat($("seat-choice").value);
  } catch (error) { problem(error); }
}

function show(index) {
  if (!replay || !replay.frames.length) return;
  step = Math.max(0, Math.min(index, replay.frames.length - 1));
  const frame = replay.frames[step];
  $("slider").value = step;
  $("counter").textContent = `step ${step + 1} of ${replay.frames.length}`;
  const at = frame.at.replace("T", " ").slice(0, 19) + " UTC";
  fill($("event"),
    el("b", {}, `v${frame.version} ${frame.type}`), " · ",
    el("span", { id: "actor" }, frame.actor.label), " · ", el("span", {}, at),
    frame.command ? el("div", {}, "command: " + frame.command.command + describePayload(frame.payload)) : null,
    frame.version === brokenVersion ? el("div", { id: "altered" }, "ALTERED: this event's stored content does not match its hash (changed after it was recorded)") : null);
  $("event").className = frame.version === brokenVersion ? "altered" : "";
  const t = frame.table;
  $("centre").replaceChildren(t.seats ? el("div", {},
    el("span", { id: "wall" }, `wall: ${t.wall_remaining} to draw`), " · ",
    "宝: ", t.bao ? tile(t.bao, "wild") : "none", " · ",
    t.wildcards && t.wildcards.length ? ["混: ", tiles(t.wildcards, "wild"), " · "] : null,
    t.indicator ? ["混 indicator: ", tile(t.indicator), " · "] : null,
    `dealer: seat ${t.dealer} · turn: seat ${t.turn} (${t.step}) · scores: ${t.scores.join(" / ")}`) : "");
  $("seats").replaceChildren(...(t.seats || []).map((s) => seatView(s, t)));
  $("window").replaceChildren(...windowView(frame));
  $("settlement").replaceChildren(...settlementView(frame.settlement, replay.players));
  showSeat(frame.version);
}

// », End: the step that shows the settlement (a sealed seed's seed_revealed comes after it)
function settlementStep() {
  if (!replay) return 0;
  for (let i = replay.frames.length - 1; i >= 0; i--) if (replay.frames[i].settlement) return i;
  return replay.frames.length - 1;
}

function describePayload(payload) {
  const parts = [];
  for (const k of ["seat", "tile", "claim", "kind", "ready", "reason"]) if (payload[k] !== undefined && payload[k] !== null) parts.push(`${k} ${payload[k]}`);
  return parts.length ? " (" + parts.join(", ") + ")" : "";
}

function seatView(s, t) {
  const presence = t.presence[s.seat] || {};
  const badges = [];
  if (s.seat === t.dealer) badges.push("庄");
  if (s.ready) badges.push("听 " + s.ready);
  if (presence.autoplay) badges.push("托管 " + presence.autoplay);
  if (!presence.connected) badges.push("dropped");
  if (presence.left) badges.push("left");
  return el("div", { class: "seat" + (s.seat === t.turn ? " turn" : ""), "data-seat": s.seat },
    el("h3", {}, `seat ${s.seat} · ${s.player} `, badges.map((b) => [el("span", { class: "badge" }, b), " "])),
    el("div", { class: "row concealed" }, el("b", {}, "hand"), tiles(s.concealed), s.drawn ? tile(s.drawn, "drawn") : null),
    el("div", { class: "row melds" }, el("b", {}, "melds"), s.melds.map((m) =>
      el("span", { class: "meld", title: m.kind + (m.from_seat !== null ? " from seat " + m.from_seat : "") }, tiles(m.tiles)))),
    el("div", { class: "row discards" }, el("b", {}, "discards"), tiles(s.discards)),
    s.flowers.length ? el("div", { class: "row" }, el("b", {}, "flowers"), tiles(s.flowers)) : null);
}

function windowView(frame) {
  const out = [];
  const w = frame.window;
  if (w) {
    out.push(el("div", { id: "claims" }, el("b", {}, "claim window on "), tile(w.tile), ` from seat ${w.from_seat}: `,
      w.options.map((o) => `seat ${o.seat} may ${o.kinds.map((k) => CLAIMS[k] || k).join("/")}`).join("; "),
      w.answers.length ? " · answered: " + w.answers.map((a) => `seat ${a.seat} ${CLAIMS[a.claim] || a.claim}`).join(", ") : ""));
    if (w.answering) out.push(el("div", {}, `seat ${w.answering.seat} could: ${w.answering.could.join(", ")}`));
  } else if (frame.type === "tile_discarded" && !frame.closed) {
    out.push(el("div", { id: "claims" }, "no seat could claim this discard"));
  }
  const c = frame.closed;
  if (c) {
    out.push(el("div", { id: "closed" }, el("b", {}, "window closed on "), tile(c.tile), ": ",
      c.taken.length ? c.taken.map((x) => `seat ${x.seat}'s ${CLAIMS[x.claim] || x.claim} taken`).join(", ") + " — " : "", c.why));
  }
  return out;
}

function settlementView(s, players) {
  if (!s) return [];
  const out = [el("h3", {}, s.kind === "hand_won" ? "Win" : s.kind === "hand_drawn" ? "荒庄: no winner" : "Settled")];
  for (const win of s.wins || []) {
    out.push(el("div", { class: "win" }, `seat ${win.seat} (${players[win.seat]}) wins on `, tile(win.tile),
      win.self_drawn ? " 自摸" : ` from seat ${win.discarder}`, win.wild ? " (the 宝 as a wildcard)" : "", ` · ${win.fan} 番`));
    out.push(el("table", { class: "patterns" }, el("tr", {}, el("th", {}, "pattern"), el("th", {}, "worth"), el("th", {}, "rule")),
      win.patterns.map((p) => el("tr", {}, el("td", {}, p.name), el("td", { class: "worth" }, p.worth === null ? "" : String(p.worth)), el("td", {}, p.rule)))));
    out.push(paymentsTable(win.payments, players, "payments"));
  }
  if (s.payments) {
    out.push(paymentsTable(s.payments, players, "hand payments"));
    out.push(el("div", {}, `scores now: ${s.scores.join(" / ")} · next dealer: ${s.next_dealer === null ? "drawn at random" : "seat " + s.next_dealer}`));
  }
  out.push(el("details", {}, el("summary", {}, "how it is paid"), el("p", {}, s.payment_rule)));
  return out;
}

function paymentsTable(payments, players, label) {
  return el("table", { class: "payments", "data-label": label },
    el("tr", {}, el("th", {}, label), payments.map((_, seat) => el("th", {}, `seat ${seat} ${players[seat] || ""}`))),
    el("tr", {}, el("td", {}, ""), payments.map((p) => el("td", { class: "payment" }, p > 0 ? "+" + p : String(p)))));
}

async function findPlayer(player) {
  problem(null);
  try {
    const found = await api("/v1/ops/replay/search?player=" + encodeURIComponent(player));
    $("found").replaceChildren(el("ul", {}, found.hands.map((h) => {
      const link = el("a", { href: "#" }, `${h.table_id} hand ${h.hand}`);
      link.addEventListener("click", async (e) => { e.preventDefault(); if (await openTable(h.table_id)) await openHand(h.hand); });
      return el("li", {}, link, ` · ${h.variant} · seat ${h.seat} · ${h.cause} ${h.amount > 0 ? "+" : ""}${h.amount} · ${h.recorded_at}`);
    })), found.hands.length ? "" : "no hands for " + player);
  } catch (error) { problem(error); }
}

async function download() {
  try {
    const key = sessionStorage.getItem("paiju-operator-key") || "";
    const response = await fetch(`/v1/ops/replay/tables/${encodeURIComponent(tableId)}/export`, { headers: { Authorization: "Bearer " + key } });
    if (!response.ok) throw new Error((await response.json()).detail);
    const link = el("a", { href: URL.createObjectURL(await response.blob()), download: tableId + ".jsonl" });
    document.body.append(link); link.click(); link.remove();
  } catch (error) { problem(error); }
}

function keyState() {
  $("key-state").textContent = sessionStorage.getItem("paiju-operator-key") ? "key set for this tab" : "no key yet";
}

$("key-form").addEventListener("submit", (e) => { e.preventDefault(); sessionStorage.setItem("paiju-operator-key", $("key").value.trim()); $("key").value = ""; keyState(); });
$("table-form").addEventListener("submit", (e) => { e.preventDefault(); openTable($("table-id").value.trim()); });
$("player-form").addEventListener("submit", (e) => { e.preventDefault(); findPlayer($("player").value.trim()); });
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("last").addEventListener("click", () => show(settlementStep()));
$("seat-choice").addEventListener("change", () => openSeat($("seat-choice").value));
$("slider").addEventListener("input", () => show(Number($("slider").value)));
$("export").addEventListener("click", download);
document.addEventListener("keydown", (e) => {
  if ((e.target.tagName === "INPUT" && e.target.type !== "range") || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") show(step + 1);
  else if (e.key === "ArrowLeft") show(step - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End" && replay) show(settlementStep());
});
// paiju serve --demo links here with its operator key in the fragment (which no request
// carries): kept for this tab, then taken out of the address bar
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get("key")) {
  sessionStorage.setItem("paiju-operator-key", fragment.get("key"));
  history.replaceState(null, "", location.pathname + location.search);
}
keyState();
const params = new URLSearchParams(location.search);
if (params.get("table")) openTable(params.get("table")).then((opened) => opened && params.get("hand") && openHand(Number(params.get("hand"))));
