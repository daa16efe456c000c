// Table mode on a flaky connection. Every change (a track, the counter, an undo, a reset) goes into a queue kept in
// localStorage and is sent in order: a change made without a connection waits there, across a reload, and is sent
// when the connection returns. A change names the value this screen saw; when another screen changed it meanwhile,
// the server refuses it (409) and the conflict is shown with both values, to keep either: never lost.
(() => {
  const root = document.querySelector("[data-table]");
  if (!root) return;
  const stored = `hardpoint-table:${root.dataset.table}`;
  const sync = document.getElementById("table-sync");
  const conflictsBox = document.getElementById("table-conflicts");
  const csrf = () => JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  const read = () => JSON.parse(localStorage.getItem(stored) || '{"queue": [], "conflicts": []}');
  let { queue, conflicts } = read();
  let sending = false;
  // The newest revision this screen knows the server has: an answer drawn before it is never swapped in over it.
  let known = Number(document.getElementById("table-live").dataset.revision);
  const save = () => localStorage.setItem(stored, JSON.stringify({ queue, conflicts }));
  const say = (text) => { sync.textContent = text; sync.classList.toggle("offline", text !== ""); };
  const changeId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

  // The value a track shows, at once: the server's answer redraws it when the queue is empty.
  function show(track, value) {
    track.dataset.value = String(value);
    track.classList.add("pending");
    const output = track.querySelector(".track-value");
    const buttons = [...track.querySelectorAll("button[name=after]")];
    if (track.classList.contains("count")) {
      output.firstChild.textContent = String(value);
      const meter = track.querySelector("meter");
      if (meter) meter.value = value;
      buttons.forEach((b) => { b.disabled = value + Number(b.dataset.step) < Number(track.dataset.low)
                                            || value + Number(b.dataset.step) > Number(track.dataset.high); });
    } else if (track.classList.contains("choice")) {
      buttons.forEach((b) => b.setAttribute("aria-pressed", String(Number(b.value) === value)));
      output.textContent = buttons.find((b) => Number(b.value) === value)?.textContent ?? String(value);
    } else if (track.classList.contains("box")) {
      output.textContent = value ? "used" : "unused";
      buttons[0].setAttribute("aria-pressed", String(Boolean(value)));
      buttons[0].textContent = value ? "✓ Used" : "Use";
      buttons[0].value = value ? "0" : "1";
    } else if (track.matches(".counter-buttons form")) {
      document.querySelector(".counter-now").textContent = `${track.dataset.queue} sent…`;
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-queue]");
    if (!form || event.defaultPrevented) return;
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form, event.submitter));
    delete fields.csrfmiddlewaretoken;
    const track = form.closest("[data-key]");
    if (track) {  // from the value this screen shows now, which may be a change still waiting to be sent
      const before = Number(track.dataset.value);
      const step = event.submitter?.dataset.step;
      const after = step ? before + Number(step) : Number(fields.after);
      if (after < Number(track.dataset.low) || after > Number(track.dataset.high)) return;
      Object.assign(fields, { before: String(before), after: String(after) });
      show(track, after);
    }
    fields.change = changeId();
    queue.push({ url: form.action, fields, label: form.dataset.queue });
    save();
    send();
  });

  async function send() {
    if (sending) return;
    sending = true;
    while (queue.length) {
      say(`Sending ${queue.length} change${queue.length === 1 ? "" : "s"}…`);
      const item = queue[0];
      let response;
      try {
        response = await fetch(item.url, { method: "POST", body: new URLSearchParams(item.fields),
                                           headers: { "X-CSRFToken": csrf(), Accept: "application/json" } });
      } catch {
        response = null;
      }
      if (!response || response.status >= 500) {  // no connection, or the server is restarting: try again
        say(`Offline: ${queue.length} change${queue.length === 1 ? "" : "s"} waiting, sent when the connection returns.`);
        sending = false;
        setTimeout(send, 3000);
        return;
      }
      if (response.ok) {
        known = Math.max(known, (await response.json()).revision ?? known);
      } else if (response.status === 409 && item.fields.key) {
        conflicts.push({ item, answer: await response.json() });
      } else if (!response.ok) {
        const answer = await response.json().catch(() => ({ reason: response.statusText }));
        conflicts.push({ item, answer: { reason: answer.reason } });
      }
      queue.shift();
      save();
    }
    sending = false;
    say("");
    drawConflicts();
    refresh();
  }

  function refresh() {
    if (window.htmx) htmx.ajax("GET", `${root.dataset.live}?revision=-1`, { target: "#table-live", swap: "outerHTML" });
  }

  // A change another screen overtook: both values, and the choice of which stays.
  function drawConflicts() {
    conflictsBox.replaceChildren(...conflicts.map((conflict, index) => {
      const box = document.createElement("div");
      box.className = "conflict card";
      box.setAttribute("role", "alert");
      const { item, answer } = conflict;
      const text = document.createElement("p");
      text.textContent = answer.current === undefined
        ? `Not changed: ${item.label}. ${answer.reason}.`
        : `${answer.label} is ${answer.current} on another screen; this screen changed it from ${answer.before} to ${answer.after}.`;
      box.append(text);
      if (answer.current !== undefined) {
        const mine = document.createElement("button");
        mine.textContent = `Use mine (${answer.after})`;
        mine.addEventListener("click", () => {
          queue.push({ url: item.url, label: item.label,
                       fields: { ...item.fields, before: String(answer.current), change: changeId() } });
          conflicts.splice(index, 1);
          save(); drawConflicts(); send();
        });
        box.append(mine, " ");
      }
      const keep = document.createElement("button");
      keep.className = "secondary";
      keep.textContent = answer.current === undefined ? "Dismiss" : `Keep theirs (${answer.current})`;
      keep.addEventListener("click", () => { conflicts.splice(index, 1); save(); drawConflicts(); });
      box.append(keep);
      return box;
    }));
  }

  // While changes wait to be sent, the table each second asks for stays as this screen drew it.
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target?.id !== "table-live" || !event.detail.shouldSwap) return;
    const revision = Number(/data-revision="(\d+)"/.exec(event.detail.serverResponse)?.[1] ?? -1);
    if (queue.length || revision < known) event.detail.shouldSwap = false;
    else known = revision;
  });
  document.addEventListener("htmx:sendError", (event) => {
    if (event.detail.elt?.id === "table-live" && !queue.length) say("Offline: the table shows its last state.");
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target?.id !== "table-live") return;
    if (!queue.length && !sending) say("");
    const results = document.getElementById("preview-results");  // odds shown are the old state's: run them again
    if (results && results.childElementCount) htmx.trigger("#preview-form", "submit");
  });
  window.addEventListener("online", send);
  drawConflicts();
  if (queue.length) send();
})();
