package fsil.eval.protocol;

import fsil.api.Background;
import fsil.api.Learner;
import fsil.api.Method;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executor;

/** A protocol bound to one dataset and one setting: its units and how to run one. Immutable, thread-safe. */
public interface ProtocolPlan {

    /** Number of units (episodes, runs, ...). */
    int units();

    /** What methods may learn from before the units (base classes disjoint from the units' classes). */
    Background background(long trainSeed, Optional<Path> cacheDir);

    /**
     * Runs unit {@code index}: a pure function of (data, options, order seed, index, method, learner, trainSeed).
     *
     * @param trainSeed seed for the method's randomness in this unit
     * @param executor  for parallel work inside the method's session
     */
    UnitResult run(int index, Method method, Learner learner, long trainSeed, Executor executor);
}
