// Where index files come from. Over http(s) the client fetches the .bin
// files. From file:// browsers refuse fetch() (and XMLHttpRequest, unless
// started with a flag), but run <script> tags, so there each file is read
// from its .js twin, which hands its bytes to window.__dreamwikiSearch.

import { CorruptIndex } from "./codec";
import type { Loader } from "./engine";

declare global {
  interface Window {
    __dreamwikiSearch?: (name: string, base64: string) => void;
  }
}

/** Returns the loader for the index in folder base ("../search/"). */
export function browserLoader(base: string): Loader {
  if (location.protocol === "file:") return scriptLoader(base);
  return async (name) => {
    let res: Response;
    try {
      res = await fetch(base + name + ".bin");
    } catch {
      throw new CorruptIndex(name + " could not be fetched");
    }
    if (!res.ok) throw new CorruptIndex(name + " answered " + res.status);
    return new Uint8Array(await res.arrayBuffer());
  };
}

interface Pending {
  resolve: (b: Uint8Array) => void;
  reject: (e: Error) => void;
}

const pending = new Map<string, Pending>();

function decodeBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function scriptLoader(base: string): Loader {
  window.__dreamwikiSearch = (name, data) => {
    const p = pending.get(name);
    if (!p) return;
    pending.delete(name);
    try {
      p.resolve(decodeBase64(data));
    } catch {
      p.reject(new CorruptIndex(name + " is not base64"));
    }
  };
  return (name: string): Promise<Uint8Array> =>
    new Promise((resolve, reject) => {
      pending.set(name, { resolve, reject });
      const s = document.createElement("script");
      s.src = base + name + ".js";
      s.async = true;
      const done = (ok: boolean): void => {
        s.remove();
        const p = pending.get(name);
        if (p) {
          pending.delete(name);
          p.reject(new CorruptIndex(name + (ok ? " did not load its data" : " could not be loaded")));
        }
      };
      s.onload = () => done(true);
      s.onerror = () => done(false);
      document.head.appendChild(s);
    });
}
