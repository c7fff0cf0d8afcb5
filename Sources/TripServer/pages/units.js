// Units and clock for both browser pages (the rider's share page and the driver's page): the
// page's ?units=metric|imperial when given, else what the browser's language uses for road
// distances (miles in the United States, the United Kingdom, Liberia and Myanmar); times of
// day in the browser's own clock style (12- or 24-hour, as its language has it).
//
// const units = pageUnits();      units.system is "metric" or "imperial"
// units.distance(1234)            "1.2 km", "0.8 mi", "300 ft", "50 m"
// units.duration(300)             "5 min", "1 hr 5 min", "2 d 2 hr"
// units.clock(date, timeZone)     "5:42 PM", "17:42"
"use strict";

function pageUnits(search = location.search) {
  const asked = new URLSearchParams(search).get("units");
  const language = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  let region = "";
  try { region = new Intl.Locale(language).maximize().region || ""; } catch (error) { region = ""; }
  const miles = ["US", "GB", "LR", "MM"].includes(region);
  const system = asked === "metric" || asked === "imperial" ? asked : (miles ? "imperial" : "metric");

  function distance(meters) {
    const m = Math.max(0, Number(meters) || 0);
    if (system === "imperial") {
      const mi = m / 1609.344;
      if (mi < 0.1) return `${Math.max(0, Math.round(m / 0.3048 / 50) * 50)} ft`;
      return `${mi < 9.95 ? mi.toFixed(1) : Math.round(mi)} mi`;
    }
    if (m < 100) return `${Math.round(m / 10) * 10} m`;
    if (m < 975) return `${Math.round(m / 50) * 50} m`;
    return `${m < 9950 ? (m / 1000).toFixed(1) : Math.round(m / 1000)} km`;
  }

  // The rule of NavigationText.duration (Render), which previews' ETA badges also use.
  function duration(seconds) {
    const minutes = seconds > 0 ? Math.max(1, Math.round(seconds / 60)) : 0;
    if (minutes < 60) return `${minutes} min`;
    const hours = Math.floor(minutes / 60);
    if (hours < 24) return `${hours} hr${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
    return `${Math.floor(hours / 24)} d${hours % 24 ? ` ${hours % 24} hr` : ""}`;
  }

  function clock(date, timeZone) {
    const options = { hour: "numeric", minute: "2-digit" };
    if (timeZone) options.timeZone = timeZone;
    return new Date(date).toLocaleTimeString(language, options);
  }

  return { system, distance, duration, clock };
}
