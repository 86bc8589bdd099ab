// Loading files the page needs later: text through XMLHttpRequest (unlike
// fetch it also reads file:// pages in browsers that allow it), scripts
// through <script> elements, which work from file:// everywhere.

export function loadText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("GET", url);
    xhr.onload = () => {
      // file:// answers with status 0.
      if (xhr.status === 200 || (xhr.status === 0 && xhr.responseText)) resolve(xhr.responseText);
      else reject(new Error(`${url}: ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error(`${url}: network error`));
    xhr.send();
  });
}

const scripts = new Map<string, Promise<void>>();

export function loadScript(url: string): Promise<void> {
  let p = scripts.get(url);
  if (!p) {
    p = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = url;
      s.async = true;
      s.onload = () => resolve();
      s.onerror = () => reject(new Error(`${url}: could not load`));
      document.head.appendChild(s);
    });
    scripts.set(url, p);
  }
  return p;
}

/** The relative path from this page to the site root ("", "../", ...). */
export function siteRoot(): string {
  return document.body.dataset.root || "";
}
