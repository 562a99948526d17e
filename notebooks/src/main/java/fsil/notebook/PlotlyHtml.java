package fsil.notebook;

import fsil.api.FsilException;
import fsil.eval.report.Plot;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Plot} as an HTML fragment that draws without network access: the first fragment
 * of a kernel session carries plotly.js itself (the copy eval ships for its reports, plotly.js 2.35.2, about
 * 4.5 MB), later ones use the {@code window.Plotly} it defined. Opening a saved notebook renders the outputs in
 * order, so the first figure's copy serves every later one.
 *
 * <p>plotly.min.js is a UMD bundle: where an AMD loader is present (classic Jupyter Notebook has require.js) it
 * would register an anonymous module instead of setting {@code window.Plotly}, so it runs inside a function whose
 * {@code define}, {@code module} and {@code exports} are undefined. A figure whose Plotly is missing (its
 * first-figure output was cleared) says so in place of the plot instead of failing silently.
 *
 * <p>The copies of fsil's notebooks committed to the repository do not carry plotly.js: when
 * {@code notebooks/run-notebooks.sh} regenerates them, {@code nbtool.py freeze} replaces each plot output by a PNG
 * of it, drawn by headless Chromium, so that they stay small and show their plots in any viewer; re-running a cell
 * gives the interactive plot again.
 */
final class PlotlyHtml {
    static final String PLOTLY_RESOURCE = "/fsil/report/plotly.min.js";
    /** Marks the fragment that carries plotly.js (the notebook checker looks for it). */
    static final String LOADER_MARK = "fsil-plotly-loader";

    private static volatile String plotly;
    private static final AtomicLong COUNTER = new AtomicLong();

    private PlotlyHtml() {
    }

    /** plotly.min.js from the eval jar. */
    static String plotlyJs() {
        String p = plotly;
        if (p == null) {
            try (InputStream in = PlotlyHtml.class.getResourceAsStream(PLOTLY_RESOURCE)) {
                if (in == null) {
                    throw new FsilException("plotly.min.js is missing from the classpath (it ships in the fsil eval "
                            + "jar as " + PLOTLY_RESOURCE + "): put eval's jar on the kernel classpath");
                }
                p = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            plotly = p;
        }
        return p;
    }

    /** The script element that defines {@code window.Plotly} even where an AMD loader is present. */
    static String loader() {
        return "<script class=\"" + LOADER_MARK + "\">\n"
                + "(function (define, module, exports) {\n" + plotlyJs() + "\n}).call(window);\n</script>\n";
    }

    /**
     * The figure as HTML.
     *
     * @param withPlotly whether this fragment carries plotly.js (the first figure of a session)
     */
    static String html(Plot figure, boolean withPlotly) {
        // A per-session counter plus a content hash: unique on a page, and stable when a notebook is regenerated
        // with the same numbers (no timestamps in the saved output).
        String json = figure.json();
        String div = "fsil_plot_" + COUNTER.incrementAndGet() + "_" + Integer.toHexString(json.hashCode());
        String js = figure.html(div).replace("<div class=\"fig\" id=\"" + div + "\"></div>\n", "")
                .replace("<script>", "").replace("</script>", "").strip();
        return (withPlotly ? loader() : "")
                + "<div id=\"" + div + "\" class=\"fsil-plot\"></div>\n"
                + "<script>\n(function () {\n"
                + "  if (typeof window.Plotly === 'undefined') {\n"
                + "    document.getElementById('" + div + "').textContent = 'This plot needs plotly.js, which the "
                + "first plot of the notebook carries: re-run the notebook (or that cell).';\n"
                + "    return;\n  }\n"
                + js + "\n})();\n</script>\n";
    }

    /** A text stand-in for viewers without HTML: the title and the series names. */
    static String text(Plot figure) {
        var titleNode = figure.layout().path("title").path("text");
        String title = titleNode.isMissingNode() ? null : titleNode.asText();
        List<String> names = new ArrayList<>();
        for (var t : figure.data()) {
            boolean shown = !t.has("showlegend") || t.get("showlegend").asBoolean();
            if (shown && t.has("name") && !t.get("name").asText().isBlank()) {
                names.add(t.get("name").asText());
            }
        }
        return "[plot] " + (title == null || title.isBlank() ? "(untitled)" : title)
                + (names.isEmpty() ? "" : "; series: " + String.join(", ", names))
                + " (an interactive Plotly figure in Jupyter)";
    }
}
