package fsil.eval.protocol;

import fsil.eval.metrics.CalibrationBins;

import java.util.Map;

/**
 * What one unit measured. Incremental protocols fill the per-step fields; few-shot and single-step protocols
 * leave them empty.
 *
 * @param accuracy       episode accuracy, or the final a_T of an incremental run
 * @param evaluated      number of predictions behind {@code accuracy}
 * @param accSeen        a_t per step (micro accuracy on all classes seen so far)
 * @param aMatrix        A[t][k], accuracy after step t on classes introduced at step k (k &lt;= t)
 * @param classesSeen    number of classes seen after each step
 * @param relativeAcc    a_t / a_t of the same method retrained from scratch (ncmf protocol), NaN where not measured
 * @param calibration    reliability bins of the final predictions
 * @param fitSeconds     wall time in learn() (all steps)
 * @param predictSeconds wall time in predict() (all steps)
 * @param memoryBytes    the session's reported memory after the last step
 * @param extra          method diagnostics and protocol-specific numbers (lower_snake_case keys)
 */
public record UnitResult(double accuracy, int evaluated, double[] accSeen, double[][] aMatrix, int[] classesSeen,
                         double[] relativeAcc, CalibrationBins calibration, double fitSeconds,
                         double predictSeconds, long memoryBytes, Map<String, Double> extra) {
}
