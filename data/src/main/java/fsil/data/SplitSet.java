package fsil.data;

import java.util.List;
import java.util.Optional;

/**
 * The committed class splits of a dataset.
 *
 * @param base       base ("background") classes: the backbone and meta-learners train on these only
 * @param validation validation classes for hyperparameter tuning (may be empty)
 * @param novel      novel ("evaluation") classes that few-shot episodes are drawn from
 * @param fscil      the committed few-shot class-incremental session definition, if the dataset has one
 */
public record SplitSet(int[] base, int[] validation, int[] novel, Optional<FscilSplit> fscil) {

    /**
     * Tao et al.'s FSCIL sessions: base classes with all their training samples, then sessions whose training
     * samples are the listed indices into {@link FeatureSet#train()}.
     *
     * @param baseClasses     classes of session 0
     * @param sessionSamples  for each later session, indices into the train set (N-way K-shot)
     */
    public record FscilSplit(int[] baseClasses, List<int[]> sessionSamples) {
    }
}
