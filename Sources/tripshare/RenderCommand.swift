import ArgumentParser
import Basemap
import Foundation
import JSON
import Logging
import Raster
import Render
import Styling
import TripModel

/// `tripshare render`: a trip preview PNG without a server.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a trip preview PNG from a trip's JSON, as GET .../preview.png would, or a map alone.",
        discussion: """
            TRIP.json is a trip exactly as `GET /v1/providers/{p}/trips/{id}?view=JOURNEY_SHARING_V1S` returns it. \
            The options are those of preview.png. --at fixes the render time, which the pickup ETA badge counts \
            minutes from. With --basemap the streets of a PMTiles or MBTiles file are drawn under the trip; with \
            --center and --zoom, --trip may be left out to draw the map alone. --display-list writes the drawing \
            operations as JSON (the basemap's fills and lines, then the trip; IntegrationTests/cairo/cairo_compare.py replays them).
            Example: tripshare render --basemap data-samples/helsinki.pmtiles --center 60.1699,24.9384 --zoom 15 --out map.png
            """
    )

    @Option(help: "The trip's JSON (JOURNEY_SHARING_V1S view); may be left out when --center and --zoom are given.")
    var trip: String?

    @Option(help: "Where to write the PNG.")
    var out: String

    @Option(help: "A style name (default, night, traffic, brand) or the path of a style JSON file.")
    var style: String = StyleLibrary.defaultName

    @Option(help: "Width in pixels at scale 1 (default 640).")
    var width: String?

    @Option(help: "Height in pixels at scale 1 (default 480).")
    var height: String?

    @Option(help: "1–4: multiplies every length.")
    var scale: String?

    @Option(help: "Camera centre as LAT,LNG (fitted to the content when absent).")
    var center: String?

    @Option(help: "Zoom, fractional allowed (fitted when absent).")
    var zoom: String?

    @Option(help: "Degrees clockwise from north at the top.")
    var bearing: String?

    @Option(help: "Pixels kept free around fitted content (default 48).")
    var padding: String?

    @Option(help: "normal or lowLight.")
    var lighting: String?

    @Option(help: "The render time, RFC 3339 (default: now).")
    var at: String?

    @Option(name: .customLong("display-list"), help: "Also write the display list as JSON here.")
    var displayList: String?

    @Flag(name: .customLong("routes-only"), help: "Draw only the route lines (for comparing with a reference renderer).")
    var routesOnly = false

    @OptionGroup(title: "Basemap") var basemapOptions: BasemapOptions

    func validate() throws {
        if trip == nil, center == nil || zoom == nil {
            throw ValidationError("give --trip TRIP.json, or --center and --zoom to draw a map alone")
        }
    }

    func run() throws {
        let parameters = [
            "width": width, "height": height, "scale": scale, "center": center, "zoom": zoom,
            "bearing": bearing, "padding": padding, "lighting": lighting,
        ].compactMapValues { $0 }
        let options: PreviewOptions
        do { options = try PreviewOptions(parameters: parameters) } catch { throw ValidationError(error.message) }
        var now = Timestamp(Date())
        if let at {
            guard let time = Timestamp(rfc3339: at) else { throw ValidationError("--at: '\(at)' is not an RFC 3339 time") }
            now = time
        }
        var tripValue = Trip(name: "")
        if let trip {
            let data = try CommandFiles.read(trip)
            do {
                tripValue = try JSONCoding.decode(Trip.self, from: Array(data), root: "trip")
            } catch {
                throw RenderFailure("\(trip): \(error.message)")
            }
        }

        let sheet: StyleSheet
        do {
            let library = try StyleLibrary.bundled()
            if style.hasSuffix(".json") || style.contains("/") {
                sheet = try library.style(file: URL(fileURLWithPath: style))
            } else if let named = library.style(named: style) {
                sheet = named
            } else {
                throw ValidationError("--style: no style '\(style)'; styles are \(library.names.joined(separator: ", ")), or give a .json path")
            }
        } catch let error as StyleError {
            throw RenderFailure("style \(error)")
        }

        Logs.bootstrap(.text, level: .warning)
        let basemap = try basemapOptions.open(logger: Logger(label: "tripshare"))
        let preview = TripPreview(trip: tripValue, style: sheet, options: options, now: now, basemap: basemap)
        let layers: PreviewLayers = routesOnly ? .routes : .all
        try Data(PNGCodec.encode(preview.render(layers: layers).image)).write(to: URL(fileURLWithPath: out))
        if let displayList {
            var list = try preview.displayList(layers: layers)
            if let basemap = preview.mapBasemap {
                // The basemap's fills and lines under the trip (its labels and attribution are
                // glyph outlines, left out), so a reference renderer can draw the whole picture.
                let view = MapView(camera: try preview.camera())
                list.operations = basemap.geometryDisplayList(view: view).operations + list.operations
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(list).write(to: URL(fileURLWithPath: displayList))
        }
        print("Wrote \(out) (\(options.pixelWidth)x\(options.pixelHeight)\(preview.etaLabel.map { ", ETA badge \"\($0)\"" } ?? "")).")
    }
}

/// A failure reading the command's inputs, printed as is (without usage).
struct RenderFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
