// Dark mode: follows the system until the reader chooses, then remembers
// the choice. The inline script in <head> applies a stored choice before
// the first paint, so there is no flash of the wrong theme.

const root = document.documentElement;
const key = "dreamwiki-theme";

function currentTheme(): string {
  if (root.dataset.theme) return root.dataset.theme;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function setTheme(theme: string, button: HTMLElement): void {
  root.dataset.theme = theme;
  try { localStorage.setItem(key, theme); } catch { /* storage off: the choice lasts for this page */ }
  button.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
  document.dispatchEvent(new CustomEvent("dreamwiki:theme"));
}

export function initTheme(): void {
  const button = document.getElementById("theme-toggle");
  if (!button) return;
  button.hidden = false;
  button.setAttribute("aria-pressed", currentTheme() === "dark" ? "true" : "false");
  button.addEventListener("click", () => setTheme(currentTheme() === "dark" ? "light" : "dark", button));
}
