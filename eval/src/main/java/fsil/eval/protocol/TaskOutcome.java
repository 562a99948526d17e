package fsil.eval.protocol;

import fsil.api.Prediction;

import java.util.Map;

/**
 * What a method produced on one task, for the metrics: incremental fields are empty for an episode.
 *
 * @param episodic       a few-shot episode (true) or an incremental stream
 * @param accuracy       episode accuracy, or the final a_T of a stream
 * @param correct        correct predictions behind {@code accuracy}
 * @param prediction     the last predictions (the queries of an episode, the last step's test data of a stream)
 * @param truth          their true labels
 * @param accSeen        a_t per step (micro accuracy on all classes seen so far)
 * @param aMatrix        A[t][k], accuracy after step t on classes introduced at step k (k &lt;= t)
 * @param classesSeen    number of classes seen after each step
 * @param relativeAcc    a_t / a_t of the same method retrained from scratch (ncmf protocol), NaN where not measured
 * @param fitSeconds     wall time in learn() (all steps)
 * @param predictSeconds wall time in predict() (all steps)
 * @param memoryBytes    the session's reported memory after the last step (-1: not reported)
 * @param extra          method diagnostics and protocol-specific numbers (lower_snake_case keys)
 */
public record TaskOutcome(boolean episodic, double accuracy, int correct, Prediction prediction, int[] truth, double[] accSeen,
                          double[][] aMatrix, int[] classesSeen, double[] relativeAcc, double fitSeconds,
                          double predictSeconds, long memoryBytes, Map<String, Double> extra) {
}
