// Arrival at a #fragment: the target (an evidence line of a daily log, a
// heading, a block) is highlighted and, when it sits inside a folded
// callout, unfolded. CSS :target already highlights it with JavaScript
// off; this adds a brief pulse and handles folds.

function arrive(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!id) return;
  const el = document.getElementById(id);
  if (!el) return;
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (p instanceof HTMLDetailsElement) p.open = true;
  }
  for (const old of document.querySelectorAll(".arrived")) old.classList.remove("arrived");
  el.classList.add("arrived");
  el.scrollIntoView({ block: "center" });
}

export function initArrival(): void {
  window.addEventListener("hashchange", arrive);
  arrive();
}
