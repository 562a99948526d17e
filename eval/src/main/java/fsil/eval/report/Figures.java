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

    /** Longest tick label shown in full on a category axis; longer ones end in an ellipsis (hover shows them). */
    static final int MAX_TICK = 40;

    /**
     * Tick labels of a category axis: vertical when some label is long (slanted ones reach into the y axis' tick
     * labels), and at most {@link #MAX_TICK} characters.
     */
    private static void categoryAxis(Plot p, List<String> categories) {
        int longest = categories.stream().mapToInt(String::length).max().orElse(0);
        if (longest <= 12) {
            return;
        }
        ObjectNode x = p.layout().with("xaxis");
        x.put("tickangle", -90);
        if (longest > MAX_TICK) {
            ArrayNode values = x.putArray("tickvals");
            ArrayNode texts = x.putArray("ticktext");
            for (String c : categories) {
                values.add(c);
                texts.add(abbreviate(c));
            }
        }
    }

    /** Bars with 95% CI error bars (none where the CI is NaN, e.g. a single unit). */
    public static Plot bars(String title, String yTitle, List<String> categories, double[] values, double[] ci) {
        Plot p = Plot.of(title, "", yTitle);
        categoryAxis(p, categories);
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
        categoryAxis(p, categories);
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

    /**
     * Time per task in milliseconds, fit and predict bars per method, on a log scale (on a linear one, one slow
     * method flattens the bars of the others); values that are not positive draw no bar.
     */
    public static Plot times(String title, List<String> methods, double[] fitMs, double[] predictMs) {
        double[] fit = fitMs.clone();
        double[] predict = predictMs.clone();
        for (double[] v : List.of(fit, predict)) {
            for (int i = 0; i < v.length; i++) {
                v[i] = v[i] > 0 ? v[i] : Double.NaN;
            }
        }
        Plot p = groupedBars(title, "milliseconds (log scale)", methods, List.of("fit (learn)", "predict"),
                List.of(fit, predict));
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (double[] v : List.of(fit, predict)) {
            for (double x : v) {
                if (x > 0) {
                    lo = Math.min(lo, x);
                    hi = Math.max(hi, x);
                }
            }
        }
        ObjectNode y = p.layout().with("yaxis");
        y.put("type", "log");
        if (hi > 0) {
            // ticks at 1, 2 and 5 times the powers of ten, labelled in full (plotly's own log ticks label a range
            // within one decade by single digits)
            lo /= 1.6;
            hi *= 1.6;
            y.putArray("range").add(Math.log10(lo)).add(Math.log10(hi));
            ArrayNode values = y.putArray("tickvals");
            ArrayNode texts = y.putArray("ticktext");
            for (int e = (int) Math.floor(Math.log10(lo)); e <= (int) Math.ceil(Math.log10(hi)); e++) {
                for (int m : new int[]{1, 2, 5}) {
                    java.math.BigDecimal v = java.math.BigDecimal.valueOf(m).scaleByPowerOfTen(e);
                    if (v.doubleValue() >= lo && v.doubleValue() <= hi) {
                        values.add(v.doubleValue());
                        texts.add(v.stripTrailingZeros().toPlainString());
                    }
                }
            }
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
                "", "accuracy (fraction)");
        // two stacked plots on one confidence scale: the curves above, the counts below with the axis title
        p.layout().with("yaxis").putArray("domain").add(0.36).add(1);
        p.layout().with("xaxis").putArray("range").add(0).add(1);
        ObjectNode x2 = p.layout().with("xaxis2");
        x2.put("anchor", "y2").put("matches", "x").put("automargin", true);
        x2.putObject("title").put("text", "confidence (mean per bin)").put("standoff", 8);
        ObjectNode y2 = p.layout().with("yaxis2");
        y2.putArray("domain").add(0).add(0.2);
        y2.put("type", "log").put("dtick", 1).put("anchor", "x2").put("automargin", true);
        y2.putObject("title").put("text", "predictions");
        p.layout().put("barmode", "group").put("height", 600);
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
            bars.put("type", "bar").put("name", s.name() + ": predictions per bin").put("xaxis", "x2").put("yaxis", "y2")
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
     * Critical-difference diagram (Demšar, JMLR 2006): an axis of average ranks (1 = best), each method marked at its
     * rank with a line down to its own row of labels (the better half to the left, the worse half to the right, so
     * tied ranks stay readable), the critical difference as a bar above the axis starting at rank 1 (the axis is
     * extended when the bar is longer than it), and a thick bar under the axis for each group of methods whose ranks
     * differ by less than it (not significantly different).
     */
    public static Plot cdDiagram(String title, List<String> methods, double[] averageRanks, double cd, int[][] cliques) {
        int k = methods.size();
        Integer[] order = new Integer[k];
        for (int i = 0; i < k; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(averageRanks[a], averageRanks[b]));
        double min = 1;
        double max = Math.max(k, 2);
        for (double r : averageRanks) {
            min = Math.min(min, r);
            max = Math.max(max, r);
        }
        boolean withCd = !Double.isNaN(cd) && cd > 0;
        int lastTick = (int) Math.ceil(withCd ? Math.max(max, 1 + cd) : max);
        double xlo = Math.min(min, 1) - 0.25;
        double xhi = lastTick + 0.25;
        int left = (k + 1) / 2;
        double cliqueGap = 0.16;
        double rowGap = 0.3;
        double firstRow = -0.3 - cliqueGap * cliques.length;
        double ymin = firstRow - rowGap * (Math.max(left, k - left) - 1) - 0.2;
        double ymax = withCd ? 1.35 : 0.6;
        double pxPerUnit = 80;

        Plot p = Plot.of(title + " (rank 1 = best)", "", "");
        ObjectNode layout = p.layout();
        ObjectNode x = layout.with("xaxis");
        x.put("visible", false).put("fixedrange", true).putArray("range").add(xlo).add(xhi);
        ObjectNode y = layout.with("yaxis");
        y.put("visible", false).put("fixedrange", true).putArray("range").add(ymin).add(ymax);
        int longest = 0;
        for (int i = 0; i < k; i++) {
            longest = Math.max(longest, label(methods.get(i), averageRanks[i]).length());
        }
        int side = 24 + 7 * longest;
        layout.putObject("margin").put("l", side).put("r", side).put("t", 60).put("b", 10);
        layout.put("height", (int) Math.round((ymax - ymin) * pxPerUnit) + 70).put("showlegend", false);
        ArrayNode notes = layout.putArray("annotations");

        // the axis, its ticks and tick labels
        line(p, "#000", 1.5, new double[]{Math.min(min, 1), lastTick}, new double[]{0, 0});
        for (int t = 1; t <= lastTick; t++) {
            line(p, "#000", 1.5, new double[]{t, t}, new double[]{0, 0.12});
            note(notes, Integer.toString(t), t, 0.16, "center", "bottom");
        }
        if (withCd) {
            line(p, "#000", 3, new double[]{1, 1 + cd}, new double[]{0.9, 0.9});
            line(p, "#000", 1.5, new double[]{1, 1}, new double[]{0.82, 0.98});
            line(p, "#000", 1.5, new double[]{1 + cd, 1 + cd}, new double[]{0.82, 0.98});
            note(notes, String.format(java.util.Locale.ROOT, "CD = %.2f", cd), 1 + cd / 2, 1.0, "center", "bottom");
        }
        for (int c = 0; c < cliques.length; c++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (int m : cliques[c]) {
                lo = Math.min(lo, averageRanks[m]);
                hi = Math.max(hi, averageRanks[m]);
            }
            ObjectNode t = line(p, "#333", 6, new double[]{lo - 0.04, hi + 0.04},
                    new double[]{-0.22 - cliqueGap * c, -0.22 - cliqueGap * c});
            t.put("name", "not significantly different");
        }
        for (int j = 0; j < k; j++) {
            boolean onLeft = j < left;
            int m = onLeft ? order[j] : order[k - 1 - (j - left)];
            double row = firstRow - rowGap * (onLeft ? j : j - left);
            double r = averageRanks[m];
            line(p, "#555", 1, new double[]{r, r, onLeft ? xlo : xhi}, new double[]{0, row, row});
            ObjectNode dot = p.trace();
            dot.put("type", "scatter").put("mode", "markers").put("name", methods.get(m));
            numbers(dot, "x", new double[]{r});
            numbers(dot, "y", new double[]{0});
            dot.putArray("text").add(String.format(java.util.Locale.ROOT, "%s (%.2f)", methods.get(m), r));
            dot.put("hoverinfo", "text");
            dot.putObject("marker").put("color", color(m)).put("size", 10);
            ObjectNode n = note(notes, label(methods.get(m), r), onLeft ? 0 : 1, row, onLeft ? "right" : "left",
                    "middle");
            n.put("xref", "paper");
            n.put("xshift", onLeft ? -4 : 4);
        }
        return p;
    }

    private static String label(String method, double rank) {
        return String.format(java.util.Locale.ROOT, "%s (%.2f)", abbreviate(method), rank);
    }

    /** At most {@link #MAX_TICK} characters, the last an ellipsis. */
    static String abbreviate(String s) {
        return s.length() > MAX_TICK ? s.substring(0, MAX_TICK - 1) + "…" : s;
    }

    /** A plain line trace without hover (the axis, ticks, bars and leaders of the CD diagram). */
    private static ObjectNode line(Plot p, String colour, double width, double[] x, double[] y) {
        ObjectNode t = p.trace();
        t.put("type", "scatter").put("mode", "lines").put("hoverinfo", "skip").put("showlegend", false);
        numbers(t, "x", x);
        numbers(t, "y", y);
        t.putObject("line").put("color", colour).put("width", width);
        return t;
    }

    /** A text annotation at data coordinates, without arrow. */
    private static ObjectNode note(ArrayNode notes, String text, double x, double y, String xanchor, String yanchor) {
        ObjectNode n = notes.addObject();
        n.put("text", text).put("x", x).put("y", y).put("xref", "x").put("yref", "y").put("showarrow", false)
                .put("xanchor", xanchor).put("yanchor", yanchor);
        n.putObject("font").put("size", 12);
        return n;
    }
}
