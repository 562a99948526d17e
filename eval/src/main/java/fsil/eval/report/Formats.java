package fsil.eval.report;

import fsil.eval.metrics.Metric;
import tech.tablesaw.api.Row;

import java.util.Locale;

/** Summary values as people read them: each metric in its unit, and column headers that name the unit. */
public final class Formats {
    private Formats() {
    }

    /** The convention of the report's numbers, stated once at its top. */
    static final String UNITS = "Units: accuracies, forgetting and BWT are in % (their differences in percentage "
            + "points); ECE, MCE and adaptive ECE are fractions (0-1), NLL is in nats, the Brier score is on its 0-2 "
            + "scale; times and memory carry their unit. ± is the 95% confidence interval over tasks. Headers repeat "
            + "the unit.";

    /** A column header with the unit of its metric (see {@link #UNITS}). */
    static String header(String metric, String label) {
        String base = unscaled(metric);
        if (isPercent(metric)) {
            return label + " (%)";
        }
        return switch (base) {
            case "ece", "mce", "adaptive_ece" -> label + " (0-1)";
            case "nll" -> label + " (nats)";
            case "brier" -> label + " (0-2)";
            default -> label;
        };
    }

    /** A summary value for people: accuracies in %, with the 95% CI only when there are two or more units. */
    public static String format(String metric, Row r) {
        return format(metric, r.getDouble("value"), r.getDouble("ci95"), r.getInt("n"));
    }

    public static String format(String metric, double v, double ci, int n) {
        if (Double.isNaN(v)) {
            return "";
        }
        boolean interval = n >= 2 && !Double.isNaN(ci);
        if (isPercent(metric)) {
            return interval ? String.format(Locale.ROOT, "%.2f ± %.2f %%", 100 * v, 100 * ci)
                    : String.format(Locale.ROOT, "%.2f %%", 100 * v);
        }
        String base = unscaled(metric);
        if (base.equals("ece") || base.equals("mce") || base.equals("adaptive_ece")) {
            return String.format(Locale.ROOT, "%.4f", v);
        }
        if (base.equals("nll") || base.equals("brier")) {
            return interval ? String.format(Locale.ROOT, "%.4f ± %.4f", v, ci) : String.format(Locale.ROOT, "%.4f", v);
        }
        if (metric.endsWith("_s")) {
            return seconds(v);
        }
        if (metric.equals("failed_units") || metric.equals("units")) {
            return Long.toString((long) v);
        }
        if (metric.endsWith("_bytes")) {
            return bytes(v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }

    /** The metric a temperature-scaled one scales (the unit is the same). */
    private static String unscaled(String metric) {
        return metric.endsWith(Metric.TEMPERATURE_SCALED)
                ? metric.substring(0, metric.length() - Metric.TEMPERATURE_SCALED.length()) : metric;
    }

    static boolean isPercent(String metric) {
        return metric.endsWith("acc") || metric.equals("acc_seen") || metric.equals("forgetting_max")
                || metric.equals("forgetting_first") || metric.equals("bwt");
    }

    /** Seconds in a readable unit: µs, ms or s. */
    public static String seconds(double s) {
        if (s < 1e-3) {
            return String.format(Locale.ROOT, "%.1f µs", s * 1e6);
        }
        if (s < 1) {
            return String.format(Locale.ROOT, "%.2f ms", s * 1e3);
        }
        return String.format(Locale.ROOT, "%.2f s", s);
    }

    /** Bytes in a readable unit: B, KB, MB or GB (powers of 1000). */
    public static String bytes(double b) {
        String[] units = {"B", "KB", "MB", "GB", "TB"};
        int u = 0;
        while (Math.abs(b) >= 1000 && u < units.length - 1) {
            b /= 1000;
            u++;
        }
        return u == 0 ? String.format(Locale.ROOT, "%.0f B", b) : String.format(Locale.ROOT, "%.1f %s", b, units[u]);
    }
}
