// Follows a /v1 event stream (text/event-stream) the way both browser pages need it. It reads
// with fetch because EventSource cannot send an Authorization header; after a lost
// connection it waits (1 s, doubling up to 15 s), tells the page to catch up, and resumes
// with Last-Event-ID so nothing is missed or repeated; a 401 or 403 ends it for good (the
// link has expired). The page keeps its own state; this only turns bytes into events.
//
// followEventStream({
//   url, headers,          where to read and the page's Authorization header
//   onEvent(type, data),   an event with data: its type and the JSON text of its data lines
//   onStatus(text),        "" when connected, else what the connection is doing
//   onExpired(),           the token was refused: stop
//   onReconnect(),         called before each retry, so the page can re-read what it shows
//   isEnded(),             true once the page has nothing more to follow
// })
"use strict";

function followEventStream({ url, headers, onEvent, onStatus, onExpired, onReconnect, isEnded }) {
  let lastEventId = null;

  function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  function handleBlock(block) {
    let type = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("id:")) lastEventId = line.slice(3).trim();
      else if (line.startsWith("event:")) type = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length) onEvent(type, data.join("\n"));
  }

  async function listen() {
    let backoff = 1000;
    while (!isEnded()) {
      try {
        const request = Object.assign({ Accept: "text/event-stream" }, headers);
        if (lastEventId) request["Last-Event-ID"] = lastEventId;
        const response = await fetch(url, { headers: request, cache: "no-store" });
        if (response.status === 401 || response.status === 403) { onExpired(); return; }
        if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
        onStatus("");
        backoff = 1000;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n/g, "\n");
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            handleBlock(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
          if (isEnded()) { reader.cancel(); return; }
        }
        throw new Error("the event stream ended");
      } catch (error) {
        if (isEnded()) return;
        onStatus("Connection lost; reconnecting…");
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 15000);
        onReconnect();
      }
    }
  }

  return listen();
}
