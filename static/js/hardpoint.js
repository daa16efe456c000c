// Marks the page as scripted (which hides the no-JavaScript buttons) and asks before destructive form posts.
// Kept in a file, not inline, so the Content-Security-Policy can refuse every inline script.
document.documentElement.classList.add("js");
const builderForm = () => document.getElementById("builder-form");
document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

// Copy buttons beside the links: the field's text to the clipboard, said aloud through the status line.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand("copy");  // older browsers, and pages not served over HTTPS
  }
  const label = field.labels[0].firstChild.textContent.trim();
  button.closest(".links").querySelector(".copy-status").textContent = `${label} copied.`;
  const said = button.dataset.said ??= button.textContent;
  button.textContent = "Copied ✓";
  setTimeout(() => { button.textContent = said; }, 2000);
});

// Leaving a builder with unsaved changes (the "unsaved changes" badge is showing) asks first; saving does not.
let saving = false;
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[name=action]");
  // Saving, or discarding the draft: the page is leaving on purpose, with nothing to keep.
  if (button && button.value.startsWith("save") || event.target.closest("[data-discard]")) saving = true;
});
// A save that worked answers with the edit link to go to: the page is still leaving, not to be kept as a draft.
document.addEventListener("htmx:afterRequest", (event) => {
  if (!event.detail.xhr?.getResponseHeader("HX-Redirect")) saving = false;
});
window.addEventListener("beforeunload", (event) => {
  if (!saving && document.querySelector(".badge.dirty")) event.preventDefault();
});
// Left anyway (a reload, a closed tab, another page): the unsaved form goes to the server as a draft, and this
// page restores it next time.
window.addEventListener("pagehide", () => {
  const form = builderForm();
  if (saving || !form || !document.querySelector(".badge.dirty")) return;
  const data = new FormData(form);
  data.append("draft_for", location.pathname + location.search);
  navigator.sendBeacon(form.dataset.drafts, data);
});

// Choosers and the rule index: typing filters the rows (table rows or [data-filter-item]); Fit (or Mount) sets the picker's own select, which then posts as any edit.
document.addEventListener("input", (event) => {
  const filter = event.target.closest("[data-filter]");
  if (!filter) return;
  const words = filter.value.toLowerCase();
  for (const row of document.querySelectorAll(`#${filter.dataset.filter} :is(tbody tr, [data-filter-item])`)) {
    row.hidden = !row.textContent.toLowerCase().includes(words);
  }
});
document.addEventListener("change", (event) => {
  // A filter, or a roster's search box being typed in, is not an edit of the build: Add is.
  if (event.target.matches("[data-filter], [data-roster-search]")) event.stopPropagation();
}, true);
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-fit]");
  if (!button) return;
  const select = document.getElementById(button.dataset.fit);
  select.value = button.value;
  button.closest("details").open = false;
  select.dispatchEvent(new Event("change", {bubbles: true}));
  select.focus();
});

// A swap redraws the builder: what the player had opened (House rules, a chooser, a stat's explanation) stays open.
let opened = [];
document.addEventListener("htmx:beforeSwap", () => {
  opened = [...document.querySelectorAll("details[open][id]")].map((details) => details.id);
});
document.addEventListener("htmx:afterSwap", () => {
  for (const id of opened) {
    const details = document.getElementById(id);
    if (details && !details.open) details.open = true;
  }
});

// Undo and redo in every builder: the form's earlier states, kept in this tab. Each settled answer that changed
// the form is one step; undoing posts an earlier state, and the server draws the workbench from it.
// The form's bookkeeping, not the build: its token, the saved version it edits, and the live view's fingerprints
// (whatever inputs #fingerprints holds: builder/live.py names them, not this file).
const BOOKKEEPING = ["csrfmiddlewaretoken", "version"];
const ignored = (form) => [...BOOKKEEPING,
  ...[...form.querySelectorAll("#fingerprints input[name]")].map((input) => input.name)];
const states = {back: [], forward: [], shown: null, restoring: false};
function formState() {
  const form = builderForm();
  const data = new URLSearchParams(new FormData(form));
  for (const key of ignored(form)) data.delete(key);
  return data.toString();
}
function showUndo() {
  for (const button of document.querySelectorAll("[data-undo]")) button.disabled = !states.back.length;
  for (const button of document.querySelectorAll("[data-redo]")) button.disabled = !states.forward.length;
}
function restore(state) {
  const form = builderForm();
  // Every value of a repeated field (a list of choices) comes back, in its order: FormData, not an object.
  const values = new FormData();
  for (const [key, value] of new URLSearchParams(state)) values.append(key, value);
  for (const key of ignored(form)) if (form.elements[key]) values.set(key, form.elements[key].value);
  states.restoring = true;
  htmx.ajax("POST", form.getAttribute("action"), {source: document.body, target: "#workbench", swap: "outerHTML", values});
}
document.addEventListener("DOMContentLoaded", () => {
  if (!builderForm()) return;
  states.shown = formState();
  showUndo();
});
document.addEventListener("htmx:afterSettle", () => {
  if (!builderForm() || states.shown === null) return;
  const state = formState();
  if (state !== states.shown && !states.restoring) {
    states.back.push(states.shown);
    states.forward = [];
  }
  states.restoring = false;
  states.shown = state;
  showUndo();
});
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-undo]") && states.back.length) {
    states.forward.push(states.shown);
    restore(states.back.pop());
  } else if (event.target.closest("[data-redo]") && states.forward.length) {
    states.back.push(states.shown);
    restore(states.forward.pop());
  }
});
