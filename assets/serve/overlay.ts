// The build error overlay: what is wrong (file, line, message) over the
// page, until the next good build clears it. The reader may hide it; the
// next error shows it again.

import type { Problem } from "./socket";

let box: HTMLElement | null = null;

export function showProblems(problems: Problem[]): void {
  clearProblems();
  if (problems.length === 0) return;
  box = document.createElement("section");
  box.className = "dw-overlay";
  box.setAttribute("role", "alert");
  box.setAttribute("aria-label", "Build problems");
  const head = document.createElement("header");
  const h = document.createElement("h2");
  h.textContent = problems.length === 1 ? "The build has a problem" : `The build has ${problems.length} problems`;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "dw-close";
  close.textContent = "Hide";
  close.addEventListener("click", () => clearProblems());
  head.append(h, close);
  const list = document.createElement("ul");
  for (const p of problems) {
    const li = document.createElement("li");
    li.className = "dw-problem dw-" + p.severity;
    const where = document.createElement("code");
    where.className = "dw-where";
    where.textContent = p.file ? p.file + (p.line ? ":" + p.line + (p.col ? ":" + p.col : "") : "") : p.severity;
    const msg = document.createElement("p");
    msg.textContent = p.message;
    li.append(where, msg);
    list.append(li);
  }
  const hint = document.createElement("p");
  hint.className = "dw-hint";
  hint.textContent = "Fix the file and save: this clears on the next good build.";
  box.append(head, list, hint);
  document.body.append(box);
}

export function clearProblems(): void {
  box?.remove();
  box = null;
}
