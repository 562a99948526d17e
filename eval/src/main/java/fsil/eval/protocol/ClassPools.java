package fsil.eval.protocol;

import fsil.api.Background;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Param;
import fsil.data.FeatureSet;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/** Which classes a protocol draws from, and the base-class background that goes with them. */
final class ClassPools {
    private ClassPools() {
    }

    /** The classes a protocol draws from: all of them, or one part of the dataset's committed split. */
    enum Pool { ALL, BASE, VALIDATION, NOVEL }

    static Param<Pool> option(Pool defaultPool, String what) {
        return Param.option("classes-from", defaultPool, "which classes " + what
                + ": all, base, validation or novel (the dataset's committed split)");
    }

    /** The sorted class ids of a pool; throws if the split is empty. */
    static int[] classes(FeatureSet data, Pool pool) {
        int[] c = switch (pool) {
            case ALL -> Arrays.stream(data.train().labels()).distinct().sorted().toArray();
            case BASE -> data.splits().base();
            case VALIDATION -> data.splits().validation();
            case NOVEL -> data.splits().novel();
        };
        c = c.clone();
        Arrays.sort(c);
        if (c.length == 0) {
            throw new FsilException("dataset " + data.dataset() + " has no " + Param.text(pool) + " classes; choose "
                    + "another --option classes-from=... (all, base, validation, novel)");
        }
        return c;
    }

    /**
     * The base classes' samples (train and test) as a background, when none of them is in the pool; an empty
     * background otherwise (methods must not see the protocol's own classes beforehand).
     */
    static Background background(FeatureSet data, int[] pool, long trainSeed, Optional<Path> cacheDir) {
        int[] base = data.splits().base();
        boolean disjoint = base.length > 0 && Arrays.stream(base).noneMatch(b -> Arrays.binarySearch(pool, b) >= 0);
        if (!disjoint) {
            return new Background(LabeledData.empty(data.dimension()), data.classes(), data.key() + "|none",
                    trainSeed, cacheDir);
        }
        int[] sortedBase = base.clone();
        Arrays.sort(sortedBase);
        LabeledData all = ClassIndex.concat(data.train(), data.test());
        int[] rows = new ClassIndex(all).rowsOf(sortedBase);
        return new Background(all.select(rows), data.classes(), data.key() + "|base", trainSeed, cacheDir);
    }
}
