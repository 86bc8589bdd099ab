// The explorer: a menu button on narrow screens, and the current page
// marked in the header's links (the build marks it in the explorer, whose
// branch each page has of its own).

export function initNav(): void {
  const button = document.getElementById("nav-toggle");
  if (button) {
    button.hidden = false;
    button.addEventListener("click", () => {
      const open = document.body.classList.toggle("nav-open");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }
  // On a phone the search field sits behind an icon that, without
  // JavaScript, is a link to the search page; here it opens the field.
  const searchLink = document.querySelector<HTMLAnchorElement>("a.search-open");
  const input = document.getElementById("search-input");
  if (searchLink && input) {
    searchLink.setAttribute("role", "button");
    searchLink.setAttribute("aria-expanded", "false");
    searchLink.addEventListener("click", (e) => {
      e.preventDefault();
      // Not "search-open": that is the icon's class, and its rules would
      // apply to the page's body.
      const open = document.body.classList.toggle("search-shown");
      searchLink.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) input.focus();
    });
  }
  const here = location.href.split("#")[0];
  for (const a of document.querySelectorAll<HTMLAnchorElement>(".explorer a, .header-nav a")) {
    if (a.href === here) a.setAttribute("aria-current", "page");
  }
}
