package fsil.api;

import java.util.Map;

/**
 * The stateful learner of one task unit. The protocol calls {@link #learn} with a support set or an experience
 * (possibly several times, one per incremental step) and {@link #predict} with query batches in between.
 *
 * <p>Contract (checked by the conformance kit): never mutate the inputs; the same seed gives the same numbers,
 * whatever the executor's thread count; NaN/Inf features are rejected with {@link InvalidDataException};
 * unless the context allows joint queries, the prediction of a query depends on that query only.
 */
public interface Session {

    /** Learns from labelled data of classes that may be new or already known. */
    void learn(LabeledData data);

    /** Class probabilities over every class learned so far (rows sum to 1). */
    Prediction predict(FeatureMatrix queries);

    /**
     * Bytes of model state the session keeps (its memory footprint, for the reports); -1 (the default) when the
     * method does not say, and the reports then leave it out.
     */
    default long memoryBytes() {
        return -1;
    }

    /**
     * Method-specific numbers about the last learn/predict (e.g. "test_cost" centroid comparisons per sample,
     * "elbo"), written to the result rows. Keys are lower_snake_case.
     */
    default Map<String, Double> diagnostics() {
        return Map.of();
    }
}
