// Marks the page as scripted (which hides the no-JavaScript buttons) and asks before destructive form posts.
// Kept in a file, not inline, so the Content-Security-Policy can refuse every inline script.
document.documentElement.classList.add("js");
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
  button.textContent = "Copied ✓";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
});

// Leaving a builder with unsaved changes (the "unsaved changes" badge is showing) asks first; saving does not.
let saving = false;
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[name=action]");
  if (button && button.value.startsWith("save")) saving = true;
});
document.addEventListener("htmx:afterRequest", () => { saving = false; });
window.addEventListener("beforeunload", (event) => {
  if (!saving && document.querySelector(".badge.dirty")) event.preventDefault();
});

// Part choosers: typing filters the table's rows; Fit sets the slot's own select, which then posts as any edit.
document.addEventListener("input", (event) => {
  const filter = event.target.closest("[data-filter]");
  if (!filter) return;
  const words = filter.value.toLowerCase();
  for (const row of document.getElementById(filter.dataset.filter).tBodies[0].rows) {
    row.hidden = !row.textContent.toLowerCase().includes(words);
  }
});
document.addEventListener("change", (event) => {
  if (event.target.matches("[data-filter]")) event.stopPropagation();  // a filter is not an edit of the build
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
