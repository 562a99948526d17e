package fsil.eval.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Plotly figures of the report and the notebooks. Accuracies are shown in percent everywhere; every method keeps
 * its colour across the figures of a page (a 20-colour palette, so that many methods stay distinguishable).
 */
public final class Figures {
    private Figures() {
    }

    /** A named series of (x, y) points with optional symmetric error half-widths (NaN or null: none). */
    public record Series(String name, double[] x, double[] y, double[] err) {
    }

    /** Distinguishable colours (Tableau 10, then its light variants and more), cycled beyond 20 series. */
    static final String[] PALETTE = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
            "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
            "#17becf", "#bcbd22", "#393b79", "#637939"};

    public static String color(int i) {
        return PALETTE[i % PALETTE.length];
    }

    private static ArrayNode numbers(ObjectNode trace, String field, double[] v) {
        ArrayNode a = trace.putArray(field);
        for (double x : v) {
            if (Double.isNaN(x)) {
                a.addNull();
            } else {
                a.add(x);
            }
        }
        return a;
    }

    private static boolean anyError(double[] err) {
        if (err == null) {
            return false;
        }
        for (double e : err) {
            if (!Double.isNaN(e) && e > 0) {
                return true;
            }
        }
        return false;
    }

    /** Bars with 95% CI error bars (none where the CI is NaN, e.g. a single unit). */
    public static Plot bars(String title, String yTitle, List<String> categories, double[] values, double[] ci) {
        Plot p = Plot.of(title, "", yTitle);
        ObjectNode t = p.trace();
        t.put("type", "bar");
        ArrayNode x = t.putArray("x");
        categories.forEach(x::add);
        numbers(t, "y", values);
        ArrayNode colors = t.putObject("marker").putArray("color");
        for (int i = 0; i < categories.size(); i++) {
            colors.add(color(i));
        }
        if (anyError(ci)) {
            ObjectNode e = t.putObject("error_y");
            e.put("type", "data");
            e.put("visible", true);
            double[] c = ci.clone();
            for (int i = 0; i < c.length; i++) {
                c[i] = Double.isNaN(c[i]) ? 0 : c[i];
            }
            numbers(e, "array", c);
        }
        return p;
    }

    /** Grouped bars: one bar group per category, one bar per series. */
    public static Plot groupedBars(String title, String yTitle, List<String> categories, List<String> seriesNames,
                                   List<double[]> seriesValues) {
        Plot p = Plot.of(title, "", yTitle);
        p.layout().put("barmode", "group");
        for (int s = 0; s < seriesNames.size(); s++) {
            ObjectNode t = p.trace();
            t.put("type", "bar");
            t.put("name", seriesNames.get(s));
            ArrayNode x = t.putArray("x");
            categories.forEach(x::add);
            numbers(t, "y", seriesValues.get(s));
            t.putObject("marker").put("color", color(s));
        }
        return p;
    }

    /** Lines with markers, one per series; 95% CIs as a shaded band of the series' colour. */
    public static Plot lines(String title, String xTitle, String yTitle, List<Series> series) {
        Plot p = Plot.of(title, xTitle, yTitle);
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String c = color(i);
            if (anyError(s.err())) {
                double[] lo = new double[s.y().length];
                double[] hi = new double[s.y().length];
                for (int k = 0; k < lo.length; k++) {
                    double e = Double.isNaN(s.err()[k]) ? 0 : s.err()[k];
                    lo[k] = s.y()[k] - e;
                    hi[k] = s.y()[k] + e;
                }
                ObjectNode low = p.trace();
                low.put("type", "scatter").put("mode", "lines").put("showlegend", false)
                        .put("hoverinfo", "skip").put("name", s.name() + " 95% CI");
                numbers(low, "x", s.x());
                numbers(low, "y", lo);
                low.putObject("line").put("width", 0).put("color", c);
                ObjectNode high = p.trace();
                high.put("type", "scatter").put("mode", "lines").put("showlegend", false)
                        .put("hoverinfo", "skip").put("fill", "tonexty").put("opacity", 0.2)
                        .put("name", s.name() + " 95% CI");
                numbers(high, "x", s.x());
                numbers(high, "y", hi);
                high.putObject("line").put("width", 0).put("color", c);
                high.put("fillcolor", c + "33");
            }
            ObjectNode t = p.trace();
            t.put("type", "scatter").put("mode", "lines+markers").put("name", s.name());
            numbers(t, "x", s.x());
            numbers(t, "y", s.y());
            t.putObject("line").put("color", c).put("width", 2);
            t.putObject("marker").put("color", c);
        }
        return p;
    }

    /**
     * The mean accuracy matrix in percent on one shared 0-100 sequential scale, values written in the cells, step 0
     * at the top.
     */
    public static Plot heatmap(String title, double[][] percent) {
        Plot p = Plot.of(title, "experience k (classes introduced at step k)", "after step t");
        ObjectNode t = p.trace();
        t.put("type", "heatmap").put("colorscale", "Viridis").put("zmin", 0).put("zmax", 100);
        t.put("texttemplate", "%{z:.1f}").put("hovertemplate", "step %{y}, experience %{x}: %{z:.2f}%<extra></extra>");
        ArrayNode z = t.putArray("z");
        for (double[] row : percent) {
            ArrayNode r = z.addArray();
            for (double v : row) {
                if (Double.isNaN(v)) {
                    r.addNull();
                } else {
                    r.add(v);
                }
            }
        }
        t.putObject("colorbar").putObject("title").put("text", "%");
        p.layout().with("yaxis").put("autorange", "reversed").put("dtick", 1);
        p.layout().with("xaxis").put("dtick", 1);
        return p;
    }

    /**
     * Reliability diagram: accuracy against mean confidence per bin, one line per method, marker size growing with
     * the bin's count (hover shows it), plus the diagonal. Bins with fewer than {@code minCount} predictions are
     * left out (their accuracy is noise).
     */
    public static Plot reliability(String title, List<Series> perMethod, List<long[]> counts, int minCount) {
        return reliability(title, perMethod, counts, perMethod.stream().map(x -> false).toList(), minCount);
    }

    /**
     * Reliability diagram: accuracy against mean confidence per bin, one line per series (a dashed line in the colour
     * of the solid one before it for temperature-scaled probabilities), and under it the number of predictions per
     * bin as bars on a second axis, so sparse bins are seen for what they are.
     */
    public static Plot reliability(String title, List<Series> perMethod, List<long[]> counts, List<Boolean> dashed,
                                   int minCount) {
        Plot p = Plot.of(title + (minCount > 1 ? " (bins with fewer than " + minCount + " predictions left out)" : ""),
                "confidence (mean per bin)", "accuracy");
        p.layout().with("yaxis").putArray("domain").add(0.3).add(1);
        ObjectNode y2 = p.layout().with("yaxis2");
        y2.putArray("domain").add(0).add(0.22);
        y2.put("title", "predictions").put("type", "log").put("anchor", "x");
        p.layout().put("barmode", "group").put("height", 560);
        ObjectNode diag = p.trace();
        diag.put("type", "scatter").put("mode", "lines").put("name", "perfect calibration");
        numbers(diag, "x", new double[]{0, 1});
        numbers(diag, "y", new double[]{0, 1});
        diag.putObject("line").put("dash", "dash").put("color", "gray");
        int colour = -1;
        for (int i = 0; i < perMethod.size(); i++) {
            Series s = perMethod.get(i);
            long[] n = counts.get(i);
            boolean scaled = dashed.get(i);
            if (!scaled || colour < 0) {
                colour++;
            }
            ObjectNode t = p.trace();
            t.put("type", "scatter").put("mode", "lines+markers").put("name", s.name());
            ArrayNode x = t.putArray("x");
            ArrayNode y = t.putArray("y");
            ArrayNode text = t.putArray("text");
            ArrayNode size = t.putObject("marker").put("color", color(colour)).putArray("size");
            for (int k = 0; k < s.x().length; k++) {
                if (n[k] >= minCount) {
                    x.add(s.x()[k]);
                    y.add(s.y()[k]);
                    text.add(n[k] + " predictions");
                    size.add(5 + 3 * Math.log10(n[k]));
                }
            }
            t.put("hovertemplate", "confidence %{x:.3f}, accuracy %{y:.3f}, %{text}");
            t.putObject("line").put("color", color(colour)).put("dash", scaled ? "dot" : "solid");
            ObjectNode bars = p.trace();
            bars.put("type", "bar").put("name", s.name() + ": predictions per bin").put("yaxis", "y2")
                    .put("showlegend", false).put("opacity", scaled ? 0.35 : 0.6);
            ArrayNode bx = bars.putArray("x");
            ArrayNode by = bars.putArray("y");
            for (int k = 0; k < n.length; k++) {
                bx.add((k + 0.5) / n.length);
                by.add(n[k]);
            }
            bars.putObject("marker").put("color", color(colour));
            bars.put("hovertemplate", "bin %{x:.3f}: %{y} predictions");
        }
        return p;
    }

    /**
     * Critical-difference diagram (Demšar, JMLR 2006): methods at their average rank (1 = best) on an axis from 1 to
     * k, the critical difference as a bar above, and a thick bar under each group of methods whose ranks differ by
     * less than it (not significantly different).
     */
    public static Plot cdDiagram(String title, List<String> methods, double[] averageRanks, double cd, int[][] cliques) {
        int k = methods.size();
        Plot p = Plot.of(title, "average rank (1 = best)", "");
        ObjectNode x = p.layout().with("xaxis");
        x.putArray("range").add(0.5).add(k + 0.5);
        x.put("dtick", 1).put("side", "top");
        p.layout().with("yaxis").put("visible", false).putArray("range").add(-1.2 - 0.25 * cliques.length).add(1.2);
        p.layout().put("height", 260 + 22 * k).put("showlegend", false);
        for (int i = 0; i < k; i++) {
            ObjectNode t = p.trace();
            t.put("type", "scatter").put("mode", "markers+text").put("name", methods.get(i));
            numbers(t, "x", new double[]{averageRanks[i]});
            numbers(t, "y", new double[]{0});
            t.putArray("text").add(String.format(java.util.Locale.ROOT, "%s (%.2f)", methods.get(i), averageRanks[i]));
            t.put("textposition", i % 2 == 0 ? "bottom center" : "top center");
            t.putObject("marker").put("color", color(i)).put("size", 10);
        }
        if (!Double.isNaN(cd)) {
            ObjectNode bar = p.trace();
            bar.put("type", "scatter").put("mode", "lines+text").put("name", "critical difference");
            numbers(bar, "x", new double[]{1, 1 + cd});
            numbers(bar, "y", new double[]{1, 1});
            bar.putArray("text").add("").add(String.format(java.util.Locale.ROOT, "CD = %.2f", cd));
            bar.put("textposition", "middle right");
            bar.putObject("line").put("color", "black").put("width", 3);
        }
        for (int c = 0; c < cliques.length; c++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (int m : cliques[c]) {
                lo = Math.min(lo, averageRanks[m]);
                hi = Math.max(hi, averageRanks[m]);
            }
            ObjectNode t = p.trace();
            t.put("type", "scatter").put("mode", "lines").put("name", "not significantly different")
                    .put("hoverinfo", "skip");
            numbers(t, "x", new double[]{lo - 0.03, hi + 0.03});
            numbers(t, "y", new double[]{-0.9 - 0.25 * c, -0.9 - 0.25 * c});
            t.putObject("line").put("color", "#333").put("width", 6);
        }
        return p;
    }
}
