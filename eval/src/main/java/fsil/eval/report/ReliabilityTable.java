package fsil.eval.report;

import fsil.eval.metrics.BuiltinMetrics;
import fsil.eval.metrics.CalibrationBins;
import fsil.eval.metrics.Metric;
import fsil.eval.store.UnitRecord;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.util.List;

/**
 * reliability.csv: the reliability-diagram data of each group, from the calibration bins that
 * {@link BuiltinMetrics.Calibration} stored per task, pooled over tasks.
 */
public final class ReliabilityTable {
    private ReliabilityTable() {
    }

    /** The pooled bins of the raw or the temperature-scaled probabilities; null when none were stored. */
    public static CalibrationBins pooledBins(Summary.Group g, boolean scaled) {
        String metric = "calibration" + (scaled ? Metric.TEMPERATURE_SCALED : "");
        return g.has(metric) ? BuiltinMetrics.Calibration.pooled(g.values(metric)) : null;
    }

    /** Reliability-diagram data: per bin, count, mean confidence and accuracy, pooled over tasks. */
    public static Table of(List<UnitRecord> records) {
        return ofGroups(Summary.groups(records));
    }

    /** As {@link #of(List)}, of rows already grouped. */
    public static Table ofGroups(List<Summary.Group> groups) {
        Table t = Table.create("reliability", StringColumn.create("method"), StringColumn.create("dataset"),
                StringColumn.create("setting"), IntColumn.create("bin"), DoubleColumn.create("lower"),
                DoubleColumn.create("upper"), IntColumn.create("count"), DoubleColumn.create("confidence"),
                DoubleColumn.create("accuracy"), StringColumn.create("probabilities"));
        for (Summary.Group g : groups) {
            for (boolean scaled : new boolean[]{false, true}) {
                CalibrationBins bins = pooledBins(g, scaled);
                if (bins == null) {
                    continue;
                }
                for (int b = 0; b < CalibrationBins.BINS; b++) {
                    t.stringColumn("probabilities").append(scaled ? "temperature-scaled" : "raw");
                    t.stringColumn("method").append(g.method());
                    t.stringColumn("dataset").append(g.dataset());
                    t.stringColumn("setting").append(g.setting());
                    t.intColumn("bin").append(b);
                    t.doubleColumn("lower").append(b / (double) CalibrationBins.BINS);
                    t.doubleColumn("upper").append((b + 1) / (double) CalibrationBins.BINS);
                    t.intColumn("count").append((int) bins.count(b));
                    t.doubleColumn("confidence").append(bins.meanConfidence(b));
                    t.doubleColumn("accuracy").append(bins.accuracy(b));
                }
            }
        }
        return t;
    }
}
