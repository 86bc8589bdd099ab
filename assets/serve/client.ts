// Serve mode's client, injected by `dreamwiki serve` into the pages it
// serves (never into a static build): live reload over a websocket, the
// build error overlay, and the Dream button. It reads its settings from
// <body>: data-serve="1", data-token (for mutating requests),
// data-readonly, and data-dream="0" where there is nothing to dream (a
// team site).

import { connect, type Message } from "./socket";
import { restoreScroll, onChanged } from "./reload";
import { showProblems, clearProblems } from "./overlay";
import { initDream, onDreamMessage } from "./dream";

const body = document.body;
if (body && body.dataset.serve === "1") {
  restoreScroll();
  if (body.dataset.dream !== "0") initDream(body.dataset.token || "", body.dataset.readonly === "1");
  let instance = "";
  connect((m: Message) => {
    switch (m.type) {
      case "hello":
        // A new server process means a new token and, likely, a new site.
        if (instance && m.instance && m.instance !== instance) location.reload();
        instance = m.instance || instance;
        if (m.problems && m.problems.length) showProblems(m.problems);
        else clearProblems();
        break;
      case "reload":
      case "css":
        onChanged(m.type, m.paths || []);
        break;
      case "error":
        showProblems(m.problems || []);
        break;
      case "clear":
        clearProblems();
        break;
      case "dream":
      case "dreamed":
        onDreamMessage(m);
        break;
    }
  });
}
