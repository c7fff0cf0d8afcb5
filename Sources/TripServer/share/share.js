// The rider's live page (DESIGN §15): a full-screen Leaflet map of the server's own tiles,
// the trip drawn over it from the trip's style sheet, and the trip's status in a rider's
// words. The rider token is the last part of the page's path; every /v1 call sends it as a
// bearer token, exactly as a rider's app would; tiles and road names are public map data.
//
// - The car glides between fixes along the active route at the reported speed: never off
//   the route, never backwards; a fix ahead of the drawn car is reached within a second, one
//   behind it holds the car until the extrapolation passes it; a fix off the route (a new
//   route) is jumped to. Frames are drawn only while something moves.
// - The camera keeps the car and the next stop inside the part of the map the sheet leaves
//   visible, with padding, until the rider drags or zooms; "Re-center" brings it back.
// - State for automated checks is on <body> (data-map, data-eta, data-updates, data-state,
//   data-following) and in window.tripshareShare (screen positions of the car, the route and
//   the next stop).
(() => {
  "use strict";
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const api = `/v1/providers/${encodeURIComponent(body.dataset.provider)}/trips/${encodeURIComponent(body.dataset.trip)}`;
  const auth = { Authorization: `Bearer ${token}` };
  const query = new URLSearchParams(location.search);
  const units = pageUnits();
  const darkScheme = window.matchMedia ? matchMedia("(prefers-color-scheme: dark)") : null;
  let night = Boolean(darkScheme && darkScheme.matches);
  const styleName = query.get("style") || "default";
  const tileStyles = (body.dataset.tileStyles || "").split(" ").filter(Boolean);
  const ENDED = new Set(["COMPLETE", "CANCELED"]);

  let sheet = null;          // the trip's style sheet (GET /v1/styles/{style})
  let trip = null;           // the latest trip view
  let ended = false;
  let updates = 0;
  let refreshTimer = null;
  let following = true;
  let programmatic = false;  // the page itself is moving the map
  const roads = new Map();   // "lat,lng" -> street name ("" when none)
  const icons = {};          // marker type -> { url, width, height } in CSS pixels
  const layers = { routes: [], pins: [], badge: null, car: null };

  // MARK: - Geometry (metres on a local plane: enough for a city trip)

  function decodePolyline(text) {
    const points = [];
    let index = 0, lat = 0, lng = 0;
    while (index < text.length) {
      for (const axis of [0, 1]) {
        let shift = 0, result = 0, byte;
        do {
          byte = text.charCodeAt(index++) - 63;
          result |= (byte & 0x1f) << shift;
          shift += 5;
        } while (byte >= 0x20 && index < text.length);
        const delta = result & 1 ? ~(result >> 1) : result >> 1;
        if (axis === 0) lat += delta; else lng += delta;
      }
      points.push([lat / 1e5, lng / 1e5]);
    }
    return points;
  }

  function metres(a, b) {
    const k = Math.cos(((a[0] + b[0]) / 2) * Math.PI / 180);
    const dx = (b[1] - a[1]) * 111320 * k, dy = (b[0] - a[0]) * 110540;
    return Math.hypot(dx, dy);
  }

  // A polyline with its running length.
  function track(points) {
    const along = [0];
    for (let i = 1; i < points.length; i++) along.push(along[i - 1] + metres(points[i - 1], points[i]));
    return { points, along, length: along[along.length - 1] || 0 };
  }

  function segmentAt(path, distance) {
    let i = 1;
    while (i < path.points.length - 1 && path.along[i] < distance) i++;
    return i;
  }

  function pointAt(path, distance) {
    const d = Math.min(Math.max(distance, 0), path.length);
    if (path.points.length < 2) return path.points[0];
    const i = segmentAt(path, d);
    const a = path.points[i - 1], b = path.points[i];
    const span = path.along[i] - path.along[i - 1];
    const t = span > 0 ? (d - path.along[i - 1]) / span : 0;
    return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
  }

  function bearing(a, b) {
    const k = Math.cos(a[0] * Math.PI / 180);
    return Math.atan2((b[1] - a[1]) * k, b[0] - a[0]) * 180 / Math.PI;
  }

  // The distance along `path` nearest to `point`, and how far off the path it is (metres).
  function project(path, point) {
    let best = { distance: 0, offset: Infinity };
    for (let i = 1; i < path.points.length; i++) {
      const a = path.points[i - 1], b = path.points[i];
      const k = Math.cos(a[0] * Math.PI / 180);
      const bx = (b[1] - a[1]) * k, by = b[0] - a[0], px = (point[1] - a[1]) * k, py = point[0] - a[0];
      const span = bx * bx + by * by;
      const t = span > 0 ? Math.min(Math.max((px * bx + py * by) / span, 0), 1) : 0;
      const near = [a[0] + by * t, a[1] + (b[1] - a[1]) * t];
      const offset = metres(point, near);
      if (offset < best.offset) best = { distance: path.along[i - 1] + (path.along[i] - path.along[i - 1]) * t, offset };
    }
    return best;
  }

  // The part of `points` from `distance` on, with the polyline point indices it came from.
  function slice(path, from, to) {
    const start = Math.max(0, Math.min(from, path.length)), end = Math.max(start, Math.min(to, path.length));
    const out = [pointAt(path, start)];
    for (let i = 1; i < path.points.length; i++) {
      if (path.along[i] > start && path.along[i] < end) out.push(path.points[i]);
    }
    out.push(pointAt(path, end));
    return out;
  }

  // MARK: - Map

  const map = L.map("map", { zoomControl: false, attributionControl: false, zoomSnap: 1, maxZoom: 19, minZoom: 2 });
  L.control.attribution({ position: "bottomright", prefix: false }).addTo(map);
  if (matchMedia("(min-width: 760px)").matches) L.control.zoom({ position: "topright" }).addTo(map);
  const routePane = map.createPane("trip-routes");
  routePane.style.zIndex = 450;

  // The sheet's basemap styles as the server read them into the page (day, night), so the
  // tiles need not wait for the style sheet.
  const pageStyles = (body.dataset.basemapStyles || "").split(" ");

  function basemapStyle() {
    const wanted = sheet && sheet.map ? (night ? sheet.map.nightBasemapStyle : sheet.map.basemapStyle) : pageStyles[night ? 1 : 0] || null;
    if (wanted && tileStyles.includes(wanted)) return wanted;
    const fallback = night ? tileStyles.find((name) => /night|dark/.test(name)) : null;
    return fallback || tileStyles.find((name) => !/night|dark/.test(name)) || tileStyles[0] || null;
  }

  // `key` names the trip's route and pins as the tiles keep their street names clear of them
  // (GET /share/{token}/map.json); without one, the public tiles.
  // `overlay` is what the current key was asked for (mapOverlay); `routes` counts the first
  // leg's routes seen, `leg` is the latest one.
  const basemap = { layer: null, leaving: null, attribution: "", key: body.dataset.mapKey || "", overlay: null, routes: 0, leg: null };

  function tileURL(name) {
    if (!basemap.key) return `/tiles/${encodeURIComponent(name)}/{z}/{x}/{y}{r}.png`;
    const sheetQuery = query.get("style") ? `?style=${encodeURIComponent(styleName)}` : "";
    return `/share/${encodeURIComponent(token)}/tiles/${basemap.key}/${encodeURIComponent(name)}/{z}/{x}/{y}{r}.png${sheetQuery}`;
  }

  // The tiles of the style sheet's basemap style for the lighting, with their attribution.
  // A replaced layer stays under the new one until the new one has loaded the view's tiles
  // (a new key or lighting is otherwise a blank map while they are drawn), and goes then;
  // one still fading out when another replaces it goes at once.
  async function addTiles() {
    const name = basemapStyle();
    if (sheet && sheet.map) $("map").style.background = night ? sheet.map.nightBackground : sheet.map.background;
    if (!name) { $("map-missing").hidden = false; return; }
    if (basemap.leaving) basemap.leaving.remove();
    const leaving = basemap.layer;
    basemap.leaving = leaving;
    const layer = L.tileLayer(tileURL(name), { maxZoom: 19, keepBuffer: 3, zIndex: 2 });
    basemap.layer = layer;
    if (leaving) leaving.setZIndex(1);
    watchTiles(layer);
    layer.once("load", () => {
      if (leaving && basemap.leaving === leaving) { leaving.remove(); basemap.leaving = null; }
      body.dataset.map = "shown";
      if (!performance.getEntriesByName("tripshare-map-shown").length) performance.mark("tripshare-map-shown");
    });
    layer.addTo(map);
    body.dataset.tiles = tileURL(name);
    body.dataset.basemap = name;
    let attribution = "© OpenStreetMap contributors";
    try {
      const description = await (await fetch(`/styles/${encodeURIComponent(name)}/tiles.json`)).json();
      attribution = description.attribution || attribution;
    } catch (error) { /* the data's usual credit */ }
    if (basemap.attribution) map.attributionControl.removeAttribution(basemap.attribution);
    basemap.attribution = attribution;
    map.attributionControl.addAttribution(attribution);
    layout();
  }

  // Tiles that failed (the server out of reach, the page offline) are asked for again: at
  // growing intervals, and all at once when the trip is read again after a connection loss.
  // Leaflet itself never asks again, and leaves a hole in the map.
  const failedTiles = new Set();

  function retryTile(tile) {
    failedTiles.delete(tile);
    if (!tile.isConnected) return;
    // Without a src for a moment (an empty one would count as another failure).
    const url = tile.src;
    tile.removeAttribute("src");
    tile.src = url;
  }

  function retryTiles() { for (const tile of [...failedTiles]) retryTile(tile); }

  function watchTiles(layer) {
    layer.on("tileerror", ({ tile }) => {
      const tries = Number(tile.dataset.tries || 0) + 1;
      tile.dataset.tries = String(tries);
      failedTiles.add(tile);
      if (tries <= 6) setTimeout(() => { if (failedTiles.has(tile)) retryTile(tile); }, 1000 * 2 ** (tries - 1));
    });
    layer.on("tileload", ({ tile }) => failedTiles.delete(tile));
  }

  // Day and night follow the browser, also when it switches while the page is open.
  if (darkScheme) darkScheme.addEventListener("change", (event) => { night = event.matches; addTiles(); });

  // The rider takes the camera by dragging, wheeling, pinching or double-tapping; other zooms
  // (the zoom buttons, the keyboard) count as the rider's unless the page started one just
  // before: Leaflet starts an animated zoom on the next frame, after fitBounds has returned.
  map.on("dragstart", () => leaveFollowing());
  let zooming = false;
  map.on("zoomstart", () => { zooming = true; });
  map.on("zoomend", () => { zooming = false; });
  const container = map.getContainer();
  container.addEventListener("wheel", () => leaveFollowing(), { passive: true });
  container.addEventListener("dblclick", () => leaveFollowing());
  container.addEventListener("touchstart", (event) => { if (event.touches.length > 1) leaveFollowing(); }, { passive: true });
  map.on("zoomstart", () => { if (!programmatic && performance.now() > programmaticUntil) leaveFollowing(); });
  let drags = 0;
  map.on("dragstart", () => { drags += 1; });

  // Leaflet 1.6 ignores a press made while a zoom animates (Draggable._onDown returns while the
  // map pane has leaflet-zoom-anim), so a rider's drag during the following camera's zoom was
  // lost: a press on the map ends the animation first (Leaflet's own end of it, private in 1.6),
  // and the camera waits while any finger or button is down.
  const pressed = new Set();
  window.addEventListener("pointerdown", (event) => {
    if (!container.contains(event.target)) return;
    pressed.add(event.pointerId);
    if (map._animatingZoom && map._onZoomTransitionEnd) map._onZoomTransitionEnd();
  }, true);
  for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, (event) => pressed.delete(event.pointerId), true);

  function leaveFollowing() {
    if (!following || ended) return;
    following = false;
    body.dataset.following = "no";
    $("recenter").hidden = false;
  }

  $("recenter").addEventListener("click", () => {
    following = true;
    body.dataset.following = "yes";
    $("recenter").hidden = true;
    frame(true);
  });

  // The part of the window the sheet or panel leaves to the map.
  function visibleArea() {
    const width = window.innerWidth, height = window.innerHeight;
    const box = $("sheet").getBoundingClientRect();
    if (box.width >= width - 1) return { left: 0, top: 0, right: width, bottom: Math.max(120, box.top) };
    return { left: Math.min(width - 120, box.right), top: 0, right: width, bottom: height };
  }

  // Keeps Leaflet's bottom-right controls (the attribution) and the recenter button above the
  // sheet on a phone.
  function layout() {
    const area = visibleArea();
    const lift = Math.max(0, window.innerHeight - area.bottom);
    for (const corner of document.querySelectorAll(".leaflet-bottom")) corner.style.bottom = `${lift}px`;
    const attribution = document.querySelector(".leaflet-control-attribution");
    const above = attribution ? attribution.getBoundingClientRect().height + 12 : 36;
    $("recenter").style.bottom = `${lift + above}px`;
  }

  // The least room the camera keeps between a framed point and the edge of the visible map.
  const MARGIN = 56;
  // Room kept clear beyond the farthest edge of a framed marker or badge when the camera moves,
  // and how much of it a marker may use up before the camera moves again.
  const SPARE = 24;
  const DRIFT = 12;

  // What the camera must show: the car and the next stop (or the last stop once the trip ends).
  function framedPoints() {
    const points = [];
    if (car.point) points.push(car.point);
    const stop = nextStop();
    if (stop) points.push(stop);
    return points;
  }

  // How far the framed points' markers reach beyond their points, px: as drawn (the pins stand
  // above their points, the pickup's badge above its pin), and at least the usual pin with a
  // badge before anything is drawn, so that the first view need not move when they come.
  function markerReach(points) {
    const reach = { top: 64, bottom: 16, left: 24, right: 24 };
    const origin = map.getContainer().getBoundingClientRect();
    const framed = (latLng) => points.some((p) => Math.abs(p[0] - latLng.lat) < 1e-7 && Math.abs(p[1] - latLng.lng) < 1e-7);
    for (const marker of [car.marker, layers.badge, ...layers.pins]) {
      const element = marker && marker.getElement && marker.getElement();
      if (!element || !framed(marker.getLatLng())) continue;
      const at = map.latLngToContainerPoint(marker.getLatLng());
      for (const part of [element, ...element.children]) {
        const box = part.getBoundingClientRect();
        if (!box.width || !box.height) continue;
        reach.top = Math.max(reach.top, at.y - (box.top - origin.top));
        reach.bottom = Math.max(reach.bottom, box.bottom - origin.top - at.y);
        reach.left = Math.max(reach.left, at.x - (box.left - origin.left));
        reach.right = Math.max(reach.right, box.right - origin.left - at.x);
      }
    }
    return reach;
  }

  // The padding that keeps every framed marker whole inside the visible area, SPARE px clear.
  function padding(points) {
    const area = visibleArea();
    const reach = markerReach(points || framedPoints());
    const room = (side) => Math.max(MARGIN, Math.ceil(reach[side]) + SPARE);
    return {
      paddingTopLeft: [area.left + room("left"), area.top + room("top")],
      paddingBottomRight: [window.innerWidth - area.right + room("right"), window.innerHeight - area.bottom + room("bottom")],
    };
  }

  // Where the basemap has data ([west, south, east, north]), when the server said.
  const dataBounds = (() => {
    const edges = (body.dataset.mapBounds || "").split(",").map(Number);
    return edges.length === 4 && edges.every(Number.isFinite) ? edges : null;
  })();

  // The corners of the route to the next stop ([south, west], [north, east]): the trip's first
  // leg once read, else as the page was served; none without a route.
  const servedRoute = (body.dataset.route || "").split(";").map((p) => p.split(",").map(Number))
    .filter((p) => p.length === 2 && p.every(Number.isFinite));

  function routeCorners() {
    if (trip) {
      const points = !ended && basemap.leg ? basemap.leg.points : [];
      if (!points.length) return [];
      const lats = points.map((p) => p[0]), lngs = points.map((p) => p[1]);
      return [[Math.min(...lats), Math.min(...lngs)], [Math.max(...lats), Math.max(...lngs)]];
    }
    return servedRoute.length === 2 ? servedRoute : [];
  }

  // The camera for `points` in the padded area: the centre and zoom fitBounds would choose,
  // then moved within the room the padding leaves so that the window shows the basemap's data
  // rather than bare ground past its edge (the demo's tiles end a few streets from the route),
  // as far as the points and the route to the next stop stay inside the padding.
  function cameraFor(points, pad) {
    const bounds = L.latLngBounds(points.map((p) => L.latLng(p[0], p[1])));
    const topLeft = L.point(pad.paddingTopLeft), bottomRight = L.point(pad.paddingBottomRight);
    const zoom = Math.min(17, map.getBoundsZoom(bounds, false, topLeft.add(bottomRight)));
    const low = map.project(bounds.getNorthWest(), zoom), high = map.project(bounds.getSouthEast(), zoom);
    let center = low.add(high).divideBy(2).add(bottomRight.subtract(topLeft).divideBy(2));
    if (dataBounds) {
      const kept = L.latLngBounds(bounds.getSouthWest(), bounds.getNorthEast());
      for (const corner of routeCorners()) kept.extend(L.latLng(corner[0], corner[1]));
      const keptLow = map.project(kept.getNorthWest(), zoom), keptHigh = map.project(kept.getSouthEast(), zoom);
      const size = map.getSize();
      const dataLow = map.project(L.latLng(dataBounds[3], dataBounds[0]), zoom);
      const dataHigh = map.project(L.latLng(dataBounds[1], dataBounds[2]), zoom);
      center = L.point(
        overData(center.x, size.x, keptLow.x, keptHigh.x, topLeft.x, bottomRight.x, dataLow.x, dataHigh.x),
        overData(center.y, size.y, keptLow.y, keptHigh.y, topLeft.y, bottomRight.y, dataLow.y, dataHigh.y));
    }
    return { center: map.unproject(center, zoom), zoom };
  }

  // One axis of cameraFor's move: the window [c - size/2, c + size/2] is moved towards lying
  // inside the data [dataLow, dataHigh] (centred on it when the data is the narrower), as far as
  // [low, high] (the points and the route) stays inside the padding, and at least as far as
  // brings a route poking out of the padding back in when there is room; not at all when
  // [low, high] does not fit there.
  function overData(c, size, low, high, padLow, padHigh, dataLow, dataHigh) {
    const half = size / 2;
    const most = low - (c - half + padLow);      // a larger move puts `low` into the padding
    const least = high - (c + half - padHigh);   // a smaller one puts `high` there
    let wanted = 0;
    if (dataHigh - dataLow <= size) wanted = (dataLow + dataHigh) / 2 - c;
    else if (c - half < dataLow) wanted = dataLow - (c - half);
    else if (c + half > dataHigh) wanted = dataHigh - (c + half);
    return least <= most ? c + Math.min(Math.max(wanted, least), most) : c;
  }

  // Moves the camera when following: when a framed point leaves the padded area, or (at a new
  // fix) when it could come closer; `force` fits at once (recenter, first view, resize).
  let cameraBusyUntil = 0;
  let programmaticUntil = 0;  // a zoom starting before this is the camera's own
  let hasView = false;

  let retry = null;
  function frame(force, atFix) {
    if (!following) return;
    // While the rider presses the map the camera waits: the press may become a drag.
    const waitUntil = pressed.size ? performance.now() + 200 : cameraBusyUntil;
    if (!force && performance.now() < waitUntil) {
      // A check skipped while the camera moves is made once the move ends, not at the next fix.
      if (!retry) retry = setTimeout(() => { retry = null; frame(false); }, waitUntil - performance.now() + 10);
      return;
    }
    const points = framedPoints();
    if (!points.length) return;
    if (!hasView) force = true;
    hasView = true;
    const pad = padding(points);
    const [left, top] = pad.paddingTopLeft;
    const right = window.innerWidth - pad.paddingBottomRight[0], bottom = window.innerHeight - pad.paddingBottomRight[1];
    // Inside with some slack: a point may wander DRIFT px into the padding before the camera
    // moves, its marker still clear of the edge.
    const inside = !force && points.every((p) => {
      const c = map.latLngToContainerPoint(p);
      return c.x >= left - DRIFT && c.x <= right + DRIFT && c.y >= top - DRIFT && c.y <= bottom + DRIFT;
    });
    const best = cameraFor(points, pad);
    if (!force && inside && !(atFix && best.zoom > map.getZoom())) return;
    programmatic = true;
    try {
      // A zoom of more than one step is made at once: animated, Leaflet scales the old
      // tiles and the route as clipped to the old view (after the pickup, a zoom out from the
      // car to the dropoff showed one small tile and a piece of the route for a second).
      const animate = !force && Math.abs(best.zoom - map.getZoom()) <= 1;
      map.setView(best.center, best.zoom, { animate });
    } finally { programmatic = false; }
    // An animated move takes a quarter of a second: not started again meanwhile.
    cameraBusyUntil = performance.now() + (force ? 0 : 350);
    programmaticUntil = performance.now() + 400;
  }

  // MARK: - The style sheet's markers and lines

  async function loadIcons() {
    const scale = Math.min(4, Math.max(1, Math.ceil(window.devicePixelRatio || 1)));
    await Promise.all(["tripPickupPoint", "tripDropoffPoint", "tripVehicle", "intermediateDestination"].map(async (type) => {
      const response = await fetch(`/v1/styles/${encodeURIComponent(styleName)}/markers/${type}/icon.png?scale=${scale}`, { headers: auth });
      if (!response.ok) return;
      const blob = await response.blob();
      const bitmap = await createImageBitmap(blob);
      icons[type] = { url: URL.createObjectURL(blob), width: bitmap.width / scale, height: bitmap.height / scale };
    }));
  }

  function markerOptions(type) { return (sheet && sheet.markers && sheet.markers[type]) || {}; }

  // A Leaflet icon of the style sheet's picture, anchored at its groundAnchor.
  function pinIcon(type, className, number) {
    const icon = icons[type];
    if (!icon) return null;
    const anchor = markerOptions(type).groundAnchor || (type === "tripVehicle" ? [0.5, 0.5] : [0.5, 1]);
    const box = document.createElement("div");
    const image = document.createElement("img");
    image.src = icon.url;
    image.alt = "";
    image.width = icon.width;
    image.height = icon.height;
    box.append(image);
    if (number !== undefined) {
      const label = document.createElement("span");
      label.className = "number";
      label.textContent = String(number);
      label.style.top = `${icon.height / 2 - 6}px`;
      box.append(label);
    }
    return L.divIcon({
      html: box, className: `pin ${className}`, iconSize: [icon.width, icon.height],
      iconAnchor: [anchor[0] * icon.width, anchor[1] * icon.height],
    });
  }

  function lineOptions(type) { return (sheet && sheet.polylines && sheet.polylines[type]) || {}; }

  // The runs of a leg in its traffic colours (or the line's colour with traffic off).
  function runs(type, path, traffic, from, shift = 0) {
    const style = lineOptions(type);
    if (style.isVisible === false || path.points.length < 2) return [];
    const colours = style.trafficColors || {};
    const colourOf = { NORMAL: colours.normal, SLOW: colours.slow, TRAFFIC_JAM: colours.trafficJam };
    const intervals = style.isTrafficEnabled && traffic && traffic.speedReadingInterval || [];
    const pieces = [];
    let cursor = 0;
    for (const interval of intervals) {
      const start = path.along[Math.min((interval.startPolylinePointIndex || 0) + shift, path.points.length - 1)];
      const end = path.along[Math.min((interval.endPolylinePointIndex || 0) + shift, path.points.length - 1)];
      if (start > cursor) pieces.push([cursor, start, colours.noData || style.color]);
      pieces.push([start, end, colourOf[interval.speed] || colours.noData || style.color]);
      cursor = Math.max(cursor, end);
    }
    if (cursor < path.length) pieces.push([cursor, path.length, intervals.length ? (colours.noData || style.color) : style.color]);
    return pieces.filter(([a, b]) => b > from && b > a).map(([a, b, colour]) => ({
      points: slice(path, Math.max(a, from), b), colour: colour || "#1A73E8", width: style.width || 5, zIndex: style.zIndex || 0,
    }));
  }

  // Legs decoded once per trip update (the active one is redrawn every frame).
  const legTracks = new Map();

  function legTrack(encoded) {
    if (!legTracks.has(encoded)) legTracks.set(encoded, track(decodePolyline(encoded)));
    return legTracks.get(encoded);
  }

  function drawRoutes() {
    const drawn = [];
    const legs = trip && !ended ? trip.remainingWaypoints || [] : [];
    if (car.path && legs.length) drawn.push(...runs("activeRoute", car.path, legs[0].trafficToWaypoint, car.along, car.shift));
    for (const leg of legs.slice(1)) {
      if (leg.encodedPathToWaypoint) drawn.push(...runs("remainingRoute", legTrack(leg.encodedPathToWaypoint), leg.trafficToWaypoint, 0));
    }
    drawn.sort((a, b) => a.zIndex - b.zIndex);
    // The same runs as before (the car glided): moved in place, not made anew each frame.
    if (drawn.length === layers.routes.length && drawn.every((run, i) => layers.routes[i].options.color === run.colour)) {
      drawn.forEach((run, i) => layers.routes[i].setLatLngs(run.points));
      return;
    }
    for (const line of layers.routes) line.remove();
    layers.routes = drawn.map((run) => L.polyline(run.points, {
      pane: "trip-routes", color: run.colour, weight: run.width, opacity: 1, lineCap: "round", lineJoin: "round", interactive: false,
    }).addTo(map));
  }

  function drawPins() {
    for (const pin of layers.pins) pin.remove();
    layers.pins = [];
    if (layers.badge) { layers.badge.remove(); layers.badge = null; }
    if (!trip) return;
    const status = trip.tripStatus;
    const stops = [];
    const remaining = trip.remainingWaypoints || [];
    if (ended) {
      const last = trip.actualDropoffPoint && trip.actualDropoffPoint.point || trip.dropoffPoint && trip.dropoffPoint.point;
      if (last && status === "COMPLETE") stops.push({ type: "tripDropoffPoint", point: last });
    } else {
      let number = 0;
      for (const waypoint of remaining) {
        const point = waypoint.location && waypoint.location.point;
        if (!point) continue;
        const type = waypoint.waypointType === "PICKUP_WAYPOINT_TYPE" ? "tripPickupPoint"
          : waypoint.waypointType === "DROP_OFF_WAYPOINT_TYPE" ? "tripDropoffPoint" : "intermediateDestination";
        if (type === "intermediateDestination") number = (trip.intermediateDestinations || []).findIndex((d) => d.point
          && Math.abs(d.point.latitude - point.latitude) < 1e-7 && Math.abs(d.point.longitude - point.longitude) < 1e-7) + 1;
        stops.push({ type, point, number: type === "intermediateDestination" && number > 0 ? number : undefined });
      }
      if (!remaining.length && trip.dropoffPoint) stops.push({ type: "tripDropoffPoint", point: trip.dropoffPoint.point });
    }
    for (const stop of stops) {
      if (markerOptions(stop.type).isVisible === false) continue;
      const icon = pinIcon(stop.type, stop.type, stop.number);
      if (!icon) continue;
      layers.pins.push(L.marker([stop.point.latitude, stop.point.longitude], {
        icon, interactive: false, keyboard: false, zIndexOffset: (markerOptions(stop.type).zIndex || 0) * 100,
      }).addTo(map));
    }
    drawBadge(stops.find((s) => s.type === "tripPickupPoint"));
  }

  // The pickup's ETA badge while the car is on its way to it ("4 min", "1 hr 45 min": the
  // previews' rule, units.duration; "Now" on arrival).
  function drawBadge(pickup) {
    const status = trip && trip.tripStatus;
    const label = markerOptions("tripPickupPoint").etaLabel || {};
    if (!pickup || label.isVisible === false || !["NEW", "ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP"].includes(status)) return;
    const seconds = secondsTo(trip.remainingWaypoints && trip.remainingWaypoints[0]);
    const text = seconds === null && status !== "ARRIVED_AT_PICKUP" ? null
      : status === "ARRIVED_AT_PICKUP" || seconds <= 0 ? "Now" : units.duration(seconds);
    if (!text) return;
    const badge = document.createElement("div");
    badge.className = "badge";
    badge.textContent = text;
    badge.style.color = label.textColor || "#fff";
    badge.style.background = label.backgroundColor || "#202124";
    badge.style.borderColor = label.outlineColor || "#fff";
    badge.style.fontSize = `${label.fontSize || 13}px`;
    const icon = icons.tripPickupPoint;
    const anchor = markerOptions("tripPickupPoint").groundAnchor || [0.5, 1];
    badge.style.top = `${-(icon ? anchor[1] * icon.height + 4 : 36)}px`;
    layers.badge = L.marker([pickup.point.latitude, pickup.point.longitude], {
      icon: L.divIcon({ html: badge, className: "badge-anchor", iconSize: [0, 0] }), interactive: false, keyboard: false, zIndexOffset: 1000,
    }).addTo(map);
  }

  // MARK: - The gliding car

  // The car's path is the active route from the last fix (or, while catching up, from where
  // the car is drawn to the fix and on); `base` is where the fix lies on it, `lead` where a car
  // drawn ahead of a fix waits, `along` where it is drawn.
  const car = {
    marker: null, image: null, path: null, point: null, heading: 0, along: 0, base: 0, lead: 0, shift: 0,
    fixTime: 0, speed: 0, horizon: 5, lastFixTime: 0, frame: 0, timer: 0, fixes: 0,
  };

  // Where the car may be `now`: from the fix at the reported speed, for at most `horizon` seconds.
  function extrapolated(now) {
    return car.base + car.speed * Math.min(Math.max(0, (now - car.fixTime) / 1000), car.horizon);
  }

  // Where the car is drawn: catching up on a fix ahead within a second, holding at `lead`
  // until the extrapolation passes it, and never behind where it was drawn before.
  function drawnAlong(now) {
    const blend = car.base * Math.max(0, 1 - (now - car.fixTime) / 1000);
    return Math.min(Math.max(extrapolated(now) - blend, car.lead, car.along), car.path ? car.path.length : 0);
  }

  function newFix(location, path) {
    const now = performance.now();
    // The extrapolation stops a little after the next fix is due.
    if (car.lastFixTime) car.horizon = Math.min(10, Math.max(2, 1.5 * (now - car.lastFixTime) / 1000));
    car.lastFixTime = now;
    const fix = location ? [location.latitude, location.longitude] : path ? path.points[0] : null;
    if (!fix) return;
    let next = path && path.points.length >= 2 ? path : track([fix, fix]);
    let base = 0, lead = 0, shift = 0;
    if (car.path && car.point) {
      const onOld = project(car.path, fix);
      if (onOld.offset < 30 && onOld.distance - car.along > 0.5) {
        // A fix ahead: the road from the drawn car to it comes first.
        const stretch = slice(car.path, car.along, onOld.distance);
        base = track(stretch).length;
        next = track(stretch.concat(next.points.slice(1)));
        shift = stretch.length - 1;
      } else if (onOld.offset < 30) {
        // A fix behind the drawn car: it waits where it is until the fix's car passes it.
        const drawn = project(next, car.point);
        if (drawn.offset < 30) lead = drawn.distance;
      }
      // Anything else (a new route, a jump): the car is drawn at the fix at once.
    }
    Object.assign(car, {
      path: next, along: lead, base, lead, shift, fixTime: now, fixes: car.fixes + 1,
      speed: Math.max(0, Number(trip.lastLocation && trip.lastLocation.speed) || 0),
    });
    clearTimeout(car.timer);
    animate();
  }

  // The car's icon, its picture turned about its ground anchor.
  function carIcon() {
    const icon = pinIcon("tripVehicle", "car");
    if (!icon) return null;
    const anchor = markerOptions("tripVehicle").groundAnchor || [0.5, 0.5];
    car.image = icon.options.html.querySelector("img");
    car.image.style.transformOrigin = `${anchor[0] * 100}% ${anchor[1] * 100}%`;
    return icon;
  }

  // Puts the car where it is drawn `now`, turned with the road under it.
  function placeCar(now) {
    if (!car.path || ended) return;
    car.along = drawnAlong(now);
    car.point = pointAt(car.path, car.along);
    const ahead = pointAt(car.path, car.along + 5), behind = pointAt(car.path, car.along - 5);
    if (metres(behind, ahead) > 1) car.heading = bearing(behind, ahead);
    else if (trip && trip.lastLocation && typeof trip.lastLocation.heading === "number") car.heading = trip.lastLocation.heading;
    if (!car.marker && markerOptions("tripVehicle").isVisible !== false) {
      const icon = carIcon();
      if (icon) car.marker = L.marker(car.point, { icon, interactive: false, keyboard: false, zIndexOffset: 4000 }).addTo(map);
    }
    if (!car.marker) return;
    car.marker.setLatLng(car.point);
    if (car.image && markerOptions("tripVehicle").isFlat !== false) car.image.style.transform = `rotate(${car.heading}deg)`;
  }

  // A frame while the car moves, none once it rests: at its horizon, at the path's end, or
  // waiting for the extrapolation to pass a fix behind it (a timer wakes it then).
  function animate() {
    if (!car.frame) car.frame = requestAnimationFrame(step);
  }

  function step() {
    car.frame = 0;
    const now = performance.now();
    const before = car.along;
    placeCar(now);
    if (car.along !== before) drawRoutes();
    frame(false, false);
    body.dataset.frames = String((Number(body.dataset.frames) || 0) + 1);
    const elapsed = (now - car.fixTime) / 1000;
    const catching = car.base > 0 && elapsed < 1;
    const running = car.speed > 0 && elapsed < car.horizon;
    if (!car.path || car.along >= car.path.length || (!catching && !running)) return;
    const waitSeconds = catching ? 0 : (car.lead - extrapolated(now)) / car.speed;
    if (waitSeconds > 0.05) car.timer = setTimeout(animate, 1000 * Math.min(waitSeconds, car.horizon - elapsed));
    else animate();
  }

  // MARK: - Words

  function secondsTo(waypoint) {
    if (!waypoint || !waypoint.eta) return null;
    return Math.max(0, (Date.parse(waypoint.eta) - Date.now()) / 1000);
  }

  // An arrival time to the minute the minutes shown round to, so that "4 min" and the clock agree.
  function arrivalClock(eta) {
    const minutes = Math.round((Date.parse(eta) - Date.now()) / 60000);
    return units.clock(Date.now() + Math.max(0, minutes) * 60000);
  }

  function nextStop() {
    if (!trip) return null;
    const waypoint = (trip.remainingWaypoints || [])[0];
    if (waypoint && waypoint.location && waypoint.location.point) return [waypoint.location.point.latitude, waypoint.location.point.longitude];
    const point = trip.dropoffPoint && trip.dropoffPoint.point;
    return point ? [point.latitude, point.longitude] : null;
  }

  function roadKey(point) { return `${point.latitude.toFixed(5)},${point.longitude.toFixed(5)}`; }

  async function streetOf(point) {
    if (!point) return "";
    const key = roadKey(point);
    if (!roads.has(key)) {
      roads.set(key, "");
      try {
        const answer = await (await fetch(`/map/nearest-road?lat=${point.latitude}&lng=${point.longitude}`)).json();
        roads.set(key, answer.name || "");
      } catch (error) { /* no name */ }
    }
    return roads.get(key);
  }

  function stopLabel(waypoint) {
    if (!waypoint) return "your destination";
    const point = waypoint.location && waypoint.location.point;
    const name = point ? roads.get(roadKey(point)) : "";
    if (name) return name;
    return waypoint.waypointType === "INTERMEDIATE_DESTINATION_WAYPOINT_TYPE" ? "your next stop" : "your destination";
  }

  function showStatus() {
    const status = trip.tripStatus || "UNKNOWN_TRIP_STATUS";
    const legs = trip.remainingWaypoints || [];
    const first = legs[0];
    const last = legs[legs.length - 1];
    const beforePickup = status === "NEW" || status === "ENROUTE_TO_PICKUP";
    const toFirst = secondsTo(first);
    const words = {
      NEW: "Your driver will set off soon",
      ENROUTE_TO_PICKUP: toFirst === null ? "Your driver is on the way"
        : toFirst < 45 ? "Your driver is arriving" : `Your driver is ${units.duration(toFirst)} away`,
      ARRIVED_AT_PICKUP: "Your driver is here",
      ENROUTE_TO_INTERMEDIATE_DESTINATION: `On the way to ${stopLabel(first)}`,
      ARRIVED_AT_INTERMEDIATE_DESTINATION: `Stopped at ${stopLabel(first)}`,
      ENROUTE_TO_DROPOFF: `On the way to ${stopLabel(last)}`,
      COMPLETE: "You have arrived",
      CANCELED: "This trip was canceled",
    };
    $("status").textContent = words[status] || "Following your trip";
    body.dataset.state = status;
    if (ENDED.has(status)) {
      document.documentElement.classList.add("ended");
      if (status === "CANCELED") document.documentElement.classList.add("canceled");
      $("eta-minutes").textContent = status === "COMPLETE" ? "✓" : "✕";
      $("eta-label").textContent = status === "COMPLETE" ? "Trip complete" : "Trip canceled";
      const arrived = status === "COMPLETE" && (trip.actualDropoffPoint && trip.actualDropoffPoint.timestamp || trip.dropoffTime);
      $("eta-clock-label").textContent = "Arrived at";
      $("eta-clock").textContent = arrived ? units.clock(arrived) : "–";
      $("clock-box").hidden = !arrived;
      $("distance-box").hidden = true;
      $("maneuver").hidden = true;
      body.dataset.eta = "ended";
      return;
    }
    // Before the pickup the numbers are the pickup's; from then on, the end of the trip's.
    const target = beforePickup ? first : last;
    const seconds = secondsTo(target);
    if (status === "ARRIVED_AT_PICKUP") {
      $("eta-minutes").textContent = "Now";
      $("eta-label").textContent = "your driver is waiting";
    } else if (seconds !== null) {
      $("eta-minutes").textContent = units.duration(Math.max(seconds, 60));
      $("eta-label").textContent = beforePickup ? "to pickup" : "to arrival";
    }
    const clockTarget = status === "ARRIVED_AT_PICKUP" ? last : target;
    $("eta-clock-label").textContent = beforePickup ? "Pickup at" : "Arrives at";
    $("eta-clock").textContent = clockTarget && clockTarget.eta ? arrivalClock(clockTarget.eta) : "–";
    $("clock-box").hidden = false;
    const meters = beforePickup ? (first ? first.distanceMeters || 0 : 0) : legs.reduce((sum, leg) => sum + (leg.distanceMeters || 0), 0);
    $("distance").textContent = units.distance(meters);
    $("distance-box").hidden = false;
    body.dataset.eta = "shown";
  }

  function showStops() {
    const list = $("stops");
    list.replaceChildren();
    const status = trip.tripStatus;
    const pickedUp = !["NEW", "ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP"].includes(status);
    const rows = [];
    if (trip.pickupPoint) rows.push({ kind: "Pickup", point: trip.pickupPoint.point, done: pickedUp });
    (trip.intermediateDestinations || []).forEach((stop, index) => rows.push({
      kind: `Stop ${index + 1}`, point: stop.point,
      done: ENDED.has(status) || status === "ENROUTE_TO_DROPOFF" || (pickedUp && index < (trip.intermediateDestinationIndex || 0)),
    }));
    if (trip.dropoffPoint) rows.push({ kind: "Dropoff", point: trip.dropoffPoint.point, done: status === "COMPLETE" });
    for (const row of rows) {
      if (!row.point) continue;
      const item = document.createElement("li");
      const kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = row.kind;
      const name = document.createElement("span");
      if (row.done) name.className = "done";
      name.textContent = roads.get(roadKey(row.point)) || "…";
      item.append(kind, name);
      list.append(item);
      streetOf(row.point).then((street) => {
        name.textContent = street || `${row.point.latitude.toFixed(4)}, ${row.point.longitude.toFixed(4)}`;
        if (trip && !ENDED.has(trip.tripStatus)) showStatus();
      });
    }
  }

  // The driver's next turn, only when the style sheet asks for it (riders' apps do not show it).
  async function showManeuver(data) {
    if (!(sheet && sheet.map && sheet.map.showsNextTurn) || ended) { $("maneuver").hidden = true; return; }
    const info = data.navInfo || data;
    const step = info && info.currentStep;
    if (!step || !step.maneuver) return;
    const road = step.simpleRoadName || step.fullRoadName;
    $("maneuver-text").textContent = road ? `${step.maneuver.replace(/([A-Z])/g, " $1").toLowerCase()} onto ${road}` : step.maneuver.replace(/([A-Z])/g, " $1").toLowerCase();
    const ahead = info.distanceToCurrentStepMeters;
    $("maneuver-when").textContent = ahead > 0 ? `In ${units.distance(ahead)}` : "Next";
    $("maneuver").hidden = false;
    const response = await fetch(`/v1/maneuvers/${encodeURIComponent(step.maneuver)}.png?size=square96&lighting=lowLight`, { headers: auth });
    if (response.ok) $("maneuver-icon").src = URL.createObjectURL(await response.blob());
  }

  // MARK: - Updates

  // Whether the server was out of reach since the trip was last read.
  let disconnected = false;

  function setConnection(text) {
    $("connection").textContent = text;
    if (text) disconnected = true;
  }

  function expired() {
    ended = true;
    document.documentElement.classList.add("expired");
    $("status").textContent = "This share link has expired";
    $("eta-minutes").parentElement.hidden = true;
    $("clock-box").hidden = true;
    $("distance-box").hidden = true;
    setConnection("Ask whoever sent it for a new link to keep following the trip.");
    body.dataset.state = "EXPIRED";
    body.dataset.eta = "ended";
    if (car.marker) { car.marker.remove(); car.marker = null; }
    if (layers.badge) { layers.badge.remove(); layers.badge = null; }
    for (const line of layers.routes) line.remove();
    layers.routes = [];
    // The trip's own tiles take the token: the map goes on with the public ones.
    if (basemap.key) { basemap.key = ""; addTiles(); }
  }

  function showTrip(next) {
    const previous = trip;
    trip = next;
    legTracks.clear();
    ended = ENDED.has(trip.tripStatus);
    const legs = trip.remainingWaypoints || [];
    const moved = !previous || JSON.stringify(previous.lastLocation) !== JSON.stringify(trip.lastLocation)
      || (previous.remainingWaypoints || []).length !== legs.length
      || (legs[0] && legs[0].encodedPathToWaypoint) !== (previous.remainingWaypoints || [])[0]?.encodedPathToWaypoint;
    if (moved && !ended) {
      const path = legs[0] && legs[0].encodedPathToWaypoint ? track(decodePolyline(legs[0].encodedPathToWaypoint)) : null;
      if (!sameRoute(basemap.leg, path)) basemap.routes += 1;
      basemap.leg = path;
      newFix(trip.lastLocation && trip.lastLocation.location, path);
    }
    if (ended) {
      car.speed = 0;
      if (car.marker) { car.marker.remove(); car.marker = null; }
      car.point = null;
    }
    placeCar(performance.now());
    drawRoutes();
    drawPins();
    showStatus();
    if (!previous || (previous.remainingWaypoints || []).length !== legs.length || ended) showStops();
    // The first trip read moves the camera only when the page's own first view does not hold
    // the car and the next stop as they are now (frame fits at once when there is no view yet):
    // fitting again anyway moved a first map still loading, on a slow machine, for a car that
    // had moved a few metres, and doubled its tiles.
    frame(false, true);
    layout();
  }

  function readTrip() {
    return fetch(`${api}?view=JOURNEY_SHARING_V1S`, { headers: auth, cache: "no-store" });
  }

  // Shows the trip read now, or by `reading` (a read already under way).
  async function refreshTrip(reading) {
    const response = await (reading || readTrip());
    if (response.status === 401 || response.status === 403) { expired(); return; }
    if (!response.ok) throw new Error(`trip answered ${response.status}`);
    showTrip(await response.json());
  }

  // What of the trip the tiles keep clear of, as far as the page can tell: the status, the
  // stops, the legs after the first, and the first leg's route (counted anew whenever a
  // route arrives that is not the previous one trimmed at the car).
  function mapOverlay() {
    if (!trip) return "";
    const legs = trip.remainingWaypoints || [];
    return JSON.stringify([trip.tripStatus, basemap.routes, legs.map((leg) => [
      leg.waypointType, leg.location && leg.location.point, legs.indexOf(leg) > 0 ? leg.encodedPathToWaypoint || "" : "",
    ])]);
  }

  // True when every point of `next` lies on `previous` (within 15 m): a route trimmed at the
  // car, not a new one. A detour of one point beyond the car counts, so none is skipped.
  function sameRoute(previous, next) {
    if (!previous || !next) return previous === next;
    return next.points.every((point) => project(previous, point).offset <= 15);
  }

  // The tiles follow the trip's route: a new key (a new route, a stop passed) switches them.
  async function refreshMapKey() {
    if (!basemap.key || ended) return;
    const sheetQuery = query.get("style") ? `?style=${encodeURIComponent(styleName)}` : "";
    const response = await fetch(`/share/${encodeURIComponent(token)}/map.json${sheetQuery}`, { cache: "no-store" });
    if (!response.ok) return;
    const { key } = await response.json();
    if (key && key !== basemap.key) {
      basemap.key = key;
      addTiles();
    }
  }

  async function refresh(reading) {
    if (body.dataset.state === "EXPIRED") return;  // the token no longer opens the trip
    try {
      await refreshTrip(reading);
      // The key is asked for whenever what the tiles keep clear of may have changed: a new
      // status, stops, or a route that is not the old one trimmed at the car (a reroute, also
      // one that keeps the car on its old path). Not at every fix: the key holds while the
      // car drives along its route.
      const drawn = mapOverlay();
      if (drawn !== basemap.overlay) {
        basemap.overlay = drawn;
        refreshMapKey().catch(() => {});
      }
      if (body.dataset.state === "EXPIRED") return;  // keep the expired state's advice
      if (disconnected) {
        disconnected = false;
        retryTiles();
      }
      updates += 1;
      body.dataset.updates = String(updates);
      setConnection("");
    } catch (error) {
      setConnection("Cannot reach the server; retrying…");
    }
  }

  function soon() {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => { refreshTimer = null; refresh(); }, 200);
  }

  function handleEvent(type, data) {
    if (type === "eventsExpired") {
      body.dataset.expired = String((Number(body.dataset.expired) || 0) + 1);
      refresh();
      return;
    }
    if (type === "didUpdateNavInfo") {
      try { showManeuver(JSON.parse(data)); } catch (error) { /* not for us */ }
    }
    soon();
  }

  // The car and the next stop as the page was served: the first view and its tiles start at
  // once, beside the reads of the style sheet, the icons and the trip (the first map's time).
  function firstView() {
    const points = (body.dataset.view || "").split(";").map((p) => p.split(",").map(Number)).filter((p) => p.length === 2 && p.every(Number.isFinite));
    if (!points.length) return;
    hasView = true;
    programmatic = true;
    try {
      const best = cameraFor(points, padding(points));
      map.setView(best.center, best.zoom, { animate: false });
    } finally { programmatic = false; }
    programmaticUntil = performance.now() + 400;
    addTiles();
  }

  async function start() {
    body.dataset.following = "yes";
    firstView();
    try {
      const response = await fetch(`/v1/styles/${encodeURIComponent(styleName)}`, { headers: auth });
      if (response.status === 401 || response.status === 403) { expired(); return; }
      if (response.ok) sheet = await response.json();
    } catch (error) { /* drawn with defaults */ }
    if (!basemap.layer || body.dataset.basemap !== basemapStyle()) addTiles();
    else if (sheet && sheet.map) $("map").style.background = night ? sheet.map.nightBackground : sheet.map.background;
    // The trip is read while the icons load; it is shown once they are in.
    const firstTrip = readTrip();
    firstTrip.catch(() => {});
    await loadIcons().catch(() => {});
    await refresh(firstTrip);
    // Leaflet learns the new size on its next animation frame; the camera fits the new size now.
    window.addEventListener("resize", () => { map.invalidateSize({ pan: false }); layout(); frame(true); });
    // The sheet grows and shrinks with what it says (a stop's street arrives later): the
    // controls above it follow.
    if (window.ResizeObserver) new ResizeObserver(() => layout()).observe($("sheet"));
    if (body.dataset.nav) {
      try { showManeuver(JSON.parse(body.dataset.nav)); } catch (error) { /* no navigation to show */ }
    }
    if (!ended) {
      followEventStream({
        url: `${api}/events`, headers: auth, onEvent: handleEvent, onStatus: setConnection,
        onExpired: expired, onReconnect: soon, isEnded: () => ended,
      });
    }
    // The minutes move even when nothing is reported.
    setInterval(() => { if (!ended && trip) showStatus(); }, 15000);
  }

  // For automated checks: where things are drawn, in window (CSS) pixels.
  window.tripshareShare = {
    car() {
      const element = car.marker && car.marker.getElement();
      if (!element) return null;
      const box = element.getBoundingClientRect();
      const anchor = markerOptions("tripVehicle").groundAnchor || [0.5, 0.5];
      return { x: box.left + anchor[0] * box.width, y: box.top + anchor[1] * box.height, along: car.along, fix: car.fixes };
    },
    zoom() { return map.getZoom(); },
    // True while tiles of the current view are still coming: until then Leaflet shows the
    // previous zoom's tiles scaled, whose lines are drawn at that zoom's widths.
    tilesLoading() { return Boolean(basemap.layer && basemap.layer.isLoading()); },
    // True while Leaflet animates a zoom: markers and lines are then mid-transition, and
    // positions projected at the new zoom do not match what is drawn.
    zooming() { return zooming; },
    center() { const c = map.getCenter(); return [c.lat, c.lng]; },
    // How many drags Leaflet has taken (a press it ignored makes none).
    drags() { return drags; },
    route() { return car.path ? car.path.points.map((p) => { const c = map.latLngToContainerPoint(p); return [c.x, c.y]; }) : []; },
    nextStop() { const p = nextStop(); if (!p) return null; const c = map.latLngToContainerPoint(p); return { x: c.x, y: c.y }; },
    visibleArea,
  };

  if (!window.L) {
    $("map-missing").hidden = false;
    $("map-missing").textContent = "The map cannot be shown: this server lacks its map library (Debian's libjs-leaflet).";
  } else {
    start();
  }
})();
