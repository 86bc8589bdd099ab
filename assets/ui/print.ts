// Printing opens every folded callout and section, and closes them again
// afterwards: a closed <details> hides its content from print in Chromium
// whatever the print stylesheet says.

export function initPrint(): void {
  let opened: HTMLDetailsElement[] = [];
  window.addEventListener("beforeprint", () => {
    opened = [...document.querySelectorAll<HTMLDetailsElement>("main details:not([open])")];
    for (const d of opened) d.open = true;
  });
  window.addEventListener("afterprint", () => {
    for (const d of opened) d.open = false;
    opened = [];
  });
}
