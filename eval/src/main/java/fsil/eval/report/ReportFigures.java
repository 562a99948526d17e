package fsil.eval.report;

import fsil.eval.metrics.CalibrationBins;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The report's figures, from the summary table and the groups of rows, added to its page in the page's order. */
final class ReportFigures {
    /** Reliability bins with fewer predictions are left out of the diagram (their accuracy is noise). */
    static final int MIN_BIN_COUNT = 10;

    private ReportFigures() {
    }

    /**
     * The figures of one dataset and setting: accuracy (bars per episode, or curves over the steps and the accuracy
     * matrices of incremental runs), reliability and times.
     */
    static void ofSetting(HtmlPage page, Table summary, String dataset, String setting, List<Summary.Group> groups,
                          boolean incremental, boolean oneStep, boolean relative) {
        String ctx = " (" + dataset + ", " + setting + ")";
        if (!incremental) {
            bars(page, summary, dataset, setting, groups, "episode_acc", "episode accuracy" + ctx);
        } else if (oneStep) {
            bars(page, summary, dataset, setting, groups, "final_acc", "accuracy" + ctx);
        } else {
            curve(page, summary, dataset, setting, groups, "acc_seen", "accuracy on seen classes a_t" + ctx);
            if (relative) {
                curve(page, summary, dataset, setting, groups, "relative_acc",
                        "accuracy relative to retraining from scratch" + ctx);
            }
            heatmaps(page, groups, ctx);
        }
        reliability(page, groups, "reliability" + ctx);
        times(page, summary, dataset, setting, groups, "time per task (ms)" + ctx);
    }

    private static void bars(HtmlPage page, Table summary, String dataset, String setting,
                             List<Summary.Group> groups, String metric, String title) {
        List<String> names = new ArrayList<>();
        List<Double> v = new ArrayList<>();
        List<Double> ci = new ArrayList<>();
        for (Summary.Group g : groups) {
            Row r = Summary.find(summary, g.method(), dataset, setting, metric, null);
            if (r != null) {
                names.add(g.method());
                v.add(100 * r.getDouble("value"));
                ci.add(r.getInt("n") >= 2 ? 100 * r.getDouble("ci95") : Double.NaN);
            }
        }
        if (!names.isEmpty()) {
            page.figure(Figures.bars(title + " with 95% CI", "accuracy (%)", names,
                    v.stream().mapToDouble(Double::doubleValue).toArray(),
                    ci.stream().mapToDouble(Double::doubleValue).toArray()));
        }
    }

    private static void curve(HtmlPage page, Table summary, String dataset, String setting,
                              List<Summary.Group> groups, String metric, String title) {
        List<Figures.Series> series = new ArrayList<>();
        for (Summary.Group g : groups) {
            List<double[]> pts = new ArrayList<>();
            for (Row r : summary) {
                if (r.getString("method").equals(g.method()) && r.getString("dataset").equals(dataset)
                        && r.getString("setting").equals(setting) && r.getString("metric").equals(metric)
                        && !r.isMissing("classes")) {
                    pts.add(new double[]{r.getInt("classes"), 100 * r.getDouble("value"),
                            r.getInt("n") >= 2 ? 100 * r.getDouble("ci95") : Double.NaN});
                }
            }
            if (!pts.isEmpty()) {
                series.add(new Figures.Series(g.method(), pts.stream().mapToDouble(p -> p[0]).toArray(),
                        pts.stream().mapToDouble(p -> p[1]).toArray(), pts.stream().mapToDouble(p -> p[2]).toArray()));
            }
        }
        if (!series.isEmpty()) {
            page.figure(Figures.lines(title + " (95% CI shaded)", "number of classes seen", metric + " (%)", series));
        }
    }

    /** The mean accuracy matrix of each method, in %, when it has two or more steps. */
    private static void heatmaps(HtmlPage page, List<Summary.Group> groups, String ctx) {
        for (Summary.Group g : groups) {
            double[][] z = AccuracyMatrixTable.mean(g);
            if (z.length >= 2) {
                for (double[] row : z) {
                    for (int k = 0; k < row.length; k++) {
                        row[k] *= 100;
                    }
                }
                page.figure(Figures.heatmap("accuracy matrix A[t][k] (%): " + g.method() + ctx, z));
            }
        }
    }

