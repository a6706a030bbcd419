// The ops dashboard's only script: swap in the panels each server-sent event carries, count
// the time left down between events, and sign in from a link's #key= (paiju serve --demo).
"use strict";
(function () {
  const signin = document.getElementById("signin");
  if (signin) {
    const key = new URLSearchParams(location.hash.slice(1)).get("key");
    if (key) {
      history.replaceState(null, "", location.pathname);  // the key leaves the address bar
      signin.elements.key.value = key;
      signin.submit();
    }
    return;
  }
  const live = document.getElementById("live");
  const at = document.getElementById("at");
  function show(state, text) { live.dataset.live = state; live.textContent = text; }
  let skew = 0;  // the server's clock minus this browser's, from each snapshot's time
  function tick() {
    const now = Date.now() + skew;
    for (const el of document.querySelectorAll("[data-until]")) {
      const left = Math.max(0, Math.round((Date.parse(el.dataset.until) - now) / 1000));
      el.textContent = left + " s";
    }
  }
  const source = new EventSource("/ops/dashboard/events");
  source.addEventListener("snapshot", function (event) {
    const snapshot = JSON.parse(event.data);
    skew = Date.parse(snapshot.at) - Date.now();
    for (const [id, html] of Object.entries(snapshot.panels)) {
      const panel = document.getElementById(id);
      if (panel) panel.innerHTML = html;
    }
    document.body.dataset.state = snapshot.state;
    at.textContent = snapshot.at.slice(11, 19) + " UTC";
    at.dateTime = snapshot.at;
    show("live", "live");
    tick();
  });
  source.addEventListener("signed_out", function () { source.close(); location.reload(); });
  source.onerror = function () { show("lost", "reconnecting…"); };
  setInterval(tick, 500);
})();
