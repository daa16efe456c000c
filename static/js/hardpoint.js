// Marks the page as scripted (which hides the no-JavaScript buttons) and asks before destructive form posts.
// Kept in a file, not inline, so the Content-Security-Policy can refuse every inline script.
document.documentElement.classList.add("js");
document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