    private static void reliability(HtmlPage page, List<Summary.Group> groups, String title) {
        List<Figures.Series> series = new ArrayList<>();
        List<long[]> counts = new ArrayList<>();
        List<Boolean> dashed = new ArrayList<>();
        for (Summary.Group g : groups) {
            for (boolean scaled : new boolean[]{false, true}) {
                CalibrationBins bins = ReliabilityTable.pooledBins(g, scaled);
                if (bins == null) {
                    continue;
                }
                double[] x = new double[CalibrationBins.BINS];
                double[] y = new double[CalibrationBins.BINS];
                long[] n = new long[CalibrationBins.BINS];
                for (int b = 0; b < CalibrationBins.BINS; b++) {
                    x[b] = bins.meanConfidence(b);
                    y[b] = bins.accuracy(b);
                    n[b] = bins.count(b);
                }
                series.add(new Figures.Series(String.format(Locale.ROOT, "%s%s (ECE %.3f)", g.method(),
                        scaled ? ", T-scaled" : "", bins.ece()), x, y, null));
                counts.add(n);
                dashed.add(scaled);
            }
        }
        if (!series.isEmpty()) {
            page.figure(Figures.reliability(title + ", 15 bins", series, counts, dashed, MIN_BIN_COUNT));
        }
    }

    private static void times(HtmlPage page, Table summary, String dataset, String setting,
                              List<Summary.Group> groups, String title) {
        List<String> names = groups.stream().map(Summary.Group::method).toList();
        double[] fit = new double[names.size()];
        double[] pred = new double[names.size()];
        for (int i = 0; i < names.size(); i++) {
            Row f = Summary.find(summary, names.get(i), dataset, setting, "fit_s", null);
            Row p = Summary.find(summary, names.get(i), dataset, setting, "predict_s", null);
            fit[i] = f == null ? Double.NaN : 1e3 * f.getDouble("value");
            pred[i] = p == null ? Double.NaN : 1e3 * p.getDouble("value");
        }
        page.figure(Figures.times(title, names, fit, pred));
    }

    /** gp-classes: accuracy against the number of classes, one line per method over all settings. */
    static void classSweeps(HtmlPage page, Table summary) {
        Set<String> datasets = new LinkedHashSet<>();
        for (Row r : summary) {
            if (r.getString("protocol").equals("gp-classes")) {
                datasets.add(r.getString("dataset"));
            }
        }
        for (String ds : datasets) {
            Map<String, List<double[]>> byMethod = new LinkedHashMap<>();
            for (Row r : summary) {
                if (r.getString("protocol").equals("gp-classes") && r.getString("dataset").equals(ds)
                        && r.getString("metric").equals("final_acc")) {
                    double c = Double.parseDouble(r.getString("setting").replaceAll("\\D+", ""));
                    byMethod.computeIfAbsent(r.getString("method"), k -> new ArrayList<>())
                            .add(new double[]{c, 100 * r.getDouble("value"),
                                    r.getInt("n") >= 2 ? 100 * r.getDouble("ci95") : Double.NaN});
                }
            }
            List<Figures.Series> series = new ArrayList<>();
            byMethod.forEach((m, pts) -> {
                pts.sort((a, b) -> Double.compare(a[0], b[0]));
                series.add(new Figures.Series(m, pts.stream().mapToDouble(p -> p[0]).toArray(),
                        pts.stream().mapToDouble(p -> p[1]).toArray(), pts.stream().mapToDouble(p -> p[2]).toArray()));
            });
            if (series.stream().anyMatch(s -> s.x().length > 1)) {
                page.h2(ds + " / gp-classes: accuracy versus number of classes");
                page.figure(Figures.lines("accuracy vs number of classes (" + ds + "), 95% CI shaded",
                        "number of classes", "accuracy (%)", series));
            }
        }
    }
}
