package fsil.eval.protocol;

import fsil.api.Background;
import fsil.api.Capability;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/** A protocol bound to one dataset and one setting: its units and their tasks. Immutable, thread-safe. */
public interface ProtocolPlan {

    /** Number of tasks (episodes, runs, ...). */
    int tasks();

    /**
     * Tasks stored together as one unit of the run (one row of units.csv, the granularity of resuming): 1 for
     * incremental runs; a block of few-shot episodes, so that what a unit costs the runner does not matter.
     */
    default int tasksPerUnit() {
        return 1;
    }

    /** What methods may learn from before the units (base classes disjoint from the units' classes). */
    Background background(long trainSeed, Optional<Path> cacheDir);

    /**
     * Task {@code index}: a pure function of (data, options, order seed, index). The method's
     * capabilities decide what it is given where a protocol offers a choice (a transductive-only method gets an
     * episode's queries jointly).
     */
    LabeledTask task(int index, Set<Capability> capabilities);
}
