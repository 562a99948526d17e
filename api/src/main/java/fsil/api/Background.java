package fsil.api;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What a method may learn from before any task: the labelled features of the base ("background") classes,
 * which are disjoint from the classes of the tasks. Empty when the protocol has no base classes.
 *
 * @param base      labelled base-class features (possibly empty)
 * @param classes   names of all the dataset's classes
 * @param dataKey   identifies the base data (dataset, backbone, split, seed) for caching derived artifacts
 * @param seed      train seed for the method's own randomness during preparation
 * @param cacheDir  a directory where methods may cache expensive derived artifacts, keyed by dataKey and params
 */
public record Background(LabeledData base, ClassTable classes, String dataKey, long seed, Optional<Path> cacheDir) {

    public static Background none(int dimension) {
        return new Background(LabeledData.empty(dimension), new ClassTable(java.util.List.of(), java.util.List.of()),
                "none", 0L, Optional.empty());
    }

    public boolean isEmpty() {
        return base.isEmpty();
    }
}
