package fsil.eval.store;

import fsil.eval.metrics.Value;

import java.util.Map;

/**
 * One row of {@code units.csv}: the identity of a unit, its status, and what its metrics stored.
 *
 * @param method    the variant's label (what tables show)
 * @param methodId  the method's id
 * @param dataset   the dataset reference
 * @param protocol  the protocol's name
 * @param setting   the setting's label
 * @param unit      the unit's index in its (variant, dataset, setting)
 * @param firstTask index of the unit's first task (episode or run)
 * @param tasks     number of tasks in the unit (a block of episodes, or one incremental run)
 * @param orderSeed the run's order seed
 * @param trainSeed the method's seed for the unit's first task
 * @param status    {@link #OK} or {@link #FAILED}
 * @param error     why a failed unit failed ("" when ok)
 * @param seconds   wall time of the unit
 * @param metrics   metric name -> what it stored (empty for a failed unit), decoded once when the row is read
 */
public record UnitRecord(String method, String methodId, String dataset, String protocol, String setting, int unit,
                         int firstTask, int tasks, long orderSeed, long trainSeed, String status, String error,
                         double seconds, Value.Obj metrics) {

    public static final String OK = "ok";
    public static final String FAILED = "failed";

    public UnitRecord {
        metrics = metrics == null ? new Value.Obj(Map.of()) : metrics;
    }

    /** A unit's identity within a run. */
    public record Key(String method, String dataset, String setting, int unit) {
        @Override
        public String toString() {
            return method + " / " + dataset + " / " + setting + " / unit " + unit;
        }
    }

    public Key key() {
        return new Key(method, dataset, setting, unit);
    }

    public boolean ok() {
        return OK.equals(status);
    }

    /** What a metric stored, as the metric built it, or null (also for a stored null). */
    public Value value(String name) {
        Value v = metrics.get(name);
        return v == null || v.isNull() ? null : v;
    }
}
