// The driver's page. The driver token is the last part of the page's path; every call sends
// it as a bearer token to the /v1 API. The server draws the whole screen (navigation.png) at
// the window's size and pixel ratio; layout.json says where it drew the header, the footer and
// the buttons, and transparent buttons are laid over those. The vehicle's event stream is read
// with fetch (EventSource cannot send an Authorization header) and resumed with Last-Event-ID
// after a lost connection; each event redraws the screen (with its ETag, so an unchanged
// screen is not sent again). Panning, zooming and turning the map (as the settings' gesture
// switches allow) move to a free camera; the recenter and my-location buttons return to
// following the vehicle. The page marks its state on <body> (data-screen, data-updates,
// data-step, data-camera, data-center, data-list, data-steps) so an automated check can read it.
(() => {
  "use strict";
  const body = document.body;
  const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const api = `/v1/providers/${encodeURIComponent(body.dataset.provider)}/vehicles/${encodeURIComponent(body.dataset.vehicle)}`;
  const auth = { Authorization: `Bearer ${token}` };
  const $ = (id) => document.getElementById(id);
  const screen = $("screen");
  const image = $("screen-image");

  // Where the camera is: following the vehicle (heading up, or north up after the compass),
  // or free where the driver panned it to.
  const view = { mode: "following", northUp: false, latitude: 0, longitude: 0, zoom: 16, bearing: 0 };
  let settings = { scrollGestures: true, zoomGestures: true, rotateGestures: true, tiltGestures: true };
  let layout = null;
  let navInfo = null;
  let shown = { query: null, tag: null, url: null };
  let timeZone = (Intl.DateTimeFormat().resolvedOptions().timeZone) || null;
  // Units as the page's ?units= asks, else as the phone's language has it (pages/units.js,
  // shared with the rider's page).
  const pageUnitsInUse = pageUnits();
  const units = pageUnitsInUse.system;
  let ended = false;
  let updates = 0;
  let drawing = false;
  let drawAgain = false;
  let redrawTimer = null;
  const icons = new Map();

  function clamp(value, low, high) { return Math.min(high, Math.max(low, value)); }
  function setStatus(text) { $("status").textContent = text; }

  function expired() {
    ended = true;
    setStatus("This driver link has expired or is not valid. Ask for a new one.");
    body.dataset.screen = "expired";
  }

  // MARK: - Drawing

  /// The screen's size in points and its scale: the window's, within what the server draws.
  function size() {
    const scale = clamp(Math.round(window.devicePixelRatio || 1), 1, 3);
    const largest = Math.floor(2560 / scale);
    return {
      width: clamp(Math.round(window.innerWidth), 120, largest),
      height: clamp(Math.round(window.innerHeight), 120, largest),
      scale,
    };
  }

  function query() {
    const { width, height, scale } = size();
    const parameters = new URLSearchParams({ width, height, scale, units });
    if (timeZone) parameters.set("tz", timeZone);
    if (view.mode === "free") {
      parameters.set("camera", "free");
      parameters.set("center", `${view.latitude.toFixed(6)},${view.longitude.toFixed(6)}`);
      parameters.set("zoom", view.zoom.toFixed(3));
      parameters.set("bearing", view.bearing.toFixed(1));
    } else if (view.northUp) {
      parameters.set("perspective", "topDownNorthUp");
    }
    return parameters.toString();
  }

  /// Redraws the screen; calls made while one runs are folded into one more run after it.
  let failed = false;
  async function redraw() {
    if (drawing) { drawAgain = true; return; }
    drawing = true;
    try {
      do {
        drawAgain = false;
        await drawOnce();
      } while (drawAgain && !ended);
    } catch (error) {
      // Unreachable, or over the token's picture budget (429): try again in a second.
      setStatus("Cannot reach the server; retrying…");
      failed = true;
    } finally {
      drawing = false;
    }
    if (failed && !ended) { failed = false; soon(1000); }
  }

  async function drawOnce() {
    const q = query();
    const imageHeaders = Object.assign({}, auth);
    if (shown.query === q && shown.tag) imageHeaders["If-None-Match"] = shown.tag;
    const [layoutResponse, imageResponse, infoResponse] = await Promise.all([
      fetch(`${api}/navigation/layout.json?${q}`, { headers: auth, cache: "no-store" }),
      fetch(`${api}/navigation.png?${q}`, { headers: imageHeaders, cache: "no-store" }),
      fetch(`${api}/navInfo`, { headers: auth, cache: "no-store" }),
    ]);
    if ([layoutResponse, imageResponse, infoResponse].some((r) => r.status === 401 || r.status === 403)) { expired(); return; }
    if (layoutResponse.status === 400 && timeZone) {
      // A time zone the server does not know: the arrival time is shown in UTC instead.
      const error = await layoutResponse.json().catch(() => ({}));
      if (String(error.error && error.error.message).startsWith("tz:")) { timeZone = null; drawAgain = true; return; }
    }
    if (!layoutResponse.ok || !infoResponse.ok || !(imageResponse.ok || imageResponse.status === 304)) {
      throw new Error(`the screen answered ${layoutResponse.status}/${imageResponse.status}/${infoResponse.status}`);
    }
    layout = await layoutResponse.json();
    navInfo = await infoResponse.json();
    if (imageResponse.status !== 304) {
      const url = URL.createObjectURL(await imageResponse.blob());
      await new Promise((resolve) => { image.onload = resolve; image.onerror = resolve; image.src = url; });
      if (shown.url) URL.revokeObjectURL(shown.url);
      shown = { query: q, tag: imageResponse.headers.get("ETag"), url };
    }
    // A gesture under way keeps its preview on the new picture.
    if (gesture && gesture.camera) preview(gesture.camera); else image.style.transform = "";
    placeControls();
    describe();
    if (!$("directions").hidden) showDirections();
    setStatus("");
    updates += 1;
    body.dataset.updates = String(updates);
    body.dataset.screen = "shown";
    body.dataset.camera = layout.camera.mode;
    body.dataset.center = `${layout.camera.latitude.toFixed(5)},${layout.camera.longitude.toFixed(5)}`;
  }

  function soon(delay = 200) {
    if (redrawTimer) return;
    redrawTimer = setTimeout(() => { redrawTimer = null; redraw(); }, delay);
  }

  /// Lays the transparent buttons over what the picture drew.
  function placeControls() {
    const rects = layout.rects || {};
    const ratioX = window.innerWidth / layout.width;
    const ratioY = window.innerHeight / layout.height;
    function place(id, rect) {
      const element = $(id);
      element.hidden = !rect;
      if (!rect) return;
      element.style.left = `${rect.x * ratioX}px`;
      element.style.top = `${rect.y * ratioY}px`;
      element.style.width = `${rect.width * ratioX}px`;
      element.style.height = `${rect.height * ratioY}px`;
    }
    place("open-header", rects.header);
    place("open-footer", rects.footer);
    place("recenter", rects.recenterButton);
    place("my-location", rects.myLocationButton);
    place("compass", rects.compassButton);
    $("compass").setAttribute("aria-label", view.mode === "free" || !view.northUp ? "Turn the map north up" : "Turn the map heading up");
    // Without a header or footer to tap, the directions list gets a button of its own.
    $("list-button").hidden = Boolean(rects.header || rects.footer);
  }

  // MARK: - Words

  function distanceText(meters) { return pageUnitsInUse.distance(meters); }

  function durationText(seconds) { return pageUnitsInUse.duration(seconds); }

  function clockText(secondsFromNow) { return pageUnitsInUse.clock(Date.now() + secondsFromNow * 1000, timeZone); }

  function maneuverWords(maneuver) {
    const words = String(maneuver || "continue").replace(/([A-Z])/g, " $1").toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function stepText(step) {
    if (step.fullInstructionText) return step.fullInstructionText;
    const road = step.simpleRoadName || step.fullRoadName;
    return road ? `${maneuverWords(step.maneuver)} onto ${road}` : maneuverWords(step.maneuver);
  }

  /// The picture's text alternative, and the current step for automated checks.
  function describe() {
    let text;
    const step = navInfo && navInfo.currentStep;
    if (!navInfo || navInfo.navState === "stopped") {
      text = "No active route.";
      body.dataset.step = "";
    } else if (navInfo.navState === "rerouting") {
      text = "Rerouting…";
      body.dataset.step = "rerouting";
    } else if (step) {
      const ahead = navInfo.distanceToCurrentStepMeters;
      text = `${ahead > 0 ? `In ${distanceText(ahead)}: ` : ""}${stepText(step)}.`;
      const seconds = navInfo.timeToNextDestinationSeconds || 0;
      text += ` ${durationText(seconds)} to go, ${distanceText(navInfo.distanceToNextDestinationMeters)}, arriving ${clockText(seconds)}.`;
      body.dataset.step = `${step.stepNumber}: ${stepText(step)}`;
    } else {
      text = "Navigation screen.";
    }
    image.alt = text;
  }

  // MARK: - Directions list

  async function icon(maneuver) {
    if (!icons.has(maneuver)) {
      icons.set(maneuver, fetch(`/v1/maneuvers/${encodeURIComponent(maneuver)}.png?size=square48&scale=2`, { headers: auth })
        .then((r) => (r.ok ? r.blob() : null)).then((blob) => (blob ? URL.createObjectURL(blob) : "")).catch(() => ""));
    }
    return icons.get(maneuver);
  }

  function showDirections() {
    const list = $("steps");
    list.textContent = "";
    const steps = [];
    if (navInfo && navInfo.navState !== "stopped") {
      if (navInfo.currentStep) steps.push({ step: navInfo.currentStep, meters: navInfo.distanceToCurrentStepMeters, current: true });
      for (const step of navInfo.remainingSteps || []) steps.push({ step, meters: step.distanceFromPrevStepMeters, current: false });
    }
    $("directions-summary").textContent = steps.length
      ? `${durationText(navInfo.timeToNextDestinationSeconds)} · ${distanceText(navInfo.distanceToNextDestinationMeters)} to go`
      : "No active route.";
    for (const { step, meters, current } of steps) {
      const item = document.createElement("li");
      if (current) item.className = "current";
      const picture = document.createElement("img");
      picture.alt = "";
      icon(step.maneuver).then((url) => { if (url) picture.src = url; });
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = stepText(step);
      const distance = document.createElement("span");
      distance.className = "distance";
      distance.textContent = current ? `In ${distanceText(meters)}` : `Then ${distanceText(meters)}`;
      text.appendChild(distance);
      item.append(picture, text);
      list.appendChild(item);
    }
    body.dataset.steps = String(steps.length);
  }

  function openDirections() {
    showDirections();
    $("directions").hidden = false;
    body.dataset.list = "open";
    $("close-directions").focus();
  }

  function closeDirections() {
    $("directions").hidden = true;
    body.dataset.list = "closed";
  }

  // MARK: - Buttons

  function follow() {
    view.mode = "following";
    redraw();
  }

  $("open-header").addEventListener("click", openDirections);
  $("open-footer").addEventListener("click", openDirections);
  $("list-button").addEventListener("click", openDirections);
  $("close-directions").addEventListener("click", closeDirections);
  $("recenter").addEventListener("click", follow);
  $("my-location").addEventListener("click", follow);
  $("compass").addEventListener("click", () => {
    if (view.mode === "free") view.bearing = 0; else view.northUp = !view.northUp;
    redraw();
  });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && !$("directions").hidden) closeDirections(); });

  // MARK: - Gestures (Web Mercator in points: a world 256·2^zoom points wide)

  function worldOf(latitude, longitude) {
    const sine = Math.sin(latitude * Math.PI / 180);
    return { x: (longitude + 180) / 360 * 256, y: (0.5 - Math.log((1 + sine) / (1 - sine)) / (4 * Math.PI)) * 256 };
  }

  function latLngOf(world) {
    return { latitude: Math.atan(Math.sinh(Math.PI * (1 - 2 * world.y / 256))) * 180 / Math.PI, longitude: world.x / 256 * 360 - 180 };
  }

  /// The world point under a screen point (points from the top-left) for a camera.
  function worldAt(camera, point) {
    const center = worldOf(camera.latitude, camera.longitude);
    const factor = Math.pow(2, camera.zoom);
    const radians = -camera.bearing * Math.PI / 180;
    const u = (point.x - layout.width / 2) / factor;
    const v = (point.y - layout.height / 2) / factor;
    return { x: center.x + u * Math.cos(radians) + v * Math.sin(radians), y: center.y - u * Math.sin(radians) + v * Math.cos(radians) };
  }

  /// The camera centre that puts `world` under `point` at a zoom and bearing.
  function centerFor(world, point, zoom, bearing) {
    const factor = Math.pow(2, zoom);
    const radians = -bearing * Math.PI / 180;
    const u = (point.x - layout.width / 2) / factor;
    const v = (point.y - layout.height / 2) / factor;
    return latLngOf({ x: world.x - (u * Math.cos(radians) + v * Math.sin(radians)), y: world.y - (-u * Math.sin(radians) + v * Math.cos(radians)) });
  }

  /// The screen point (points) where a camera shows a world point.
  function screenOf(camera, world) {
    const center = worldOf(camera.latitude, camera.longitude);
    const factor = Math.pow(2, camera.zoom);
    const radians = -camera.bearing * Math.PI / 180;
    const dx = (world.x - center.x) * factor;
    const dy = (world.y - center.y) * factor;
    return { x: dx * Math.cos(radians) - dy * Math.sin(radians) + layout.width / 2, y: dx * Math.sin(radians) + dy * Math.cos(radians) + layout.height / 2 };
  }

  /// Moves the picture on hand (drawn with layout.camera) to where `camera` will draw it,
  /// until the new picture arrives.
  function preview(camera) {
    const shown = layout.camera;
    const ratioX = window.innerWidth / layout.width;
    const ratioY = window.innerHeight / layout.height;
    const middle = { x: layout.width / 2, y: layout.height / 2 };
    const moved = screenOf(camera, worldAt(shown, middle));
    image.style.transform = `translate(${moved.x * ratioX}px, ${moved.y * ratioY}px) rotate(${shown.bearing - camera.bearing}deg) `
      + `scale(${Math.pow(2, camera.zoom - shown.zoom)}) translate(${-middle.x * ratioX}px, ${-middle.y * ratioY}px)`;
  }

  const pointers = new Map();
  // A gesture: the camera when it (re)started, where the fingers were then, the camera they
  // have made since, and whether they moved far enough to count.
  let gesture = null;

  function pointerSummary() {
    const points = [...pointers.values()];
    const centroid = { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
    if (points.length < 2) return { centroid, distance: 0, angle: 0 };
    const [a, b] = points;
    return { centroid, distance: Math.hypot(b.x - a.x, b.y - a.y), angle: Math.atan2(b.y - a.y, b.x - a.x) };
  }

  /// Starts the gesture again from the fingers down now (one was added or lifted), keeping
  /// what it has done so far.
  function restartGesture() {
    if (!pointers.size) { gesture = null; return; }
    const base = gesture ? (gesture.camera || gesture.base)
      : view.mode === "free" ? { latitude: view.latitude, longitude: view.longitude, zoom: view.zoom, bearing: view.bearing }
        : { latitude: layout.camera.latitude, longitude: layout.camera.longitude, zoom: layout.camera.zoom, bearing: layout.camera.bearing };
    gesture = { base, start: pointerSummary(), camera: null, moved: gesture ? gesture.moved : false };
  }

  /// The camera the fingers have made since the gesture (re)started, as the switches allow.
  function gestureCamera(g, now) {
    const ratioX = window.innerWidth / layout.width;
    const ratioY = window.innerHeight / layout.height;
    const shift = settings.scrollGestures !== false
      ? { x: now.centroid.x - g.start.centroid.x, y: now.centroid.y - g.start.centroid.y } : { x: 0, y: 0 };
    const zoomBy = settings.zoomGestures !== false && g.start.distance > 0 && now.distance > 0 ? now.distance / g.start.distance : 1;
    const turn = settings.rotateGestures !== false && g.start.distance > 0 && now.distance > 0 ? now.angle - g.start.angle : 0;
    const zoom = clamp(g.base.zoom + Math.log2(zoomBy), 2, 21);
    const bearing = ((g.base.bearing - turn * 180 / Math.PI) % 360 + 540) % 360 - 180;
    const from = { x: g.start.centroid.x / ratioX, y: g.start.centroid.y / ratioY };
    const to = { x: from.x + shift.x / ratioX, y: from.y + shift.y / ratioY };
    const center = centerFor(worldAt(g.base, from), to, zoom, bearing);
    const travel = Math.hypot(shift.x, shift.y) + Math.abs(Math.log2(zoomBy)) * 100 + Math.abs(turn) * 100;
    return { latitude: center.latitude, longitude: center.longitude, zoom, bearing, travel };
  }

  screen.addEventListener("pointerdown", (event) => {
    if (event.target.closest("button") || !layout) return;
    screen.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    restartGesture();
  });

  screen.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId) || !gesture) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const camera = gestureCamera(gesture, pointerSummary());
    if (!gesture.moved && camera.travel < 8) return;
    gesture.moved = true;
    gesture.camera = camera;
    preview(camera);
  });

  function endPointer(event) {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    const finished = gesture;
    if (pointers.size) { restartGesture(); return; }
    gesture = null;
    if (finished && finished.moved) {
      const camera = finished.camera || finished.base;
      Object.assign(view, { mode: "free", latitude: camera.latitude, longitude: camera.longitude, zoom: camera.zoom, bearing: camera.bearing });
      redraw();
    }
  }
  screen.addEventListener("pointerup", endPointer);
  screen.addEventListener("pointercancel", endPointer);

  let wheelTimer = null;
  screen.addEventListener("wheel", (event) => {
    event.preventDefault();
    if (settings.zoomGestures === false || !layout) return;
    if (view.mode !== "free") {
      Object.assign(view, { mode: "free", latitude: layout.camera.latitude, longitude: layout.camera.longitude,
        zoom: layout.camera.zoom, bearing: layout.camera.bearing });
    }
    view.zoom = clamp(view.zoom - event.deltaY * 0.002, 2, 21);
    preview(view);
    clearTimeout(wheelTimer);
    wheelTimer = setTimeout(redraw, 150);
  }, { passive: false });

  let resizeTimer = null;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(redraw, 150); });

  // MARK: - Live updates

  async function loadSettings() {
    const response = await fetch(`${api}/navigationUISettings`, { headers: auth, cache: "no-store" });
    if (response.status === 401 || response.status === 403) { expired(); return; }
    if (response.ok) settings = await response.json();
  }

  function handleEvent(type, data) {
    if (type === "didUpdateNavigationUISettings") {
      try { settings = JSON.parse(data).navigationUISettings || settings; } catch (error) { /* keep the last */ }
      soon(0);
      return;
    }
    soon();
  }

  function listen() {
    return followEventStream({
      url: `${api}/events`, headers: auth, onEvent: handleEvent, onStatus: setStatus,
      onExpired: expired, onReconnect: () => soon(), isEnded: () => ended,
    });
  }

  body.dataset.list = "closed";
  loadSettings().then(redraw).then(() => { if (!ended) listen(); });
  // The arrival time moves even when nothing is reported.
  setInterval(() => { if (!ended) redraw(); }, 30000);
})();
