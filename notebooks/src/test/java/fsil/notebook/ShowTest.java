package fsil.notebook;

import fsil.api.FsilException;
import fsil.eval.report.Figures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import fsil.eval.report.Plot;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShowTest {
    /** Records bundles as a kernel would receive them. */
    static final class Recorder implements KernelDisplay {
        final List<Map<String, String>> shown = new ArrayList<>();

        @Override
        public String name() {
            return "recorder";
        }

        @Override
        public void show(Map<String, String> bundle) {
            shown.add(Map.copyOf(bundle));
        }
    }

    private final Recorder rec = new Recorder();

    @AfterEach
    void reset() {
        Show.use(null);
    }

    static Table table(int rows) {
        StringColumn m = StringColumn.create("method");
        DoubleColumn acc = DoubleColumn.create("accuracy");
        IntColumn n = IntColumn.create("n");
        for (int i = 0; i < rows; i++) {
            m.append(i == 0 ? "<b>&\"x\"" : "m" + i);
            acc.append(0.5 + i / 100.0);
            n.append(i);
        }
        return Table.create("results <1>", m, acc, n);
    }

    static Plot figure(String title) {
        return Figures.bars(title, "accuracy", List.of("ncm", "knn"), new double[]{0.6, 0.7},
                new double[]{0.01, 0.02});
    }

    @Test
    void tableIsAnHtmlTableWithEscapedTextAndAPlainTextForm() {
        Show.use(rec);
        Show.table(table(3));
        Map<String, String> b = rec.shown.get(0);
        String html = b.get(Show.HTML);
        assertTrue(html.contains("<table class=\"fsil-table\">"), html);
        assertTrue(html.contains("<caption>results &lt;1&gt;</caption>"), html);
        assertTrue(html.contains("<th>method</th>") && html.contains("<th>accuracy</th>"), html);
        assertTrue(html.contains("&lt;b&gt;&amp;"), "cell text is escaped: " + html);
        assertFalse(html.contains("<b>&"), html);
        assertEquals(3 + 1, html.split("<tr>", -1).length - 1, "header row + 3 rows");
        assertTrue(b.get(Show.TEXT).contains("m2") && b.get(Show.TEXT).contains("accuracy"), b.get(Show.TEXT));
    }

    @Test
    void longTablesAreCutAndSaySo() {
        Show.use(rec);
        Show.table(table(12), 5);
        String html = rec.shown.get(0).get(Show.HTML);
        assertEquals(5 + 1, html.split("<tr>", -1).length - 1);
        assertTrue(html.contains("7 more rows of 12 not shown"), html);
        assertTrue(rec.shown.get(0).get(Show.TEXT).contains("7 more rows of 12 not shown"));
    }

    @Test
    void plotlyIsInlinedIntoTheFirstPlotOnly() {
        Show.use(rec);
        Show.plot(figure("first"));
        Show.plot(figure("second"));
        String first = rec.shown.get(0).get(Show.HTML);
        String second = rec.shown.get(1).get(Show.HTML);
        assertTrue(first.contains(PlotlyHtml.LOADER_MARK) && first.contains("plotly.js v2.35.2"), "carries plotly.js");
        assertTrue(first.length() > 4_000_000, "the whole bundle: " + first.length());
        assertTrue(first.contains("(function (define, module, exports) {"), "hidden from AMD loaders");
        assertFalse(second.contains(PlotlyHtml.LOADER_MARK), "later plots reuse window.Plotly");
        assertTrue(second.length() < 20_000, "no second copy: " + second.length());
        for (String html : List.of(first, second)) {
            assertTrue(html.contains("class=\"fsil-plot\"") && html.contains("Plotly.newPlot"), html.substring(0, 200));
            assertFalse(html.contains("<script src") || html.contains("require.config"), "nothing loaded from a URL");
        }
        assertFalse(second.contains("https://"), "no network");
        assertEquals("[plot] second (an interactive Plotly figure in Jupyter)",
                rec.shown.get(1).get(Show.TEXT));
    }

    @Test
    void plotDivIdsAreUniqueAndFreeOfTimestamps() {
        Show.use(rec);
        Show.plot(figure("same"));
        Show.plot(figure("same"));
        String a = rec.shown.get(0).get(Show.HTML);
        String b = rec.shown.get(1).get(Show.HTML);
        String idA = a.substring(a.indexOf("<div id=\"") + 9, a.indexOf("\" class=\"fsil-plot\""));
        String idB = b.substring(b.indexOf("<div id=\"") + 9, b.indexOf("\" class=\"fsil-plot\""));
        assertFalse(idA.equals(idB), idA);
        assertEquals(idA.substring(idA.lastIndexOf('_')), idB.substring(idB.lastIndexOf('_')), "same content hash");
    }

    @Test
    void withoutAKernelEverythingIsPrintedAsText() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Show.use(KernelDisplay.text(new PrintStream(buf, true, StandardCharsets.UTF_8)));
        Show.table(table(2));
        Show.plot(figure("a title"));
        Show.markdown("**bold** 42");
        Show.html("<p>x</p>", "x as text");
        Show.text("plain");
        String s = buf.toString(StandardCharsets.UTF_8);
        assertTrue(s.contains("results <1>") && s.contains("m1"), s);
        assertTrue(s.contains("[plot] a title"), s);
        assertTrue(s.contains("**bold** 42") && s.contains("x as text") && s.contains("plain"), s);
        assertFalse(s.contains("<table") || s.contains("Plotly.newPlot"), "no HTML on a terminal");
        assertEquals("text", Show.kernel());
    }

    @Test
    void markdownAndHtmlBundlesCarryPlainText() {
        Show.use(rec);
        Show.markdown("# title");
        Show.html("<p>p</p>", "p");
        assertEquals(Map.of(Show.TEXT, "# title", Show.MARKDOWN, "# title"), rec.shown.get(0));
        assertEquals(Map.of(Show.TEXT, "p", Show.HTML, "<p>p</p>"), rec.shown.get(1));
    }

    @Test
    void badArgumentsSayWhatIsWrong() {
        Show.use(rec);
        assertTrue(assertThrows(FsilException.class, () -> Show.table(null)).getMessage().contains("nothing to show"));
        assertTrue(assertThrows(FsilException.class, () -> Show.table(table(2), 0)).getMessage()
                .contains("maxRows must be at least 1"));
        assertTrue(assertThrows(FsilException.class, () -> Show.plot(null)).getMessage().contains("nothing to show"));
        assertTrue(assertThrows(FsilException.class, () -> Show.bundle(Map.of())).getMessage().contains("empty"));
        assertTrue(rec.shown.isEmpty());
    }

    @Test
    void theDefaultDisplayOutsideAKernelIsText() {
        Show.use(null);
        assertEquals("text", Show.kernel());
    }
}
