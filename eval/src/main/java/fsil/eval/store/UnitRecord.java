package fsil.eval.store;

import fsil.eval.metrics.CalibrationBins;

import java.util.Map;

/**
 * One row of {@code units.csv}: the identity of a unit and what it measured (see
 * {@link fsil.eval.protocol.UnitResult}); a failed unit has status {@code failed} and its error message.
 * {@code calibration} is null when the unit has no predictions (a failed unit).
 */
public record UnitRecord(String method, String methodId, String dataset, String protocol, String setting, int unit,
                         long orderSeed, long trainSeed, String status, String error, double accuracy,
                         int evaluated, double fitSeconds, double predictSeconds, long memoryBytes,
                         double[] accSeen, double[][] aMatrix, int[] classesSeen, double[] relativeAcc,
                         CalibrationBins calibration, Map<String, Double> extra) {

    public static final String OK = "ok";
    public static final String FAILED = "failed";

    /** The unit's identity within a run. */
    public String key() {
        return key(method, dataset, setting, unit);
    }

    public static String key(String method, String dataset, String setting, int unit) {
        return method + "|" + dataset + "|" + setting + "|" + unit;
    }

    public boolean ok() {
        return OK.equals(status);
    }
}
