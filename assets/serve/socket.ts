// The websocket to the server, reconnected with capped exponential
// backoff (and jitter, so that many tabs do not knock at once) whenever it
// drops: the server restarting, a laptop waking up.

export interface Problem {
  file?: string;
  line?: number;
  col?: number;
  severity: string;
  message: string;
}

export interface Dreamed {
  applied: boolean;
  summary: string;
  written?: string[];
  /** What the applied plan did (with chosen proposals, the plan made again with them). */
  actions?: { kind: string; file: string; text: string; reason: string }[];
  notes?: { title: string; url: string }[];
  journal: string;
}

export interface Message {
  type: string;
  paths?: string[];
  problems?: Problem[];
  stage?: string;
  text?: string;
  dream?: Dreamed;
  build?: number;
  instance?: string;
}

const minDelay = 250;
const maxDelay = 5000;

export function connect(onMessage: (m: Message) => void): void {
  let delay = minDelay;
  const open = (): void => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws: WebSocket;
    try {
      ws = new WebSocket(proto + "//" + location.host + "/_dreamwiki/ws");
    } catch {
      retry();
      return;
    }
    ws.onopen = () => { delay = minDelay; };
    ws.onmessage = (ev: MessageEvent) => {
      try { onMessage(JSON.parse(String(ev.data)) as Message); } catch { /* not ours */ }
    };
    ws.onclose = () => retry();
  };
  const retry = (): void => {
    const wait = delay * (0.75 + Math.random() / 2);
    delay = Math.min(delay * 2, maxDelay);
    window.setTimeout(open, wait);
  };
  open();
}
