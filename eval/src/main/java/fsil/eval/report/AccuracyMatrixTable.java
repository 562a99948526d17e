package fsil.eval.report;

import fsil.eval.metrics.BuiltinMetrics;
import fsil.eval.metrics.MeanCi;
import fsil.eval.metrics.TaskValues;
import fsil.eval.metrics.Value;
import fsil.eval.store.UnitRecord;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

import java.util.List;

/**
 * a_matrix.csv: the mean accuracy matrix of each group over its runs, from what
 * {@link BuiltinMetrics.AccuracyMatrix} stored per run.
 */
public final class AccuracyMatrixTable {
    private AccuracyMatrixTable() {
    }

    /** Mean accuracy matrix over runs: method, dataset, setting, step, experience, value, n. */
    public static Table of(List<UnitRecord> records) {
        return ofGroups(Summary.groups(records));
    }

    /** As {@link #of(List)}, of rows already grouped. */
    public static Table ofGroups(List<Summary.Group> groups) {
        Table t = Table.create("a_matrix", StringColumn.create("method"), StringColumn.create("dataset"),
                StringColumn.create("setting"), IntColumn.create("step"), IntColumn.create("experience"),
                DoubleColumn.create("value"), IntColumn.create("n"));
        for (Summary.Group g : groups) {
            if (!g.has("a_matrix")) {
                continue; // no rows, and no pass over the group's rows
            }
            Iterable<Value> streams = TaskValues.of(g.values("a_matrix"));
            double[][] mean = mean(g);
            for (int s = 0; s < mean.length; s++) {
                for (int k = 0; k <= s; k++) {
                    final int ss = s;
                    final int kk = k;
                    MeanCi v = MeanCi.of(TaskValues.numbers(streams, a -> a.get(ss).get(kk).asDouble()).finite());
                    t.stringColumn("method").append(g.method());
                    t.stringColumn("dataset").append(g.dataset());
                    t.stringColumn("setting").append(g.setting());
                    t.intColumn("step").append(s);
                    t.intColumn("experience").append(k);
                    t.doubleColumn("value").append(v.mean());
                    t.intColumn("n").append(v.n());
                }
            }
        }
        return t;
    }

    /** The mean of a group's accuracy matrices over the steps all runs have (NaN above the diagonal). */
    public static double[][] mean(Summary.Group g) {
        return BuiltinMetrics.AccuracyMatrix.mean(g.values("a_matrix"));
    }
}
