import CCairo
import Foundation

/// The progress picture: practice-test scores in order, with the state's pass line.
/// Drawn with cairo's toy text API, which is enough for short ASCII labels and keeps us
/// off Pango; DejaVu Sans is on every Debian image we deploy to.
public struct ScoreChart {
    public struct Point: Sendable, Equatable {
        public var date: Date
        public var percent: Int
        public init(date: Date, percent: Int) {
            self.date = date
            self.percent = percent
        }
    }

    // Layout in points; the surface is `scale`x so text stays crisp on phone screens.
    static let width = 960.0, height = 540.0, scale = 2.0
    static let plotLeft = 72.0, plotRight = 840.0, plotTop = 96.0, plotBottom = 472.0
    /// Keeps the first and last dots off the plot's edges.
    static let inset = 24.0

    /// A PNG of `points` (sorted by date here), or nil for no points or a cairo failure.
    public static func png(points: [Point], passPercent: Int, title: String, timeZone: TimeZone) -> Data? {
        guard !points.isEmpty else { return nil }
        let points = points.sorted { $0.date < $1.date }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width * scale), Int32(height * scale))
        else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)

        setColor(cr, 0xFFFFFF)
        cairo_paint(cr)
        drawTitle(cr, title)
        drawGrid(cr)
        drawPassLine(cr, percent: clamp(passPercent))
        drawScores(cr, points, passPercent: clamp(passPercent))
        drawDates(cr, points, timeZone: timeZone)

        guard cairo_status(cr) == CAIRO_STATUS_SUCCESS else { return nil }
        cairo_surface_flush(surface)
        return encode(surface)
    }

    // MARK: Pieces

    static func drawTitle(_ cr: OpaquePointer, _ title: String) {
        font(cr, size: 24, bold: true)
        setColor(cr, 0x111827)
        // Long titles get an ellipsis rather than running off the picture.
        var text = title
        while text.count > 1, textWidth(cr, text) > width - 2 * 40 {
            text = String(text.dropLast(2)) + "…"
        }
        cairo_move_to(cr, 40, 52)
        cairo_show_text(cr, text)
    }

    static func drawGrid(_ cr: OpaquePointer) {
        font(cr, size: 14, bold: false)
        cairo_set_line_width(cr, 1)
        for percent in stride(from: 0, through: 100, by: 20) {
            let y = yFor(percent)
            setColor(cr, percent == 0 ? 0x9CA3AF : 0xE5E7EB)
            cairo_move_to(cr, plotLeft, y)
            cairo_line_to(cr, plotRight, y)
            cairo_stroke(cr)
            setColor(cr, 0x6B7280)
            let label = "\(percent)%"
            cairo_move_to(cr, plotLeft - 10 - textWidth(cr, label), y + 5)
            cairo_show_text(cr, label)
        }
    }

    /// The label sits in the right gutter so it can never hide a dot.
    static func drawPassLine(_ cr: OpaquePointer, percent: Int) {
        let y = yFor(percent)
        setColor(cr, 0x059669)
        cairo_set_line_width(cr, 2)
        var dashes = [8.0, 6.0]
        cairo_set_dash(cr, &dashes, 2, 0)
        cairo_move_to(cr, plotLeft, y)
        cairo_line_to(cr, plotRight, y)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
        font(cr, size: 14, bold: true)
        cairo_move_to(cr, plotRight + 8, y + 5)
        cairo_show_text(cr, "Pass \(percent)%")
    }

    static func drawScores(_ cr: OpaquePointer, _ points: [Point], passPercent: Int) {
        let many = points.count > 25
        setColor(cr, 0x2563EB)
        cairo_set_line_width(cr, many ? 2 : 3)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for (i, p) in points.enumerated() {
            if i == 0 {
                cairo_move_to(cr, xFor(i, of: points.count), yFor(p.percent))
            } else {
                cairo_line_to(cr, xFor(i, of: points.count), yFor(p.percent))
            }
        }
        cairo_stroke(cr)
        // A white ring keeps each dot distinct where the line crowds it.
        let radius = many ? 4.5 : points.count == 1 ? 9 : 7
        for (i, p) in points.enumerated() {
            let x = xFor(i, of: points.count)
            let y = yFor(p.percent)
            cairo_arc(cr, x, y, radius, 0, 2 * .pi)
            setColor(cr, clamp(p.percent) >= passPercent ? 0x10B981 : 0xEF4444)
            cairo_fill_preserve(cr)
            setColor(cr, 0xFFFFFF)
            cairo_set_line_width(cr, many ? 1.5 : 2)
            cairo_stroke(cr)
        }
    }

    /// Short dates in the learner's time zone on an even stride wide enough that none
    /// overlap. The last point always gets its label (it is the test just taken), and a day
    /// already labelled is not repeated.
    static func drawDates(_ cr: OpaquePointer, _ points: [Point], timeZone: TimeZone) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "MMM d"
        font(cr, size: 14, bold: false)
        setColor(cr, 0x6B7280)
        let labels = points.map { formatter.string(from: $0.date) }
        let gap = 16.0
        let last = points.count - 1
        let widest = labels.map { textWidth(cr, $0) }.max() ?? 0
        let spacing = last > 0 ? xFor(1, of: points.count) - xFor(0, of: points.count) : .infinity
        let step = max(1, Int(((widest + gap) / spacing).rounded(.up)))
        func left(_ i: Int) -> Double { xFor(i, of: points.count) - textWidth(cr, labels[i]) / 2 }
        func show(_ i: Int) {
            cairo_move_to(cr, left(i), plotBottom + 26)
            cairo_show_text(cr, labels[i])
        }
        var previous: String?
        for i in stride(from: 0, to: last, by: step)
        where labels[i] != previous && labels[i] != labels[last] && left(i) + widest + gap <= left(last) {
            show(i)
            previous = labels[i]
        }
        show(last)
    }

    // MARK: Helpers

    static func xFor(_ index: Int, of count: Int) -> Double {
        let left = plotLeft + inset
        let right = plotRight - inset
        guard count > 1 else { return (left + right) / 2 }
        return left + (right - left) * Double(index) / Double(count - 1)
    }

    static func yFor(_ percent: Int) -> Double {
        plotBottom - (plotBottom - plotTop) * Double(clamp(percent)) / 100
    }

    static func clamp(_ percent: Int) -> Int { min(max(percent, 0), 100) }

    static func setColor(_ cr: OpaquePointer, _ rgb: UInt32) {
        cairo_set_source_rgb(
            cr, Double(rgb >> 16 & 0xFF) / 255, Double(rgb >> 8 & 0xFF) / 255, Double(rgb & 0xFF) / 255)
    }

    static func font(_ cr: OpaquePointer, size: Double, bold: Bool) {
        cairo_select_font_face(
            cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
    }

    static func textWidth(_ cr: OpaquePointer, _ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    /// Streams the PNG into memory. The C callback can't capture, so the buffer travels
    /// through cairo's closure pointer; it stays retained by `sink` for the whole call.
    static func encode(_ surface: OpaquePointer) -> Data? {
        final class Sink { var data = Data() }
        let sink = Sink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(
                surface,
                { closure, bytes, length in
                    guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                    Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(sink).toOpaque())
        }
        return status == CAIRO_STATUS_SUCCESS ? sink.data : nil
    }
}
