// Site behaviour that needs JavaScript. Everything here is an enhancement:
// pages are complete and readable with JavaScript off.

const root = document.documentElement;

function setTheme(theme: string): void {
  root.dataset.theme = theme;
  try { localStorage.setItem("dreamwiki-theme", theme); } catch { /* private mode */ }
  const button = document.getElementById("theme-toggle");
  if (button) button.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
}

function currentTheme(): string {
  if (root.dataset.theme) return root.dataset.theme;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function initTheme(): void {
  const button = document.getElementById("theme-toggle");
  if (!button) return;
  button.hidden = false;
  button.setAttribute("aria-pressed", currentTheme() === "dark" ? "true" : "false");
  button.addEventListener("click", () => setTheme(currentTheme() === "dark" ? "light" : "dark"));
}

function initNavToggle(): void {
  const button = document.getElementById("nav-toggle");
  if (!button) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    const open = document.body.classList.toggle("nav-open");
    button.setAttribute("aria-expanded", open ? "true" : "false");
  });
}

initTheme();
initNavToggle();
