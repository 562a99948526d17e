package fsil.notebook;

import fsil.api.FsilException;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.Destination;
import tech.tablesaw.io.html.HtmlWriteOptions;
import tech.tablesaw.io.html.HtmlWriter;
import fsil.eval.compare.Comparison;
import fsil.eval.report.CompareReport;
import fsil.eval.report.Plot;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Displays tables, plots and text in a Jupyter notebook with a Java kernel, and prints them as text elsewhere.
 *
 * <pre>{@code
 * Show.table(results.headline());     // tablesaw Table -> HTML table (plain text as fallback)
 * Show.plot(results.bars("episode_acc"));  // a Plotly figure -> HTML with plotly.js inlined, no CDN needed
 * Show.markdown("BAVARDAGE: **" + acc + "**");
 * }</pre>
 *
 * <p>The kernel's display function is looked up reflectively (rapaio-jupyter-kernel, IJava or JJava, see
 * {@link KernelDisplay}), so notebooks use plain Java and no kernel magic, and the same code runs under any of
 * them; with no kernel (a unit test, jshell in a terminal) the plain-text form goes to standard output. Every
 * output is a MIME bundle with a {@code text/plain} entry, so viewers that do not render HTML still show
 * something readable.
 *
 * <p>The methods return nothing on purpose: a kernel shows the value of a cell's last expression, and a returned
 * display id would appear as a stray output.
 */
public final class Show {
    public static final String TEXT = "text/plain";
    public static final String HTML = "text/html";
    public static final String MARKDOWN = "text/markdown";
    /** Rows shown by {@link #table(Table)}; the rest is summarised in one line. */
    public static final int DEFAULT_MAX_ROWS = 200;

    private static KernelDisplay display;
    private static boolean plotlySent;

    private Show() {
    }

    /** Which display is in use: {@code rapaio}, {@code ijava}, {@code jjava} or {@code text}. */
    public static synchronized String kernel() {
        return display().name();
    }

    private static synchronized KernelDisplay display() {
        if (display == null) {
            ClassLoader loader = Show.class.getClassLoader();
            display = KernelDisplay.find(loader, System.getProperty("sun.java.command"), System.out);
        }
        return display;
    }

    /** Replaces the display (tests) and forgets that plotly.js was sent. */
    static synchronized void use(KernelDisplay d) {
        display = d;
        plotlySent = false;
    }

    /** Sends a bundle as it is. */
    public static synchronized void bundle(Map<String, String> bundle) {
        if (bundle.isEmpty()) {
            throw new FsilException("an empty display bundle: give at least text/plain");
        }
        display().show(bundle);
    }

    /** A table, at most {@link #DEFAULT_MAX_ROWS} rows. */
    public static void table(Table table) {
        table(table, DEFAULT_MAX_ROWS);
    }

    /** A table as an HTML table (tablesaw-html) with its name as caption, at most {@code maxRows} rows. */
    public static void table(Table table, int maxRows) {
        if (table == null) {
            throw new FsilException("Show.table(null): nothing to show");
        }
        if (maxRows < 1) {
            throw new FsilException("Show.table: maxRows must be at least 1, got " + maxRows);
        }
        Table shown = table.rowCount() > maxRows ? table.first(maxRows) : table;
        String more = table.rowCount() > maxRows
                ? (table.rowCount() - maxRows) + " more rows of " + table.rowCount() + " not shown" : null;
        Map<String, String> b = new LinkedHashMap<>();
        b.put(TEXT, shown.printAll() + (more == null ? "" : "\n(" + more + ")"));
        b.put(HTML, tableHtml(shown, table.name(), more));
        bundle(b);
    }

    static String tableHtml(Table t, String caption, String note) {
        StringWriter w = new StringWriter();
        try {
            new HtmlWriter().write(t, HtmlWriteOptions.builder(new Destination(w)).escapeText(true).build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String html = w.toString();
        if (caption != null && !caption.isBlank()) {
            html = html.replaceFirst("<table>", "<table class=\"fsil-table\">\n <caption>" + escape(caption) + "</caption>");
        } else {
            html = html.replaceFirst("<table>", "<table class=\"fsil-table\">");
        }
        return html + (note == null ? "" : "<p><i>" + escape(note) + "</i></p>");
    }

    /** A Plotly figure as HTML; plotly.js is inlined into the first one of the session. */
    public static synchronized void plot(Plot figure) {
        if (figure == null) {
            throw new FsilException("Show.plot(null): nothing to show");
        }
        KernelDisplay d = display();
        Map<String, String> b = new LinkedHashMap<>();
        b.put(TEXT, PlotlyHtml.text(figure));
        if (!d.name().equals("text")) {
            b.put(HTML, PlotlyHtml.html(figure, !plotlySent));
            plotlySent = true;
        }
        d.show(b);
    }

    /** A comparison: the paired table, the Friedman line and the critical-difference diagram. */
    public static void comparison(Comparison c) {
        if (c == null) {
            throw new FsilException("Show.comparison(null): nothing to show");
        }
        table(c.pairsTable());
        markdown(c.friedmanLine());
        Plot cd = CompareReport.cdDiagram(c);
        if (cd != null) {
            plot(cd);
        }
    }

    /** Markdown (rendered by Jupyter), e.g. a sentence with numbers computed in the cell. */
    public static void markdown(String markdown) {
        Map<String, String> b = new LinkedHashMap<>();
        b.put(TEXT, markdown);
        b.put(MARKDOWN, markdown);
        bundle(b);
    }

    /** An HTML fragment with a plain-text alternative. */
    public static void html(String html, String plainText) {
        Map<String, String> b = new LinkedHashMap<>();
        b.put(TEXT, plainText);
        b.put(HTML, html);
        bundle(b);
    }

    /** Plain text. */
    public static void text(String text) {
        bundle(Map.of(TEXT, text));
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
