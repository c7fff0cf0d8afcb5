// The rider's share page. The rider token is the last part of the page's path; every call
// sends it as a bearer token to the same /v1 API a rider's app uses. The trip's event stream
// is read with fetch (EventSource cannot send an Authorization header) and resumed with
// Last-Event-ID after a lost connection; each event refreshes the trip and, with its ETag,
// the preview image. After a long disconnection the server may have deleted the events the
// page missed (its event retention): it says so with an eventsExpired event, and the page
// reads the trip again at once and forgets the maneuver it showed. The page marks its state on <body> (data-map, data-eta, data-updates)
// so an automated check can read it.
(() => {
  "use strict";
  const body = document.body;
  const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const provider = body.dataset.provider;
  const tripId = body.dataset.trip;
  const api = `/v1/providers/${encodeURIComponent(provider)}/trips/${encodeURIComponent(tripId)}`;
  const auth = { Authorization: `Bearer ${token}` };
  const $ = (id) => document.getElementById(id);

  const STATUS = {
    NEW: "Finding your driver",
    ENROUTE_TO_PICKUP: "Your driver is on the way",
    ARRIVED_AT_PICKUP: "Your driver has arrived",
    ENROUTE_TO_INTERMEDIATE_DESTINATION: "On the way to your next stop",
    ARRIVED_AT_INTERMEDIATE_DESTINATION: "Arrived at your stop",
    ENROUTE_TO_DROPOFF: "On the way to your destination",
    COMPLETE: "You have arrived",
    CANCELED: "This trip was canceled",
  };

  let previewTag = null;
  let previewURL = null;
  let lastEventId = null;
  let ended = false;
  let updates = 0;
  let refreshTimer = null;
  let maneuverShown = null;

  function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  function setConnection(text) { $("connection").textContent = text; }

  function expired() {
    ended = true;
    $("status").textContent = "This share link has expired or is not valid";
    setConnection("Ask for a new link to keep following the trip.");
  }

  function formatDistance(meters) {
    if (meters === undefined || meters === null) return "–";
    return meters < 1000 ? `${Math.round(meters / 10) * 10} m` : `${(meters / 1000).toFixed(1)} km`;
  }

  function showTrip(trip) {
    const status = trip.tripStatus || "UNKNOWN_TRIP_STATUS";
    $("status").textContent = STATUS[status] || "Trip status unknown";
    const beforePickup = status === "NEW" || status === "ENROUTE_TO_PICKUP";
    const waypoints = trip.remainingWaypoints || [];
    if (status === "COMPLETE" || status === "CANCELED") {
      ended = true;
      document.documentElement.classList.add("ended");
      if (status === "CANCELED") document.documentElement.classList.add("canceled");
      $("eta-minutes").textContent = status === "COMPLETE" ? "✓" : "✕";
      $("eta-label").textContent = status === "COMPLETE" ? "trip complete" : "trip canceled";
      // What happened, not what was expected: the arrival time, or no time box at all.
      const arrived = status === "COMPLETE" && trip.dropoffTime;
      $("eta-clock-label").textContent = "Arrived at";
      $("eta-clock").textContent = arrived ? clock(trip.dropoffTime) : "–";
      $("eta-clock").parentElement.hidden = !arrived;
      $("distance-box").hidden = true;
      $("maneuver").hidden = true;
      setConnection("");
      $("map").alt = status === "COMPLETE" ? "Map of your trip: it has ended at your destination." : "Map of your trip: it was canceled.";
      body.dataset.eta = "ended";
      return;
    }
    const eta = beforePickup ? (trip.pickupTime || trip.etaToFirstWaypoint) : (trip.dropoffTime || trip.etaToFirstWaypoint);
    if (eta) {
      const minutes = Math.max(beforePickup && status === "ARRIVED_AT_PICKUP" ? 0 : 1, Math.round((Date.parse(eta) - Date.now()) / 60000));
      $("eta-minutes").textContent = String(minutes);
      $("eta-label").textContent = beforePickup ? "min to pickup" : "min to dropoff";
      $("eta-clock").textContent = clock(eta);
      body.dataset.eta = "shown";
    } else if (status === "ARRIVED_AT_PICKUP") {
      $("eta-minutes").textContent = "Now";
      $("eta-label").textContent = "your driver is waiting";
      body.dataset.eta = "shown";
    }
    // To the pickup: the first leg; to the dropoff: every leg left (stops included).
    let meters = waypoints.length ? waypoints[0].distanceMeters : trip.remainingDistanceMeters;
    if (!beforePickup && waypoints.length) {
      meters = waypoints.reduce((sum, w) => sum + (w.distanceMeters || 0), 0);
    }
    $("distance").textContent = formatDistance(meters);
    const where = beforePickup ? "your pickup" : "your destination";
    $("map").alt = `Map of your trip: the car is ${formatDistance(meters)} from ${where}${eta ? `, arriving around ${clock(eta)}` : ""}.`;
  }

  function clock(rfc3339) {
    return new Date(rfc3339).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  async function refreshTrip() {
    const response = await fetch(`${api}?view=JOURNEY_SHARING_V1S`, { headers: auth, cache: "no-store" });
    if (response.status === 401 || response.status === 403) { expired(); return; }
    if (!response.ok) throw new Error(`trip answered ${response.status}`);
    showTrip(await response.json());
  }

  async function refreshPreview() {
    const box = $("map").parentElement.getBoundingClientRect();
    // The box's shape at most 1024 pixels a side: the image fills the box without being
    // cropped, so the map's attribution in its corner stays in view.
    const boxWidth = Math.round(box.width || 640);
    const boxHeight = Math.round(box.height || 480);
    const shrink = Math.min(1, 1024 / boxWidth, 1024 / boxHeight);
    const width = Math.max(160, Math.round(boxWidth * shrink));
    const height = Math.max(120, Math.round(boxHeight * shrink));
    const scale = window.devicePixelRatio >= 1.5 && width * 2 <= 2048 && height * 2 <= 2048 ? 2 : 1;
    const headers = Object.assign({}, auth);
    if (previewTag) headers["If-None-Match"] = previewTag;
    const response = await fetch(`${api}/preview.png?width=${width}&height=${height}&scale=${scale}`, { headers, cache: "no-store" });
    if (response.status === 304) return;
    if (!response.ok) { $("map-missing").hidden = false; return; }
    previewTag = response.headers.get("ETag");
    const url = URL.createObjectURL(await response.blob());
    $("map").src = url;
    $("map-missing").hidden = true;
    if (previewURL) URL.revokeObjectURL(previewURL);
    previewURL = url;
    body.dataset.map = "shown";
  }

  async function refresh() {
    try {
      await refreshTrip();
      await refreshPreview();
      updates += 1;
      body.dataset.updates = String(updates);
    } catch (error) {
      setConnection("Cannot reach the server; retrying…");
    }
  }

  function soon() {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => { refreshTimer = null; refresh(); }, 250);
  }

  async function showManeuver(data) {
    const info = data.navInfo || data;
    const step = info && info.currentStep;
    if (!step || !step.maneuver) return;
    $("maneuver-text").textContent = step.fullInstructionText || step.fullRoadName || step.maneuver;
    const ahead = info.distanceToCurrentStepMeters;
    $("maneuver-when").textContent = ahead > 0 ? `In ${formatDistance(ahead)}` : "Next";
    $("maneuver").hidden = ended;
    if (maneuverShown === step.maneuver) return;
    maneuverShown = step.maneuver;
    // The box is dark green: the low-light icon is drawn light, for dark backgrounds.
    const response = await fetch(`/v1/maneuvers/${encodeURIComponent(step.maneuver)}.png?size=square96&lighting=lowLight`,
      { headers: auth });
    if (response.ok) {
      $("maneuver-icon").src = URL.createObjectURL(await response.blob());
      $("maneuver-icon").alt = step.maneuver.replace(/([A-Z])/g, " $1").toLowerCase();
    }
  }

  function handleBlock(block) {
    let type = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("id:")) lastEventId = line.slice(3).trim();
      else if (line.startsWith("event:")) type = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (!data.length) return;
    if (type === "eventsExpired") {
      maneuverShown = null;
      $("maneuver").hidden = true;
      body.dataset.expired = String((Number(body.dataset.expired) || 0) + 1);
      refresh();
      return;
    }
    if (type === "didUpdateNavInfo") {
      try { showManeuver(JSON.parse(data.join("\n"))); } catch (error) { /* not for us */ }
    }
    soon();
  }

  async function listen() {
    let backoff = 1000;
    while (!ended) {
      try {
        const headers = Object.assign({ Accept: "text/event-stream" }, auth);
        if (lastEventId) headers["Last-Event-ID"] = lastEventId;
        const response = await fetch(`${api}/events`, { headers, cache: "no-store" });
        if (response.status === 401 || response.status === 403) { expired(); return; }
        if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
        setConnection("");
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
          if (ended) { reader.cancel(); return; }
        }
        throw new Error("the event stream ended");
      } catch (error) {
        if (ended) return;
        setConnection("Connection lost; reconnecting…");
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 15000);
        soon();
      }
    }
  }

  // The next turn as the server saw it when it made the page: shown at once, not at the
  // next live update (a car standing still sends none).
  if (body.dataset.nav) {
    try { showManeuver(JSON.parse(body.dataset.nav)); } catch (error) { /* no navigation to show */ }
  }
  refresh().then(() => {
    if (!ended) listen();
  });
  // The ETA minute moves even when nothing is reported.
  setInterval(() => { if (!ended) refresh(); }, 30000);
})();
