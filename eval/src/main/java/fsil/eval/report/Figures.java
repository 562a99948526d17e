package fsil.eval.report;

import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.plotly.components.Axis;
import tech.tablesaw.plotly.components.Figure;
import tech.tablesaw.plotly.components.Layout;
import tech.tablesaw.plotly.components.Line;
import tech.tablesaw.plotly.traces.BarTrace;
import tech.tablesaw.plotly.traces.HeatmapTrace;
import tech.tablesaw.plotly.traces.ScatterTrace;
import tech.tablesaw.plotly.traces.Trace;

import java.util.ArrayList;
import java.util.List;

/** tablesaw-jsplot figure builders used by the report and the notebooks. */
public final class Figures {
    private Figures() {
    }

    /** A named series of (x, y) points with optional symmetric error half-widths. */
    public record Series(String name, double[] x, double[] y, double[] err) {
    }

    private static Layout layout(String title, String xTitle, String yTitle) {
        return Layout.builder().title(title).height(420).width(760)
                .xAxis(Axis.builder().title(xTitle).build()).yAxis(Axis.builder().title(yTitle).build()).build();
    }

    /** Bars with 95% CI whiskers, one bar per category. */
    public static Figure barsWithCi(String title, String yTitle, String[] categories, double[] values, double[] ci) {
        List<Trace> traces = new ArrayList<>();
        traces.add(BarTrace.builder(categories, values).name(yTitle).build());
        for (int i = 0; i < categories.length; i++) {
            if (ci != null && !Double.isNaN(ci[i])) {
                traces.add(ScatterTrace.builder(StringColumn.create("x", categories[i], categories[i]),
                                DoubleColumn.create("y", values[i] - ci[i], values[i] + ci[i]))
                        .mode(ScatterTrace.Mode.LINE).showLegend(false).name(categories[i] + " 95% CI")
                        .line(Line.builder().color("black").width(2).build()).build());
            }
        }
        return new Figure(layout(title, "", yTitle), traces.toArray(new Trace[0]));
    }

    /** Grouped bars: one bar group per category, one bar per series. */
    public static Figure groupedBars(String title, String yTitle, String[] categories, List<String> seriesNames,
                                     List<double[]> seriesValues) {
        List<Trace> traces = new ArrayList<>();
        for (int s = 0; s < seriesNames.size(); s++) {
            traces.add(BarTrace.builder(categories, seriesValues.get(s)).name(seriesNames.get(s)).build());
        }
        Layout l = Layout.builder().title(title).height(420).width(760).barMode(Layout.BarMode.GROUP)
                .yAxis(Axis.builder().title(yTitle).build()).build();
        return new Figure(l, traces.toArray(new Trace[0]));
    }

    /** Plotly's default colour cycle, so a series and its CI lines share a colour. */
    static final String[] PALETTE = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf"};

    /** Lines with markers, one per series; error half-widths drawn as dotted lines of the same colour. */
    public static Figure lines(String title, String xTitle, String yTitle, List<Series> series) {
        List<Trace> traces = new ArrayList<>();
        for (int si = 0; si < series.size(); si++) {
            Series s = series.get(si);
            String color = PALETTE[si % PALETTE.length];
            traces.add(ScatterTrace.builder(s.x(), s.y()).mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(s.name())
                    .line(Line.builder().color(color).width(2).build())
                    .marker(tech.tablesaw.plotly.components.Marker.builder().color(color).build()).build());
            if (s.err() != null && hasValues(s.err())) {
                double[] lo = new double[s.y().length];
                double[] hi = new double[s.y().length];
                for (int i = 0; i < lo.length; i++) {
                    double e = Double.isNaN(s.err()[i]) ? 0 : s.err()[i];
                    lo[i] = s.y()[i] - e;
                    hi[i] = s.y()[i] + e;
                }
                Line dotted = Line.builder().dash(Line.Dash.DOT).width(1).color(color).build();
                traces.add(ScatterTrace.builder(s.x(), lo).mode(ScatterTrace.Mode.LINE).line(dotted).showLegend(false)
                        .name(s.name() + " -CI").build());
                traces.add(ScatterTrace.builder(s.x(), hi).mode(ScatterTrace.Mode.LINE).line(dotted).showLegend(false)
                        .name(s.name() + " +CI").build());
            }
        }
        return new Figure(layout(title, xTitle, yTitle), traces.toArray(new Trace[0]));
    }

    private static boolean hasValues(double[] v) {
        for (double d : v) {
            if (!Double.isNaN(d) && d > 0) {
                return true;
            }
        }
        return false;
    }

    /** Heat map of a lower-triangular matrix (NaN above the diagonal). */
    public static Figure heatmap(String title, String xTitle, String yTitle, Object[] x, Object[] y, double[][] z) {
        HeatmapTrace t = HeatmapTrace.builder(x, y, z).build();
        return new Figure(layout(title, xTitle, yTitle), t);
    }

    /** Reliability diagram: accuracy against mean confidence per bin, one line per method, plus the diagonal. */
    public static Figure reliability(String title, List<Series> perMethod) {
        List<Trace> traces = new ArrayList<>();
        traces.add(ScatterTrace.builder(new double[]{0, 1}, new double[]{0, 1}).mode(ScatterTrace.Mode.LINE)
                .name("perfect calibration").line(Line.builder().dash(Line.Dash.DASH).color("gray").build()).build());
        for (Series s : perMethod) {
            traces.add(ScatterTrace.builder(s.x(), s.y()).mode(ScatterTrace.Mode.LINE_AND_MARKERS).name(s.name()).build());
        }
        return new Figure(layout(title, "confidence (mean per bin)", "accuracy"), traces.toArray(new Trace[0]));
    }
}
