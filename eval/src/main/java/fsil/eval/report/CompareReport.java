package fsil.eval.report;

import fsil.data.io.AtomicFiles;
import fsil.eval.compare.Comparison;

import java.nio.file.Path;
import java.util.Locale;

/** Writes a comparison: pairs.csv, ranks.csv, friedman.txt and compare.html (tables and the CD diagram). */
public final class CompareReport {
    public static final String PAIRS = "pairs.csv";
    public static final String RANKS = "ranks.csv";
    public static final String FRIEDMAN = "friedman.txt";
    public static final String HTML = "compare.html";

    private CompareReport() {
    }

    public static void write(Path dir, Comparison c, String title) {
        write(dir, c, title, fsil.data.Datasets.defaultCacheDir());
    }

    /** As {@link #write(Path, Comparison, String)}, with plotly.js cached in {@code cacheDir}. */
    public static void write(Path dir, Comparison c, String title, Path cacheDir) {
        CsvTables.write(dir.resolve(PAIRS), c.pairsTable());
        CsvTables.write(dir.resolve(RANKS), c.ranksTable());
        AtomicFiles.writeString(dir.resolve(FRIEDMAN), c.friedmanLine() + "\n");
        PlotlyAsset.copyTo(dir, cacheDir);
        HtmlPage page = new HtmlPage(title);
        page.h1(title);
        page.raw(html(c, "fig" + page.nextFigure()));
        AtomicFiles.writeString(dir.resolve(HTML), page.finish());
    }

    /** Whether the metric is a fraction shown in percentage points. */
    public static boolean percent(String metric) {
        return metric.endsWith("acc") || metric.startsWith("forgetting") || metric.equals("bwt");
    }

    /** The paired table, the Friedman line and the CD diagram, as an HTML fragment. */
    public static String html(Comparison c, String figureId) {
        boolean percent = percent(c.metric());
        double scale = percent ? 100 : 1;
        StringBuilder sb = new StringBuilder("<p>" + Html.text("Paired differences in " + c.metric()
                + (percent ? " (percentage points)" : "") + " on identical tasks, method - baseline, with the 95% "
                + "t interval; Wilcoxon signed-rank p, Holm-corrected over all pairs.") + "</p>\n<table><tr>"
                + "<th>dataset</th><th>setting</th><th>method</th><th>baseline</th><th>n</th><th>mean diff</th>"
                + "<th>95% CI</th><th>win / tie / loss</th><th>p</th><th>p (Holm)</th></tr>\n");
        for (Comparison.Pair p : c.pairs()) {
            sb.append("<tr><td>").append(Html.text(p.dataset())).append("</td><td>").append(Html.text(p.setting()))
                    .append("</td><td>").append(Html.text(p.method())).append("</td><td>")
                    .append(Html.text(p.baseline())).append("</td><td>").append(p.diff().n()).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%+.3f", scale * p.diff().mean())).append("</td><td>")
                    .append(String.format(Locale.ROOT, "[%+.3f, %+.3f]", scale * p.diff().tLow(),
                            scale * p.diff().tHigh())).append("</td><td>").append(p.diff().wins()).append(" / ")
                    .append(p.diff().ties()).append(" / ").append(p.diff().losses()).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.3g", p.p())).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.3g", p.pHolm())).append("</td></tr>\n");
        }
        sb.append("</table>\n<p>").append(Html.text(c.friedmanLine())).append("</p>\n");
        Plot cd = cdDiagram(c);
        if (cd != null) {
            sb.append(cd.html(figureId));
        }
        return sb.toString();
    }

    /** The CD diagram, or null without ranks over two or more blocks. */
    public static Plot cdDiagram(Comparison c) {
        if (c.criticalDifference() == null) {
            return null;
        }
        return Figures.cdDiagram("critical-difference diagram: average ranks over " + c.blocks().blocks()
                        + " blocks (Nemenyi, alpha 0.05)", c.rankedMethods(), c.criticalDifference().averageRanks(),
                c.criticalDifference().cd(), c.criticalDifference().cliques());
    }
}
